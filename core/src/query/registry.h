// The pair table behind Query() and RayCast(): one slot per (level, kind A,
// kind B) and one per ray-cast kind. Each kernel is registered once, for its
// own (A, B) order; Register fills the mirrored slot with the same kernel and
// a flipped result, so a pair is written exactly once. A slot is the whole
// hot path of Query(): variant unpacking, same-kind ordering and the flip, in
// one call with no allocation, recursion or type erasure beyond the pointer.
#ifndef COLLIDE_CORE_SRC_QUERY_REGISTRY_H_
#define COLLIDE_CORE_SRC_QUERY_REGISTRY_H_

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
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

// r.Flipped(), written over r (no copy of the whole result on the hot path).
inline void FlipInPlace(PairResult& r) {
  std::swap(r.point_a, r.point_b);
  r.normal = -r.normal;
}

// The alternative T of a Shape that the table lookup has already matched to
// its kind: no second index check.
template <typename T>
const T& Unchecked(const Shape& s) {
  const T* p = std::get_if<T>(&s);
  if (p == nullptr) __builtin_unreachable();
  return *p;
}

// The strict order on same-kind shapes that makes Query(a, b) and Query(b, a)
// run the kernel with the same argument order, so that they are exact
// mirrors: memcmp(&x, &y, sizeof(T)) < 0, computed eight bytes at a time
// (byte-reversed little-endian words compare as memcmp does). Every
// fixed-size shape is a plain array of doubles.
template <typename T>
bool SameKindLess(const T& x, const T& y) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) % sizeof(std::uint64_t) == 0);
  if constexpr (std::endian::native == std::endian::little) {
    for (std::size_t i = 0; i < sizeof(T); i += sizeof(std::uint64_t)) {
      std::uint64_t wx, wy;
      std::memcpy(&wx, reinterpret_cast<const char*>(&x) + i, sizeof(wx));
      std::memcpy(&wy, reinterpret_cast<const char*>(&y) + i, sizeof(wy));
      if (wx != wy) return __builtin_bswap64(wx) < __builtin_bswap64(wy);
    }
    return false;
  } else {
    return std::memcmp(&x, &y, sizeof(T)) < 0;
  }
}
// Hulls by their vertex lists, lexicographically, each vertex as above.
inline bool SameKindLess(const ConvexHull& x, const ConvexHull& y) {
  return std::lexicographical_compare(x.vertices.begin(), x.vertices.end(), y.vertices.begin(),
                                      y.vertices.end(),
                                      [](const Vec3& p, const Vec3& q) { return SameKindLess(p, q); });
}

class Registry {
 public:
  // Registers `Kernel`, a function `bool(const A&, const B&)` (intersect
  // level) or `PairResult(const A&, const B&)`, for `level` and (A, B), and its
  // mirror for (B, A). For A == B the slot itself puts the shapes in
  // SameKindLess order and flips the result when it swapped them. Each slot
  // is one call of the typed kernel, with no other dispatch.
  template <auto Kernel>
  void Register(QueryLevel level) {
    using Traits = KernelTraits<decltype(Kernel)>;
    using A = typename Traits::ShapeA;
    using B = typename Traits::ShapeB;
    constexpr int a = KindIndex<A>();
    constexpr int b = KindIndex<B>();
    static_assert(a >= 0 && b >= 0, "kernel arguments must be Shape alternatives");
    if constexpr (a != b) {
      pair_[Level(level)][a][b] = [](const Shape& sa, const Shape& sb) {
        return ToPairResult(Kernel(Unchecked<A>(sa), Unchecked<B>(sb)));
      };
      pair_[Level(level)][b][a] = [](const Shape& sb, const Shape& sa) {
        PairResult r = ToPairResult(Kernel(Unchecked<A>(sa), Unchecked<B>(sb)));
        FlipInPlace(r);
        return r;
      };
    } else {
      pair_[Level(level)][a][a] = [](const Shape& sa, const Shape& sb) {
        const A& x = Unchecked<A>(sa);
        const A& y = Unchecked<A>(sb);
        const bool swapped = SameKindLess(y, x);
        PairResult r = ToPairResult(Kernel(swapped ? y : x, swapped ? x : y));
        if (swapped) FlipInPlace(r);
        return r;
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
      return Kernel(ray, Unchecked<typename Traits::ShapeB>(shape));
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

// Query() for a pair of kinds without a kernel (cold): same-kind ordering as
// in the slots, the convex fallback, or kUnsupported for two halfspaces.
PairResult QueryWithoutKernel(QueryLevel level, const Shape& a, const Shape& b);

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
