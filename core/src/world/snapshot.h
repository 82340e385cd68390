// What the history keeps per frame: every body's state at that tick, and the
// broadphase tree over the interval from that frame to the next.
#ifndef COLLIDE_CORE_SRC_WORLD_SNAPSHOT_H_
#define COLLIDE_CORE_SRC_WORLD_SNAPSHOT_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "collide/world.h"
#include "world/body_tree.h"

namespace collide::internal {

// A body's part set: shared by every frame until the set changes.
struct PartSet {
  std::vector<std::int32_t> ids;
  std::vector<Shape> shapes;    // part frame.
  std::vector<Sphere> spheres;  // a sphere holding each shape (part frame): a cheap ray cull.
};

struct BodyState {
  std::int64_t id = 0;
  CategoryMask category = kAllCategories;
  Pose pose;
  bool teleported = false;  // this frame's pose is a jump: not interpolated into.
  bool guarded = false;     // teleported because it moved past max_tick_distance.
  Vec3 eye;                 // body frame: where its shots start (0: the origin).
  std::shared_ptr<const PartSet> parts;
  std::shared_ptr<const std::vector<Pose>> part_poses;  // one per part, body frame.
  std::shared_ptr<const Shape> movement;                // body frame, may be null.
  // Every part lies within `radius` of the body origin (any rotation), and
  // within `tight_radius` of `centre` (body frame): the broadphase bounds
  // use the first, the exact per-candidate cull the second.
  double radius = 0.0;
  Vec3 centre;
  double tight_radius = 0.0;
};

struct Snapshot {
  std::int64_t tick = 0;
  std::vector<BodyState> bodies;  // sorted by id.
  bool any_teleport = false;      // some body's pose here is a jump.
  // Bounds of each body from this frame to the next one (or at this frame
  // alone for the latest), indices into `bodies`.
  BodyTree tree;
  // Per axis, the farthest a body moves from this frame to the next (zero
  // for the latest), and whether this frame keeps the previous one's bodies
  // steady: the same ids, none teleported, recategorised or grown. Over
  // steady frames a body stays within the summed moves of its box in the
  // first frame's tree, so that one lookup bounds several intervals
  // (projectile.cc) and its indices hold in each.
  Vec3 max_step;
  bool steady = false;

  const BodyState* Find(std::int64_t id) const;
  // Find, trying index `hint` first (the same body's index in a frame with
  // the same ids).
  const BodyState* Find(std::int64_t id, std::size_t hint) const {
    return hint < bodies.size() && bodies[hint].id == id ? &bodies[hint] : Find(id);
  }
  std::size_t IndexOf(std::int64_t id) const;  // bodies.size() when absent.
};

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_WORLD_SNAPSHOT_H_
