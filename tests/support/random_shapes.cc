#include "support/random_shapes.h"

#include <cmath>

namespace collide::testing {

double ShapeFactory::Uniform(double lo, double hi) {
  // 53 random bits -> [0, 1); avoids std::uniform_real_distribution, whose
  // output differs between standard libraries.
  const double u = static_cast<double>(rng_() >> 11) * 0x1.0p-53;
  return lo + (hi - lo) * u;
}

Vec3 ShapeFactory::Position() {
  return {Uniform(-extent_, extent_), Uniform(-extent_, extent_), Uniform(-extent_, extent_)};
}

Vec3 ShapeFactory::UnitVector() {
  for (;;) {
    const Vec3 v{Uniform(-1, 1), Uniform(-1, 1), Uniform(-1, 1)};
    const double l2 = LengthSquared(v);
    if (l2 > 1e-4 && l2 <= 1.0) return v / std::sqrt(l2);
  }
}

Quat ShapeFactory::Rotation() {
  for (;;) {
    const Quat q{Uniform(-1, 1), Uniform(-1, 1), Uniform(-1, 1), Uniform(-1, 1)};
    const double n = Norm(q);
    if (n > 1e-2 && n <= 1.0) return {q.w / n, q.x / n, q.y / n, q.z / n};
  }
}

double ShapeFactory::Size() { return Uniform(0.1, 1.0) * size_; }

Ray ShapeFactory::MakeRay() { return Ray{Position() * 1.5, UnitVector(), kInfinity}; }

Shape ShapeFactory::Make(ShapeKind kind) {
  const Vec3 c = Position();
  switch (kind) {
    case ShapeKind::kPoint:
      return Point{c};
    case ShapeKind::kSegment:
      return Segment{c, c + UnitVector() * (2 * Size())};
    case ShapeKind::kSphere:
      return Sphere{c, Size()};
    case ShapeKind::kCapsule: {
      const Vec3 half = UnitVector() * Size();
      return Capsule{c - half, c + half, 0.5 * Size()};
    }
    case ShapeKind::kAabb: {
      const Vec3 h{Size(), Size(), Size()};
      return Aabb{c - h, c + h};
    }
    case ShapeKind::kObb:
      return Obb::FromQuat(c, Rotation(), {Size(), Size(), Size()});
    case ShapeKind::kTriangle:
      return Triangle{c + UnitVector() * Size() * 1.5, c + UnitVector() * Size() * 1.5,
                      c + UnitVector() * Size() * 1.5};
    case ShapeKind::kConvexHull: {
      const int n = 4 + static_cast<int>(Uniform(0, 13));
      const double r = Size();
      std::vector<Vec3>& v = hulls_.emplace_back();
      for (int i = 0; i < n; ++i) v.push_back(c + UnitVector() * (r * Uniform(0.6, 1.0)));
      return ConvexHull{v};
    }
    case ShapeKind::kHalfspace: {
      const Vec3 n = UnitVector();
      return Halfspace{n, Dot(n, c)};
    }
  }
  return Point{c};
}

}  // namespace collide::testing
