#!/usr/bin/env bash
# Writes the seed corpus of world_fuzz (tests/fuzz/corpus/world_fuzz/): each
# seed is one selector byte (the RPC: 0 CreateWorld, 1 PushFrame, 2 QueryWorld,
# 3 CastWorldRaysPacked, 4 ValidateShots, 5 ValidateShotsPacked,
# 6 ValidateMoves, 7 GetWorld, 8 DeleteWorld, 9 ListWorlds, 10 a Tick message,
# 11 ValidateProjectiles, 12 ValidateMelee, 13 GetBodies, 14 GetVisibility;
# +128 the collide-world header absent, +192 a wrong one; see world_fuzz.cc)
# followed by the message's wire bytes, encoded from the text protos below by
# protoc. The fuzzer's world "fuzz" has a wall at x = 10, a ball at (5, 4, 1)
# and bodies 1 (shooter, origin) and 2 (target, x = 5) with parts 0 (head) and
# 1 (chest) at tick 1. Valid requests of every kind against it, and the
# invalid ones the service must name (bad values, unknown ids, stale ticks,
# wrong packed lengths, limits, a missing or wrong header, unknown worlds).
# Usage: tests/fuzz/make_world_seeds.sh   (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/fuzz/seed_writer.sh
seeds_begin tests/fuzz/corpus/world_fuzz proto/collide/v1/world.proto
W='world_id: "fuzz"'
HEAD='parts { id: 0 shape { sphere { radius: 0.3 } } local { position { z: 1.7 } } }'
CHEST='parts { id: 1 shape { capsule { a { z: 0.5 } b { z: 1.3 } radius: 0.4 } } }'
FRAME2="tick: 2
bodies { id: 2 pose { position { x: 5 y: 2 } rotation { w: 0.7071067811865476 z: 0.7071067811865476 } } part_poses { part: 0 local { position { x: 0.1 z: 1.7 } } } }
bodies { id: 3 pose { position { x: -3 } } $HEAD $CHEST category: 4 }
removals: 1"
# CreateWorld: meshes and every primitive kind, policy; an existing id; bad
# values (degenerate-free mesh with an index out of range, NaN, NaN policy);
# over the triangle and history limits.
seed 0 CreateWorldRequest 'world_id: "arena-2" history_ticks: 8
statics { id: 1 category: 1 mesh { vertices: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1] indices: [0, 1, 2, 0, 1, 3, 0, 2, 3, 1, 2, 3] } }
statics { id: 2 shape { obb { center { x: 3 } rotation { w: 1 } half_extents { x: 1 y: 1 z: 1 } } } }
statics { id: 3 shape { halfspace { normal { z: 1 } offset: -1 } } }
statics { id: 4 shape { convex_hull { vertices { } vertices { x: 1 } vertices { y: 1 } vertices { z: 1 } } } }
policy { max_rewind_ticks: 4 max_origin_offset: 1 default_max_speed: 10 skin_width: 0.01 slide_iterations: 3 }'
seed 0 CreateWorldRequest "$W statics { id: 1 shape { sphere { radius: 1 } } }"
seed 0 CreateWorldRequest 'world_id: "bad"
statics { id: 1 mesh { vertices: [0, 0, 0, 1, 0, 0, 0, 1] indices: [0, 1, 7] } }
statics { id: 1 shape { sphere { radius: nan } } }
statics { id: 2 }
policy { max_origin_offset: -1 default_max_speed: nan slide_iterations: -2 }'
seed 0 CreateWorldRequest 'world_id: "big" history_ticks: 100000'
seed 0 CreateWorldRequest 'world_id: "map" statics { id: 1 map_file { name: "../etc/passwd" } }'
seed 0 CreateWorldRequest 'world_id: "bad id with spaces"'
# PushFrame: the next tick (moves, a new body, a removal); a stale tick; bad
# poses, duplicate ids, an unknown body without parts, too many parts.
seed 1 PushFrameRequest "$W frame { $FRAME2 }"
seed 1 PushFrameRequest "$W frame { tick: 1 bodies { id: 1 pose { position { x: 1 } } } }"
seed 1 PushFrameRequest "$W frame { tick: 3
bodies { id: 1 pose { position { x: nan } rotation { w: 2 } } }
bodies { id: 1 pose { } }
bodies { id: 9 pose { } }
bodies { id: 2 teleport: true pose { position { x: 6 } } parts { id: 0 shape { sphere { radius: -1 } } } parts { id: 0 shape { } } } }"
seed 1 PushFrameRequest "$W frame { tick: 4 bodies { id: 5 pose { } parts { id: 0 shape { sphere { radius: 1 } } } parts { id: 1 shape { sphere { radius: 1 } } } parts { id: 2 shape { sphere { radius: 1 } } } parts { id: 3 shape { sphere { radius: 1 } } } parts { id: 4 shape { sphere { radius: 1 } } } } }"
seed 1 PushFrameRequest "world_id: \"elsewhere\" frame { tick: 2 }"
# QueryWorld: rays of every mode, a shape cast, an overlap at each level, at
# a time; then bad ones.
seed 2 QueryWorldRequest "$W
ray_casts { ray { origin { z: 1.6 } direction { x: 1 } } filter { at { tick: 1 } ignore_bodies: 1 } mode: RAY_MODE_CLOSEST }
ray_casts { ray { origin { z: 1 } direction { x: 1 } max_distance: 50 } mode: RAY_MODE_ALL max_hits: 4 }
ray_casts { ray { origin { y: 4 z: 1 } direction { x: 1 } } mode: RAY_MODE_ANY filter { category_mask: 1 } }
shape_casts { shape { sphere { radius: 0.5 } } translation { x: 20 } filter { at { tick: 0 fraction: 0.5 } } }
shape_casts { shape { capsule { a { x: 10 } b { x: 10 z: 1 } radius: 0.5 } } translation { x: 1 } }
overlaps { shape { sphere { center { x: 5 z: 1 } radius: 1 } } level: QUERY_LEVEL_CONTACT max_results: 8 }
overlaps { shape { aabb { min { x: 9 y: -1 } max { x: 11 y: 1 z: 1 } } } level: QUERY_LEVEL_DISTANCE }
overlaps { shape { obb { center { x: 5 } rotation { w: 1 } half_extents { x: 1 y: 1 z: 2 } } } level: QUERY_LEVEL_INTERSECT }"
seed 2 QueryWorldRequest "$W
ray_casts { ray { origin { } direction { } } mode: RAY_MODE_ALL max_hits: -1 }
ray_casts { ray { origin { x: nan } direction { x: 1 } max_distance: -1 } filter { at { tick: 1 fraction: 1.5 } } }
shape_casts { shape { halfspace { normal { z: 1 } } } translation { x: inf } }
shape_casts { translation { x: 1 } }
overlaps { shape { sphere { radius: -1 } } max_results: -3 }"
# CastWorldRaysPacked: 7 doubles per ray; a length that is not a multiple.
seed 3 CastWorldRaysPackedRequest "$W rays: [0, 0, 1.6, 1, 0, 0, inf, 0, 4, 1, 1, 0, 0, 100, 20, 0, 1, -1, 0, 0, 5] filter { at { tick: 1 } ignore_bodies: 1 }"
seed 3 CastWorldRaysPackedRequest "$W rays: [0, 0, 0, 0, 0, 0, 1, 0, 0, nan]"
# ValidateShots: a head shot, a blocked one, a miss, unknown shooter/target,
# then bad values.
seed 4 ValidateShotsRequest "$W
shots { shooter_id: 1 origin { z: 1.6 } direction { x: 1 z: 0.02 } at { tick: 1 } claimed { body_id: 2 part_id: 0 } }
shots { shooter_id: 1 origin { z: 1 } direction { x: 1 } max_range: 50 tolerance: 0.1 }
shots { shooter_id: 1 origin { y: 30 z: 1.6 } direction { x: 1 } claimed { body_id: 2 part_id: 1 } }
shots { shooter_id: 7 origin { } direction { x: 1 } }
shots { shooter_id: 1 origin { z: 1.6 } direction { x: 1 } claimed { body_id: 9 part_id: 0 } at { tick: 100 } }"
seed 4 ValidateShotsRequest "$W
shots { shooter_id: 1 origin { z: nan } direction { } max_range: -1 tolerance: -1 at { fraction: -0.5 } }"
# ValidateShotsPacked: 10 doubles and 4 ids per shot; mismatched lengths.
seed 5 ValidateShotsPackedRequest "$W doubles: [0, 0, 1.6, 1, 0, 0.02, inf, 0, 0, 0, 0, 0, 1, 1, 0, 0, 50, 0.5, 0.1, 0]
shooter_ids: [1, 1] ticks: [1, -1] claimed_body_ids: [2, -1] claimed_part_ids: [0, -1]"
seed 5 ValidateShotsPackedRequest "$W doubles: [0, 0, 1.6, 0, 0, 0, -1, 2, nan, 0, 1] shooter_ids: [1, 2] ticks: [1] claimed_body_ids: [2] claimed_part_ids: [0, 1, 2]"
# ValidateMoves: blocked (with and without slide), OK, too fast, unknown body,
# then bad values.
seed 6 ValidateMovesRequest "$W
moves { body_id: 1 from { x: 8 } to { x: 12 y: 1 } elapsed: 0.5 }
moves { body_id: 1 from { x: 8 } to { x: 12 y: 1 } elapsed: 0.5 slide: true }
moves { body_id: 1 to { x: 0.1 } elapsed: 0.05 }
moves { body_id: 1 to { x: 9 } elapsed: 0.05 max_speed: 5 }
moves { body_id: 99 to { x: 1 } elapsed: 0.05 category_mask: 1 }"
seed 6 ValidateMovesRequest "$W moves { body_id: 1 to { x: nan } elapsed: 0 max_speed: -1 } moves { body_id: 2 from { y: inf } to { } elapsed: -1 }"
# GetWorld, DeleteWorld, ListWorlds; unknown and malformed ids.
seed 7 GetWorldRequest "$W"
seed 7 GetWorldRequest 'world_id: "nope"'
seed 8 DeleteWorldRequest "$W"
seed 8 DeleteWorldRequest 'world_id: ""'
seed 9 ListWorldsRequest ''
# The header: absent (128 + RPC), different from the id (192 + RPC).
seed $((128 + 7)) GetWorldRequest "$W"
seed $((192 + 1)) PushFrameRequest "$W frame { tick: 2 }"
# Tick messages: a frame and every batch; an error in a later part (the frame
# applied, the rest not run); a mismatched nested id; a negative budget.
seed 10 TickRequest "sequence: 7 budget_ms: 1000 frame { $FRAME2 }
query { ray_casts { ray { origin { z: 1.6 } direction { x: 1 } } } overlaps { shape { sphere { center { x: 5 } radius: 2 } } } }
rays_packed { rays: [0, 0, 1.6, 1, 0, 0, inf] }
shots { shots { shooter_id: 2 origin { x: 5 y: 2 z: 1.6 } direction { x: 1 } } }
shots_packed { doubles: [0, 0, 1.6, 1, 0, 0.02, inf, 0, 0, 0] shooter_ids: [1] ticks: [1] claimed_body_ids: [2] claimed_part_ids: [0] }
moves { moves { body_id: 3 to { x: -2 } elapsed: 0.1 } }"
seed 10 TickRequest "sequence: 8 frame { tick: 5 bodies { id: 1 pose { position { x: 1 } } } } shots { shots { shooter_id: 1 origin { } direction { } } }"
seed 10 TickRequest "sequence: 9 query { world_id: \"other\" } moves { world_id: \"fuzz\" moves { body_id: 1 to { } elapsed: 1 } }"
seed 10 TickRequest "sequence: 10 budget_ms: -1 frame { tick: 0 }"
seed 10 TickRequest "sequence: 11 projectiles { projectiles { shooter_id: 1 velocity { x: 100 } time_limit: 1 tick_seconds: 0.05 } } melee { melee { attacker_id: 1 arc { direction { x: 1 } up { z: 1 } radius: 6 angle: 1 } } }"
# Projectiles: a shot at the target's head, a bouncing lob with drag into the
# wall, a launch 40 from the shooter at its command's tick, bad values (NaN, zero tick, restitution and bounces out of range, a
# tiny chord tolerance past the sub-step cap), a claim on the shooter.
seed 11 ValidateProjectilesRequest "$W
projectiles { shooter_id: 1 origin { z: 1.7 } velocity { x: 50 } time_limit: 1 tick_seconds: 1 claimed { body_id: 2 part_id: 0 } }
projectiles { shooter_id: 1 origin { z: 1 } velocity { x: 20 z: 5 } gravity { z: -9.81 } drag: 0.5 radius: 0.1 restitution: 0.7 max_bounces: 64 time_limit: 600 tick_seconds: 0.001 }
projectiles { shooter_id: 1 origin { y: 40 z: 1.7 } velocity { x: 50 } time_limit: 1 tick_seconds: 1 command_at { tick: 1 } }"
seed 11 ValidateProjectilesRequest "$W all_or_nothing: true
projectiles { shooter_id: 1 origin { x: nan } velocity { x: inf } time_limit: -1 tick_seconds: 0 restitution: 2 max_bounces: 65 claimed { body_id: 1 } }
projectiles { shooter_id: 1 velocity { x: 1 } gravity { z: -1e300 } time_limit: 1 tick_seconds: 1 chord_tolerance: 1e-300 }"
# Melee: an arc and a swept capsule at the target, a parallel direction and
# up, a zero angle, capsules of different radii.
seed 12 ValidateMeleeRequest "$W
melee { attacker_id: 1 arc { direction { x: 1 } up { z: 1 } radius: 6 angle: 1 } claimed { body_id: 2 part_id: 1 } tolerance: 0.1 }
melee { attacker_id: 1 sweep { from { a { z: 1 } b { x: 6 y: -1 z: 1 } radius: 0.1 } to { a { z: 1 } b { x: 6 y: 1 z: 1 } radius: 0.1 } } }"
seed 12 ValidateMeleeRequest "$W all_or_nothing: true
melee { attacker_id: 1 arc { direction { z: 1 } up { z: 2 } radius: nan angle: 0 } }
melee { attacker_id: 1 sweep { from { radius: 1 } to { radius: 2 } } claimed { body_id: 1 } }
melee { attacker_id: 9 }"
# Posed bodies: all, some and unknown ids, a bad fraction; a Tick part.
seed 13 GetBodiesRequest "$W"
seed 13 GetBodiesRequest "$W at { tick: 1 fraction: 0.5 } body_ids: 2 body_ids: 99 body_ids: 2"
seed 13 GetBodiesRequest "$W at { tick: 1 fraction: 1.5 }"
seed 10 TickRequest "sequence: 12 frame { tick: 6 } bodies { body_ids: 1 }"
# Visibility sets: every observer, look-ahead, bad numbers; a Tick part.
seed 14 GetVisibilityRequest "$W"
seed 14 GetVisibilityRequest "$W observers: 1 observers: 9 tick_seconds: 0.05 latency: 0.1 margin: 1 target_category_mask: 1"
seed 14 GetVisibilityRequest "$W latency: nan margin: -1 tick_seconds: 0 at { tick: 1 fraction: -1 }"
seed 10 TickRequest "sequence: 13 visibility { latency: 0.2 tick_seconds: 0.05 }"
echo "make_world_seeds: wrote $n seeds to $seeds_out"
