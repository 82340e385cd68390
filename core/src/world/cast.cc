#include "world/cast.h"

#include <algorithm>

#include "collide/query.h"
#include "world/scene.h"

namespace collide::internal {

namespace {
constexpr int kMaxSteps = 64;
}

SweepResult ConservativeCast(const Shape& a, const Vec3& v, const Shape& b, const CastOptions& options) {
  const double length = Length(v);
  // Contact kernels are accurate to ~1e-12 relative; the stop distance is
  // far above that and far below any game-relevant length.
  const double tol = 1e-9 * std::max(1.0, length);
  double t = 0.0;
  for (int step = 0; step < kMaxSteps; ++step) {
    const PairResult c = Contact(t == 0.0 ? a : Translate(a, v * t), b);
    if (c.status == QueryStatus::kUnsupported) return {};
    const double closing = Dot(v, c.normal);  // rate at which d falls, per unit t.
    const double gap = c.distance + options.margin;
    if (gap <= tol) {
      if (t == 0.0 && !options.start_contacts_block && closing <= 0.0) return {};
      SweepResult r;
      r.hit = true;
      r.t = t;
      r.normal = c.normal;
      r.point = (c.point_a + c.point_b) * 0.5;
      r.depth = t == 0.0 ? std::max(0.0, -c.distance) : 0.0;
      return r;
    }
    if (closing <= 0.0) return {};
    t += gap / closing;
    if (!(t <= 1.0)) return {};
  }
  SweepResult r;
  r.status = QueryStatus::kNotConverged;
  r.t = t;
  return r;
}

}  // namespace collide::internal
