#include "convert/world_requests.h"

#include <memory>
#include <string>
#include <utility>

#include "collide/mesh.h"
#include "convert/world_encode.h"
#include "convert/world_movement.h"
#include "convert/world_results.h"

namespace collide::convert {
namespace {

std::string Index(std::string_view name, std::size_t i) {
  return std::string(name) + "[" + std::to_string(i) + "]";
}

CategoryMask Mask(std::uint64_t wire) { return wire == 0 ? kAllCategories : wire; }

std::optional<Time> FromProto(bool has, const v1::WorldTime& in) {
  if (!has) return std::nullopt;
  return Time{in.tick(), in.fraction()};
}

// A shape under `path`; violations relative to it are moved there.
bool DecodeShape(const v1::Shape& in, const std::string& path, Shape& out, DecodeArena& arena,
                 ViolationList& violations) {
  std::vector<Violation> relative;
  if (FromProto(in, out, arena, relative)) return true;
  violations.AddUnder(path, relative);
  return false;
}

QueryFilter FromProto(const v1::SceneFilter& in) {
  return {Mask(in.category_mask()), {in.ignore_bodies().begin(), in.ignore_bodies().end()}};
}

// Mesh arrays -> MeshData, or violations under `path` ("statics[i].mesh").
bool DecodeMesh(const v1::Mesh& in, const std::string& path, MeshData& out, ViolationList& violations) {
  bool ok = true;
  if (in.vertices_size() % 3 != 0) {
    violations.Add(path + ".vertices",
                   "size " + std::to_string(in.vertices_size()) + " is not a multiple of 3");
    ok = false;
  }
  if (in.indices_size() % 3 != 0) {
    violations.Add(path + ".indices",
                   "size " + std::to_string(in.indices_size()) + " is not a multiple of 3");
    ok = false;
  }
  if (!ok) return false;
  out.vertices.resize(in.vertices_size() / 3);
  for (std::size_t v = 0; v < out.vertices.size(); ++v) {
    out.vertices[v] = {in.vertices(3 * v), in.vertices(3 * v + 1), in.vertices(3 * v + 2)};
  }
  out.triangles.resize(in.indices_size() / 3);
  for (std::size_t t = 0; t < out.triangles.size(); ++t) {
    out.triangles[t] = {in.indices(3 * t), in.indices(3 * t + 1), in.indices(3 * t + 2)};
  }
  // Core paths count vertices and triangles ("vertices[12].x"), not doubles.
  std::vector<Violation> relative;
  if (ValidateMesh(out, relative)) return true;
  violations.AddUnder(path, relative);
  return false;
}

}  // namespace

std::size_t TriangleCount(const v1::CreateWorldRequest& request) {
  std::size_t n = 0;
  for (const v1::StaticElement& e : request.statics()) {
    if (e.has_mesh()) n += static_cast<std::size_t>(e.mesh().indices_size()) / 3;
  }
  return n;
}

VisibilityRequest DecodeVisibility(const v1::GetVisibilityRequest& in) {
  VisibilityRequest out;
  out.at = FromProto(in.has_at(), in.at());
  out.observers.assign(in.observers().begin(), in.observers().end());
  out.tick_seconds = in.tick_seconds();
  out.latency = in.latency();
  out.margin = in.margin();
  if (in.target_category_mask() != 0) out.target_mask = in.target_category_mask();
  return out;
}

bool ApplyPolicy(const v1::WorldPolicy& p, WorldSettings& out, ViolationList& violations) {
  if (p.has_visibility()) {
    const v1::VisibilityPolicy& v = p.visibility();
    out.visibility.occluder_mask = v.occluder_category_mask();
    if (v.voxel_size() != 0) out.visibility.voxel_size = v.voxel_size();
    if (v.max_voxels() != 0) out.visibility.max_voxels = v.max_voxels();
    out.visibility.reuse_ticks = v.reuse_ticks();
  }
  if (p.has_max_rewind_ticks()) out.max_rewind_ticks = p.max_rewind_ticks();
  if (p.has_max_origin_offset()) out.max_origin_offset = p.max_origin_offset();
  if (p.has_default_max_speed()) out.default_max_speed = p.default_max_speed();
  if (p.has_skin_width()) out.skin_width = p.skin_width();
  if (p.has_slide_iterations()) out.slide_iterations = p.slide_iterations();
  if (p.has_clamp_old_shots()) out.clamp_old_shots = p.clamp_old_shots();
  if (p.has_max_tick_distance()) out.max_tick_distance = p.max_tick_distance();
  if (p.has_move_category_mask()) out.move_mask = p.move_category_mask();
  if (p.has_shot_category_mask()) out.shot_mask = p.shot_category_mask();
  if (p.has_move_budget()) out.move_budget = FromProto(p.move_budget());
  return !p.has_movement() ||
         DecodeMovement(p.movement(), "policy.movement", out.movement.emplace(), violations);
}

bool DecodeSettings(const v1::CreateWorldRequest& request, int default_history_ticks, WorldSettings& out,
                    ViolationList& violations) {
  out = WorldSettings{};
  out.history_ticks = request.history_ticks() == 0 ? default_history_ticks : request.history_ticks();
  if (!ApplyPolicy(request.policy(), out, violations)) return false;
  std::vector<Violation> problems;
  if (ValidateSettings(out, problems)) return true;
  for (Violation& v : problems) {
    if (v.field == "move_mask" || v.field == "shot_mask") v.field.insert(5, "category_");
    violations.Add(v.field == "history_ticks" ? v.field : "policy." + v.field, std::move(v.description));
  }
  return false;
}

bool DecodeStatics(const v1::CreateWorldRequest& request, std::vector<StaticElement>& out, DecodeArena& arena,
                   ViolationList& violations, const MapLoader& load_map) {
  const std::size_t before = violations.total();
  std::vector<MeshData> meshes(request.statics_size());
  std::vector<std::shared_ptr<const TriangleMesh>> maps(request.statics_size());
  out.assign(request.statics_size(), StaticElement{});
  for (int i = 0; i < request.statics_size(); ++i) {
    const v1::StaticElement& in = request.statics(i);
    const std::string path = Index("statics", i);
    out[i].id = in.id();
    out[i].category = Mask(in.category());
    switch (in.geometry_case()) {
      case v1::StaticElement::kMesh:
        DecodeMesh(in.mesh(), path + ".mesh", meshes[i], violations);
        break;
      case v1::StaticElement::kShape: {
        Shape shape;
        if (DecodeShape(in.shape(), path + ".shape", shape, arena, violations)) out[i].geometry = shape;
        break;
      }
      case v1::StaticElement::kMapFile:
        if (load_map == nullptr) {
          violations.Add(path + ".map_file", "this server loads no map files; send the mesh inline");
        } else if (maps[i] = load_map(in.map_file(), path + ".map_file", violations); maps[i] == nullptr) {
          if (violations.total() == before) violations.Add(path + ".map_file", "could not be loaded");
        }
        break;
      case v1::StaticElement::GEOMETRY_NOT_SET:
        violations.Add(path, "one of mesh, shape or map_file must be set");
        break;
    }
  }
  if (violations.total() != before) return false;
  std::vector<Violation> problems;  // Duplicate ids, shapes; meshes are checked above.
  if (!World::ValidateStatics(out, problems)) {
    violations.AddUnder("", problems);  // Paths are "statics[i]...".
    return false;
  }
  for (int i = 0; i < request.statics_size(); ++i) {
    if (request.statics(i).has_mesh())
      out[i].geometry = std::make_shared<const TriangleMesh>(std::move(meshes[i]));
    if (request.statics(i).has_map_file()) out[i].geometry = std::move(maps[i]);
  }
  return true;
}

bool DecodeFrame(const v1::Frame& in, std::string_view prefix, Frame& out, DecodeArena& arena,
                 ViolationList& violations) {
  const std::size_t before = violations.total();
  out.tick = in.tick();
  out.bodies.resize(in.bodies_size());
  out.removals.assign(in.removals().begin(), in.removals().end());
  for (int i = 0; i < in.bodies_size(); ++i) {
    const v1::BodyUpdate& b = in.bodies(i);
    // Only shapes can fail here: a pose update (most bodies, most frames)
    // builds no path string.
    const std::string path =
        b.parts_size() > 0 || b.has_movement_shape() ? JoinPath(prefix, Index("bodies", i)) : std::string();
    BodyUpdate& u = out.bodies[i];
    u = BodyUpdate{};
    u.id = b.id();
    if (b.has_pose()) u.pose = FromProto(b.pose());
    u.parts.resize(b.parts_size());
    for (int k = 0; k < b.parts_size(); ++k) {
      u.parts[k].id = b.parts(k).id();
      u.parts[k].local = FromProto(b.parts(k).local());
      DecodeShape(b.parts(k).shape(), path + "." + Index("parts", k) + ".shape", u.parts[k].shape, arena,
                  violations);
    }
    for (const v1::PartPose& p : b.part_poses()) u.part_poses.push_back({p.part(), FromProto(p.local())});
    if (b.has_movement_shape()) {
      u.movement_shape.emplace();
      DecodeShape(b.movement_shape(), path + ".movement_shape", *u.movement_shape, arena, violations);
    }
    if (b.has_category()) u.category = Mask(b.category());
    u.teleport = b.teleport();
    if (b.has_eye()) u.eye = convert::FromProto(b.eye());
  }
  return violations.total() == before;
}

bool DecodeQueries(const v1::QueryWorldRequest& in, WorldQueries& out, DecodeArena& arena,
                   ViolationList& violations) {
  const std::size_t before = violations.total();
  if (in.ray_casts_size() == 0 && in.shape_casts_size() == 0 && in.overlaps_size() == 0) {
    violations.Add("ray_casts",
                   "a QueryWorldRequest must hold at least 1 item (ray_casts, shape_casts or overlaps)");
  }
  out.rays.resize(in.ray_casts_size());
  for (int i = 0; i < in.ray_casts_size(); ++i) {
    const v1::WorldRayCast& c = in.ray_casts(i);
    RayQuery& q = out.rays[i];
    std::vector<Violation> relative;
    if (!FromProto(c.ray(), q.ray, relative)) violations.AddUnder(Index("ray_casts", i) + ".ray", relative);
    q.at = FromProto(c.filter().has_at(), c.filter().at());
    q.filter = FromProto(c.filter());
    switch (c.mode()) {
      case v1::RAY_MODE_UNSPECIFIED:
      case v1::RAY_MODE_CLOSEST:
        q.mode = RayMode::kClosest;
        break;
      case v1::RAY_MODE_ANY:
        q.mode = RayMode::kAny;
        break;
      case v1::RAY_MODE_ALL:
        q.mode = RayMode::kAll;
        break;
      default:
        violations.Add(Index("ray_casts", i) + ".mode", "unknown mode " + std::to_string(c.mode()));
    }
    if (c.max_hits() < 0 || c.max_hits() > kMaxHitsPerQuery) {
      violations.Add(Index("ray_casts", i) + ".max_hits",
                     "must be in [0, " + std::to_string(kMaxHitsPerQuery) + "]");
    }
    q.max_hits = c.max_hits() > 0 ? static_cast<std::size_t>(c.max_hits()) : RayQuery{}.max_hits;
  }
  out.shape_casts.resize(in.shape_casts_size());
  for (int i = 0; i < in.shape_casts_size(); ++i) {
    const v1::WorldShapeCast& c = in.shape_casts(i);
    ShapeCastQuery& q = out.shape_casts[i];
    DecodeShape(c.shape(), Index("shape_casts", i) + ".shape", q.shape, arena, violations);
    q.translation = convert::FromProto(c.translation());
    q.at = FromProto(c.filter().has_at(), c.filter().at());
    q.filter = FromProto(c.filter());
  }
  out.overlaps.resize(in.overlaps_size());
  for (int i = 0; i < in.overlaps_size(); ++i) {
    const v1::WorldOverlap& c = in.overlaps(i);
    OverlapQuery& q = out.overlaps[i];
    DecodeShape(c.shape(), Index("overlaps", i) + ".shape", q.shape, arena, violations);
    q.at = FromProto(c.filter().has_at(), c.filter().at());
    q.filter = FromProto(c.filter());
    if (c.level() == v1::QUERY_LEVEL_UNSPECIFIED) {
      q.level = QueryLevel::kIntersect;
    } else if (std::optional<QueryLevel> level = LevelFromProto(c.level())) {
      q.level = *level;
    } else {
      violations.Add(Index("overlaps", i) + ".level", "unknown level " + std::to_string(c.level()));
    }
    if (c.max_results() < 0 || c.max_results() > kMaxHitsPerQuery) {
      violations.Add(Index("overlaps", i) + ".max_results",
                     "must be in [0, " + std::to_string(kMaxHitsPerQuery) + "]");
    }
    q.max_results =
        c.max_results() > 0 ? static_cast<std::size_t>(c.max_results()) : OverlapQuery{}.max_results;
  }
  return violations.total() == before;
}

bool DecodeShots(const v1::ValidateShotsRequest& in, std::vector<ShotRequest>& out,
                 ViolationList& violations) {
  out.resize(in.shots_size());
  for (int i = 0; i < in.shots_size(); ++i) {
    const v1::Shot& s = in.shots(i);
    ShotRequest& r = out[i];
    r = ShotRequest{};
    r.shooter = s.shooter_id();
    r.origin = convert::FromProto(s.origin());
    r.direction = convert::FromProto(s.direction());
    if (s.has_max_range()) r.max_range = s.max_range();
    r.at = FromProto(s.has_at(), s.at());
    if (s.has_claimed()) r.claim = ShotClaim{s.claimed().body_id(), s.claimed().part_id()};
    r.tolerance = s.tolerance();
    r.command_at = FromProto(s.has_command_at(), s.command_at());
    r.expected_at = FromProto(s.has_expected_at(), s.expected_at());
    r.max_skew_ticks = s.max_skew_ticks();
    r.mask = Mask(s.category_mask());
    r.ignored_bodies.assign(s.ignore_bodies().begin(), s.ignore_bodies().end());
    r.explain = in.explain();
  }
  (void)violations;  // Every field is a number the core validates per shot.
  return true;
}

bool DecodeMoves(const v1::ValidateMovesRequest& in, std::vector<MoveRequest>& out,
                 ViolationList& violations) {
  const std::size_t before = violations.total();
  out.resize(in.moves_size());
  for (int i = 0; i < in.moves_size(); ++i) {
    const v1::Move& m = in.moves(i);
    MoveRequest& r = out[i];
    r = MoveRequest{};
    r.body = m.body_id();
    if (m.has_from()) r.from = convert::FromProto(m.from());
    r.to = convert::FromProto(m.to());
    r.elapsed = m.elapsed();
    if (m.has_max_speed()) r.max_speed = m.max_speed();
    r.slide = m.slide();
    r.mask = m.category_mask();  // 0: the policy's move mask.
    r.stance = m.stance();
    r.explain = in.explain();
    if (m.has_movement())
      DecodeMovement(m.movement(), Index("moves", i) + ".movement", r.movement.emplace(), violations);
  }
  // The numbers are the core's to validate per move; only shapes fail here.
  return violations.total() == before;
}

std::optional<std::uint32_t> MapGeometryMask(const v1::MapFile& map, const std::string& path,
                                             ViolationList& violations) {
  if (map.geometry_size() == 0) return std::uint32_t{1};  // RENDER
  std::uint32_t mask = 0;
  for (int i = 0; i < map.geometry_size(); ++i) {
    const int g = map.geometry(i);
    if (g < v1::MAP_GEOMETRY_RENDER || g > v1::MAP_GEOMETRY_OCCLUDER) {
      violations.Add(path + "." + Index("geometry", i), "unknown geometry " + std::to_string(g));
      return std::nullopt;
    }
    mask |= std::uint32_t{1} << (g - v1::MAP_GEOMETRY_RENDER);
  }
  return mask;
}

void AddItemProblems(std::string_view list, std::size_t i, std::vector<Violation>& problems,
                     ViolationList& violations) {
  for (Violation& v : problems) v.field = ProtoFieldName(v.field);
  violations.AddUnder(Index(list, i), problems);
}

}  // namespace collide::convert
