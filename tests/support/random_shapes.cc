#include "support/random_shapes.h"

#include <cmath>
#include <cstdio>
#include <variant>

#include "support/reference.h"

namespace collide::testing {

std::string_view PairSetName(PairSet set) {
  switch (set) {
    case PairSet::kGeneric:
      return "generic";
    case PairSet::kTouching:
      return "touching";
    case PairSet::kParallel:
      return "parallel";
    case PairSet::kDegenerate:
      return "degenerate";
    case PairSet::kHuge:
      return "huge";
    case PairSet::kTiny:
      return "tiny";
  }
  return "unknown";
}

double PairSetScale(PairSet set) {
  return set == PairSet::kHuge ? 1e6 : (set == PairSet::kTiny ? 1e-6 : 1.0);
}

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
      std::vector<Vec3>& v = NewHull();
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

Shape ShapeFactory::MakeParallel(ShapeKind kind, const Mat3& frame) {
  const Vec3 c = Position();
  const int k = static_cast<int>(Uniform(0, 3));
  const Vec3 axis = frame.col[k];
  switch (kind) {
    case ShapeKind::kSegment:
      return Segment{c, c + axis * (2 * Size())};
    case ShapeKind::kCapsule: {
      const Vec3 half = axis * Size();
      return Capsule{c - half, c + half, 0.5 * Size()};
    }
    case ShapeKind::kObb:
      return Obb{c, frame * SignedPermutation(), {Size(), Size(), Size()}};
    case ShapeKind::kTriangle: {
      // In the plane through c normal to frame axis k.
      const Vec3 u = frame.col[(k + 1) % 3], w = frame.col[(k + 2) % 3];
      auto vertex = [&] { return c + u * (Uniform(-1.5, 1.5) * Size()) + w * (Uniform(-1.5, 1.5) * Size()); };
      const Vec3 a = vertex(), b = vertex();
      return Triangle{a, b, vertex()};
    }
    case ShapeKind::kConvexHull: {
      std::vector<Vec3>& v = NewHull();
      const Vec3 h{Size(), Size(), Size()};
      if (Uniform(0, 1) < 0.5) {
        // A frame-aligned box as 8 vertices.
        for (int i = 0; i < 8; ++i) {
          v.push_back(c +
                      frame * Vec3{(i & 1 ? 1 : -1) * h.x, (i & 2 ? 1 : -1) * h.y, (i & 4 ? 1 : -1) * h.z});
        }
      } else {
        // A triangular prism along frame axis k.
        const Vec3 u = frame.col[(k + 1) % 3], w = frame.col[(k + 2) % 3];
        for (int i = 0; i < 3; ++i) {
          const Vec3 base = c + u * (Uniform(-1, 1) * h.x) + w * (Uniform(-1, 1) * h.y);
          v.push_back(base - axis * h.z);
          v.push_back(base + axis * h.z);
        }
      }
      return ConvexHull{v};
    }
    case ShapeKind::kHalfspace: {
      const Vec3 n = Uniform(0, 1) < 0.5 ? axis : -axis;
      return Halfspace{n, Dot(n, c)};
    }
    case ShapeKind::kPoint:
    case ShapeKind::kSphere:
    case ShapeKind::kAabb:
      break;
  }
  return Make(kind);
}

Shape ShapeFactory::MakeDegenerate(ShapeKind kind) {
  const Vec3 c = Position();
  const int variant = static_cast<int>(Uniform(0, 3));
  switch (kind) {
    case ShapeKind::kSegment:
      return Segment{c, c};
    case ShapeKind::kSphere:
      return Sphere{c, 0.0};
    case ShapeKind::kCapsule: {
      const Vec3 half = UnitVector() * Size();
      if (variant == 0) return Capsule{c - half, c + half, 0.0};  // a segment.
      if (variant == 1) return Capsule{c, c, Size()};             // a sphere.
      return Capsule{c, c, 0.0};                                  // a point.
    }
    case ShapeKind::kAabb:
    case ShapeKind::kObb: {
      // Zero extent on one, two or three axes: a rectangle, segment or point.
      Vec3 h{Size(), Size(), Size()};
      const int first = static_cast<int>(Uniform(0, 3));
      for (int i = 0; i <= variant; ++i) h[(first + i) % 3] = 0.0;
      if (kind == ShapeKind::kAabb) return Aabb{c - h, c + h};
      return Obb::FromQuat(c, Rotation(), h);
    }
    case ShapeKind::kTriangle: {
      const Vec3 a = c + UnitVector() * Size(), b = c + UnitVector() * Size();
      if (variant == 0) return Triangle{a, b, a + (b - a) * Uniform(-0.5, 1.5)};  // (nearly) collinear.
      if (variant == 1) return Triangle{a, b, b};                                 // two coincident.
      return Triangle{a, a, a};                                                   // a point.
    }
    case ShapeKind::kConvexHull: {
      std::vector<Vec3>& v = NewHull();
      const Vec3 d = UnitVector() * Size(), e = UnitVector() * Size();
      const int n = 1 + static_cast<int>(Uniform(0, 8));
      const int shape = static_cast<int>(Uniform(0, 4));
      for (int i = 0; i < n; ++i) {
        if (shape == 0) {
          v.push_back(c);  // all coincident.
        } else if (shape == 1) {
          v.push_back(c + d * Uniform(-1, 1));  // collinear.
        } else if (shape == 2) {
          v.push_back(c + d * Uniform(-1, 1) + e * Uniform(-1, 1));  // coplanar.
        } else {
          // A solid hull whose vertices are each listed twice.
          const Vec3 p = c + UnitVector() * Size();
          v.push_back(p);
          v.push_back(p);
        }
      }
      return ConvexHull{v};
    }
    case ShapeKind::kPoint:
    case ShapeKind::kHalfspace:
      break;
  }
  return Make(kind);
}

std::pair<Shape, Shape> ShapeFactory::MakePair(ShapeKind ka, ShapeKind kb, PairSet set) {
  const double scale = PairSetScale(set);
  const double saved_extent = extent_, saved_size = size_;
  // Centers within about one size of each other so that lateral offsets
  // still leave a good share of overlapping pairs.
  extent_ = 0.25 * scale;
  size_ = scale;
  Mat3 frame = RotationFromQuat(Rotation());
  if (ka == ShapeKind::kAabb || kb == ShapeKind::kAabb) frame = SignedPermutation();
  auto make = [&](ShapeKind kind) {
    switch (set) {
      case PairSet::kParallel:
        return MakeParallel(kind, frame);
      case PairSet::kDegenerate:
        return Uniform(0, 1) < 0.7 ? MakeDegenerate(kind) : Make(kind);
      default:
        return Make(kind);
    }
  };
  Shape a = make(ka);
  Shape b = make(kb);
  Vec3 n = UnitVector();
  if (set == PairSet::kParallel) {
    n = frame.col[static_cast<int>(Uniform(0, 3))];
    if (Uniform(0, 1) < 0.5) n = -n;
  }
  const RefShape ra(a), rb(b);
  // Overlaps of a lower-dimensional pair are rare or of measure zero
  // (segment crossing a triangle, point on a segment): add touching pairs.
  const bool thin = (ra.Dimension() + rb.Dimension() < 4 || (ra.Dimension() < 3 && rb.Dimension() < 3)) &&
                    ka != ShapeKind::kHalfspace && kb != ShapeKind::kHalfspace;
  const bool touch = set == PairSet::kTouching || (thin && Uniform(0, 1) < 0.4);
  const double gap_target = Uniform(-0.6, 0.25) * scale;
  if (auto* h = std::get_if<Halfspace>(&a); h && kb != ShapeKind::kHalfspace) {
    // Signed distance of B to the plane: min over B of dot(m, y) - offset.
    h->offset = -rb.Support(-h->normal) - (touch ? 0.0 : gap_target);
  } else if (auto* h = std::get_if<Halfspace>(&b); h && ka != ShapeKind::kHalfspace) {
    h->offset = -ra.Support(-h->normal) - (touch ? 0.0 : gap_target);
  } else if (ka != ShapeKind::kHalfspace) {
    if (touch) {
      b = Translated(b, SupportPoint(a, n) - SupportPoint(b, -n));
    } else {
      // After moving B by s * n its gap along n is Gap(n) - s.
      b = Translated(b, n * (Gap(ra, rb, n) + gap_target));
    }
  }
  extent_ = saved_extent;
  size_ = saved_size;
  return {a, b};
}

Shape ShapeFactory::Translated(const Shape& s, const Vec3& v) {
  const Mat3 identity;
  return Moved(s, identity, v);
}

Shape ShapeFactory::Moved(const Shape& s, const Mat3& r, const Vec3& t) {
  auto map = [&](const Vec3& p) { return r * p + t; };
  switch (KindOf(s)) {
    case ShapeKind::kPoint:
      return Point{map(std::get<Point>(s).position)};
    case ShapeKind::kSegment: {
      const auto& g = std::get<Segment>(s);
      return Segment{map(g.a), map(g.b)};
    }
    case ShapeKind::kSphere: {
      const auto& g = std::get<Sphere>(s);
      return Sphere{map(g.center), g.radius};
    }
    case ShapeKind::kCapsule: {
      const auto& g = std::get<Capsule>(s);
      return Capsule{map(g.a), map(g.b), g.radius};
    }
    case ShapeKind::kAabb: {
      const auto& g = std::get<Aabb>(s);
      const Vec3 p = map(g.min), q = map(g.max);
      return Aabb{Min(p, q), Max(p, q)};
    }
    case ShapeKind::kObb: {
      const auto& g = std::get<Obb>(s);
      return Obb{map(g.center), r * g.rotation, g.half_extents};
    }
    case ShapeKind::kTriangle: {
      const auto& g = std::get<Triangle>(s);
      return Triangle{map(g.a), map(g.b), map(g.c)};
    }
    case ShapeKind::kConvexHull: {
      std::vector<Vec3>& v = NewHull();
      for (const Vec3& p : std::get<ConvexHull>(s).vertices) v.push_back(map(p));
      return ConvexHull{v};
    }
    case ShapeKind::kHalfspace: {
      const auto& g = std::get<Halfspace>(s);
      const Vec3 n = r * g.normal;
      return Halfspace{n, g.offset + Dot(n, t)};
    }
  }
  return s;
}

Mat3 ShapeFactory::SignedPermutation() {
  for (;;) {
    const int perm = static_cast<int>(Uniform(0, 6));
    static constexpr int kPerms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    Mat3 m;
    for (int i = 0; i < 3; ++i) {
      Vec3 col;
      col[kPerms[perm][i]] = Uniform(0, 1) < 0.5 ? -1.0 : 1.0;
      m.col[i] = col;
    }
    if (Dot(Cross(m.col[0], m.col[1]), m.col[2]) > 0) return m;  // proper: det +1.
  }
}

std::string Describe(const Vec3& v) {
  char buf[96];
  std::snprintf(buf, sizeof(buf), "{%.17g, %.17g, %.17g}", v.x, v.y, v.z);
  return buf;
}

std::string Describe(const Shape& s) {
  const auto num = DescribeNumber;
  switch (KindOf(s)) {
    case ShapeKind::kPoint:
      return "Point{" + Describe(std::get<Point>(s).position) + "}";
    case ShapeKind::kSegment: {
      const auto& g = std::get<Segment>(s);
      return "Segment{" + Describe(g.a) + ", " + Describe(g.b) + "}";
    }
    case ShapeKind::kSphere: {
      const auto& g = std::get<Sphere>(s);
      return "Sphere{" + Describe(g.center) + ", " + num(g.radius) + "}";
    }
    case ShapeKind::kCapsule: {
      const auto& g = std::get<Capsule>(s);
      return "Capsule{" + Describe(g.a) + ", " + Describe(g.b) + ", " + num(g.radius) + "}";
    }
    case ShapeKind::kAabb: {
      const auto& g = std::get<Aabb>(s);
      return "Aabb{" + Describe(g.min) + ", " + Describe(g.max) + "}";
    }
    case ShapeKind::kObb: {
      const auto& g = std::get<Obb>(s);
      return "Obb{" + Describe(g.center) + ", {{" + Describe(g.rotation.col[0]) + ", " +
             Describe(g.rotation.col[1]) + ", " + Describe(g.rotation.col[2]) + "}}, " +
             Describe(g.half_extents) + "}";
    }
    case ShapeKind::kTriangle: {
      const auto& g = std::get<Triangle>(s);
      return "Triangle{" + Describe(g.a) + ", " + Describe(g.b) + ", " + Describe(g.c) + "}";
    }
    case ShapeKind::kConvexHull: {
      std::string out = "ConvexHull{/*vertices*/ {";
      for (const Vec3& v : std::get<ConvexHull>(s).vertices) out += Describe(v) + ", ";
      return out + "}}";
    }
    case ShapeKind::kHalfspace: {
      const auto& g = std::get<Halfspace>(s);
      return "Halfspace{" + Describe(g.normal) + ", " + num(g.offset) + "}";
    }
  }
  return "?";
}

std::string DescribeNumber(double d) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.17g", d);
  return buf;
}

std::string Describe(const PairResult& r) {
  return "{status " + std::to_string(static_cast<int>(r.status)) + ", hit " + (r.hit ? "1" : "0") +
         ", distance " + DescribeNumber(r.distance) + ", pa " + Describe(r.point_a) + ", pb " +
         Describe(r.point_b) + ", normal " + Describe(r.normal) + "}";
}

std::string Describe(const RayHit& h) {
  return "{status " + std::to_string(static_cast<int>(h.status)) + ", hit " + (h.hit ? "1" : "0") +
         ", distance " + DescribeNumber(h.distance) + ", point " + Describe(h.point) + ", normal " +
         Describe(h.normal) + "}";
}

std::string Describe(const Ray& r) {
  return "Ray{" + Describe(r.origin) + ", " + Describe(r.direction) + ", " + DescribeNumber(r.max_distance) +
         "}";
}

}  // namespace collide::testing
