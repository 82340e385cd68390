// The generic convex fallback (GJK + EPA) on every pair of kinds: analytic
// cases, degenerate shapes, extreme scales and seeded random invariants.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "collide/query.h"
#include "query/registry.h"
#include "support/random_shapes.h"
#include "support/shape_ops.h"

namespace collide {
namespace {

using internal::QueryConvexFallback;

constexpr QueryLevel kLevels[3] = {QueryLevel::kIntersect, QueryLevel::kDistance, QueryLevel::kContact};
constexpr ShapeKind kAllKinds[9] = {ShapeKind::kPoint,    ShapeKind::kSegment,    ShapeKind::kSphere,
                                    ShapeKind::kCapsule,  ShapeKind::kAabb,       ShapeKind::kObb,
                                    ShapeKind::kTriangle, ShapeKind::kConvexHull, ShapeKind::kHalfspace};

PairResult FbContact(const Shape& a, const Shape& b) {
  return QueryConvexFallback(QueryLevel::kContact, a, b);
}
PairResult FbDist(const Shape& a, const Shape& b) { return QueryConvexFallback(QueryLevel::kDistance, a, b); }
bool FbHit(const Shape& a, const Shape& b) { return QueryConvexFallback(QueryLevel::kIntersect, a, b).hit; }

void ExpectVecNear(const Vec3& a, const Vec3& b, double tol) {
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
  EXPECT_NEAR(a.z, b.z, tol);
}

// Distance from p to the shape, through the fallback itself with a point.
double DistanceToPoint(const Shape& s, const Vec3& p) { return FbDist(Point{p}, s).distance; }

TEST(FallbackTest, SeparatedSpheres) {
  const PairResult r = FbContact(Sphere{{0, 0, 0}, 1}, Sphere{{5, 0, 0}, 2});
  EXPECT_EQ(r.status, QueryStatus::kOk);
  EXPECT_FALSE(r.hit);
  EXPECT_DOUBLE_EQ(r.distance, 2.0);
  ExpectVecNear(r.point_a, {1, 0, 0}, 1e-15);
  ExpectVecNear(r.point_b, {3, 0, 0}, 1e-15);
  ExpectVecNear(r.normal, {1, 0, 0}, 1e-15);
}

TEST(FallbackTest, TouchingBoxesHitWithZeroDistance) {
  const Aabb a{{0, 0, 0}, {1, 1, 1}};
  const Aabb b{{1, 0.2, 0.3}, {2, 2, 2}};
  for (QueryLevel level : kLevels) {
    const PairResult r = QueryConvexFallback(level, a, b);
    EXPECT_TRUE(r.hit);
    EXPECT_EQ(r.distance, 0.0);
  }
  const PairResult r = FbContact(a, b);
  ExpectVecNear(r.normal, {1, 0, 0}, 1e-12);
  EXPECT_NEAR(r.point_a.x, 1.0, 1e-12);
}

TEST(FallbackTest, DeepBoxOverlapDepthAndNormal) {
  const PairResult r = FbContact(Aabb{{0, 0, 0}, {2, 2, 2}}, Aabb{{1.5, 0.5, 0.2}, {3, 1, 1}});
  EXPECT_EQ(r.status, QueryStatus::kOk);
  EXPECT_TRUE(r.hit);
  EXPECT_NEAR(r.distance, -0.5, 1e-14);
  ExpectVecNear(r.normal, {1, 0, 0}, 1e-14);
  EXPECT_NEAR(r.point_a.x, 2.0, 1e-14);
  EXPECT_NEAR(r.point_b.x, 1.5, 1e-14);
}

TEST(FallbackTest, ContainedSphereInBox) {
  // Sphere (r 0.5) centred at x = 1.8 inside a [0, 2]^3 box: pushing the
  // sphere out along +x needs 0.2 + 2 * 0.5 ... measured from the box face:
  // depth = (2 - 1.8) + 0.5 + 0.5 ... the sphere's far side reaches 2.3 - 1.0.
  const PairResult r = FbContact(Aabb{{0, 0, 0}, {2, 2, 2}}, Sphere{{1.8, 1, 1}, 0.5});
  EXPECT_TRUE(r.hit);
  // B must move by 2 - (1.8 - 0.5) = 0.7 along +x to clear the box.
  EXPECT_NEAR(r.distance, -0.7, 1e-14);
  ExpectVecNear(r.normal, {1, 0, 0}, 1e-14);
  ExpectVecNear(r.point_a, {2, 1, 1}, 1e-14);
  ExpectVecNear(r.point_b, {1.3, 1, 1}, 1e-14);
}

TEST(FallbackTest, CoincidentSpheresPreferPlusX) {
  const PairResult r = FbContact(Sphere{{1, 2, 3}, 1}, Sphere{{1, 2, 3}, 2});
  EXPECT_TRUE(r.hit);
  EXPECT_DOUBLE_EQ(r.distance, -3.0);
  EXPECT_EQ(r.normal, (Vec3{1, 0, 0}));
  ExpectVecNear(r.point_a, {2, 2, 3}, 1e-15);
  ExpectVecNear(r.point_b, {-1, 2, 3}, 1e-15);
}

TEST(FallbackTest, CoincidentBoxes) {
  const Aabb a{{0, 0, 0}, {1, 2, 3}};
  const PairResult r = FbContact(a, a);
  EXPECT_TRUE(r.hit);
  EXPECT_NEAR(r.distance, -1.0, 1e-14);  // Thinnest direction: x.
  EXPECT_NEAR(std::fabs(r.normal.x), 1.0, 1e-14);
}

// result.h: when several directions give the same depth, prefer +x, then
// +y, then +z (the box kernels do the same).
TEST(FallbackTest, TiedDepthsPreferPlusXThenYThenZ) {
  testing::ShapeOps ops;
  const Aabb cube{{-1, -1, -1}, {1, 1, 1}};
  const Aabb flat{{-1, -1, -2}, {1, 1, 2}};
  struct Case {
    Shape a, b;
    double distance;
    Vec3 normal;
  } cases[] = {
      {cube, cube, -2, {1, 0, 0}},
      {Point{{0, 0, 0}}, cube, -1, {1, 0, 0}},
      {Sphere{{0, 0, 0}, 0.5}, cube, -1.5, {1, 0, 0}},
      {Segment{{0, 0, -0.5}, {0, 0, 0.5}}, cube, -1, {1, 0, 0}},
      {Capsule{{-0.5, 0, 0}, {0.5, 0, 0}, 0.25}, cube, -1.25, {0, 1, 0}},
      {Point{{0, 0, 0}}, flat, -1, {1, 0, 0}},
      {Point{{0, 0, 0}},
       ops.Hull({{-1, -1, -1},
                 {1, -1, -1},
                 {-1, 1, -1},
                 {1, 1, -1},
                 {-1, -1, 1},
                 {1, -1, 1},
                 {-1, 1, 1},
                 {1, 1, 1}}),
       -1,
       {1, 0, 0}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(ShapeKindName(KindOf(c.a))) + "/" + std::string(ShapeKindName(KindOf(c.b))));
    const PairResult r = FbContact(c.a, c.b);
    EXPECT_EQ(r.status, QueryStatus::kOk);
    EXPECT_NEAR(r.distance, c.distance, 1e-14);
    ExpectVecNear(r.normal, c.normal, 1e-14);
    ExpectVecNear(r.point_b - r.point_a, r.normal * r.distance, 1e-14);
    EXPECT_LE(DistanceToPoint(c.a, r.point_a), 1e-14);
    EXPECT_LE(DistanceToPoint(c.b, r.point_b), 1e-14);
  }
}

TEST(FallbackTest, PointInsideTriangleIsFlatTouching) {
  const Triangle t{{0, 0, 0}, {2, 0, 0}, {0, 2, 0}};
  const PairResult r = FbContact(Point{{0.5, 0.5, 0}}, t);
  EXPECT_EQ(r.status, QueryStatus::kOk);
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(r.distance, 0.0);
  EXPECT_EQ(r.normal, (Vec3{0, 0, 1}));
  ExpectVecNear(r.point_a, {0.5, 0.5, 0}, 1e-15);
  ExpectVecNear(r.point_b, {0.5, 0.5, 0}, 1e-15);
}

TEST(FallbackTest, CrossingSegmentsTouchWithPerpendicularNormal) {
  const PairResult r = FbContact(Segment{{-1, 0, 0}, {1, 0, 0}}, Segment{{0, -1, 0}, {0, 1, 0}});
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(r.distance, 0.0);
  ExpectVecNear(r.normal, {0, 0, 1}, 1e-15);
  ExpectVecNear(r.point_a, {0, 0, 0}, 1e-15);
}

TEST(FallbackTest, CrossingCapsulesDepthIsSumOfRadii) {
  const PairResult r = FbContact(Capsule{{-1, 0, 0}, {1, 0, 0}, 0.25}, Capsule{{0, -1, 0}, {0, 1, 0}, 0.5});
  EXPECT_TRUE(r.hit);
  EXPECT_NEAR(r.distance, -0.75, 1e-15);
  ExpectVecNear(r.normal, {0, 0, 1}, 1e-15);
  ExpectVecNear(r.point_a, {0, 0, 0.25}, 1e-15);
  ExpectVecNear(r.point_b, {0, 0, -0.5}, 1e-15);
}

TEST(FallbackTest, CollinearOverlappingSegments) {
  const PairResult r = FbContact(Segment{{0, 0, 0}, {2, 0, 0}}, Segment{{1, 0, 0}, {3, 0, 0}});
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(r.distance, 0.0);
  EXPECT_NEAR(Length(r.normal), 1.0, 1e-15);
  EXPECT_NEAR(r.normal.x, 0.0, 1e-15);
}

TEST(FallbackTest, CoplanarTriangles) {
  const Triangle a{{0, 0, 1}, {2, 0, 1}, {0, 2, 1}};
  const Triangle b{{0.5, 0.5, 1}, {3, 0.5, 1}, {0.5, 3, 1}};
  const PairResult r = FbContact(a, b);
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(r.distance, 0.0);
  ExpectVecNear(r.normal, {0, 0, 1}, 1e-15);
  EXPECT_NEAR(r.point_a.z, 1.0, 1e-15);
}

TEST(FallbackTest, ZeroExtentBoxIsARectangle) {
  const Aabb flat{{0, 0, 0}, {1, 1, 0}};
  PairResult r = FbContact(flat, Sphere{{0.5, 0.5, 0.75}, 0.5});
  EXPECT_FALSE(r.hit);
  EXPECT_NEAR(r.distance, 0.25, 1e-15);
  ExpectVecNear(r.normal, {0, 0, 1}, 1e-15);
  r = FbContact(flat, Sphere{{0.5, 0.5, 0.25}, 0.5});
  EXPECT_TRUE(r.hit);
  EXPECT_NEAR(r.distance, -0.25, 1e-15);
  ExpectVecNear(r.normal, {0, 0, 1}, 1e-15);
}

// Found by the core fuzzer: a zero-size obb (a point) on the boundary of a
// flat obb touches it (the obb-obb kernel reported hit = false with distance
// 0 at the time).
TEST(FallbackTest, PointObbOnTheEdgeOfAFlatObbTouches) {
  const Obb flat{{1, 1, 1}, Mat3{{{0, 1, 0}, {0, 0, 1}, {1, 0, 0}}}, {1, 1, 0}};
  const Obb point = Obb::FromQuat({1, 1, 0}, {0.8, 0.6, 0, 0}, {0, 0, 0});
  for (QueryLevel level : kLevels) {
    const PairResult r = QueryConvexFallback(level, flat, point);
    EXPECT_TRUE(r.hit);
    EXPECT_EQ(r.distance, 0.0);
  }
}

TEST(FallbackTest, CollinearTriangleIsASegment) {
  const Triangle t{{0, 0, 0}, {1, 0, 0}, {3, 0, 0}};
  const PairResult r = FbContact(Point{{2, 1, 0}}, t);
  EXPECT_FALSE(r.hit);
  EXPECT_NEAR(r.distance, 1.0, 1e-15);
  ExpectVecNear(r.point_b, {2, 0, 0}, 1e-15);
}

TEST(FallbackTest, SingleVertexAndDuplicateVertexHulls) {
  testing::ShapeOps ops;
  const ConvexHull single = ops.Hull({{1, 1, 1}});
  PairResult r = FbContact(single, Sphere{{1, 1, 3}, 1});
  EXPECT_NEAR(r.distance, 1.0, 1e-15);
  ExpectVecNear(r.normal, {0, 0, 1}, 1e-15);
  const ConvexHull dup =
      ops.Hull({{0, 0, 0}, {0, 0, 0}, {1, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 1}});
  r = FbContact(dup, Point{{1, 1, 1}});
  EXPECT_NEAR(r.distance, std::sqrt(3.0) - 1 / std::sqrt(3.0), 1e-14);
  r = FbContact(dup, Point{{0.1, 0.1, 0.1}});
  EXPECT_TRUE(r.hit);
  EXPECT_NEAR(r.distance, -0.1, 1e-14);
}

TEST(FallbackTest, HalfspacePairsGoToTheHalfspaceKernelAndHalfspacePairIsUnsupported) {
  const Halfspace h{{0, 0, 1}, 1};
  PairResult r = FbContact(Sphere{{0, 0, 1.5}, 1}, h);
  EXPECT_TRUE(r.hit);
  EXPECT_NEAR(r.distance, -0.5, 1e-15);
  EXPECT_EQ(r.normal, (Vec3{0, 0, -1}));
  EXPECT_EQ(FbContact(h, Sphere{{0, 0, 1.5}, 1}), r.Flipped());
  EXPECT_EQ(FbContact(h, h).status, QueryStatus::kUnsupported);
}

// Two unit-size obbs far from the origin and with huge or tiny sizes give the
// same answer as the same pair near the origin, scaled.
TEST(FallbackTest, HugeAndTinyScales) {
  testing::ShapeFactory f(7);
  testing::ShapeOps ops;
  for (int i = 0; i < 200; ++i) {
    const Shape a = f.Make(static_cast<ShapeKind>(i % 8));
    const Shape b = f.Make(static_cast<ShapeKind>((i / 8) % 8));
    const PairResult ref = FbContact(a, b);
    for (double k : {1e9, 1e-9}) {
      const PairResult r = FbContact(ops.Scaled(a, k), ops.Scaled(b, k));
      EXPECT_EQ(r.status, QueryStatus::kOk);
      EXPECT_EQ(r.hit, ref.hit) << i << " " << k;
      EXPECT_NEAR(r.distance / k, ref.distance, 1e-9 * (1 + std::fabs(ref.distance))) << i << " " << k;
    }
    // Translated far away: the distance is unchanged up to the coordinates'
    // precision (1e9 * 2^-52 ~ 2e-7).
    const Vec3 far{1e9, -2e9, 3e9};
    const PairResult t = FbContact(ops.Translated(a, far), ops.Translated(b, far));
    EXPECT_NEAR(t.distance, ref.distance, 1e-5) << i;
  }
}

TEST(FallbackTest, SphereSphereMatchesTheAnalyticFormula) {
  testing::ShapeFactory f(11);
  for (int i = 0; i < 2000; ++i) {
    const Sphere a = std::get<Sphere>(f.Make(ShapeKind::kSphere));
    const Sphere b = std::get<Sphere>(f.Make(ShapeKind::kSphere));
    const double centers = Length(b.center - a.center);
    const Vec3 n = (b.center - a.center) / centers;
    const PairResult r = FbContact(a, b);
    EXPECT_NEAR(r.distance, centers - a.radius - b.radius, 1e-12);
    ExpectVecNear(r.normal, n, 1e-12);
    ExpectVecNear(r.point_a, a.center + n * a.radius, 1e-12);
    ExpectVecNear(r.point_b, b.center - n * b.radius, 1e-12);
  }
}

// Brute-force SAT over the 15 box axes: for two boxes the penetration depth
// is the smallest overlap of their projections (Gottschalk et al. 1996).
double SatDepth(const Obb& a, const Obb& b) {
  Vec3 axes[15];
  int n = 0;
  for (int i = 0; i < 3; ++i) axes[n++] = a.rotation.col[i];
  for (int i = 0; i < 3; ++i) axes[n++] = b.rotation.col[i];
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) axes[n++] = Cross(a.rotation.col[i], b.rotation.col[j]);
  }
  const auto radius = [](const Obb& o, const Vec3& u) {
    double r = 0;
    for (int i = 0; i < 3; ++i) r += std::fabs(Dot(o.rotation.col[i], u)) * o.half_extents[i];
    return r;
  };
  double depth = kInfinity;
  for (int k = 0; k < 15; ++k) {
    if (LengthSquared(axes[k]) < 1e-12) continue;
    const Vec3 u = axes[k] / Length(axes[k]);
    const double overlap = radius(a, u) + radius(b, u) - std::fabs(Dot(b.center - a.center, u));
    depth = std::min(depth, overlap);
  }
  return depth;
}

