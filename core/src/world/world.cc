// World construction, time resolution and the placing of bodies at a time.
#include <algorithm>
#include <string>

#include "visibility/visibility_memory.h"
#include "visibility/voxel_grid.h"
#include "world/history_memory.h"
#include "world/move_states.h"
#include "world/scene.h"

namespace collide {

using internal::BodyState;
using internal::Scene;
using internal::SceneAccess;
using internal::Snapshot;

bool ValidateSettings(const WorldSettings& s, std::vector<Violation>& out) {
  const std::size_t before = out.size();
  if (s.history_ticks < 1) out.push_back({"history_ticks", "must be >= 1"});
  if (s.max_rewind_ticks < 0) out.push_back({"max_rewind_ticks", "must be >= 0"});
  if (!(s.max_origin_offset >= 0.0) || !IsValidNumber(s.max_origin_offset)) {
    out.push_back({"max_origin_offset", "must be a valid number >= 0"});
  }
  if (!(s.default_max_speed > 0.0) || !IsValidNumber(s.default_max_speed)) {
    out.push_back({"default_max_speed", "must be a valid number > 0"});
  }
  if (!(s.skin_width >= 0.0) || !IsValidNumber(s.skin_width))
    out.push_back({"skin_width", "must be a valid number >= 0"});
  if (s.slide_iterations < 0 || s.slide_iterations > 16)
    out.push_back({"slide_iterations", "must be in [0, 16]"});
  if (!(s.max_tick_distance >= 0.0) || !IsValidNumber(s.max_tick_distance))
    out.push_back({"max_tick_distance", "must be a valid number >= 0"});
  if (s.move_mask == 0) out.push_back({"move_mask", "must not be 0"});
  if (s.shot_mask == 0) out.push_back({"shot_mask", "must not be 0"});
  if (s.movement) ValidateMovementModel(*s.movement, "movement", out);
  if (s.move_budget) ValidateMoveBudget(*s.move_budget, "move_budget", out);
  ValidateVisibilitySettings(s.visibility, out);
  return out.size() == before;
}

World::World(WorldSettings settings, std::vector<StaticElement> statics)
    : settings_(settings),
      statics_(internal::MakeStaticSet(std::move(statics))),
      memory_(std::make_unique<internal::HistoryMemory>()),
      move_states_(std::make_unique<internal::MoveStates>()),
      visibility_(std::make_unique<internal::VoxelGrid>(*statics_, settings_.visibility)),
      visibility_memory_(std::make_unique<internal::VisibilityMemory>()) {}
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;
World::~World() = default;

std::span<const StaticElement> World::statics() const { return statics_->elements; }
std::size_t World::frame_count() const { return history_.size(); }
std::optional<std::int64_t> World::oldest_tick() const {
  return history_.empty() ? std::nullopt : std::optional(history_.front()->tick);
}
std::optional<std::int64_t> World::latest_tick() const {
  return history_.empty() ? std::nullopt : std::optional(history_.back()->tick);
}
std::size_t World::body_count() const { return history_.empty() ? 0 : history_.back()->bodies.size(); }

std::size_t World::history_bytes() const { return memory_->bytes(); }

bool World::has_body(std::int64_t id) const {
  return !history_.empty() && history_.back()->Find(id) != nullptr;
}

TimeUsed World::Resolve(std::optional<Time> at) const {
  if (history_.empty()) return {Time{}, at.has_value()};
  const std::int64_t oldest = history_.front()->tick, latest = history_.back()->tick;
  if (!at) return {Time{latest, 0.0}, false};
  if (at->tick < oldest) return {Time{oldest, 0.0}, true};
  if (at->tick > latest || (at->tick == latest && at->fraction > 0.0)) return {Time{latest, 0.0}, true};
  return {*at, false};
}

std::optional<Pose> World::BodyPoseAt(std::int64_t body, std::optional<Time> at) const {
  const Scene scene = SceneAccess::At(*this, at);
  if (scene.s0 == nullptr) return std::nullopt;
  const std::size_t i = scene.s0->IndexOf(body);
  if (i == scene.body_count()) return std::nullopt;
  return scene.BodyPose(i);
}

std::vector<std::pair<std::int32_t, Shape>> World::BodyPartsAt(std::int64_t body,
                                                               std::optional<Time> at) const {
  std::vector<std::pair<std::int32_t, Shape>> out;
  const Scene scene = SceneAccess::At(*this, at);
  if (scene.s0 == nullptr) return out;
  const std::size_t i = scene.s0->IndexOf(body);
  if (i == scene.body_count()) return out;
  std::vector<internal::PlacedPart> parts;
  scene.PlaceParts(i, parts);
  for (auto& p : parts) out.emplace_back(p.id, std::move(p.shape));
  return out;
}

namespace internal {

std::size_t Snapshot::IndexOf(std::int64_t id) const {
  const auto it = std::lower_bound(bodies.begin(), bodies.end(), id,
                                   [](const BodyState& b, std::int64_t v) { return b.id < v; });
  return it != bodies.end() && it->id == id ? static_cast<std::size_t>(it - bodies.begin()) : bodies.size();
}

const BodyState* Snapshot::Find(std::int64_t id) const {
  const std::size_t i = IndexOf(id);
  return i < bodies.size() ? &bodies[i] : nullptr;
}

bool ValidateTime(const std::optional<Time>& at, std::vector<Violation>& out) {
  const std::size_t before = out.size();
  if (at && (at->tick < -kMaxWorldTick || at->tick > kMaxWorldTick)) {
    out.push_back({"at.tick", "must be in [-2^61, 2^61]"});
  }
  if (at && !(at->fraction >= 0.0 && at->fraction < 1.0)) out.push_back({"at.fraction", "must be in [0, 1)"});
  return out.size() == before;
}

Scene SceneAccess::At(const World& world, std::optional<Time> at) {
  Scene scene;
  scene.statics = world.statics_.get();
  scene.time = world.Resolve(at);
  const auto& h = world.history_;
  if (h.empty()) return scene;
  const Time t = scene.time.used;
  // The last frame at or before t.
  const auto it = std::upper_bound(h.begin(), h.end(), t.tick,
                                   [](std::int64_t tick, const auto& s) { return tick < s->tick; });
  const auto i0 = it - h.begin() - 1;
  scene.s0 = h[i0].get();
  if (it != h.end()) {
    scene.s1 = it->get();
    const double span = static_cast<double>(scene.s1->tick - scene.s0->tick);
    scene.alpha = (static_cast<double>(t.tick - scene.s0->tick) + t.fraction) / span;
  }
  return scene;
}

Pose Scene::BodyPose(std::size_t i) const {
  const BodyState& b = s0->bodies[i];
  if (s1 == nullptr || alpha == 0.0) return b.pose;
  const BodyState* n = s1->Find(b.id, i);
  if (n == nullptr || n->teleported) return b.pose;
  return Interpolate(b.pose, n->pose, alpha);
}

void Swap(PosedBody& a, PosedBody& b) {
  const bool a_own = a.locals == &a.blended, b_own = b.locals == &b.blended;
  std::swap(a, b);
  if (b_own) a.locals = &a.blended;
  if (a_own) b.locals = &b.blended;
}

void Scene::Posed(std::size_t i, PosedBody& out) const {
  const BodyState& b = s0->bodies[i];
  const BodyState* n = nullptr;
  if (s1 != nullptr && alpha != 0.0) {
    n = s1->Find(b.id, i);
    if (n != nullptr && n->teleported) n = nullptr;
  }
  out.state = &b;
  out.pose = n != nullptr ? Interpolate(b.pose, n->pose, alpha) : b.pose;
  out.rotation = RotationFromQuat(out.pose.rotation);
  // Part poses are interpolated only between identical part sets, whose
  // radii then bound the blend; otherwise the earlier frame's are used.
  const bool blend =
      n != nullptr && n->part_poses != b.part_poses && (n->parts == b.parts || n->parts->ids == b.parts->ids);
  out.locals = b.part_poses.get();
  if (blend) {
    out.blended.resize(b.part_poses->size());
    for (std::size_t k = 0; k < out.blended.size(); ++k) {
      out.blended[k] = Interpolate((*b.part_poses)[k], (*n->part_poses)[k], alpha);
    }
    out.locals = &out.blended;
  }
  // Unchanged part poses: the tight sphere; blended ones: the origin's.
  out.centre = blend ? out.pose.position : out.rotation * b.centre + out.pose.position;
  out.radius = blend ? std::max(b.radius, n->radius) : b.tight_radius;
}

void Scene::PlaceParts(std::size_t i, std::vector<PlacedPart>& out) const {
  PosedBody posed;
  Posed(i, posed);
  out.clear();
  const PartSet& parts = *posed.state->parts;
  const Mat3& r = posed.rotation;
  for (std::size_t k = 0; k < parts.ids.size(); ++k) {
    const Pose& local = (*posed.locals)[k];
    Shape placed = local == Pose{} ? PlaceShape(parts.shapes[k], r, posed.pose.position)
                                   : PlaceShape(parts.shapes[k], r * RotationFromQuat(local.rotation),
                                                r * local.position + posed.pose.position);
    out.push_back({parts.ids[k], std::move(placed)});
  }
}

}  // namespace internal
}  // namespace collide
