// Projectile verdicts (collide/projectile.h): the shot policy's checks, then
// the flight chord by chord: one sweep against the statics along the chord,
// then the bodies frame interval by frame interval up to that contact.
#include "collide/projectile.h"

#include <algorithm>
#include <cmath>

#include "world/moving_cast.h"
#include "world/scene_query.h"
#include "world/trajectory.h"
#include "world/verdict_policy.h"

namespace collide {
namespace {

using internal::Scene;
using internal::Trajectory;

// Whether `v` is a valid number in [lo, hi] (lo excluded when `open`).
bool InRange(double v, double lo, double hi, bool open = false) {
  return IsValidNumber(v) && (open ? v > lo : v >= lo) && v <= hi;
}

std::vector<Violation> RequestProblems(const ProjectileRequest& p) {
  std::vector<Violation> out;
  internal::ValidateTime(p.at, out);
  if (!IsValidNumber(p.origin)) out.push_back({"origin", "not a valid number"});
  if (!IsValidNumber(p.velocity)) out.push_back({"velocity", "not a valid number"});
  if (!IsValidNumber(p.gravity)) out.push_back({"gravity", "not a valid number"});
  if (!InRange(p.drag, 0.0, kMaxMagnitude)) out.push_back({"drag", "must be a valid number >= 0"});
  if (!InRange(p.radius, 0.0, kMaxMagnitude)) out.push_back({"radius", "must be a valid number >= 0"});
  if (!InRange(p.restitution, 0.0, 1.0)) out.push_back({"restitution", "must be in [0, 1]"});
  if (p.max_bounces < 0 || p.max_bounces > kMaxProjectileBounces) {
    out.push_back({"max_bounces", "must be in [0, 64]"});
  }
  if (!InRange(p.time_limit, 0.0, kMaxProjectileSeconds, true)) {
    out.push_back({"time_limit", "must be in (0, 600] seconds"});
  }
  if (!InRange(p.tick_seconds, 0.0, 60.0, true))
    out.push_back({"tick_seconds", "must be in (0, 60] seconds"});
  if (!InRange(p.chord_tolerance, 0.0, kMaxMagnitude, true)) {
    out.push_back({"chord_tolerance", "must be a valid number > 0"});
  }
  internal::ValidateClaim(p.claim, p.shooter, p.ignored_bodies, out);
  return out;
}

// Seconds since launch and world time (collide/projectile.h, "Time").
struct Clock {
  Time launch;
  double tick_seconds = 0.0;

  double SecondsTo(std::int64_t tick) const {
    return (static_cast<double>(tick - launch.tick) - launch.fraction) * tick_seconds;
  }
  // Called only for seconds up to the latest frame, so the ticks fit.
  Time At(double seconds) const {
    const double total = launch.fraction + seconds / tick_seconds;
    const double whole = std::floor(total);
    Time t{launch.tick + static_cast<std::int64_t>(whole), total - whole};
    if (!(t.fraction < 1.0)) t = {t.tick + 1, 0.0};
    return t;
  }
};

// One flight's judging state.
class Flight {
 public:
  Flight(const World& world, const ProjectileRequest& p, const Scene& launch, const QueryFilter& filter)
      : p_(p),
        history_(internal::SceneAccess::History(world)),
        launch_(launch),
        clock_{launch.time.used, p.tick_seconds},
        filter_(filter) {
    // The frame interval holding the launch: the scene's s0.
    while (history_[frame_].get() != launch.s0) ++frame_;
  }

  ProjectileVerdict Run(ProjectileVerdict v) {
    const double latest = clock_.SecondsTo(history_.back()->tick);
    const double t_end = std::min(p_.time_limit, latest);
    const double tol = p_.chord_tolerance, radius = p_.radius + tol;
    Trajectory traj{p_.origin, p_.velocity, p_.gravity, p_.drag, 0.0};
    double t = 0.0;
    bool bounced = false;
    for (int steps = 0; t < t_end; ++steps) {
      if (steps == kMaxProjectileSteps) {
        v.code = ProjectileCode::kInvalid;
        v.problems.push_back(
            {"time_limit", "the flight needs more than 65536 sub-steps at this chord_tolerance"});
        return v;
      }
      const double tb = std::min(t_end, t + traj.ChordStep(t, tol));
      const Vec3 pa = traj.Position(t), pb = traj.Position(tb);
      internal::SweepOptions options;
      options.start_contacts_block = !bounced;  // a bounce leaves the surface it touches.
      const internal::SceneCast s =
          internal::CastShape(launch_, Sphere{pa, radius}, pb - pa, filter_, false, options);
      const double ts = s.sweep.hit ? t + s.sweep.t * (tb - t) : tb;
      const auto chord = [&](double u) { return tb > t ? pa + (pb - pa) * ((u - t) / (tb - t)) : pa; };
      double tm = 0.0;
      const internal::MovingHit m = CastBodies(t, ts, chord, radius, tm);
      if (m.hit && (!s.sweep.hit || tm < ts)) {  // ties: statics first (TargetLess).
        v.hit = Contact(tm, chord(tm), m.point, m.normal, m.target);
        v.code = BodyCode(m.target);
        return End(v, traj, tm);
      }
      if (s.sweep.hit) {
        const ProjectileContact c = Contact(ts, chord(ts), s.sweep.point, s.sweep.normal, s.target);
        if (static_cast<int>(v.bounces.size()) == p_.max_bounces) {
          v.hit = c;
          v.code = ProjectileCode::kBlocked;
          return End(v, traj, ts);
        }
        // Reflection with restitution: the normal component scaled by -e,
        // the tangential kept.
        const Vec3 in = traj.Velocity(ts), n = s.sweep.normal;
        traj = {c.position, in - n * ((1.0 + p_.restitution) * Dot(in, n)), p_.gravity, p_.drag, ts};
        v.bounces.push_back(c);
        t = ts;
        bounced = true;
        continue;
      }
      t = tb;
      bounced = false;
    }
    v.code = p_.time_limit <= latest ? ProjectileCode::kMissed : ProjectileCode::kInFlight;
    return End(v, traj, t_end);
  }

