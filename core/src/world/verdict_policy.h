// The policy checks shot, projectile and melee verdicts share (world.h,
// "Shot checks"): the rewind window, the shooter's origin, the claimed
// target, the filter.
#ifndef COLLIDE_CORE_SRC_WORLD_VERDICT_POLICY_H_
#define COLLIDE_CORE_SRC_WORLD_VERDICT_POLICY_H_

#include <optional>
#include <string_view>
#include <vector>

#include "world/scene.h"

namespace collide::internal {

// The time a verdict is judged at: IN_THE_FUTURE after the latest frame,
// REWIND_TOO_OLD more than max_rewind_ticks before it (or, with
// clamp_old_shots, the scene at that limit with time.clamped set).
struct Rewound {
  enum class Outcome : std::uint8_t { kOk, kInTheFuture, kTooOld };
  Outcome outcome = Outcome::kOk;
  Scene scene;  // kOk only.
};
Rewound RewindWithinPolicy(const World& world, const std::optional<Time>& at);

// ValidateTime's problems of a time named `name` ("command_at.fraction").
void ValidateNamedTime(const std::optional<Time>& t, std::string_view name, std::vector<Violation>& out);

// The origin a shot or projectile claims against its shooter's eye
// (BodyUpdate::eye) at `command_at` (the latest frame when unset): the offset
// allowed is max_origin_offset plus how far the eye moved over the tick
// before (a run, a fall, a crouch; nothing across a teleport).
struct OriginCheck {
  enum class Outcome : std::uint8_t { kOk, kUnknownShooter, kImplausible };
  Outcome outcome = Outcome::kOk;
  double offset = 0.0;     // |origin - eye|; 0 for kUnknownShooter.
  double allowance = 0.0;  // 0 for kUnknownShooter.
};
OriginCheck CheckOrigin(const World& world, std::int64_t shooter, const std::optional<Time>& command_at,
                        const Vec3& origin);
// CheckOrigin on a shot's or projectile's request, into its verdict: the
// offset and allowance, and kUnknownShooter or kOriginImplausible of the
// verdict's code when the check fails (false then: the verdict is decided).
template <typename Request, typename Verdict>
bool OriginPlausible(const World& world, const Request& request, Verdict& v) {
  using Code = decltype(v.code);
  const OriginCheck c = CheckOrigin(world, request.shooter, request.command_at, request.origin);
  v.origin_offset = c.offset;
  v.origin_allowance = c.allowance;
  if (c.outcome == OriginCheck::Outcome::kUnknownShooter) v.code = Code::kUnknownShooter;
  if (c.outcome == OriginCheck::Outcome::kImplausible) v.code = Code::kOriginImplausible;
  return c.outcome == OriginCheck::Outcome::kOk;
}

// The claimed body's index in the scene and the claimed part's index in its
// part set; nothing when either does not exist at the scene's time.
struct ClaimedPart {
  std::size_t body = 0;
  std::size_t part = 0;
};
std::optional<ClaimedPart> FindClaim(const Scene& scene, const ShotClaim& claim);

// The request problems of a verdict's filter and claim: the claim on the
// actor itself or on an ignored body.
void ValidateClaim(const std::optional<ShotClaim>& claim, std::int64_t actor,
                   const std::vector<std::int64_t>& ignored, std::vector<Violation>& out);

// The filter a verdict sees the world through: its mask with the world's
// shot_mask, its ignored bodies and the actor.
QueryFilter VerdictFilter(const World& world, CategoryMask mask, const std::vector<std::int64_t>& ignored,
                          std::int64_t actor);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_WORLD_VERDICT_POLICY_H_
