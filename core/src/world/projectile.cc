// Projectile verdicts (collide/projectile.h): the shot policy's checks (the
// launch time, the shooter, its origin, the claim), then the flight chord by
// chord: one sweep against the statics along the chord, then the bodies
// frame interval by frame interval up to that contact.
#include "collide/projectile.h"

#include <algorithm>
#include <cmath>

#include "collide/mesh.h"
#include "world/moving_cast.h"
#include "world/scene_query.h"
#include "world/trajectory.h"
#include "world/verdict_policy.h"

namespace collide {
namespace {

using internal::Scene;
using internal::Trajectory;

bool Contains(const Aabb& outer, const Aabb& inner) {
  return outer.min.x <= inner.min.x && outer.min.y <= inner.min.y && outer.min.z <= inner.min.z &&
         inner.max.x <= outer.max.x && inner.max.y <= outer.max.y && inner.max.z <= outer.max.z;
}

// Whether `v` is a valid number in [lo, hi] (lo excluded when `open`).
bool InRange(double v, double lo, double hi, bool open = false) {
  return IsValidNumber(v) && (open ? v > lo : v >= lo) && v <= hi;
}

std::vector<Violation> RequestProblems(const ProjectileRequest& p) {
  std::vector<Violation> out;
  internal::ValidateTime(p.at, out);
  internal::ValidateNamedTime(p.command_at, "command_at", out);
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

// The first static contact of `sphere` moved by `v`: each mesh by its own
// front-to-back sweep, pruned by the best t (mesh.h), each primitive
// directly; ties by TargetLess. After a bounce the sphere touches what it
// left: CastShape with start contacts that separate not blocking.
internal::SceneCast CastStatics(const Scene& scene, const Sphere& sphere, const Vec3& v,
                                const QueryFilter& filter, bool bounced) {
  if (bounced) {
    internal::SweepOptions options;
    options.start_contacts_block = false;
    return internal::CastShape(scene, sphere, v, filter, false, options);
  }
  internal::SceneCast best;
  const auto offer = [&](const SweepResult& s, const HitTarget& target, std::size_t element) {
    if (s.hit &&
        (!best.sweep.hit || s.t < best.sweep.t || (s.t == best.sweep.t && TargetLess(target, best.target)))) {
      best = {s, target, element};
    }
  };
  const Vec3 r{sphere.radius, sphere.radius, sphere.radius};
  const Aabb box{Min(sphere.center, sphere.center + v) - r, Max(sphere.center, sphere.center + v) + r};
  const internal::StaticSet& statics = *scene.statics;
  statics.Overlap(box, [&](std::uint32_t i) {
    const StaticElement& e = statics.elements[i];
    if (!internal::Passes(filter, e.category) || !internal::Overlaps(statics.bounds[i], box)) return;
    if (const TriangleMesh* mesh = statics.MeshOf(i)) {
      const MeshSweepResult m = ShapeCast(sphere, v, *mesh);
      offer(m.sweep, {HitTarget::Kind::kStatic, e.id, m.triangle, 0}, i);
    } else {
      offer(ShapeCast(sphere, v, *statics.ShapeOf(i)), {HitTarget::Kind::kStatic, e.id, 0, 0}, i);
    }
  });
  return best;
}

// Whether a sphere of `radius` swept from a to b touches a static passing
// `filter`: a window needs no first contact, and a mesh's capsule overlap
// test costs less than its sweep.
bool StaticsTouch(const Scene& scene, const Vec3& a, const Vec3& b, double radius,
                  const QueryFilter& filter) {
  const Vec3 r{radius, radius, radius};
  const Aabb box{Min(a, b) - r, Max(a, b) + r};
  const internal::StaticSet& statics = *scene.statics;
  bool touch = false;
  statics.Overlap(box, [&](std::uint32_t i) {
    const StaticElement& e = statics.elements[i];
    if (touch || !internal::Passes(filter, e.category) || !internal::Overlaps(statics.bounds[i], box)) return;
    const TriangleMesh* mesh = statics.MeshOf(i);
    touch = mesh != nullptr ? QueryMesh(QueryLevel::kIntersect, Capsule{a, b, radius}, *mesh).result.hit
                            : ShapeCast(Sphere{a, radius}, b - a, *statics.ShapeOf(i)).hit;
  });
  return touch;
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
      : p_(p), launch_(launch), clock_{launch.time.used, p.tick_seconds}, filter_(filter) {
    // From the frame interval holding the launch (the scene's s0) to the
    // one holding the time limit.
    const auto& history = internal::SceneAccess::History(world);
    latest_ = clock_.SecondsTo(history.back()->tick);
    auto it = history.begin();
    while (it->get() != launch.s0) ++it;
    for (; it != history.end() && (seconds_.empty() || seconds_.back() < p.time_limit); ++it) {
      frames_.push_back(it->get());
      seconds_.push_back(clock_.SecondsTo((*it)->tick));
    }
  }

  ProjectileVerdict Run(ProjectileVerdict v) {
    const double latest = latest_;
    const double t_end = std::min(p_.time_limit, latest);
    const double tol = p_.chord_tolerance, radius = p_.radius + tol;
    Trajectory traj{p_.origin, p_.velocity, p_.gravity, p_.drag, 0.0};
    double t = 0.0, fine_until = 0.0;
    bool bounced = false;
    for (int steps = 0; t < t_end; ++steps) {
      const double fine = traj.ChordStep(t, tol);
      if (steps == kMaxProjectileSteps || !(t + fine > t)) {
        v = ProjectileVerdict{.code = ProjectileCode::kInvalid};
        v.problems.push_back(
            {"time_limit",
             "the flight needs more than 16384 sub-steps at this chord_tolerance and acceleration"});
        return v;
      }
      if (!bounced && t >= fine_until) {
        // A coarse window first: its chord within kCoarse * tol of the
        // curve, swept with that much more radius, holds every fine
        // sub-step's sphere at the same time; when it meets nothing the
        // whole window is clear (in open air, 8 fine chords at once).
        const double coarse = kCoarse * tol, w = std::min(t_end, t + traj.ChordStep(t, coarse));
        if (w > t + fine) {
          if (WindowClear(traj, t, w, radius + tol + coarse)) {
            t = w;
            continue;
          }
          fine_until = w;
        }
      }
      const double tb = std::min(t_end, t + fine);
      const Vec3 pa = traj.Position(t), pb = traj.Position(tb);
      const internal::SceneCast s = CastStatics(launch_, Sphere{pa, radius}, pb - pa, filter_, bounced);
      const double ts = s.sweep.hit ? t + s.sweep.t * (tb - t) : tb;
      const auto chord = [&](double u) { return tb > t ? pa + (pb - pa) * ((u - t) / (tb - t)) : pa; };
      double tm = 0.0;
      const internal::MovingHit m = CastBodies(t, ts, chord, radius, traj, tm);
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
  // The coarse window's deviation in chord tolerances: 64 makes the window
  // 8 fine chords long (the step grows with the square root).
  static constexpr double kCoarse = 64.0;
  // A window's sphere (radius + 3 tol + kCoarse tol in CastBodies) is within
  // kCoarse tol of the curve, a sub-step's (radius + 2 tol) within tol: both
  // within radius + kAhead tol of it.
  static constexpr double kAhead = 3.0 + 2.0 * kCoarse;

  // Whether a sphere of `radius` along the chord of [t, w] meets no static
  // and no body; the frame interval advances only when it does not.
  bool WindowClear(const Trajectory& traj, double t, double w, double radius) {
    const Vec3 pa = traj.Position(t), pb = traj.Position(w);
    if (StaticsTouch(launch_, pa, pb, radius, filter_)) return false;
    const std::size_t frame = frame_;
    const auto chord = [&](double u) { return pa + (pb - pa) * ((u - t) / (w - t)); };
    double when = 0.0;
    if (!CastBodies(t, w, chord, radius, traj, when).hit) return true;
    frame_ = frame;
    return false;
  }

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
  // world.h's interpolation); `when` its time. The broadphase runs once for
  // the box `traj` keeps to over a run of intervals (SteadyRun), again only
  // when a chord leaves that box or its intervals (after a bounce).
  template <typename Chord>
  internal::MovingHit CastBodies(double u0, double u1, const Chord& chord, double radius,
                                 const Trajectory& traj, double& when) {
    double u = u0;
    while (frame_ + 1 < frames_.size()) {
      const double f0 = seconds_[frame_];
      const double f1 = seconds_[frame_ + 1];
      const double end = std::min(u1, f1);
      if (end > u) {
        Scene scene = launch_;
        scene.s0 = frames_[frame_];
        scene.s1 = frames_[frame_ + 1];
        scene.alpha = std::clamp((u - f0) / (f1 - f0), 0.0, 1.0);
        const double alpha1 = std::clamp((end - f0) / (f1 - f0), 0.0, 1.0);
        // Bodies see the sphere grown by one more chord tolerance: the
        // relative chords of a turning part stay within it of their arc
        // (moving_cast.h).
        const double grown = radius + p_.chord_tolerance;
        const Vec3 c0 = chord(u), c1 = chord(end), r{grown, grown, grown};
        const Aabb box{Min(c0, c1) - r, Max(c0, c1) + r};
        if (frame_ < candidates_first_ || frame_ > candidates_last_ || !Contains(candidates_box_, box)) {
          // The flight's box over the run's intervals: the curve stays
          // within |a| h^2 / 8 of its chord (trajectory.h), and a later
          // window's or sub-step's sphere within kAhead of the curve.
          Vec3 drift;
          const std::size_t last = SteadyRun(drift);
          const double h = seconds_[last + 1] - u;
          const double ahead =
              Length(traj.Acceleration(u)) * h * h / 8.0 + p_.radius + kAhead * p_.chord_tolerance;
          const Vec3 pa = traj.Position(u), pb = traj.Position(seconds_[last + 1]), m{ahead, ahead, ahead};
          candidates_box_ = {Min(Min(pa, pb) - m, box.min), Max(Max(pa, pb) + m, box.max)};
          drift += (Abs(candidates_box_.min) + Abs(candidates_box_.max)) * (last > frame_ ? 1e-12 : 0.0);
          internal::MovingCandidates(scene, {candidates_box_.min - drift, candidates_box_.max + drift},
                                     filter_, candidates_);
          candidates_first_ = frame_;
          candidates_last_ = last;
        }
        // No body near the chord within the run: past its intervals at once
        // (open air: most windows).
        if (candidates_.empty()) {
          const double until = std::min(u1, seconds_[candidates_last_ + 1]);
          const Vec3 c2 = chord(until);
          if (Contains(candidates_box_, {Min(c0, c2) - r, Max(c0, c2) + r})) {
            while (frame_ + 1 < frames_.size() && seconds_[frame_ + 1] <= until) ++frame_;
            if (until >= u1) return {};
            u = until;
            continue;
          }
        }
        const internal::MovingHit m =
            internal::CastAgainstMovingBodies(scene, alpha1, c0, c1, grown, p_.chord_tolerance, candidates_);
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

  // The last frame of the intervals from frame_'s whose frames are steady
  // (snapshot.h), at most kMaxRun of them: one lookup in frame_'s tree
  // serves them all, its boxes grown by `drift`, the bodies' summed moves
  // over the run. The cap keeps the box of a long flight from taking in
  // every body.
  static constexpr std::size_t kMaxRun = 8;
  std::size_t SteadyRun(Vec3& drift) const {
    std::size_t last = frame_;
    while (last + 2 < frames_.size() && last - frame_ + 1 < kMaxRun && frames_[last + 1]->steady &&
           frames_[last + 2]->steady) {
      drift += frames_[last]->max_step;
      ++last;
    }
    if (last > frame_) drift = (drift + frames_[last]->max_step) * (1.0 + 1e-9);
    return last;
  }

  const ProjectileRequest& p_;
  const Scene& launch_;
  Clock clock_;
  const QueryFilter& filter_;
  // The flight's frames (the world's history deque indexed once) and their
  // times in seconds since launch; the latest frame's time.
  std::vector<const internal::Snapshot*> frames_;
  std::vector<double> seconds_;
  double latest_ = 0.0;
  std::size_t frame_ = 0;
  // The broadphase's bodies for the intervals of frames candidates_first_
  // to candidates_last_ within candidates_box_ (indices hold in each).
  std::vector<std::uint32_t> candidates_;
  std::size_t candidates_first_ = 1, candidates_last_ = 0;
  Aabb candidates_box_;
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
  if (!internal::OriginPlausible(world, p, v)) return v;
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
    case ProjectileCode::kOriginImplausible:
      return "ORIGIN_IMPLAUSIBLE";
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
