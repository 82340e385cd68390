// The generic sweep: conservative advancement (Mirtich 1996, "Impulse-based
// dynamic simulation of rigid body systems", ch. 5) on the exact Contact
// kernels. For a pure translation the distance d(t) between two convex sets
// is a convex function of t (the distance from the point t * v to the fixed
// Minkowski difference), so d(t + h) >= d(t) - h * dot(v, n) with n the
// contact normal at t: advancing by d / dot(v, n) never passes the first
// contact, whatever the speed (no tunnelling), and reaches it in a few steps
// (one for a flat face). The signed distance is convex too, so the same
// step is safe towards the level -margin.
//
// Why not a GJK ray cast (van den Bergen 2004): it needs GJK's inner state
// across iterations, while this reuses the specialized Contact kernels
// (exact closed forms for most pairs) and their tested accuracy, and gives
// Contact's depth and normal at t = 0 for free. Its one weakness is a
// grazing path whose distance decreases slowly: the step cap reports it.
#include <algorithm>
#include <cmath>

#include "collide/query.h"
#include "query/sweep/sweep_internal.h"

namespace collide::internal {

namespace {

// The largest magnitude among a shape's defining numbers: the length scale
// to which Contact's rounding is relative.
double ShapeScale(const Shape& shape) {
  auto m = [](const Vec3& p) { return std::max({std::fabs(p.x), std::fabs(p.y), std::fabs(p.z)}); };
  return std::visit(
      [&](const auto& s) -> double {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, Point>) {
          return m(s.position);
        } else if constexpr (std::is_same_v<T, Segment>) {
          return std::max(m(s.a), m(s.b));
        } else if constexpr (std::is_same_v<T, Sphere>) {
          return std::max(m(s.center), s.radius);
        } else if constexpr (std::is_same_v<T, Capsule>) {
          return std::max({m(s.a), m(s.b), s.radius});
        } else if constexpr (std::is_same_v<T, Aabb>) {
          return std::max(m(s.min), m(s.max));
        } else if constexpr (std::is_same_v<T, Obb>) {
          return std::max(m(s.center), m(s.half_extents));
        } else if constexpr (std::is_same_v<T, Triangle>) {
          return std::max({m(s.a), m(s.b), m(s.c)});
        } else if constexpr (std::is_same_v<T, Halfspace>) {
          return std::fabs(s.offset);
        } else {
          double r = 0.0;
          for (const Vec3& p : s.vertices) r = std::max(r, m(p));
          return r;
        }
      },
      shape);
}

}  // namespace

double SweepTolerance(const Shape& a, const Vec3& v, const Shape& b) {
  return kSweepRelativeTolerance * std::max({Length(v), ShapeScale(a), ShapeScale(b)});
}

SweepResult ConservativeSweep(const Shape& a, const Vec3& v, const Shape& b, const SweepOptions& options) {
  const double tol = SweepTolerance(a, v, b);
  std::vector<Vec3> hull;  // a moved hull's vertices.
  double t = 0.0;
  Vec3 last_normal;  // the normal of the last advance (closing > 0).
  for (int step = 0; step < kMaxAdvanceSteps; ++step) {
    const PairResult c = Contact(t == 0.0 ? a : TranslateShape(a, v * t, &hull), b);
    if (c.status == QueryStatus::kUnsupported) return {.status = QueryStatus::kUnsupported};
    const double closing = Dot(v, c.normal);  // rate at which d falls, per unit t.
    const double gap = c.distance + options.margin;
    if (gap <= tol) {
      if (t == 0.0 && !options.start_contacts_block && closing <= 0.0) return {};
      SweepResult r;
      r.status = c.status;
      r.hit = true;
      r.t = t;
      // A first contact's normal never opposes the motion (moving A on
      // cannot separate it). Contact's normal for shapes touching within
      // the tolerance can (a degenerate pair's tie-break, a zero-extent box
      // entered edge-on): then the last advance's normal, which separated
      // the shapes an instant before, is the contact's.
      r.normal = t > 0.0 && Dot(c.normal, v) < -1e-9 * Length(v) ? last_normal : c.normal;
      r.point = (c.point_a + c.point_b) * 0.5;
      r.depth = t == 0.0 ? std::max(0.0, -c.distance) : 0.0;
      return r;
    }
    if (closing <= 0.0) return {};
    last_normal = c.normal;
    t += gap / closing;
    if (!(t <= 1.0)) return {};
  }
  SweepResult r;
  r.status = QueryStatus::kNotConverged;
  r.t = t;
  return r;
}

}  // namespace collide::internal
