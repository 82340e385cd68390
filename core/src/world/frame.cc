// Pushing a frame: validate it whole against the latest frame, then build
// the next snapshot and the broadphase trees.
#include <algorithm>
#include <string>

#include "shapes/shape_bounds.h"
#include "world/history_memory.h"
#include "world/scene.h"
#include "world/snapshot.h"
#include "world/statics.h"

namespace collide {
namespace {

using internal::ValidatePartShape;

using internal::BodyState;
using internal::PartSet;
using internal::Snapshot;

std::string Index(std::string_view name, std::size_t i) {
  return std::string(name) + "[" + std::to_string(i) + "]";
}

// `at()` makes the pose's path, only when there is a problem: a valid frame
// of thousands of poses builds no strings.
template <typename Path>
void ValidatePose(const Pose& pose, const Path& at, std::vector<Violation>& out) {
  if (!IsValidNumber(pose.position))
    out.push_back({at() + ".position", "not a valid number (finite, |v| <= 1e12)"});
  std::vector<Violation> rotation;
  if (!ValidateRotation(pose.rotation, "rotation", rotation)) {
    for (Violation& v : rotation) out.push_back({at() + "." + v.field, std::move(v.description)});
  }
}

std::vector<std::int64_t> Sorted(std::vector<std::int64_t> ids) {
  std::sort(ids.begin(), ids.end());
  return ids;
}

// For each item, whether an earlier item has the same key.
template <typename T, typename Key>
std::vector<bool> Repeats(const std::vector<T>& items, Key key) {
  std::vector<std::pair<std::int64_t, std::size_t>> order(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) order[i] = {key(items[i]), i};
  std::sort(order.begin(), order.end());
  std::vector<bool> repeated(items.size());
  for (std::size_t i = 1; i < order.size(); ++i)
    repeated[order[i].second] = order[i].first == order[i - 1].first;
  return repeated;
}

// The problems of `frame` given the latest snapshot (null when none): every
// one, or the first ones found once kMaxFrameProblems are (`truncated` set),
// so that a frame of millions of bad entries costs no more than a few.
constexpr std::size_t kMaxFrameProblems = 100;
std::vector<Violation> FrameProblems(const Frame& frame, const Snapshot* latest, bool& truncated) {
  std::vector<Violation> out;
  truncated = false;
  if (frame.tick < -kMaxWorldTick || frame.tick > kMaxWorldTick)
    out.push_back({"tick", "must be in [-2^61, 2^61]"});
  // Sorted copies keep the checks O(n log n) for frames of thousands of bodies.
  const std::vector<bool> repeated = Repeats(frame.bodies, [](const BodyUpdate& u) { return u.id; });
  const std::vector<std::int64_t> removed = Sorted(frame.removals);
  for (std::size_t i = 0; i < frame.bodies.size(); ++i) {
    if ((truncated = out.size() >= kMaxFrameProblems)) break;
    const BodyUpdate& u = frame.bodies[i];
    const auto at = [i] { return Index("bodies", i); };
    if (repeated[i]) out.push_back({at() + ".id", "duplicate body id " + std::to_string(u.id)});
    if (std::binary_search(removed.begin(), removed.end(), u.id)) {
      out.push_back({at() + ".id", "body " + std::to_string(u.id) + " is also removed in this frame"});
    }
    const BodyState* old = latest != nullptr ? latest->Find(u.id) : nullptr;
    if (old == nullptr && !u.pose) out.push_back({at() + ".pose", "required for a new body"});
    if (old == nullptr && u.parts.empty()) out.push_back({at() + ".parts", "required for a new body"});
    if (u.pose)
      ValidatePose(
          *u.pose, [&] { return at() + ".pose"; }, out);
    std::vector<std::int32_t> ids;
    for (std::size_t k = 0; k < u.parts.size(); ++k) {
      const auto pat = [&] { return at() + "." + Index("parts", k); };
      if (std::find(ids.begin(), ids.end(), u.parts[k].id) != ids.end()) {
        out.push_back({pat() + ".id", "duplicate part id " + std::to_string(u.parts[k].id)});
      }
      ids.push_back(u.parts[k].id);
      ValidatePartShape(u.parts[k].shape, pat() + ".shape", out);
      ValidatePose(
          u.parts[k].local, [&] { return pat() + ".local"; }, out);
    }
    const std::vector<std::int32_t>& known = u.parts.empty() && old != nullptr ? old->parts->ids : ids;
    // Part poses in the part set's order (the usual animation frame) are
    // known and distinct without a search: the set's ids are.
    bool in_order = u.part_poses.size() <= known.size();
    for (std::size_t k = 0; in_order && k < u.part_poses.size(); ++k)
      in_order = known[k] == u.part_poses[k].part;
    std::vector<std::int32_t> posed;
    for (std::size_t k = 0; k < u.part_poses.size(); ++k) {
      const auto pat = [&] { return at() + "." + Index("part_poses", k); };
      const std::int32_t part = u.part_poses[k].part;
      if (!in_order && std::find(known.begin(), known.end(), part) == known.end()) {
        out.push_back({pat() + ".part", "unknown part " + std::to_string(part)});
      } else if (!in_order && std::find(posed.begin(), posed.end(), part) != posed.end()) {
        out.push_back({pat() + ".part", "duplicate part " + std::to_string(part)});
      }
      if (!in_order) posed.push_back(part);
      ValidatePose(
          u.part_poses[k].local, [&] { return pat() + ".local"; }, out);
    }
    if (u.movement_shape) ValidatePartShape(*u.movement_shape, at() + ".movement_shape", out);
    if (u.eye && !IsValidNumber(*u.eye))
      out.push_back({at() + ".eye", "not a valid number (finite, |v| <= 1e12)"});
  }
  const std::vector<bool> removed_twice = Repeats(frame.removals, [](std::int64_t id) { return id; });
  for (std::size_t j = 0; j < frame.removals.size() && !truncated; ++j) {
    if ((truncated = out.size() >= kMaxFrameProblems)) break;
    const std::int64_t id = frame.removals[j];
    if (removed_twice[j]) {
      out.push_back({Index("removals", j), "duplicate removal of body " + std::to_string(id)});
    } else if (latest == nullptr || latest->Find(id) == nullptr) {
      out.push_back({Index("removals", j), "unknown body " + std::to_string(id)});
    }
  }
  return out;
}

// The bounding spheres of BodyState (around the origin, and around the
// centre of the parts' box), widened so that rounding in poses and in the
// slab test never loses a body.
void SetBounds(BodyState& b) {
  Aabb box{{kInfinity, kInfinity, kInfinity}, {-kInfinity, -kInfinity, -kInfinity}};
  double r = 0.0;
  for (std::size_t k = 0; k < b.parts->shapes.size(); ++k) {
    const Aabb part = internal::BoundsOf(PlaceShape(b.parts->shapes[k], (*b.part_poses)[k]));
    box = {Min(box.min, part.min), Max(box.max, part.max)};
    r = std::max(r, Length(Max(Abs(part.min), Abs(part.max))));
  }
  b.radius = r * (1.0 + 1e-9) + 1e-9;
  b.centre = (box.min + box.max) * 0.5;
  b.tight_radius = Length(box.max - box.min) * 0.5 * (1.0 + 1e-9) + 1e-9;
}

// The body's bounds from snapshot `s` to the next one (null for the latest):
// its radius sphere swept along the straight path of its origin, or at its
// pose alone when it leaves, teleports, or there is no next frame. `step`
// takes the per-axis move.
Aabb IntervalBox(const BodyState& b, std::size_t i, const Snapshot* next, Vec3& step) {
  Vec3 lo = b.pose.position, hi = lo;
  double r = b.radius;
  if (const BodyState* n = next != nullptr ? next->Find(b.id, i) : nullptr; n != nullptr && !n->teleported) {
    lo = Min(lo, n->pose.position);
    hi = Max(hi, n->pose.position);
    r = std::max(r, n->radius);
    step = Max(step, hi - lo);
  }
  const Vec3 pad = Vec3{r, r, r} + (Abs(lo) + Abs(hi)) * 1e-12;
  return {lo - pad, hi + pad};
}

void BuildTree(Snapshot& s, const Snapshot* next) {
  std::vector<Aabb> boxes(s.bodies.size());
  s.max_step = {};
  for (std::size_t i = 0; i < s.bodies.size(); ++i) boxes[i] = IntervalBox(s.bodies[i], i, next, s.max_step);
  s.tree.Build(std::move(boxes));
}

// The index of part `id` in `ids`, which holds it; `hint` first (part poses
// usually come in the part set's order).
std::size_t PartIndex(const std::vector<std::int32_t>& ids, std::size_t hint, std::int32_t id) {
  if (hint < ids.size() && ids[hint] == id) return hint;
  return static_cast<std::size_t>(std::find(ids.begin(), ids.end(), id) - ids.begin());
}

// Applies `u` to `b`: the latest frame's state of a known body (updated in
// place: no copy of its shared pointers), or a default state for a new one.
// A known body moving farther than `max_move` (> 0) is taken as teleported
// (the teleport guard).
void Apply(const BodyUpdate& u, bool known, double max_move, BodyState& b) {
  b.id = u.id;
  b.teleported = u.teleport && known;
  b.guarded = known && !b.teleported && u.pose && max_move > 0.0 &&
              LengthSquared(u.pose->position - b.pose.position) > max_move * max_move;
  b.teleported = b.teleported || b.guarded;
  if (u.pose) b.pose = internal::UnitPose(*u.pose);
  if (u.eye) b.eye = *u.eye;
  if (u.category) b.category = *u.category;
  if (u.movement_shape) b.movement = std::make_shared<const Shape>(*u.movement_shape);
  bool reposed = false;
  if (!u.parts.empty()) {
    auto set = std::make_shared<PartSet>();
    auto poses = std::make_shared<std::vector<Pose>>();
    set->ids.reserve(u.parts.size());
    set->shapes.reserve(u.parts.size());
    set->spheres.reserve(u.parts.size());
    poses->reserve(u.parts.size());
    for (const BodyPart& p : u.parts) {
      set->ids.push_back(p.id);
      set->shapes.push_back(p.shape);
      const Aabb box = internal::BoundsOf(p.shape);
      set->spheres.push_back(
          {(box.min + box.max) * 0.5, Length(box.max - box.min) * 0.5 * (1.0 + 1e-9) + 1e-9});
      poses->push_back(internal::UnitPose(p.local));
    }
    b.parts = std::move(set);
    b.part_poses = std::move(poses);
    reposed = true;
  }
  if (!u.part_poses.empty()) {
    auto poses = std::make_shared<std::vector<Pose>>(*b.part_poses);
    const std::vector<std::int32_t>& ids = b.parts->ids;
    for (std::size_t k = 0; k < u.part_poses.size(); ++k) {
      (*poses)[PartIndex(ids, k, u.part_poses[k].part)] = internal::UnitPose(u.part_poses[k].local);
    }
    b.part_poses = std::move(poses);
    reposed = true;
  }
  if (reposed) SetBounds(b);
}

}  // namespace

namespace internal {
void ValidatePartShape(const Shape& shape, const std::string& at, std::vector<Violation>& out) {
  if (KindOf(shape) == ShapeKind::kConvexHull || KindOf(shape) == ShapeKind::kHalfspace) {
    out.push_back({at, std::string(ShapeKindName(KindOf(shape))) + " is not a part kind (world.h)"});
    return;
  }
  std::vector<Violation> inner;
  Validate(shape, inner);
  for (auto& v : inner) out.push_back({at + "." + v.field, v.description});
}
}  // namespace internal

FrameError World::PushFrame(const Frame& frame) {
  const Snapshot* latest = history_.empty() ? nullptr : history_.back().get();
  if (latest != nullptr && frame.tick <= latest->tick) {
    return {FrameError::Kind::kTickNotIncreasing,
            "frame tick " + std::to_string(frame.tick) + " is not after the latest frame's tick " +
                std::to_string(latest->tick),
            {}};
  }
  bool truncated = false;
  std::vector<Violation> problems = FrameProblems(frame, latest, truncated);
  if (!problems.empty()) {
    return {FrameError::Kind::kInvalid,
            "frame " + std::to_string(frame.tick) + " rejected: " + (truncated ? "at least " : "") +
                std::to_string(problems.size()) + " problem(s)",
            std::move(problems)};
  }
  auto next = std::make_unique<Snapshot>();
  next->tick = frame.tick;
  if (latest != nullptr) {
    // Exactly the bodies of the new frame: the history keeps this vector.
    std::size_t added = 0;
    for (const BodyUpdate& u : frame.bodies) added += latest->Find(u.id) == nullptr;
    next->bodies.reserve(latest->bodies.size() - frame.removals.size() + added);
    const std::vector<std::int64_t> removed = Sorted(frame.removals);
    for (const BodyState& b : latest->bodies) {
      if (std::binary_search(removed.begin(), removed.end(), b.id)) continue;
      next->bodies.push_back(b);
      next->bodies.back().teleported = next->bodies.back().guarded = false;
    }
  } else {
    next->bodies.reserve(frame.bodies.size());
  }
  // Updates of known bodies in place; new bodies appended, then one sort.
  const std::size_t known = next->bodies.size();
  // The guard's distance over the frames' gap (ticks as doubles: the gap of
  // two accepted ticks is below 2^62).
  const double max_move =
      latest != nullptr ? settings_.max_tick_distance * static_cast<double>(frame.tick - latest->tick) : 0.0;
  next->steady = latest != nullptr && frame.removals.empty();
  for (const BodyUpdate& u : frame.bodies) {
    const auto end = next->bodies.begin() + static_cast<std::ptrdiff_t>(known);
    const auto it = std::lower_bound(next->bodies.begin(), end, u.id,
                                     [](const BodyState& b, std::int64_t id) { return b.id < id; });
    if (it != end && it->id == u.id) {
      const double radius = it->radius;
      const CategoryMask category = it->category;
      Apply(u, true, max_move, *it);
      detected_teleports_ += it->guarded;
      next->any_teleport = next->any_teleport || it->teleported;
      next->steady = next->steady && !it->teleported && it->radius <= radius && it->category == category;
    } else {
      Apply(u, false, max_move, next->bodies.emplace_back());
    }
  }
  next->steady = next->steady && next->bodies.size() == known;
  if (next->bodies.size() > known) {
    std::sort(next->bodies.begin(), next->bodies.end(),
              [](const BodyState& a, const BodyState& b) { return a.id < b.id; });
  }
  BuildTree(*next, nullptr);
  if (!history_.empty()) {
    const std::size_t old_tree = history_.back()->tree.memory_bytes();
    BuildTree(*history_.back(), next.get());
    memory_->Retree(old_tree, history_.back()->tree.memory_bytes());
  }
  memory_->Add(*next, latest);
  history_.push_back(std::move(next));
  while (history_.size() > static_cast<std::size_t>(std::max(1, settings_.history_ticks))) {
    memory_->Remove(*history_[0], history_[1].get());
    history_.pop_front();
  }
  return {};
}

}  // namespace collide
