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
  // Overlapping or touching (within the tolerance) at t = 0, a zero
  // translation and every pair without a kernel: the generic sweep, whose
  // first step is Contact at t = 0. (A ray starting on a surface is an edge
  // case the ray kernels need not resolve: one on a capsule's surface,
  // heading in, can miss.)
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
