// Query() and RayCast(): look the pair up in the registry, fall back to the
// generic convex algorithms, and keep mirror symmetry exact.
#include <algorithm>
#include <cstring>

#include "collide/query.h"
#include "query/registry.h"

namespace collide {
namespace internal {

const Registry& GlobalRegistry() {
  static const Registry* const registry = [] {
    auto* r = new Registry();
    RegisterRoundKernels(*r);
    RegisterBoxKernels(*r);
    RegisterConvexKernels(*r);
    return r;
  }();
  return *registry;
}

namespace {

// A strict order on same-kind shapes (bytewise; hulls by their vertex
// lists), so that Query(a, b) and Query(b, a) run the kernel with the same
// argument order and are exact mirrors of each other.
bool SameKindSwapped(const Shape& a, const Shape& b) {
  if (const auto* ha = std::get_if<ConvexHull>(&a)) {
    const auto* hb = std::get_if<ConvexHull>(&b);
    return std::lexicographical_compare(
        hb->vertices.begin(), hb->vertices.end(), ha->vertices.begin(), ha->vertices.end(),
        [](const Vec3& p, const Vec3& q) { return std::memcmp(&p, &q, sizeof(Vec3)) < 0; });
  }
  return std::visit(
      [&b](const auto& sa) {
        using T = std::decay_t<decltype(sa)>;
        return std::memcmp(std::get_if<T>(&b), &sa, sizeof(T)) < 0;
      },
      a);
}

}  // namespace
}  // namespace internal

PairResult Query(QueryLevel level, const Shape& a, const Shape& b) {
  const ShapeKind ka = KindOf(a);
  const ShapeKind kb = KindOf(b);
  if (ka == kb && internal::SameKindSwapped(a, b)) return Query(level, b, a).Flipped();
  if (const internal::PairFn fn = internal::GlobalRegistry().PairKernel(level, ka, kb)) return fn(a, b);
  if (ka == ShapeKind::kHalfspace && kb == ShapeKind::kHalfspace) {
    return PairResult{.status = QueryStatus::kUnsupported};
  }
  return internal::QueryConvexFallback(level, a, b);
}

bool IsSupported(ShapeKind a, ShapeKind b) {
  return !(a == ShapeKind::kHalfspace && b == ShapeKind::kHalfspace);
}

RayHit RayCast(const Ray& ray, const Shape& shape) {
  if (const internal::RayFn fn = internal::GlobalRegistry().RayKernel(KindOf(shape))) return fn(ray, shape);
  return internal::RayCastConvexFallback(ray, shape);
}

}  // namespace collide
