// Query() and RayCast(): one lookup in the kernel table, whose slots already
// unpack the shapes, order same-kind pairs and flip mirrored results (see
// registry.h); pairs without a kernel go to the generic convex algorithms.
#include "collide/query.h"
#include "query/registry.h"

namespace collide {
namespace internal {

namespace {

Registry BuildRegistry() {
  Registry r;
  RegisterRoundKernels(r);
  RegisterBoxKernels(r);
  RegisterConvexKernels(r);
  return r;
}

// Built before every other static initializer of the program (GCC and Clang
// init_priority; 101 is the first one not reserved), so that Query() needs no
// first-use guard on its hot path and still works from other initializers.
__attribute__((init_priority(101))) const Registry kRegistry = BuildRegistry();

}  // namespace

const Registry& GlobalRegistry() { return kRegistry; }

namespace {

// SameKindLess(b, a) for two shapes of the same kind.
bool SameKindSwapped(const Shape& a, const Shape& b) {
  return std::visit(
      [&b](const auto& sa) { return SameKindLess(Unchecked<std::decay_t<decltype(sa)>>(b), sa); }, a);
}

}  // namespace

PairResult QueryWithoutKernel(QueryLevel level, const Shape& a, const Shape& b) {
  const ShapeKind ka = KindOf(a);
  const ShapeKind kb = KindOf(b);
  if (ka == ShapeKind::kHalfspace && kb == ShapeKind::kHalfspace) {
    return PairResult{.status = QueryStatus::kUnsupported};
  }
  // The same order as the same-kind kernel slots, so that the fallback's
  // Query(a, b) and Query(b, a) are exact mirrors too.
  if (ka == kb && SameKindSwapped(a, b)) {
    PairResult r = QueryConvexFallback(level, b, a);
    FlipInPlace(r);
    return r;
  }
  return QueryConvexFallback(level, a, b);
}

}  // namespace internal

PairResult Query(QueryLevel level, const Shape& a, const Shape& b) {
  const internal::PairFn fn = internal::GlobalRegistry().PairKernel(level, KindOf(a), KindOf(b));
  if (fn != nullptr) [[likely]] {
    return fn(a, b);
  }
  return internal::QueryWithoutKernel(level, a, b);
}

bool IsSupported(ShapeKind a, ShapeKind b) {
  return !(a == ShapeKind::kHalfspace && b == ShapeKind::kHalfspace);
}

RayHit RayCast(const Ray& ray, const Shape& shape) {
  if (const internal::RayFn fn = internal::GlobalRegistry().RayKernel(KindOf(shape))) return fn(ray, shape);
  return internal::RayCastConvexFallback(ray, shape);
}

}  // namespace collide
