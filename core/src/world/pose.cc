// Rigid poses, the interpolation rule of world.h, and placing part shapes.
#include <type_traits>

#include "collide/world.h"
#include "world/scene.h"

namespace collide {
namespace {

Quat Mul(const Quat& a, const Quat& b) {
  return {a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
          a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
}

Quat Normalized(const Quat& q) {
  const double n = Norm(q);
  return n > 0.0 && std::isfinite(n) ? Quat{q.w / n, q.x / n, q.y / n, q.z / n} : Quat{};
}

}  // namespace

Vec3 Apply(const Pose& pose, const Vec3& local) {
  return RotationFromQuat(pose.rotation) * local + pose.position;
}

Pose Compose(const Pose& outer, const Pose& inner) {
  return {Apply(outer, inner.position), Normalized(Mul(outer.rotation, inner.rotation))};
}

Pose Interpolate(const Pose& a, const Pose& b, double alpha) {
  if (alpha == 0.0) return a;
  const Vec3 p = a.position + (b.position - a.position) * alpha;
  const Quat& qa = a.rotation;
  Quat qb = b.rotation;
  // Shortest arc: q and -q are the same rotation.
  if (qa.w * qb.w + qa.x * qb.x + qa.y * qb.y + qa.z * qb.z < 0.0) qb = {-qb.w, -qb.x, -qb.y, -qb.z};
  const double s = 1.0 - alpha;
  return {p, Normalized({s * qa.w + alpha * qb.w, s * qa.x + alpha * qb.x, s * qa.y + alpha * qb.y,
                         s * qa.z + alpha * qb.z})};
}

Shape PlaceShape(const Shape& local, const Pose& pose) {
  return internal::PlaceShape(local, RotationFromQuat(pose.rotation), pose.position);
}

namespace internal {

Pose UnitPose(const Pose& pose) { return {pose.position, Normalized(pose.rotation)}; }

bool TeleportedAfter(const World& world, std::initializer_list<std::int64_t> bodies, std::int64_t tick) {
  const auto& history = SceneAccess::History(world);
  for (auto it = history.rbegin(); it != history.rend() && (*it)->tick > tick; ++it) {
    if (!(*it)->any_teleport) continue;
    for (const std::int64_t id : bodies) {
      if (const BodyState* b = (*it)->Find(id); b != nullptr && b->teleported) return true;
    }
  }
  return false;
}

Shape PlaceShape(const Shape& local, const Mat3& r, const Vec3& position) {
  const auto at = [&](const Vec3& v) { return r * v + position; };
  return std::visit(
      [&](const auto& s) -> Shape {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, Point>) {
          return Point{at(s.position)};
        } else if constexpr (std::is_same_v<T, Segment>) {
          return Segment{at(s.a), at(s.b)};
        } else if constexpr (std::is_same_v<T, Sphere>) {
          return Sphere{at(s.center), s.radius};
        } else if constexpr (std::is_same_v<T, Capsule>) {
          return Capsule{at(s.a), at(s.b), s.radius};
        } else if constexpr (std::is_same_v<T, Triangle>) {
          return Triangle{at(s.a), at(s.b), at(s.c)};
        } else if constexpr (std::is_same_v<T, Aabb>) {
          return Obb{at((s.min + s.max) * 0.5), r, (s.max - s.min) * 0.5};
        } else if constexpr (std::is_same_v<T, Obb>) {
          return Obb{at(s.center), r * s.rotation, s.half_extents};
        } else {
          return s;  // hulls and halfspaces are not parts (world.h).
        }
      },
      local);
}

}  // namespace internal

bool TargetLess(const HitTarget& a, const HitTarget& b) {
  if (a.kind != b.kind) return a.kind < b.kind;
  if (a.id != b.id) return a.id < b.id;
  if (a.triangle != b.triangle) return a.triangle < b.triangle;
  return a.part < b.part;
}

std::string_view ShotCodeName(ShotCode code) {
  switch (code) {
    case ShotCode::kConfirmed:
      return "CONFIRMED";
    case ShotCode::kHitOtherPart:
      return "HIT_OTHER_PART";
    case ShotCode::kHitOtherBody:
      return "HIT_OTHER_BODY";
    case ShotCode::kBlocked:
      return "BLOCKED";
    case ShotCode::kMissed:
      return "MISSED";
    case ShotCode::kRewindTooOld:
      return "REWIND_TOO_OLD";
    case ShotCode::kInTheFuture:
      return "IN_THE_FUTURE";
    case ShotCode::kOriginImplausible:
      return "ORIGIN_IMPLAUSIBLE";
    case ShotCode::kUnknownShooter:
      return "UNKNOWN_SHOOTER";
    case ShotCode::kUnknownTarget:
      return "UNKNOWN_TARGET";
    case ShotCode::kInvalid:
      return "INVALID";
    case ShotCode::kViewTimeImplausible:
      return "VIEW_TIME_IMPLAUSIBLE";
  }
  return "UNKNOWN";
}

std::string_view MoveCodeName(MoveCode code) {
  switch (code) {
    case MoveCode::kOk:
      return "OK";
    case MoveCode::kTooFast:
      return "TOO_FAST";
    case MoveCode::kBlocked:
      return "BLOCKED";
    case MoveCode::kStartPenetrating:
      return "START_PENETRATING";
    case MoveCode::kUnknownBody:
      return "UNKNOWN_BODY";
    case MoveCode::kInvalid:
      return "INVALID";
    case MoveCode::kTooFastHorizontal:
      return "TOO_FAST_HORIZONTAL";
    case MoveCode::kTooFastVertical:
      return "TOO_FAST_VERTICAL";
    case MoveCode::kStepTooHigh:
      return "STEP_TOO_HIGH";
    case MoveCode::kFlying:
      return "FLYING";
    case MoveCode::kTooSteep:
      return "TOO_STEEP";
    case MoveCode::kDistanceBudget:
      return "DISTANCE_BUDGET";
    case MoveCode::kTimeBudget:
      return "TIME_BUDGET";
  }
  return "UNKNOWN";
}

}  // namespace collide