 private:
  ProjectileContact Contact(double seconds, const Vec3& position, const Vec3& point, const Vec3& normal,
                            const HitTarget& target) const {
    return {seconds, clock_.At(seconds), position, point, normal, target};
  }

  ProjectileVerdict End(ProjectileVerdict& v, const Trajectory& traj, double seconds) const {
    v.seconds = seconds;
    v.end_at = clock_.At(seconds);
    v.position = v.hit ? v.hit->position : traj.Position(seconds);
    v.velocity = traj.Velocity(seconds);
    return std::move(v);
  }

  ProjectileCode BodyCode(const HitTarget& target) const {
    if (!p_.claim || (target.id == p_.claim->body && target.part == p_.claim->part)) {
      return ProjectileCode::kConfirmed;
    }
    return target.id == p_.claim->body ? ProjectileCode::kHitOtherPart : ProjectileCode::kHitOtherBody;
  }

  // The first body contact over [u0, u1] seconds, the sphere's centre at
  // chord(u), frame interval by interval (the bodies move linearly in each:
  // world.h's interpolation); `when` its time.
  template <typename Chord>
  internal::MovingHit CastBodies(double u0, double u1, const Chord& chord, double radius, double& when) {
    double u = u0;
    while (frame_ + 1 < history_.size()) {
      const double f0 = clock_.SecondsTo(history_[frame_]->tick);
      const double f1 = clock_.SecondsTo(history_[frame_ + 1]->tick);
      const double end = std::min(u1, f1);
      if (end > u) {
        Scene scene = launch_;
        scene.s0 = history_[frame_].get();
        scene.s1 = history_[frame_ + 1].get();
        scene.alpha = std::clamp((u - f0) / (f1 - f0), 0.0, 1.0);
        const double alpha1 = std::clamp((end - f0) / (f1 - f0), 0.0, 1.0);
        const internal::MovingHit m =
            internal::CastAgainstMovingBodies(scene, alpha1, chord(u), chord(end), radius, filter_);
        if (m.hit) {
          when = u + m.t * (end - u);
          return m;
        }
      }
      if (u1 < f1) break;
      ++frame_;
      u = std::max(u, f1);
      if (u >= u1) break;
    }
    return {};
  }

  const ProjectileRequest& p_;
  const std::deque<std::unique_ptr<internal::Snapshot>>& history_;
  const Scene& launch_;
  Clock clock_;
  const QueryFilter& filter_;
  std::size_t frame_ = 0;
};

ProjectileVerdict Judge(const World& world, const ProjectileRequest& p) {
  ProjectileVerdict v;
  v.problems = RequestProblems(p);
  if (!v.problems.empty()) {
    v.code = ProjectileCode::kInvalid;
    return v;
  }
  v.time = world.Resolve(p.at);
  const internal::Rewound rewound = internal::RewindWithinPolicy(world, p.at);
  if (rewound.outcome != internal::Rewound::Outcome::kOk) {
    v.code = rewound.outcome == internal::Rewound::Outcome::kInTheFuture ? ProjectileCode::kInTheFuture
                                                                         : ProjectileCode::kRewindTooOld;
    return v;
  }
  const Scene& scene = rewound.scene;
  v.time = scene.time;
  if (scene.s0 == nullptr || scene.s0->Find(p.shooter) == nullptr) {
    v.code = ProjectileCode::kUnknownShooter;
    return v;
  }
  if (p.claim) {
    const std::optional<internal::ClaimedPart> claimed = internal::FindClaim(scene, *p.claim);
    if (!claimed) {
      v.code = ProjectileCode::kUnknownTarget;
      return v;
    }
    if ((scene.body(claimed->body).category & p.mask) == 0) {
      v.code = ProjectileCode::kInvalid;
      v.problems.push_back({"claim.body", "is outside the projectile's category mask"});
      return v;
    }
  }
  const QueryFilter filter = internal::VerdictFilter(world, p.mask, p.ignored_bodies, p.shooter);
  return Flight(world, p, scene, filter).Run(std::move(v));
}

}  // namespace

std::string_view ProjectileCodeName(ProjectileCode code) {
  switch (code) {
    case ProjectileCode::kConfirmed:
      return "CONFIRMED";
    case ProjectileCode::kHitOtherPart:
      return "HIT_OTHER_PART";
    case ProjectileCode::kHitOtherBody:
      return "HIT_OTHER_BODY";
    case ProjectileCode::kBlocked:
      return "BLOCKED";
    case ProjectileCode::kMissed:
      return "MISSED";
    case ProjectileCode::kInFlight:
      return "IN_FLIGHT";
    case ProjectileCode::kRewindTooOld:
      return "REWIND_TOO_OLD";
    case ProjectileCode::kInTheFuture:
      return "IN_THE_FUTURE";
    case ProjectileCode::kUnknownShooter:
      return "UNKNOWN_SHOOTER";
    case ProjectileCode::kUnknownTarget:
      return "UNKNOWN_TARGET";
    case ProjectileCode::kInvalid:
      return "INVALID";
  }
  return "UNKNOWN";
}

std::vector<ProjectileVerdict> World::ValidateProjectiles(
    std::span<const ProjectileRequest> projectiles) const {
  std::vector<ProjectileVerdict> out;
  out.reserve(projectiles.size());
  for (const ProjectileRequest& p : projectiles) out.push_back(Judge(*this, p));
  return out;
}

}  // namespace collide
