// The packed world requests (world.proto: CastWorldRaysPacked,
// ValidateShotsPacked) <-> core world types. Violation paths name the
// offending array element ("rays[15]", "doubles[27]", "shooter_ids").
#ifndef COLLIDE_CONVERT_WORLD_PACKED_H_
#define COLLIDE_CONVERT_WORLD_PACKED_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "collide/v1/world.pb.h"
#include "collide/world.h"
#include "convert/violations.h"

namespace collide::convert {

// Doubles per packed shot: origin, direction, max_range, fraction,
// tolerance, max_skew_ticks.
inline constexpr int kPackedShotStride = 10;
// ticks[i] for a shot at the latest frame: never a tick (world.h's
// kMaxWorldTick bounds them).
inline constexpr std::int64_t kPackedLatestTick = std::numeric_limits<std::int64_t>::min();

// Closest-hit ray queries, all with the request's filter and time.
bool DecodePacked(const v1::CastWorldRaysPackedRequest& in, std::vector<RayQuery>& out,
                  ViolationList& violations);
// `results` all valid; `out` gets every array and the time of the first.
void EncodePacked(std::span<const RayQueryResult> results, v1::CastWorldRaysPackedResponse* out);

bool DecodePacked(const v1::ValidateShotsPackedRequest& in, std::vector<ShotRequest>& out,
                  ViolationList& violations);
// Shot i's core problems under the elements that hold them ("doubles[10i+3]",
// "ticks[i]", "claimed_body_ids[i]").
void AddPackedShotProblems(std::size_t i, std::vector<Violation>& problems, ViolationList& violations);

}  // namespace collide::convert

#endif  // COLLIDE_CONVERT_WORLD_PACKED_H_
