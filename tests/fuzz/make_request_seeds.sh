#!/usr/bin/env bash
# Writes the seed corpus of request_fuzz (tests/fuzz/corpus/request_fuzz/):
# each seed is one type byte (0 QueryPairs, 1 QueryPairsPacked, 2 CastRays,
# 3 CastRaysPacked; see request_fuzz.cc) followed by the request's wire bytes,
# encoded from the text protos below by protoc. Valid requests of every shape
# kind and level, and the invalid ones the service must name (bad values,
# unset shapes, wrong packed lengths, unsupported pairs, empty batches).
# Usage: tests/fuzz/make_request_seeds.sh   (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/fuzz/seed_writer.sh
seeds_begin tests/fuzz/corpus/request_fuzz proto/collide/v1/collide.proto
V='{x: 1 y: 2 z: 3}'
O='{x: 0 y: 0 z: 0}'
# Readable pairs: every kind against a sphere, at each level.
for level in QUERY_LEVEL_INTERSECT QUERY_LEVEL_DISTANCE QUERY_LEVEL_CONTACT; do
  seed 0 QueryPairsRequest "level: $level
pairs { a { point { position $V } } b { sphere { center $O radius: 1 } } }
pairs { a { segment { a $O b $V } } b { capsule { a $O b {x: 0 y: 1 z: 0} radius: 0.5 } } }
pairs { a { aabb { min $O max $V } } b { obb { center {x: 1 y: 1 z: 1} rotation {w: 1} half_extents $V } } }
pairs { a { triangle { a $O b {x: 1} c {y: 1} } } b { convex_hull { vertices $O vertices {x: 1} vertices {y: 1} vertices {z: 1} } } }
pairs { a { halfspace { normal {z: 1} offset: 0 } } b { sphere { center $V radius: 2 } } }"
done
seed 0 QueryPairsRequest "level: QUERY_LEVEL_CONTACT
pairs { a { obb { center $O rotation {w: 1} half_extents {x: 1 y: 1 z: 1} } } b { obb { center {x: 2 y: 2 z: 2} rotation {w: 1} half_extents {x: 1 y: 1 z: 1} } } }"
# Invalid readable pairs: negative radius, unset shape, bad quaternion,
# halfspace vs halfspace (UNIMPLEMENTED), no level, no pairs.
seed 0 QueryPairsRequest "level: QUERY_LEVEL_DISTANCE
pairs { a { sphere { center $O radius: -1 } } b { } }
pairs { a { obb { center $O rotation {w: 2} half_extents $V } } b { aabb { min $V max $O } } }"
seed 0 QueryPairsRequest "level: QUERY_LEVEL_INTERSECT
pairs { a { halfspace { normal {z: 1} } } b { halfspace { normal {x: 1} } } }"
seed 0 QueryPairsRequest "pairs { a { point { } } b { point { } } }"
seed 0 QueryPairsRequest "level: QUERY_LEVEL_CONTACT"
# Packed pairs: strides point 3, segment 6, sphere 4, capsule 7, aabb 6,
# obb 10, triangle 9, halfspace 4.
seed 1 QueryPairsPackedRequest "level: QUERY_LEVEL_CONTACT
a { kind: PACKED_SHAPE_KIND_SPHERE data: [0, 0, 0, 1, 3, 0, 0, 1] }
b { kind: PACKED_SHAPE_KIND_SPHERE data: [1, 0, 0, 1, 0, 0, 0, 1] }"
seed 1 QueryPairsPackedRequest "level: QUERY_LEVEL_DISTANCE
a { kind: PACKED_SHAPE_KIND_OBB data: [0, 0, 0, 1, 0, 0, 0, 1, 1, 1] }
b { kind: PACKED_SHAPE_KIND_CAPSULE data: [3, 0, 0, 3, 2, 0, 0.5] }"
seed 1 QueryPairsPackedRequest "level: QUERY_LEVEL_INTERSECT
a { kind: PACKED_SHAPE_KIND_TRIANGLE data: [0, 0, 0, 1, 0, 0, 0, 1, 0] }
b { kind: PACKED_SHAPE_KIND_AABB data: [0, 0, -1, 1, 1, 1] }"
seed 1 QueryPairsPackedRequest "level: QUERY_LEVEL_CONTACT
a { kind: PACKED_SHAPE_KIND_HALFSPACE data: [0, 0, 1, 0] }
b { kind: PACKED_SHAPE_KIND_SEGMENT data: [0, 0, -1, 0, 0, 1] }"
seed 1 QueryPairsPackedRequest "level: QUERY_LEVEL_CONTACT
a { kind: PACKED_SHAPE_KIND_POINT data: [0, 0, 0] }
b { kind: PACKED_SHAPE_KIND_SPHERE data: [0, 0, 0, 1, 5] }"
seed 1 QueryPairsPackedRequest "level: QUERY_LEVEL_CONTACT
a { kind: PACKED_SHAPE_KIND_HALFSPACE data: [0, 0, 1, 0] }
b { kind: PACKED_SHAPE_KIND_HALFSPACE data: [1, 0, 0, 0] }"
seed 1 QueryPairsPackedRequest "level: QUERY_LEVEL_CONTACT
a { kind: PACKED_SHAPE_KIND_UNSPECIFIED data: [0, 0, 0] }
b { kind: PACKED_SHAPE_KIND_SPHERE data: [0, 0, 0, -1] }"
# Readable ray casts, with and without max_distance.
seed 2 CastRaysRequest "casts { ray { origin {x: -5} direction {x: 1} } shape { sphere { center $O radius: 1 } } }
casts { ray { origin {x: -5} direction {x: 1} max_distance: 2 } shape { obb { center $O rotation {w: 1} half_extents $V } } }
casts { ray { origin {z: 5} direction {z: -1} } shape { triangle { a {x: -1 y: -1} b {x: 1 y: -1} c {y: 1} } } }
casts { ray { origin $O direction {y: 1} } shape { capsule { a $O b $V radius: 1 } } }
casts { ray { origin {z: 3} direction {z: -1} } shape { halfspace { normal {z: 1} } } }"
seed 2 CastRaysRequest "casts { ray { origin $O direction $O } shape { aabb { min $O max $V } } }
casts { ray { origin $O direction {x: 1} max_distance: -1 } }"
seed 2 CastRaysRequest "casts { ray { origin {x: -5} direction {x: 1} } shape { convex_hull { vertices $O vertices {x: 1} vertices {y: 1} vertices {z: 1} } } }
casts { ray { origin {x: -5} direction {x: 1} } shape { point { position $O } } }
casts { ray { origin {x: -5} direction {x: 1} } shape { segment { a {y: -1} b {y: 1} } } }"
# Packed ray casts: 7 doubles per ray (origin, direction, max_distance).
seed 3 CastRaysPackedRequest "rays: [-5, 0, 0, 1, 0, 0, 100, 0, 0, 5, 0, 0, -1, 10]
shapes { kind: PACKED_SHAPE_KIND_SPHERE data: [0, 0, 0, 1, 0, 0, 0, 2] }"
seed 3 CastRaysPackedRequest "rays: [-5, 0, 0, 1, 0, 0, 100]
shapes { kind: PACKED_SHAPE_KIND_OBB data: [0, 0, 0, 1, 0, 0, 0, 1, 1, 1] }"
seed 3 CastRaysPackedRequest "rays: [-5, 0, 0, 0, 0, 0, 100, 1]
shapes { kind: PACKED_SHAPE_KIND_AABB data: [0, 0, 0, 1, 1, 1] }"
# Readable pairs of every kind but the hull, with every number set: the form
# the served QueryPairs decodes on its wire fast path (convert/readable_wire.h).
seed 0 QueryPairsRequest "level: QUERY_LEVEL_CONTACT
pairs { a { point { position $V } } b { segment { a {x: 1 y: 1 z: 1} b $V } } }
pairs { a { sphere { center $V radius: 1 } } b { capsule { a {x: 1 y: 1 z: 1} b $V radius: 0.5 } } }
pairs { a { aabb { min {x: 1 y: 1 z: 1} max $V } } b { obb { center {x: 1 y: 1 z: 1} rotation {w: 0.5 x: 0.5 y: 0.5 z: 0.5} half_extents $V } } }
pairs { a { triangle { a {x: 1 y: 1 z: 1} b $V c {x: 3 y: 1 z: 2} } } b { halfspace { normal {x: 0.6 y: 0.8 z: 0} offset: 1 } } }"
echo "make_request_seeds: wrote $n seeds to $seeds_out"
