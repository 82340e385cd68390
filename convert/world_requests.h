// collide.v1 world requests (world.proto) -> core world types (world.h).
//
// Decoding here is structural: shapes and rays through convert/shapes.h,
// meshes, poses (unset position: origin; unset rotation: identity), masks (0:
// all 64 bits), optional fields. Violations get paths from the request root
// ("statics[2].mesh.indices", "frame.bodies[1].parts[0].shape.sphere.radius").
// The semantic checks (unit rotations, duplicate ids, a new body without
// parts, times) are the core's (World::PushFrame, World::ValidateStatics,
// ValidateSettings and each item's `problems`): the proto's field names are
// the core's, so its paths join under the request's (AddUnder).
#ifndef COLLIDE_CONVERT_WORLD_REQUESTS_H_
#define COLLIDE_CONVERT_WORLD_REQUESTS_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collide/mesh.h"
#include "collide/mesh_data.h"
#include "collide/v1/world.pb.h"
#include "collide/world.h"
#include "convert/shapes.h"
#include "convert/violations.h"

namespace collide::convert {

// Triangles the request's meshes hold (indices / 3), before any decoding:
// for limit checks ahead of allocation.
std::size_t TriangleCount(const v1::CreateWorldRequest& request);

// The largest max_hits of an all-hits ray cast and max_results of an
// overlap: an answer's size is bounded by the request's, whatever the scene.
inline constexpr int kMaxHitsPerQuery = 4096;

// The policy's set fields over `out` (unset ones keep their value); false
// with violations ("policy.movement...") when its movement model is bad.
bool ApplyPolicy(const v1::WorldPolicy& policy, WorldSettings& out, ViolationList& violations);

// The world's settings: history_ticks (0: `default_history_ticks`) and the
// policy, unset fields keeping WorldSettings' defaults. Violations:
// "history_ticks", "policy.<field>".
bool DecodeSettings(const v1::CreateWorldRequest& request, int default_history_ticks, WorldSettings& out,
                    ViolationList& violations);

// The policy's fields set over `out`; false with violations
// ("policy.movement...") when a movement model's shapes do not decode. The
// values are the core's to validate (ValidateSettings).
bool ApplyPolicy(const v1::WorldPolicy& policy, WorldSettings& out, ViolationList& violations);

// A map file element's mesh (I/O is the caller's: the server's --maps_dir;
// the caller may share one mesh among the worlds on the same map), or null
// with violations added under `path` ("statics[2].map_file").
using MapLoader = std::function<std::shared_ptr<const TriangleMesh>(
    const v1::MapFile& map, const std::string& path, ViolationList& violations)>;

// A map file's geometry as the import library's category set
// (importer::ImportOptions::categories: bit 1 << (MapGeometry - 1), RENDER
// for an empty list), or nothing with a violation under `path`
// ("statics[2].map_file.geometry[1]") for an unknown value.
std::optional<std::uint32_t> MapGeometryMask(const v1::MapFile& map, const std::string& path,
                                             ViolationList& violations);

// The static elements, meshes built (BVH) once every element decoded and
// validated. Hull vertices live in `arena` (the World copies them). Map
// files go through `load_map`; without one they are a violation.
bool DecodeStatics(const v1::CreateWorldRequest& request, std::vector<StaticElement>& out, DecodeArena& arena,
                   ViolationList& violations, const MapLoader& load_map = nullptr);

// `in` under `prefix` ("frame").
bool DecodeFrame(const v1::Frame& in, std::string_view prefix, Frame& out, DecodeArena& arena,
                 ViolationList& violations);

struct WorldQueries {
  std::vector<RayQuery> rays;
  std::vector<ShapeCastQuery> shape_casts;
  std::vector<OverlapQuery> overlaps;
};
bool DecodeQueries(const v1::QueryWorldRequest& in, WorldQueries& out, DecodeArena& arena,
                   ViolationList& violations);

bool DecodeShots(const v1::ValidateShotsRequest& in, std::vector<ShotRequest>& out,
                 ViolationList& violations);
bool DecodeMoves(const v1::ValidateMovesRequest& in, std::vector<MoveRequest>& out,
                 ViolationList& violations);
// The numbers are the core's to validate (World::VisibleSets' problems).
VisibilityRequest DecodeVisibility(const v1::GetVisibilityRequest& in);

// The core's per-item `problems` (paths relative to the item, core names)
// under "<list>[i]", with the few core names the proto spells differently
// renamed (ProtoFieldName).
void AddItemProblems(std::string_view list, std::size_t i, std::vector<Violation>& problems,
                     ViolationList& violations);

}  // namespace collide::convert

#endif  // COLLIDE_CONVERT_WORLD_REQUESTS_H_
