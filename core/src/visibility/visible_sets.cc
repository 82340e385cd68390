// World::VisibleSets: each observer's eye region against every target's
// region through the occluder grid (voxel_grid.h).
#include <algorithm>
#include <mutex>
#include <string>
#include <utility>

#include "shapes/shape_bounds.h"
#include "visibility/visibility_memory.h"
#include "visibility/voxel_grid.h"
#include "world/scene.h"

namespace collide {
namespace {

using internal::BoundsOf;
using internal::Scene;

Aabb Swept(Aabb box, const Vec3& displacement, double margin) {
  box = {Min(box.min, box.min + displacement), Max(box.max, box.max + displacement)};
  const Vec3 m{margin, margin, margin};
  return {box.min - m, box.max + m};
}

void ValidateRequest(const VisibilityRequest& r, std::vector<Violation>& out) {
  if (!(r.latency >= 0.0) || !IsValidNumber(r.latency))
    out.push_back({"latency", "must be a valid number >= 0"});
  if (!(r.margin >= 0.0) || !IsValidNumber(r.margin))
    out.push_back({"margin", "must be a valid number >= 0"});
  if (!IsValidNumber(r.tick_seconds) || r.tick_seconds < 0.0 ||
      (r.latency > 0.0 && !(r.tick_seconds > 0.0))) {
    out.push_back({"tick_seconds", "must be a valid number > 0 when latency > 0 (>= 0 otherwise)"});
  } else if (r.latency > 0.0 && !IsValidNumber(r.latency / r.tick_seconds)) {
    out.push_back({"latency", "latency / tick_seconds must be a valid number"});
  }
}

// VisibilitySettings::reuse_ticks: a hidden pair's plane tried first, a
// visible pair's answer kept while it is recent and its regions near; the
// others walked, and what they gave kept.
void JudgeWithMemory(const internal::VoxelGrid& grid, std::int64_t reuse, std::int64_t tick,
                     const std::vector<internal::VoxelGrid::RegionPair>& pairs,
                     const std::vector<std::pair<std::size_t, std::size_t>>& places,
                     internal::VisibilityMemory& memory, std::vector<std::uint8_t>& hidden,
                     std::int64_t& reused) {
  using Kind = internal::PairMemory::Kind;
  hidden.assign(pairs.size(), 0);
  const double slack = 4 * grid.voxel_size();
  // The planes that hid pairs before, tried first.
  std::vector<internal::VoxelGrid::RegionPair> kept;
  std::vector<internal::VoxelGrid::Plane> kept_planes;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const internal::PairMemory& m = memory.at(places[i].first, places[i].second);
    if (m.kind == Kind::kHidden) {
      kept.push_back(pairs[i]);
      kept_planes.push_back(m.plane);
    }
  }
  std::vector<std::uint8_t> still;
  grid.Hides(kept, kept_planes, still);
  std::vector<internal::VoxelGrid::RegionPair> walks;
  std::vector<std::size_t> walked;
  std::size_t at = 0;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const auto [o, t] = places[i];
    const internal::PairMemory& m = memory.at(o, t);
    if (m.kind == Kind::kHidden && still[at++] != 0) {
      hidden[i] = 1;
      continue;
    }
    // Each pair's turn to be judged anew comes once every `reuse` ticks, the
    // pairs' turns spread over them.
    const std::int64_t age = tick - m.tick;
    const bool turn = (tick + static_cast<std::int64_t>(o + t)) % reuse == 0;
    if (m.kind == Kind::kVisible && age >= 0 && age < reuse && !turn &&
        m.Near(*pairs[i].a, *pairs[i].b, slack)) {
      ++reused;
      continue;
    }
    walks.push_back(pairs[i]);
    walked.push_back(i);
  }
  std::vector<std::uint8_t> walk_hidden;
  std::vector<internal::VoxelGrid::Plane> planes;
  grid.Hidden(walks, walk_hidden, &planes);
  for (std::size_t j = 0; j < walks.size(); ++j) {
    const std::size_t i = walked[j];
    internal::PairMemory& m = memory.at(places[i].first, places[i].second);
    if (walk_hidden[j] != 0) {
      hidden[i] = 1;
      m.kind = Kind::kHidden;
      m.plane = planes[j];
    } else {
      m.SetVisible(tick, *pairs[i].a, *pairs[i].b);
    }
  }
}

}  // namespace

