#include "pairs.h"

namespace collide::bench {

const std::vector<PairKind>& PairKinds() {
  // Extents measured on these seeds to give 45-55% hits (see the sanity lines
  // of bench/results/*/pair_bench.txt).
  static const std::vector<PairKind> kinds = {
      {"sphere_sphere", ShapeKind::kSphere, ShapeKind::kSphere, 0.84},
      {"sphere_capsule", ShapeKind::kSphere, ShapeKind::kCapsule, 0.76},
      {"sphere_aabb", ShapeKind::kSphere, ShapeKind::kAabb, 0.94},
      {"sphere_obb", ShapeKind::kSphere, ShapeKind::kObb, 0.93},
      {"sphere_triangle", ShapeKind::kSphere, ShapeKind::kTriangle, 0.53},
      {"capsule_capsule", ShapeKind::kCapsule, ShapeKind::kCapsule, 0.665},
      {"capsule_obb", ShapeKind::kCapsule, ShapeKind::kObb, 0.87},
      {"obb_obb", ShapeKind::kObb, ShapeKind::kObb, 1.08},
      {"aabb_triangle", ShapeKind::kAabb, ShapeKind::kTriangle, 0.6},
      {"obb_triangle", ShapeKind::kObb, ShapeKind::kTriangle, 0.6},
      {"capsule_triangle", ShapeKind::kCapsule, ShapeKind::kTriangle, 0.42},
      {"convex_hull_convex_hull", ShapeKind::kConvexHull, ShapeKind::kConvexHull, 0.45},
  };
  return kinds;
}

PairSet MakePairSet(const PairKind& kind, int count) {
  // One seed per kind pair, so adding a kind does not change the others.
  const std::uint64_t seed =
      0xC0111DE000ull + 16 * static_cast<std::uint64_t>(kind.a) + static_cast<std::uint64_t>(kind.b);
  PairSet set{kind, {}, {}, std::make_unique<testing::ShapeFactory>(seed, kind.extent)};
  set.a.reserve(count);
  set.b.reserve(count);
  for (int i = 0; i < count; ++i) {
    set.a.push_back(set.factory->Make(kind.a));
    set.b.push_back(set.factory->Make(kind.b));
  }
  return set;
}

}  // namespace collide::bench
