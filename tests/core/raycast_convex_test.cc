// Ray casts: the generic GJK ray cast (every convex kind), the triangle and
// the halfspace kernels, against analytic answers and the result convention.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "collide/query.h"
#include "query/convex/support.h"
#include "query/kernels_convex.h"
#include "query/registry.h"
#include "support/random_shapes.h"
#include "support/shape_ops.h"

namespace collide {
namespace {

using internal::RayCastConvexFallback;

void ExpectVecNear(const Vec3& a, const Vec3& b, double tol) {
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
  EXPECT_NEAR(a.z, b.z, tol);
}

// First t >= 0 where the ray meets the sphere, or -1 (Ericson 5.3.2).
double AnalyticRaySphere(const Ray& r, const Sphere& s) {
  const Vec3 d = r.direction / Length(r.direction);
  const Vec3 m = r.origin - s.center;
  const double b = Dot(m, d);
  const double c = Dot(m, m) - s.radius * s.radius;
  if (c <= 0) return 0;
  if (b > 0) return -1;
  const double disc = b * b - c;
  if (disc < 0) return -1;
  return -b - std::sqrt(disc);
}

// Slab test (Ericson 5.3.3): first t >= 0 in the box, or -1; `axis` gets the
// entry face's axis.
double AnalyticRayAabb(const Ray& r, const Aabb& box, int& axis) {
  const Vec3 d = r.direction / Length(r.direction);
  double tmin = 0, tmax = kInfinity;
  axis = -1;
  for (int i = 0; i < 3; ++i) {
    if (d[i] == 0) {
      if (r.origin[i] < box.min[i] || r.origin[i] > box.max[i]) return -1;
      continue;
    }
    double t1 = (box.min[i] - r.origin[i]) / d[i];
    double t2 = (box.max[i] - r.origin[i]) / d[i];
    if (t1 > t2) std::swap(t1, t2);
    if (t1 > tmin) tmin = t1, axis = i;
    tmax = std::min(tmax, t2);
    if (tmin > tmax) return -1;
  }
  return tmin;
}

// A ray from outside the unit cube towards `target`, give or take up to
// `spread` (so that a good share of rays hit), with a non-unit direction.
Ray AimedRay(testing::ShapeFactory& f, const Vec3& target, double spread = 1.0) {
  const Vec3 origin = f.UnitVector() * 3.0;
  const Vec3 aim = target + f.UnitVector() * f.Uniform(0, spread);
  return Ray{origin, (aim - origin) * f.Uniform(0.5, 2.0), kInfinity};
}

TEST(RayCastConvexTest, FallbackMatchesAnalyticSpheres) {
  testing::ShapeFactory f(3, 1.0);
  int hits = 0;
  for (int i = 0; i < 5000; ++i) {
    const Sphere s = std::get<Sphere>(f.Make(ShapeKind::kSphere));
    const Ray r = AimedRay(f, s.center);
    const RayHit h = RayCastConvexFallback(r, s);
    const double t = AnalyticRaySphere(r, s);
    EXPECT_EQ(h.status, QueryStatus::kOk);
    ASSERT_EQ(h.hit, t >= 0) << i;
    if (t > 0) {
      ++hits;
      EXPECT_NEAR(h.distance, t, 1e-12) << i;
      ExpectVecNear(h.normal, (h.point - s.center) / s.radius, 1e-12);
    }
  }
  EXPECT_GT(hits, 500);
}

TEST(RayCastConvexTest, FallbackMatchesSlabTestOnBoxesAndBoxHulls) {
  testing::ShapeFactory f(4, 1.0);
  testing::ShapeOps ops;
  int hits = 0;
  for (int i = 0; i < 5000; ++i) {
    const Aabb box = std::get<Aabb>(f.Make(ShapeKind::kAabb));
    const Ray r = f.MakeRay();
    int axis;
    const double t = AnalyticRayAabb(r, box, axis);
    std::vector<Vec3> corners;
    for (int c = 0; c < 8; ++c) {
      corners.push_back(
          {c & 1 ? box.max.x : box.min.x, c & 2 ? box.max.y : box.min.y, c & 4 ? box.max.z : box.min.z});
    }
    const ConvexHull hull = ops.Hull(corners);
    for (const Shape& s : {Shape(box), Shape(hull)}) {
      const RayHit h = RayCastConvexFallback(r, s);
      EXPECT_EQ(h.status, QueryStatus::kOk);
      ASSERT_EQ(h.hit, t >= 0) << i;
      if (t > 0) {
        ++hits;
        EXPECT_NEAR(h.distance, t, 1e-13) << i;
        // The entry face's outward normal.
        EXPECT_NEAR(std::fabs(h.normal[axis]), 1.0, 1e-13) << i;
      }
    }
  }
  EXPECT_GT(hits, 500);
}

// Regression: rays grazing a box edge stalled (v's round-off outweighing
// |v|^2 ~ 1e-21) until the iteration cap, kNotConverged and 6e-11 off; the
// final polish against the simplex's face makes them exact.
TEST(RayCastConvexTest, GrazingRaysConvergeExactlyOnBoxes) {
  const Aabb box{{-0.99535822413000163, -0.10153365224608635, -1.4230598058520503},
                 {0.58841127705519236, 1.7205125850876239, -0.35136647609119931}};
  const Ray ray{{1.5052363225056593, -0.10418032514188755, 2.5929539281026512},
                {-2.4995460180594788, 0.0037816219997518635, -4.0158462306447715},
                kInfinity};
  const RayHit h = RayCastConvexFallback(ray, box);
  EXPECT_EQ(h.status, QueryStatus::kOk);
  EXPECT_NEAR(h.distance, 3.4680650926787484, 1e-14);  // The slab test's answer.
  testing::ShapeFactory f(8, 1.0);
  int not_converged = 0;
  for (int i = 0; i < 30000; ++i) {
    const Shape s = f.Make(i % 2 ? ShapeKind::kObb : ShapeKind::kConvexHull);
    not_converged +=
        RayCastConvexFallback(AimedRay(f, internal::ReferencePoint(s)), s).status != QueryStatus::kOk;
  }
  EXPECT_EQ(not_converged, 0);
}

TEST(RayCastConvexTest, StartingInsideHitsAtZeroFacingBack) {
  testing::ShapeOps ops;
  const Vec3 dir{0, 0, -2};  // Not unit.
  const Shape shapes[] = {Sphere{{0, 0, 0}, 1},
                          Capsule{{0, 0, -1}, {0, 0, 1}, 0.5},
                          Aabb{{-1, -1, -1}, {1, 1, 1}},
                          Obb::FromQuat({0, 0, 0}, {0.8, 0.6, 0, 0}, {1, 1, 1}),
                          ops.Hull({{-1, -1, -1}, {2, 0, 0}, {0, 2, 0}, {0, 0, 2}}),
                          Triangle{{-1, -1, 0}, {1, -1, 0}, {0, 1, 0}},
                          Segment{{-1, 0, 0}, {1, 0, 0}},
                          Point{{0, 0, 0}},
                          Halfspace{{0, 0, 1}, 0}};
  for (const Shape& s : shapes) {
    SCOPED_TRACE(std::string(ShapeKindName(KindOf(s))));
    const RayHit h = RayCast(Ray{{0, 0, 0}, dir, kInfinity}, s);
    EXPECT_TRUE(h.hit);
    EXPECT_EQ(h.distance, 0.0);
    EXPECT_EQ(h.point, (Vec3{0, 0, 0}));
    EXPECT_EQ(h.normal, (Vec3{0, 0, 1}));
    const RayHit g = RayCastConvexFallback(Ray{{0, 0, 0}, dir, kInfinity}, s);
    EXPECT_EQ(g, h);
  }
}

TEST(RayCastConvexTest, HonoursMaxDistanceAndNonUnitDirection) {
  const Aabb box{{2, -1, -1}, {3, 1, 1}};
  for (const Shape& s : {Shape(box), Shape(Sphere{{3, 0, 0}, 1}), Shape(Halfspace{{-1, 0, 0}, -2})}) {
    SCOPED_TRACE(std::string(ShapeKindName(KindOf(s))));
    const RayHit h = RayCast(Ray{{0, 0, 0}, {5, 0, 0}, kInfinity}, s);
    EXPECT_TRUE(h.hit);
    EXPECT_NEAR(h.distance, 2.0, 1e-12);
    ExpectVecNear(h.point, {2, 0, 0}, 1e-12);
    ExpectVecNear(h.normal, {-1, 0, 0}, 1e-9);
    EXPECT_TRUE(RayCast(Ray{{0, 0, 0}, {5, 0, 0}, 2.0}, s).hit);
    EXPECT_EQ(RayCast(Ray{{0, 0, 0}, {5, 0, 0}, 1.9}, s), RayHit{});
    EXPECT_EQ(RayCast(Ray{{0, 0, 0}, {-5, 0, 0}, kInfinity}, s), RayHit{});
  }
}

TEST(RayCastConvexTest, TriangleHitFromEitherSideFacesTheOrigin) {
  const Triangle t{{0, 0, 1}, {2, 0, 1}, {0, 2, 1}};
  RayHit h = RayCast(Ray{{0.5, 0.5, 0}, {0, 0, 3}, kInfinity}, t);
  EXPECT_TRUE(h.hit);
  EXPECT_DOUBLE_EQ(h.distance, 1.0);
  EXPECT_EQ(h.normal, (Vec3{0, 0, -1}));
  h = RayCast(Ray{{0.5, 0.5, 4}, {0, 0, -1}, kInfinity}, t);
  EXPECT_DOUBLE_EQ(h.distance, 3.0);
  EXPECT_EQ(h.normal, (Vec3{0, 0, 1}));
  EXPECT_FALSE(RayCast(Ray{{1.5, 1.5, 0}, {0, 0, 1}, kInfinity}, t).hit);
}

TEST(RayCastConvexTest, RayInTheTrianglePlaneHitsItsEdge) {
  const Triangle t{{0, 0, 0}, {2, 0, 0}, {0, 2, 0}};
  const RayHit h = RayCast(Ray{{-1, 0.5, 0}, {1, 0, 0}, kInfinity}, t);
  EXPECT_EQ(h.status, QueryStatus::kOk);
  EXPECT_TRUE(h.hit);
  EXPECT_NEAR(h.distance, 1.0, 1e-12);
  ExpectVecNear(h.point, {0, 0.5, 0}, 1e-12);
  EXPECT_NEAR(Length(h.normal), 1.0, 1e-12);
}

TEST(RayCastConvexTest, TriangleKernelMatchesFallback) {
  testing::ShapeFactory f(5, 1.0);
  int hits = 0;
  for (int i = 0; i < 5000; ++i) {
    const Triangle t = std::get<Triangle>(f.Make(ShapeKind::kTriangle));
    const Ray r = AimedRay(f, (t.a + t.b + t.c) / 3.0);
    const RayHit k = internal::RayCastTriangle(r, t);
    const RayHit g = RayCastConvexFallback(r, t);
    ASSERT_EQ(k.hit, g.hit) << i;
    if (k.hit) {
      ++hits;
      EXPECT_NEAR(k.distance, g.distance, 1e-12) << i;
      ExpectVecNear(k.normal, g.normal, 1e-12);
    }
  }
  EXPECT_GT(hits, 100);
}

TEST(RayCastConvexTest, HalfspaceWithNearUnitNormal) {
  // |normal| = 1 + 1e-7 is valid; distances are still world units.
  const Halfspace h{{0, 0, 1 + 1e-7}, 1 + 1e-7};  // z <= 1.
  const RayHit r = RayCast(Ray{{0, 0, 5}, {0, 0, -1}, kInfinity}, h);
  EXPECT_NEAR(r.distance, 4.0, 1e-15);
  EXPECT_EQ(r.normal, (Vec3{0, 0, 1}));
}

// Every kind: the hit point is on the shape, a point a little before it is
// not, and the normal is unit.
TEST(RayCastConvexTest, RandomRaysHitTheSurface) {
  testing::ShapeFactory f(6, 1.0);
  int hits = 0;
  for (int k = 0; k < 9; ++k) {
    const ShapeKind kind = static_cast<ShapeKind>(k);
    for (int i = 0; i < 500; ++i) {
      const Shape s = f.Make(kind);
      const Ray r = kind == ShapeKind::kHalfspace ? f.MakeRay() : AimedRay(f, internal::ReferencePoint(s));
      const RayHit h = RayCast(r, s);
      ASSERT_EQ(h.status, QueryStatus::kOk);
      if (!h.hit || h.distance == 0) continue;
      ++hits;
      SCOPED_TRACE(std::string(ShapeKindName(kind)) + " #" + std::to_string(i));
      EXPECT_NEAR(Length(h.normal), 1.0, 1e-12);
      EXPECT_LE(Distance(Point{h.point}, s).distance, 1e-9);
      const Vec3 before = r.origin + r.direction / Length(r.direction) * (h.distance * (1 - 1e-6));
      EXPECT_GT(Distance(Point{before}, s).distance, 0.0);
    }
  }
  EXPECT_GT(hits, 300);
}

}  // namespace
}  // namespace collide
