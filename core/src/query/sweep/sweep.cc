// ShapeCast: the closed-form kernel of the pair when there is one (after
// the t = 0 overlap test, whose answer comes from Contact), else the generic
// conservative advancement.
#include "collide/query.h"
#include "query/sweep/sweep_internal.h"

namespace collide {
namespace internal {

namespace {

SweepTable BuildSweepTable() {
  SweepTable t;
  RegisterBallSweeps(t);
  RegisterSegmentSweeps(t);
  return t;
}

// As the pair table (dispatch.cc): built before any other initializer.
__attribute__((init_priority(101))) const SweepTable kSweepTable = BuildSweepTable();

}  // namespace

SweepResult ShapeCast(const Shape& a, const Vec3& v, const Shape& b, const SweepOptions& options) {
  if (KindOf(a) == ShapeKind::kHalfspace) return {.status = QueryStatus::kUnsupported};
  const SweepFn fn = options.margin == 0.0 ? kSweepTable.Kernel(KindOf(a), KindOf(b)) : nullptr;
  // A box against a triangle (a player box against a map): the
  // separating-axis cast, which finds a start in contact itself.
  if (options.margin == 0.0 && v != Vec3{} && IsBoxTrianglePair(a, b))
    return BoxTriangleSweep(a, v, b, options);
  // Pairs without a sweep kernel whose Contact has no kernel either (hulls,
  // triangles against triangles and hulls) take the GJK ray
  // cast: each conservative advancement step would be a full GJK + EPA, about
  // twice the cost of the whole cast (hull-hull in sweep_bench). Pairs with a
  // Contact kernel advance faster on it.
  // Segment- and capsule-triangle have Contact kernels, but the GJK cast
  // stays the faster there, where the Contact at t = 0 alone costs about
  // 300 ns (sweep_bench; bench/README.md, "Shape casts").
  const auto gjk_kind = [](ShapeKind k) { return k == ShapeKind::kSegment || k == ShapeKind::kCapsule; };
  const bool gjk_against_triangle = (gjk_kind(KindOf(a)) && KindOf(b) == ShapeKind::kTriangle) ||
                                    (KindOf(a) == ShapeKind::kTriangle && gjk_kind(KindOf(b)));
  const bool gjk = fn == nullptr && options.margin == 0.0 && KindOf(b) != ShapeKind::kHalfspace &&
                   (gjk_against_triangle ||
                    GlobalRegistry().PairKernel(QueryLevel::kContact, KindOf(a), KindOf(b)) == nullptr);
  // The GJK cast finds a start in contact itself (at no extra cost: its
  // first steps are GJK's), so it needs no Contact at t = 0 first.
  if (gjk && v != Vec3{}) return GjkSweep(a, v, b, options);
  // Overlapping or touching (within the tolerance) at t = 0, a zero
  // translation and every other pair without a kernel: the generic sweep,
  // whose first step is Contact at t = 0. A start contact's normal and point
  // are Contact's: a closed form's ray starting on the grown target reports
  // only -direction there, which is no contact normal.
  if (fn == nullptr || v == Vec3{} || Contact(a, b).distance <= SweepTolerance(a, v, b)) {
    return ConservativeSweep(a, v, b, options);
  }
  return fn(a, v, b);
}

}  // namespace internal

SweepResult ShapeCast(const Shape& a, const Vec3& translation, const Shape& b) {
  return internal::ShapeCast(a, translation, b, internal::SweepOptions{});
}

}  // namespace collide
