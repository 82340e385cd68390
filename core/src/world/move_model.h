// A move judged under a movement model (collide/movement.h).
#ifndef COLLIDE_CORE_SRC_WORLD_MOVE_MODEL_H_
#define COLLIDE_CORE_SRC_WORLD_MOVE_MODEL_H_

#include <optional>
#include <string_view>
#include <vector>

#include "collide/world.h"
#include "world/ground.h"
#include "world/move_states.h"
#include "world/move_trace.h"
#include "world/scene.h"

namespace collide::internal {

struct ModelMove {
  const MovementModel* model = nullptr;
  const Stance* stance = nullptr;  // a valid stance of the model
  const BodyState* body = nullptr;
  Vec3 from;
  CategoryMask mask = 0;
  MoveTrace* trace = nullptr;  // when explaining.
  // The horizontal velocity of the body's last move when it was OK and
  // ended where this one starts (nothing otherwise).
  std::optional<Vec3> heading;
};
// The bounding boxes of m's movement shapes at `position`: where a round
// shape stands on a slope or a ledge's edge, a box (Quake, Source) or a
// perched capsule (Unreal) stands; the ground probes and the walk of the
// game's frames move them.
void PlaceBoxes(const ModelMove& m, const Vec3& position, std::vector<Shape>& shapes);
// Walkable ground within `probe` below m's body at `position` (recorded
// in m's trace as `purpose`).
Ground GroundUnder(const Scene& scene, const ModelMove& m, const Vec3& position, double probe,
                   std::vector<Shape>& shapes, std::string_view purpose);
// Fills `v` (speed set) from the rules of movement.h; `state` is the body's
// (nothing: unknown, found from the ground at `from`) and is updated.
void JudgeWithModel(const World& world, const MoveRequest& move, const ModelMove& m,
                    std::optional<MoveState>& state, MoveVerdict& v);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_WORLD_MOVE_MODEL_H_
