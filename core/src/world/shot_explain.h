// What a shot's judge used (ShotRequest::explain), and the distance both the
// verdict and its explanation measure a claimed part by.
#ifndef COLLIDE_CORE_SRC_WORLD_SHOT_EXPLAIN_H_
#define COLLIDE_CORE_SRC_WORLD_SHOT_EXPLAIN_H_

#include "collide/world.h"

namespace collide::internal {

// Distance from the shot's segment to `part`: the segment runs from the
// origin far enough to pass the part (or to max_range).
double ClaimMissDistance(const ShotRequest& shot, const Shape& part);

// The explanation of `v`, a verdict of `shot` other than kInvalid: the
// shooter at the command's time, the ray when one was cast, the claimed
// body rewound and latest.
ShotExplanation ExplainShot(const World& world, const ShotRequest& shot, const ShotVerdict& v);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_WORLD_SHOT_EXPLAIN_H_
