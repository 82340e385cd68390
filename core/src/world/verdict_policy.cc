// The rewind window and claim checks shared by shot, projectile and melee
// verdicts (world.h, "Shot checks").
#include "world/verdict_policy.h"

#include <algorithm>

namespace collide::internal {

Rewound RewindWithinPolicy(const World& world, const std::optional<Time>& at) {
  Rewound r;
  const std::optional<std::int64_t> latest = world.latest_tick();
  std::optional<Time> used = at;
  bool clamped_by_policy = false;
  if (latest && at) {
    // Ticks from `at` back to the latest frame (ticks are bounded so that
    // the difference is an int64).
    const double before = static_cast<double>(*latest - at->tick) - at->fraction;
    if (before < 0.0) {
      r.outcome = Rewound::Outcome::kInTheFuture;
      return r;
    }
    const WorldSettings& settings = world.settings();
    if (before > static_cast<double>(settings.max_rewind_ticks)) {
      if (!settings.clamp_old_shots) {
        r.outcome = Rewound::Outcome::kTooOld;
        return r;
      }
      used = Time{*latest - settings.max_rewind_ticks, 0.0};
      clamped_by_policy = true;
    }
  }
  r.scene = SceneAccess::At(world, used);
  r.scene.time.clamped = r.scene.time.clamped || clamped_by_policy;
  return r;
}

std::optional<ClaimedPart> FindClaim(const Scene& scene, const ShotClaim& claim) {
  if (scene.s0 == nullptr) return std::nullopt;
  const std::size_t body = scene.s0->IndexOf(claim.body);
  if (body == scene.body_count()) return std::nullopt;
  const auto& ids = scene.body(body).parts->ids;
  const auto it = std::find(ids.begin(), ids.end(), claim.part);
  if (it == ids.end()) return std::nullopt;
  return ClaimedPart{body, static_cast<std::size_t>(it - ids.begin())};
}

void ValidateClaim(const std::optional<ShotClaim>& claim, std::int64_t actor,
                   const std::vector<std::int64_t>& ignored, std::vector<Violation>& out) {
  if (!claim) return;
  if (claim->body == actor) {
    out.push_back({"claim.body", "is the actor's own body, which its verdict never hits"});
  } else if (std::find(ignored.begin(), ignored.end(), claim->body) != ignored.end()) {
    out.push_back({"claim.body", "is in the ignored bodies"});
  }
}

QueryFilter VerdictFilter(const World& world, CategoryMask mask, const std::vector<std::int64_t>& ignored,
                          std::int64_t actor) {
  QueryFilter filter;
  filter.mask = mask & world.settings().shot_mask;
  filter.ignored_bodies = ignored;
  filter.ignored_bodies.push_back(actor);
  return filter;
}

}  // namespace collide::internal
