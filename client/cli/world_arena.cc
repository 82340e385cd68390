#include "world_arena.h"

#include <algorithm>
#include <memory>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "collide/import/map_import.h"

namespace collide::cli {
namespace {

constexpr double kHalf = 20.0;   // the hall's half width, metres.
constexpr double kHeight = 6.0;  // floor to roof.

// Appends the quad a b c d (in order around it) as two triangles.
void AddQuad(MeshData& m, const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const auto first = static_cast<std::uint32_t>(m.vertices.size());
  m.vertices.insert(m.vertices.end(), {a, b, c, d});
  m.triangles.push_back({first, first + 1, first + 2});
  m.triangles.push_back({first, first + 2, first + 3});
}

}  // namespace

BotScale BotScale::ForMap(std::string_view map_file) {
  const std::string lower = absl::AsciiStrToLower(std::string(map_file.substr(0, map_file.find(':'))));
  if (lower.ends_with(".bsp") || lower.ends_with(".pk3")) return {56.0, 15.0, 50.0, 320.0};
  return {};
}

Capsule BotScale::MovementCapsule() const {
  return {{0, 0, radius + height / 20}, {0, 0, height - radius}, radius};
}

std::vector<BodyPart> BotScale::Hitboxes() const {
  const double h = height;
  return {{kBotHead, Sphere{{0, 0, 0}, 0.12 * h}, {{0, 0, 0.88 * h}, {}}},
          {kBotChest, Capsule{{0, 0, 0.5 * h}, {0, 0, 0.68 * h}, 0.16 * h}, {}},
          {kBotLegs, Capsule{{0, 0, 0.08 * h}, {0, 0, 0.42 * h}, 0.1 * h}, {}}};
}

std::vector<WorldStatic> ArenaStatics() {
  MeshData hall;
  const double h = kHalf, top = kHeight;
  AddQuad(hall, {-h, -h, 0}, {h, -h, 0}, {h, h, 0}, {-h, h, 0});          // floor
  AddQuad(hall, {-h, -h, top}, {h, -h, top}, {h, h, top}, {-h, h, top});  // roof
  AddQuad(hall, {-h, -h, 0}, {h, -h, 0}, {h, -h, top}, {-h, -h, top});
  AddQuad(hall, {h, -h, 0}, {h, h, 0}, {h, h, top}, {h, -h, top});
  AddQuad(hall, {h, h, 0}, {-h, h, 0}, {-h, h, top}, {h, h, top});
  AddQuad(hall, {-h, h, 0}, {-h, -h, 0}, {-h, -h, top}, {-h, h, top});
  // A wall across x = 4 from y = -12 to 12, 3 m high, with a 3 m doorway.
  AddQuad(hall, {4, -12, 0}, {4, -1.5, 0}, {4, -1.5, 3}, {4, -12, 3});
  AddQuad(hall, {4, 1.5, 0}, {4, 12, 0}, {4, 12, 3}, {4, 1.5, 3});
  std::vector<WorldStatic> out;
  out.push_back({1, kAllCategories, std::move(hall)});
  std::int64_t id = 100;
  for (double x : {-12.0, 0.0, 12.0}) {
    for (double y : {-12.0, 0.0, 12.0}) {
      if (x == 0.0 && y == 0.0) continue;  // the middle stays open.
      out.push_back({id++, kAllCategories, Shape{Aabb{{x - 0.75, y - 0.75, 0}, {x + 0.75, y + 0.75, top}}}});
    }
  }
  for (const Vec3& c : {Vec3{-6, 6, 0}, Vec3{-6, -6, 0}, Vec3{9, 6, 0}, Vec3{9, -6, 0}, Vec3{-16, 0, 0}}) {
    out.push_back({id++, kAllCategories, Shape{Aabb{{c.x - 1, c.y - 1, 0}, {c.x + 1, c.y + 1, 1.1}}}});
  }
  return out;
}

MapFileRef ParseMapFlag(std::string_view flag) {
  const std::size_t colon = flag.find(':');
  if (colon == std::string_view::npos) return {std::string(flag), ""};
  return {std::string(flag.substr(0, colon)), std::string(flag.substr(colon + 1))};
}

WorldSpec MatchSpec(std::string world_id, std::string_view map, const BotScale& scale) {
  WorldSpec spec{.id = std::move(world_id)};
  if (map.empty()) {
    spec.statics = ArenaStatics();
  } else {
    spec.statics.push_back({1, kAllCategories, ParseMapFlag(map)});
  }
  spec.policy.default_max_speed = 1.5 * scale.speed;
  spec.policy.max_origin_offset = scale.height;
  spec.policy.skin_width = scale.height / 180.0;
  return spec;
}

void AddOccluders(WorldSpec& spec, std::string_view map, const BotScale& scale) {
  constexpr CategoryMask kOccluders = CategoryMask{1} << 40;
  constexpr int kOccluderGeometry = 8;  // world.proto MAP_GEOMETRY_OCCLUDER
  std::int64_t next_id = 1;
  for (WorldStatic& s : spec.statics) {
    next_id = std::max(next_id, s.id + 1);
    s.category &= ~kOccluders;  // the open hall and the render triangles must not occlude.
  }
  if (map.empty()) {
    const std::size_t n = spec.statics.size();
    for (std::size_t i = 0; i < n; ++i) {
      if (const Shape* shape = std::get_if<Shape>(&spec.statics[i].geometry)) {
        spec.statics.push_back({next_id++, kOccluders, *shape});
      }
    }
  } else {
    MapFileRef occluders = ParseMapFlag(map);
    occluders.geometry = {kOccluderGeometry};
    spec.statics.push_back({next_id, kOccluders, std::move(occluders)});
  }
  spec.policy.move_category_mask = ~kOccluders;
  spec.policy.shot_category_mask = ~kOccluders;
  spec.policy.visibility = VisibilitySettings{.occluder_mask = kOccluders, .voxel_size = scale.height / 7};
}

VisibilityRequest MatchVisibilityRequest(const BotScale& scale, double tick_rate) {
  return {.tick_seconds = 1 / tick_rate, .latency = 0.1, .margin = 0.05 * scale.speed};
}

absl::StatusOr<std::vector<StaticElement>> CoreStatics(const WorldSpec& spec, const std::string& maps_dir) {
  std::vector<StaticElement> out;
  for (const WorldStatic& s : spec.statics) {
    if (const Shape* shape = std::get_if<Shape>(&s.geometry)) {
      out.push_back({s.id, s.category, *shape});
      continue;
    }
    MeshData mesh;
    if (const MapFileRef* map = std::get_if<MapFileRef>(&s.geometry)) {
      if (maps_dir.empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat("the map ", map->name, " needs --maps_dir (the server's) to run in process too"));
      }
      importer::ImportOptions options;
      options.map = map->map;
      absl::StatusOr<importer::ImportedMesh> imported =
          importer::ImportMap(maps_dir + "/" + map->name, options);
      if (!imported.ok()) return imported.status();
      mesh = std::move(imported->mesh);
    } else {
      mesh = std::get<MeshData>(s.geometry);
    }
    out.push_back({s.id, s.category, std::make_shared<const TriangleMesh>(mesh)});
  }
  return out;
}

WorldSettings CoreSettings(const WorldSpec& spec) {
  WorldSettings out;
  if (spec.history_ticks > 0) out.history_ticks = spec.history_ticks;
  const WorldPolicy& p = spec.policy;
  out.max_rewind_ticks = p.max_rewind_ticks.value_or(out.max_rewind_ticks);
  out.max_origin_offset = p.max_origin_offset.value_or(out.max_origin_offset);
  out.default_max_speed = p.default_max_speed.value_or(out.default_max_speed);
  out.skin_width = p.skin_width.value_or(out.skin_width);
  out.slide_iterations = p.slide_iterations.value_or(out.slide_iterations);
  out.move_mask = p.move_category_mask.value_or(out.move_mask);
  out.shot_mask = p.shot_category_mask.value_or(out.shot_mask);
  out.movement = p.movement;
  out.move_budget = p.move_budget;
  if (p.visibility) out.visibility = *p.visibility;
  return out;
}

}  // namespace collide::cli
