// The sweeps a move is judged by, shared by the straight move (move.cc) and
// the movement model (move_model.cc): the start pose, the quick clear test
// and a sweep with slides.
#ifndef COLLIDE_CORE_SRC_WORLD_MOVE_SWEEP_H_
#define COLLIDE_CORE_SRC_WORLD_MOVE_SWEEP_H_

#include <span>
#include <string_view>
#include <vector>

#include "collide/world.h"
#include "world/move_trace.h"
#include "world/scene.h"

namespace collide::internal {

// The deepest overlap of `shapes` with the statics in `mask`, deeper than
// `allowed` (a start inside geometry); found is false when none.
struct Penetration {
  bool found = false;
  double depth = 0.0;
  Vec3 normal;
  HitTarget target;
};
Penetration DeepestStart(const StaticSet& statics, std::span<const Shape> shapes, CategoryMask mask,
                         double allowed);

// Whether nothing static in `mask` is near any of `shapes` moved by
// `translation` (see move_sweep.cc).
bool SweptBoxesAreClear(const StaticSet& statics, std::span<const Shape> shapes, const Vec3& translation,
                        CategoryMask mask);

// `shapes` (placed at `from`) moved by `delta` with up to `slides` slides
// along the contact planes (world.h's move rule: skin_width a tolerance
// band). blocked: the first sweep met a static deeper than skin; then t,
// normal, target of the first touch, allowed (a gap of skin) and slid.
struct PathSweep {
  bool blocked = false;
  double t = 0.0;
  Vec3 normal;
  HitTarget target;
  Vec3 allowed;
  Vec3 slid;
};
// With a trace, each leg is recorded as a sweep (the first as `purpose`, the
// others as "slide") with the contact that ended it.
PathSweep SweepPath(const Scene& scene, std::span<const Shape> shapes, const Vec3& from, const Vec3& delta,
                    CategoryMask mask, double skin, int slides, MoveTrace* trace = nullptr,
                    std::string_view purpose = "straight");

// The body's moving shapes at `position` with its latest orientation: `shape`
// (body frame) when given, else its movement shape, else all its parts.
void PlaceMoving(const BodyState& body, const Shape* shape, const Vec3& position, std::vector<Shape>& out);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_WORLD_MOVE_SWEEP_H_