TEST(FallbackTest, BoxBoxDepthEqualsBruteForceSat) {
  testing::ShapeFactory f(13, 1.0);
  int overlapping = 0;
  for (int i = 0; i < 3000; ++i) {
    const Obb a = std::get<Obb>(f.Make(ShapeKind::kObb));
    const Obb b = std::get<Obb>(f.Make(ShapeKind::kObb));
    const double sat = SatDepth(a, b);
    const PairResult r = FbContact(a, b);
    EXPECT_EQ(r.status, QueryStatus::kOk);
    EXPECT_EQ(r.hit, sat >= 0) << i;
    if (sat > 0) {
      ++overlapping;
      EXPECT_NEAR(-r.distance, sat, 1e-10) << i;
    }
  }
  EXPECT_GT(overlapping, 1000);
}

// Is p in shape s (up to tol)?
bool Contains(const Shape& s, const Vec3& p, double tol) { return DistanceToPoint(s, p) <= tol; }

// Checks every invariant of result.h on one pair at all three levels.
void CheckInvariants(const Shape& a, const Shape& b, testing::ShapeOps& ops, const std::string& what) {
  SCOPED_TRACE(what);
  const PairResult c = FbContact(a, b);
  const PairResult d = FbDist(a, b);
  const bool hit = FbHit(a, b);
  ASSERT_EQ(c.status, QueryStatus::kOk);
  EXPECT_EQ(c.hit, c.distance <= 0);
  EXPECT_EQ(d.hit, c.hit);
  EXPECT_EQ(hit, c.hit);
  EXPECT_NEAR(Length(c.normal), 1.0, 1e-12);
  // Mirror symmetry of the fallback itself.
  if (KindOf(a) != KindOf(b)) {
    EXPECT_EQ(FbContact(b, a), c.Flipped());
  }
  const double scale = 1.0 + std::fabs(c.distance);
  ExpectVecNear(c.point_b - c.point_a, c.normal * c.distance, 1e-9 * scale);
  if (!c.hit) {
    EXPECT_NEAR(Length(c.point_b - c.point_a), c.distance, 1e-12 * scale);
    EXPECT_NEAR(d.distance, c.distance, 1e-12 * scale);
    EXPECT_TRUE(Contains(a, c.point_a, 1e-9));
    EXPECT_TRUE(Contains(b, c.point_b, 1e-9));
  } else {
    EXPECT_EQ(d.distance, 0.0);
    EXPECT_EQ(d.point_a, d.point_b);
    EXPECT_TRUE(Contains(a, d.point_a, 1e-9));
    EXPECT_TRUE(Contains(b, d.point_a, 1e-9));
    if (c.distance < -1e-6) {
      // Moving B by the depth (+1%) separates; by 99% it does not.
      EXPECT_FALSE(FbHit(a, ops.Translated(b, c.normal * (-c.distance * 1.01))));
      EXPECT_TRUE(FbHit(a, ops.Translated(b, c.normal * (-c.distance * 0.99))));
    }
  }
}

