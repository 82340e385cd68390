// What the movement model keeps per body between moves (whether it is
// airborne and the arc it may be on) and the move budget's window. One entry
// per body that moved under a model or budget, dropped with the body (bounded by the bodies of the latest
// frame); reset when the body teleports. Judged in batch order under one lock, so the same moves in the same
// order give the same verdicts.
#ifndef COLLIDE_CORE_SRC_WORLD_MOVE_STATES_H_
#define COLLIDE_CORE_SRC_WORLD_MOVE_STATES_H_

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>

#include "world/move_budget.h"
#include "world/snapshot.h"

namespace collide::internal {

struct MoveState {
  bool airborne = false;
  double air_time = 0.0;  // seconds since take-off
  double z0 = 0.0;        // take-off height
  double v_lo = 0.0;      // take-off speeds consistent with every airborne move since
  double v_hi = 0.0;
  bool sliding = false;  // on a steep surface since z0: a slower fall (move_model.cc)
  // Horizontal speed carried from the air onto the ground (a landing strafe
  // jump), decaying with ground friction: a grounded move may be as fast.
  double carry = 0.0;
  // How far the body's OK moves ran ahead of their horizontal speed limits,
  // in total (at most the model's tolerance; never below 0).
  double ahead = 0.0;
  int stance = -1;               // of the body's last move (-1: none)
  std::int64_t tick = 0;         // the latest frame's when that move was judged
  std::optional<Vec3> put_back;  // where a rejected last move said the body belongs
  // The `to` of an OK last move that ended off walkable ground, and the mask
  // it was probed with (with `stance`): a move starting there needs no probe
  // for a landing at its start (the statics never change).
  std::optional<Vec3> off_ground_at;
  CategoryMask off_ground_mask = 0;
  bool steep_at_end = false;  // and its probe there met a surface too steep to stand on
  // The `to` of the last move when it was OK, and its horizontal velocity.
  std::optional<Vec3> ended_at;
  Vec3 heading;
};

class MoveStates {
 public:
  std::mutex mu;
  // Drops the bodies not in `latest` (under mu).
  void Prune(const Snapshot& latest);
  std::map<std::int64_t, MoveState> bodies;
  std::map<std::int64_t, BodyBudget> budgets;
};

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_WORLD_MOVE_STATES_H_
