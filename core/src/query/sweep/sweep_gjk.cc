// A GJK shape cast: A + t v touches B exactly when t v lies in the
// Minkowski difference B - A, so the sweep is a ray cast from the origin
// along v against B - A (van den Bergen 2004, section 4). The difference of
// the cores, support_B(d) - support_A(-d), inflated by rA + rB, is cast
// against by the same conservative advancement as the generic ray cast.
#include <algorithm>

#include "query/convex/conservative_advancement.h"
#include "query/convex/support.h"
#include "query/sweep/sweep_internal.h"

namespace collide::internal {

namespace {

struct MinkowskiCore {
  const ConvexCore& a;
  const ConvexCore& b;
  CastSupport Support(const Vec3& d) const {
    const Vec3 pb = b.Support(d);
    return {pb - a.Support(-d), pb};
  }
  Vec3 AnyPoint() const { return b.AnyPoint() - a.AnyPoint(); }
  double radius() const { return a.radius() + b.radius(); }
};

}  // namespace

SweepResult GjkSweep(const Shape& a, const Vec3& v, const Shape& b, const SweepOptions& options) {
  // Relative to a point of A, for round-off (support.h).
  const Vec3 shift = ReferencePoint(a);
  const ConvexCore ca(a, shift);
  const ConvexCore cb(b, shift);
  const double len = Length(v);
  const CastResult c = CastAgainstCore(MinkowskiCore{ca, cb}, v / len, len);
  // Started in contact or the iteration cap: the conservative advancement
  // answers, with the caller's options (a start contact moving away does
  // not block a ground probe).
  if (c.status != QueryStatus::kOk || (c.hit && c.lambda == 0.0)) return ConservativeSweep(a, v, b, options);
  SweepResult r;
  if (!c.hit) return r;
  r.hit = true;
  r.t = std::min(1.0, c.lambda / len);
  // c.normal is B - A's outward normal: B's outward normal at the contact,
  // so from A to B it is the negation.
  r.normal = -c.normal;
  // B's core point closest to A's at t, by the simplex weights, pushed out
  // to B's surface.
  Vec3 core_b;
  for (int i = 0; i < c.simplex.size; ++i) core_b += c.simplex.v[i].b * c.simplex.lambda[i];
  r.point = core_b + c.normal * cb.radius() + shift;
  return r;
}

}  // namespace collide::internal