TEST(FallbackTest, RandomPairsOfEveryKindSatisfyTheResultConvention) {
  testing::ShapeFactory f(17, 1.0);
  testing::ShapeOps ops;
  int hits = 0, total = 0;
  for (ShapeKind ka : kAllKinds) {
    for (ShapeKind kb : kAllKinds) {
      if (ka == ShapeKind::kHalfspace && kb == ShapeKind::kHalfspace) continue;
      for (int i = 0; i < 60; ++i) {
        const Shape a = f.Make(ka);
        const Shape b = f.Make(kb);
        CheckInvariants(
            a, b, ops,
            std::string(ShapeKindName(ka)) + "/" + std::string(ShapeKindName(kb)) + " #" + std::to_string(i));
        hits += FbHit(a, b);
        ++total;
      }
    }
  }
  EXPECT_GT(hits, total / 5);
  EXPECT_LT(hits, total * 4 / 5);
}

// Shapes on an integer grid touch exactly (face on face, edge on edge,
// vertex on face) very often. Regression: the intersect level's early exit
// once called such touching pairs apart while the other levels said touching.
TEST(FallbackTest, LevelsAgreeOnExactlyTouchingGridShapes) {
  testing::ShapeFactory f(23);
  testing::ShapeOps ops;
  const auto grid = [&f] {
    return Vec3{std::round(f.Uniform(-2.5, 2.5)), std::round(f.Uniform(-2.5, 2.5)),
                std::round(f.Uniform(-2.5, 2.5))};
  };
  const double s = std::sqrt(0.5);
  const Quat turns[4] = {{1, 0, 0, 0}, {s, s, 0, 0}, {s, 0, 0, s}, {0.5, 0.5, 0.5, 0.5}};
  const auto make = [&](int kind) -> Shape {
    switch (kind) {
      case 0:
        return Point{grid()};
      case 1:
        return Segment{grid(), grid()};
      case 2:
        return Sphere{grid(), std::round(f.Uniform(0, 2))};
      case 3:
        return Capsule{grid(), grid(), std::round(f.Uniform(0, 1))};
      case 4: {
        const Vec3 a = grid(), b = grid();
        return Aabb{Min(a, b), Max(a, b)};
      }
      case 5:
        return Obb::FromQuat(grid(), turns[static_cast<int>(f.Uniform(0, 4))], Abs(grid()));
      case 6:
        return Triangle{grid(), grid(), grid()};
      default: {
        std::vector<Vec3> v;
        for (int i = 0, n = 1 + static_cast<int>(f.Uniform(0, 8)); i < n; ++i) v.push_back(grid());
        return ops.Hull(v);
      }
    }
  };
  int touching = 0;
  for (int i = 0; i < 30000; ++i) {
    const Shape a = make(i % 8);
    const Shape b = make((i / 8) % 8);
    const PairResult c = FbContact(a, b);
    ASSERT_EQ(c.status, QueryStatus::kOk) << i;
    EXPECT_EQ(c.hit, c.distance <= 0) << i;
    EXPECT_EQ(FbDist(a, b).hit, c.hit) << i;
    EXPECT_EQ(FbHit(a, b), c.hit) << i;
    EXPECT_NEAR(Length(c.point_b - c.point_a - c.normal * c.distance), 0.0, 1e-12) << i;
    touching += c.distance == 0;
  }
  EXPECT_GT(touching, 1000);
}

// 100k random pairs of every kind finish with kOk: no iteration cap is hit.
TEST(FallbackTest, TerminatesOnRandomPairs) {
  testing::ShapeFactory f(19, 1.0);
  int not_converged = 0;
  for (int i = 0; i < 100000; ++i) {
    const Shape a = f.Make(static_cast<ShapeKind>(i % 8));
    const Shape b = f.Make(static_cast<ShapeKind>((i / 8) % 8));
    not_converged += FbContact(a, b).status != QueryStatus::kOk;
  }
  EXPECT_EQ(not_converged, 0);
}

}  // namespace
}  // namespace collide
