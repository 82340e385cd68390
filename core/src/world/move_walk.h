// The game's own frames within one move (issue 31, docs/move-corpus.md): a
// tick of several game frames walked as Quake's PM_StepSlideMove walks them,
// for the moves that the straight, stepped and lifted paths and the probes
// under from, the middle and `to` would reject. The body slides along what
// it meets and steps onto what is within a step, so a landing on a bevel
// beside the path, or stairs along a jagged wall, come out of the walk.
#ifndef COLLIDE_CORE_SRC_WORLD_MOVE_WALK_H_
#define COLLIDE_CORE_SRC_WORLD_MOVE_WALK_H_

#include <vector>

#include "world/move_model.h"

namespace collide::internal {

// Where the walk is after each frame: at `t` seconds into the move, on
// walkable ground (of normal floor_normal) or not.
struct WalkFrame {
  double t = 0.0;
  Vec3 position;
  bool grounded = false;
  Vec3 floor_normal;
};
struct Walk {
  static constexpr int kMaxFrames = 8;
  int count = 0;
  WalkFrame frames[kMaxFrames];
  const WalkFrame& end() const { return frames[count - 1]; }
};

// Walks m's body (the bounding box of its movement shapes) from m.from in
// the game frames of `elapsed` (16 ms each, at most kMaxFrames): each frame
// heads for `aim` (horizontally) in the time left; on the ground it runs
// along the ground's plane (a step up or an edge changes its height), in the
// air it falls from vertical speed `vz` under gravity. A blocked frame
// slides, and steps up by step_height unless rising in the air with no
// ground within a step below (PM_StepSlideMove's rule). A search, not a
// rule: nothing of it is recorded in m's trace.
Walk WalkFrames(const Scene& scene, const ModelMove& m, const Vec3& aim, double elapsed, bool grounded,
                double vz, double skin, std::vector<Shape>& shapes);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_WORLD_MOVE_WALK_H_
