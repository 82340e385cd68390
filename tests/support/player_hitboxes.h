// A 56-unit (Quake units) player as 16 hitboxes, for the world tests on maps
// and the world benchmark.
#ifndef COLLIDE_TESTS_SUPPORT_PLAYER_HITBOXES_H_
#define COLLIDE_TESTS_SUPPORT_PLAYER_HITBOXES_H_

#include <vector>

#include "collide/world.h"

namespace collide::testing {

// Head, neck, chest, belly, pelvis, and per side upper and lower arm, thigh,
// shin and foot, plus one hand: spheres, capsules and boxes, ids 0..15, in the
// body frame (feet at z = 0, facing +x).
std::vector<BodyPart> PlayerHitboxes();
// The movement capsule of that player (radius 15, 56 tall, feet at z = 0).
inline Capsule PlayerCapsule() { return {{0, 0, 15}, {0, 0, 41}, 15}; }

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_PLAYER_HITBOXES_H_
