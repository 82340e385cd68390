// The world at one resolved time: the two snapshots around it and the
// interpolation weight, and the bodies placed at that time on demand (only
// the broadphase's candidates are ever interpolated).
#ifndef COLLIDE_CORE_SRC_WORLD_SCENE_H_
#define COLLIDE_CORE_SRC_WORLD_SCENE_H_

#include <initializer_list>
#include <utility>
#include <vector>

#include "collide/world.h"
#include "world/snapshot.h"
#include "world/statics.h"

namespace collide::internal {

struct PlacedPart {
  std::int32_t id = 0;
  Shape shape;  // world frame.
};

// A body at a time: its pose, its parts' local poses, and a sphere
// (world frame) holding every part.
struct PosedBody {
  const BodyState* state = nullptr;
  Pose pose;
  Mat3 rotation;
  const std::vector<Pose>* locals = nullptr;  // per part: the body's, or `blended`.
  std::vector<Pose> blended;
  Vec3 centre;
  double radius = 0.0;
};
// Swaps a and b, keeping `locals` on the swapped `blended` where it pointed
// at its own (std::swap would leave it on the other's).
void Swap(PosedBody& a, PosedBody& b);

struct Scene {
  const StaticSet* statics = nullptr;
  const Snapshot* s0 = nullptr;  // frame at or before the time; null: no frames.
  const Snapshot* s1 = nullptr;  // the next frame, null at the latest.
  double alpha = 0.0;
  TimeUsed time;

  std::size_t body_count() const { return s0 != nullptr ? s0->bodies.size() : 0; }
  const BodyState& body(std::size_t i) const { return s0->bodies[i]; }
  // The pose of body i of s0 at the time (world.h's rule).
  Pose BodyPose(std::size_t i) const;
  // Body i's pose and part poses at the time.
  void Posed(std::size_t i, PosedBody& out) const;
  // Body i's parts in the world frame at the time.
  void PlaceParts(std::size_t i, std::vector<PlacedPart>& out) const;
};

// Body i of the scene as posed at its time (World::Bodies' answer).
collide::PosedBody PoseBody(const Scene& scene, std::size_t i);
// Body `id` at `at` (after clamping), or nothing when it does not exist then.
std::optional<collide::PosedBody> PoseBodyAt(const World& world, std::int64_t id, std::optional<Time> at);

// A Time is usable when its fraction is in [0, 1).
bool ValidateTime(const std::optional<Time>& at, std::vector<Violation>& out);

// The grant of access to a World's internals for the query files.
struct SceneAccess {
  static Scene At(const World& world, std::optional<Time> at);
  static const StaticSet& Statics(const World& world) { return *world.statics_; }
  static const Snapshot* Latest(const World& world) {
    return world.history_.empty() ? nullptr : world.history_.back().get();
  }
  static const std::deque<std::unique_ptr<Snapshot>>& History(const World& world) { return world.history_; }
};

// Whether one of `bodies` teleported into a frame after `tick` (the history
// walked back from the latest frame, skipping frames without a teleport).
bool TeleportedAfter(const World& world, std::initializer_list<std::int64_t> bodies, std::int64_t tick);

// `pose` with its rotation scaled to unit norm: rotations are accepted within
// 1e-6 of unit length and normalised when a frame is accepted, so that
// interpolation and placing see exact rotations.
Pose UnitPose(const Pose& pose);

// A part's (or movement shape's) problems under `at`: a part kind (world.h)
// with valid fields.
void ValidatePartShape(const Shape& shape, const std::string& at, std::vector<Violation>& out);

// PlaceShape (world.h) with the pose's rotation matrix given.
Shape PlaceShape(const Shape& local, const Mat3& rotation, const Vec3& position);

// The common start of a batched query: with the query's own problems
// already in r.problems, adds the time's, and returns the scene at the time
// (r.time set), or nothing when the query is invalid (r.valid false).
template <typename Result>
std::optional<Scene> Begin(const World& world, const std::optional<Time>& at, Result& r) {
  ValidateTime(at, r.problems);
  if (!r.problems.empty()) {
    r.valid = false;
    return std::nullopt;
  }
  std::optional<Scene> scene = SceneAccess::At(world, at);
  r.time = scene->time;
  return scene;
}

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_WORLD_SCENE_H_
