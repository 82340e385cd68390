// The pair table behind Query() and RayCast(): one slot per (level, kind A,
// kind B) and one per ray-cast kind. Each kernel is registered once, for its
// own (A, B) order; Register fills the mirrored slot with the same kernel and
// a Flipped() result, so a pair is written exactly once.
#ifndef COLLIDE_CORE_SRC_QUERY_REGISTRY_H_
#define COLLIDE_CORE_SRC_QUERY_REGISTRY_H_

#include <type_traits>
#include <variant>

#include "collide/query.h"

namespace collide::internal {

using PairFn = PairResult (*)(const Shape& a, const Shape& b);
using RayFn = RayHit (*)(const Ray& ray, const Shape& shape);

template <typename T>
constexpr int KindIndex() {
  using Alternatives = Shape;
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    int index = -1;
    ((std::is_same_v<T, std::variant_alternative_t<I, Alternatives>> ? (index = static_cast<int>(I)) : 0),
     ...);
    return index;
  }
  (std::make_index_sequence<std::variant_size_v<Alternatives>>{});
}

template <typename F>
struct KernelTraits;
template <typename R, typename A, typename B>
struct KernelTraits<R (*)(const A&, const B&)> {
  using Result = R;
  using ShapeA = A;
  using ShapeB = B;
};

// Wraps an intersect kernel's bool into a PairResult.
inline PairResult ToPairResult(bool hit) { return PairResult{QueryStatus::kOk, hit, 0.0, {}, {}, {}}; }
inline PairResult ToPairResult(const PairResult& r) { return r; }

class Registry {
 public:
  // Registers `Kernel`, a function `bool(const A&, const B&)` (intersect
  // level) or `PairResult(const A&, const B&)`, for `level` and (A, B), and its
  // mirror for (B, A).
  template <auto Kernel>
  void Register(QueryLevel level) {
    using Traits = KernelTraits<decltype(Kernel)>;
    using A = typename Traits::ShapeA;
    using B = typename Traits::ShapeB;
    constexpr int a = KindIndex<A>();
    constexpr int b = KindIndex<B>();
    static_assert(a >= 0 && b >= 0, "kernel arguments must be Shape alternatives");
    pair_[Level(level)][a][b] = [](const Shape& sa, const Shape& sb) {
      return ToPairResult(Kernel(*std::get_if<A>(&sa), *std::get_if<B>(&sb)));
    };
    if constexpr (a != b) {
      pair_[Level(level)][b][a] = [](const Shape& sb, const Shape& sa) {
        return ToPairResult(Kernel(*std::get_if<A>(&sa), *std::get_if<B>(&sb))).Flipped();
      };
    }
  }

  // Registers `Kernel`, a function `RayHit(const Ray&, const S&)`.
  template <auto Kernel>
  void RegisterRay() {
    using Traits = KernelTraits<decltype(Kernel)>;
    constexpr int s = KindIndex<typename Traits::ShapeB>();
    static_assert(s >= 0, "ray kernel shape must be a Shape alternative");
    ray_[s] = [](const Ray& ray, const Shape& shape) {
      return Kernel(ray, *std::get_if<typename Traits::ShapeB>(&shape));
    };
  }

  PairFn PairKernel(QueryLevel level, ShapeKind a, ShapeKind b) const {
    return pair_[Level(level)][static_cast<int>(a)][static_cast<int>(b)];
  }
  RayFn RayKernel(ShapeKind s) const { return ray_[static_cast<int>(s)]; }

 private:
  static constexpr int Level(QueryLevel level) { return static_cast<int>(level); }
  PairFn pair_[3][kShapeKindCount][kShapeKindCount] = {};
  RayFn ray_[kShapeKindCount] = {};
};

// The table, built once on first use.
const Registry& GlobalRegistry();

// Each family of kernels registers itself in its own file.
void RegisterRoundKernels(Registry& r);   // point, segment, sphere, capsule.
void RegisterBoxKernels(Registry& r);     // aabb, obb.
void RegisterConvexKernels(Registry& r);  // triangle, hull, halfspace.

// The generic answer for any pair of convex kinds (everything but
// halfspace vs halfspace): GJK for distance, EPA for penetration, over the
// shapes' support functions. Kernels are tested against it.
PairResult QueryConvexFallback(QueryLevel level, const Shape& a, const Shape& b);
// The generic ray cast against any shape, over its support function.
RayHit RayCastConvexFallback(const Ray& ray, const Shape& shape);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_REGISTRY_H_