bool ValidateVisibilitySettings(const VisibilitySettings& s, std::vector<Violation>& out) {
  const std::size_t before = out.size();
  // Below 1e-6 of a unit the grid's rounding margins stop being small.
  if (!(s.voxel_size >= 1e-6) || !IsValidNumber(s.voxel_size)) {
    out.push_back({"visibility.voxel_size", "must be a valid number >= 1e-6"});
  }
  if (s.max_voxels < 1 || s.max_voxels > (std::int64_t{1} << 25)) {
    out.push_back({"visibility.max_voxels", "must be in [1, 2^25]"});
  }
  if (s.reuse_ticks < 0 || s.reuse_ticks > 64) {
    out.push_back({"visibility.reuse_ticks", "must be in [0, 64]"});
  }
  return out.size() == before;
}

const VisibilityGridInfo& World::visibility_info() const { return visibility_->info(); }

VisibilityResult World::VisibleSets(const VisibilityRequest& request) const {
  VisibilityResult r;
  ValidateRequest(request, r.problems);
  std::optional<Scene> scene = internal::Begin(*this, request.at, r);
  if (!scene) return r;
  // Every body's eye region and target region at the time.
  const std::size_t n = scene->body_count();
  std::vector<Aabb> eyes(n), regions(n);
  std::vector<internal::PlacedPart> placed;
  const Time before{r.time.used.tick - 1, r.time.used.fraction};
  const bool has_before = r.time.used.tick - 1 >= -kMaxWorldTick;
  for (std::size_t i = 0; i < n; ++i) {
    const internal::BodyState& body = scene->body(i);
    const Pose pose = scene->BodyPose(i);
    Vec3 displacement{};
    if (request.latency > 0.0 && has_before) {
      if (const std::optional<Pose> earlier = BodyPoseAt(body.id, before)) {
        displacement = (pose.position - earlier->position) * (request.latency / request.tick_seconds);
      }
    }
    const Vec3 eye = Apply(pose, body.eye);
    eyes[i] = Swept({eye, eye}, displacement, request.margin);
    scene->PlaceParts(i, placed);
    Aabb box{eye, eye};
    if (!placed.empty()) box = BoundsOf(placed[0].shape);
    for (const internal::PlacedPart& p : placed) {
      const Aabb b = BoundsOf(p.shape);
      box = {Min(box.min, b.min), Max(box.max, b.max)};
    }
    regions[i] = Swept(box, displacement, request.margin);
  }
  std::vector<std::int64_t> observers = request.observers;
  if (observers.empty()) {
    for (std::size_t i = 0; i < n; ++i) observers.push_back(scene->body(i).id);
  }
  // Every pair first, then their walks together (walk.cc).
  const auto is_target = [&](std::size_t t, std::size_t o) {
    return t != o && (scene->body(t).category & request.target_mask) != 0;
  };
  std::vector<std::size_t> observer_index(observers.size(), n);
  std::vector<internal::VoxelGrid::RegionPair> pairs;
  std::vector<std::pair<std::size_t, std::size_t>> places;  // (observer, target) in the scene
  for (std::size_t i = 0; i < observers.size(); ++i) {
    const std::size_t o = scene->s0 != nullptr ? scene->s0->IndexOf(observers[i]) : n;
    if (o >= n) continue;
    observer_index[i] = o;
    for (std::size_t t = 0; t < n; ++t) {
      if (is_target(t, o)) {
        pairs.push_back({&eyes[o], &regions[t]});
        places.emplace_back(o, t);
      }
    }
  }
  std::vector<std::uint8_t> hidden;
  std::unique_lock<std::mutex> lock;
  if (settings_.visibility.reuse_ticks > 0 && n <= internal::VisibilityMemory::kMaxBodies) {
    lock = std::unique_lock(visibility_memory_->mu, std::try_to_lock);  // busy: judged without it
  }
  if (lock.owns_lock()) {
    std::vector<std::int64_t> ids(n);
    for (std::size_t i = 0; i < n; ++i) ids[i] = scene->body(i).id;
    visibility_memory_->Align(ids);
    JudgeWithMemory(*visibility_, settings_.visibility.reuse_ticks, r.time.used.tick, pairs, places,
                    *visibility_memory_, hidden, r.reused);
  } else {
    visibility_->Hidden(pairs, hidden);
  }
  r.pairs = static_cast<std::int64_t>(pairs.size());
  r.sets.reserve(observers.size());
  std::size_t at = 0;
  for (std::size_t i = 0; i < observers.size(); ++i) {
    VisibilitySet& set = r.sets.emplace_back();
    set.observer = observers[i];
    const std::size_t o = observer_index[i];
    if (o >= n) continue;
    set.found = true;
    for (std::size_t t = 0; t < n; ++t) {
      if (!is_target(t, o)) continue;
      if (hidden[at++] != 0) {
        ++r.hidden;
      } else {
        set.visible.push_back(scene->body(t).id);  // bodies are sorted by id
      }
    }
  }
  return r;
}

}  // namespace collide
