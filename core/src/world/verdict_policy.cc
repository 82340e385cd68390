// The rewind window, origin and claim checks shared by shot, projectile and
// melee verdicts (world.h, "Shot checks").
#include "world/verdict_policy.h"

#include <algorithm>
#include <string>

namespace collide::internal {
namespace {

// The shooter's eye in `scene` (body index or body_count() when absent).
std::size_t EyeAt(const Scene& scene, std::int64_t shooter, Vec3& eye) {
  const std::size_t i = scene.s0 != nullptr ? scene.s0->IndexOf(shooter) : 0;
  if (i < scene.body_count()) eye = Apply(scene.BodyPose(i), scene.body(i).eye);
  return i;
}

// The shooter's eye at the command's time and how far the eye moved over the
// tick before (none across a teleport); false when the shooter does not
// exist then.
bool ShooterAtCommand(const World& world, std::int64_t shooter, const std::optional<Time>& command_at,
                      Vec3& eye, double& motion) {
  const Scene now = SceneAccess::At(world, command_at);
  const std::size_t i = EyeAt(now, shooter, eye);
  if (i == now.body_count()) return false;
  motion = 0.0;
  if (!now.body(i).teleported) {
    const Time used = now.time.used;
    const Scene before = SceneAccess::At(world, Time{used.tick - 1, used.fraction});
    Vec3 earlier;
    if (EyeAt(before, shooter, earlier) < before.body_count()) motion = Length(eye - earlier);
  }
  return true;
}

}  // namespace

void ValidateNamedTime(const std::optional<Time>& t, std::string_view name, std::vector<Violation>& out) {
  std::vector<Violation> problems;
  ValidateTime(t, problems);
  for (Violation& p : problems)
    out.push_back({std::string(name) + p.field.substr(2), std::move(p.description)});
}

OriginCheck CheckOrigin(const World& world, std::int64_t shooter, const std::optional<Time>& command_at,
                        const Vec3& origin) {
  OriginCheck c;
  Vec3 eye;
  double motion = 0.0;
  if (!ShooterAtCommand(world, shooter, command_at, eye, motion)) {
    c.outcome = OriginCheck::Outcome::kUnknownShooter;
    return c;
  }
  c.offset = Length(origin - eye);
  c.allowance = world.settings().max_origin_offset + motion;
  if (c.offset > c.allowance) c.outcome = OriginCheck::Outcome::kImplausible;
  return c;
}

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
