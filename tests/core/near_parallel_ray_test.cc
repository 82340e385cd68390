// Issue 14 class 4: RayCast(ray, Triangle) on rays parallel or nearly
// parallel to the triangle's plane, against an exact rational (GMP) reference
// (tests/support/near_parallel_rays.h). Hit flags must agree exactly on
// every certified case; a ray exactly in the plane follows the coplanar rule
// (result.h): it hits where it enters the closed triangle.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iostream>
#include <random>

#include "collide/mesh.h"
#include "collide/query.h"
#include "query/raycast/exact_sign.h"
#include "support/case_count.h"
#include "support/near_parallel_rays.h"
#include "support/random_shapes.h"

namespace collide::testing {
namespace {

using internal::ExactTriple;
using internal::ExactTripleSign;

// Relative error of the distance: the exact t is within 3 eps (two exact
// triple products rounded to nearest, then divided), |d| within 2.5 eps
// (sqrt of a rounded dot product), their product's rounding 1 eps: 6.5 eps,
// asserted as 8 eps = 2^-50. The point o + unit * distance: each coordinate
// within eps |o_k| + 14 eps * distance (unit within 4.5 eps), asserted as
// 16 eps (|o|_inf + distance), and so off the plane by at most sqrt(3) times
// that.
constexpr double kEps = 0x1p-53;
constexpr double kDistanceBound = 8 * kEps;
// A coplanar entry: t from exact determinants (3 eps) or, along an edge, a
// double dot product of parallel vectors over |d|^2 (~8 eps), then the same
// 3.5 eps of |d| and the product: asserted as 16 eps.
constexpr double kCoplanarDistanceBound = 16 * kEps;

// Relative error of a hit's distance against the reference's binary128 value
// (0 exactly when the reference's is).
double RelativeError(double distance, const ReferenceRayTriangle& ref) {
  if (ref.distance_fine == 0) return distance == 0.0 ? 0.0 : kInfinity;
  return std::fabs(static_cast<double>((distance - ref.distance_fine) / ref.distance_fine));
}

class NearParallelRayTest : public ::testing::TestWithParam<NearParallelClass> {};

TEST_P(NearParallelRayTest, HitFlagsMatchTheExactReference) {
  const NearParallelClass c = GetParam();
  const std::vector<RayTriangleCase> cases =
      MakeNearParallelCases(c, CaseCount(2000), 1400 + static_cast<int>(c));
  int uncertain = 0, hits = 0, checked = 0;
  double worst = 0.0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const RayTriangleCase& k = cases[i];
    const ReferenceRayTriangle ref = ReferenceRayCast(k.ray, k.triangle);
    if (!ref.certain) {
      ++uncertain;
      continue;
    }
    ++checked;
    const RayHit hit = RayCast(k.ray, k.triangle);
    ASSERT_EQ(hit.hit, ref.hit) << "case " << i << ": " << Describe(k.ray) << " " << Describe(k.triangle);
    if (!hit.hit) continue;
    ++hits;
    // The normal faces the ray (for coplanar rays: the entry edge's in-plane
    // normal, perpendicular to the ray, to rounding, when it runs along the
    // edge).
    EXPECT_LE(Dot(hit.normal, k.ray.direction) / Length(k.ray.direction), 1e-12) << "case " << i;
    // Distance: within a few ulps whatever the angle to the plane (a
    // grazing ray's t, of condition number 1 / sin(angle), is computed from
    // exact determinants).
    const double err = RelativeError(hit.distance, ref);
    const double bound = ref.coplanar ? kCoplanarDistanceBound : kDistanceBound;
    worst = std::max(worst, err / bound);
    EXPECT_LE(err, bound) << "case " << i << ": " << Describe(k.ray) << " " << Describe(k.triangle) << " ref "
                          << ref.distance;
  }
  RecordProperty("worst_distance_error_over_bound", std::to_string(worst));
  // The reference decides nearly every case, and the set is not all-miss
  // (rays exactly parallel and off the plane: all must miss).
  EXPECT_LE(uncertain, checked / 100);
  if (c == NearParallelClass::kOffPlaneAxis) {
    EXPECT_EQ(hits, 0);
  } else if (c != NearParallelClass::kOffPlaneTilted) {
    EXPECT_GT(hits, checked / 10);
    EXPECT_LT(hits, checked);
  }
}

INSTANTIATE_TEST_SUITE_P(Classes, NearParallelRayTest, ::testing::ValuesIn(kAllNearParallelClasses),
                         [](const auto& info) { return std::string(NearParallelClassName(info.param)); });

// The distance of a hit at tilts (angle between the ray and the triangle's
// plane) of 1e-6 down to 1e-18 rad, scales 1e-6..1e6, through RayCast and a
// mesh, against the exact hit (binary128 from the rational t). Tilts below
// ~1e-16 need exactly representable geometry (a generic plane through
// rounded points is off by ~1e-16 from any double direction), hence three
// classes:
//  - generic: random triangle anywhere within 4x its size of the origin, ray
//    along a random in-plane direction tilted by 1e-6..1e-15 (as rounded);
//  - edge in an axis plane: edge ab in the plane x_k = 0, c anywhere; the ray
//    along b - a plus an exact tiny x_k component, through a target point
//    that is exactly in the plane (dyadic barycentrics on a dyadic grid), so
//    the origin is exactly off the plane by t * that component;
//  - axis plane: triangle in x_k = 0, ray along a random in-plane direction
//    with an exact tiny x_k component (a floor in a game map).
enum class TiltClass { kGeneric, kEdgeInAxisPlane, kAxisPlane };

struct TiltCase {
  Ray ray;
  Triangle triangle;
};

class TiltCases {
 public:
  explicit TiltCases(std::uint64_t seed) : rng_(seed) {}

  TiltCase Make(TiltClass c) {
    for (;;) {
      const TiltCase k = c == TiltClass::kGeneric ? Generic(6, 15) : Exact(c == TiltClass::kAxisPlane);
      if (Length(Cross(k.triangle.b - k.triangle.a, k.triangle.c - k.triangle.a)) > 0.0) return k;
    }
  }
  // A generic case at a tilt of 10^-x, x uniform in [lo, hi].
  TiltCase MakeGeneric(double lo, double hi) {
    for (;;) {
      const TiltCase k = Generic(lo, hi);
      if (Length(Cross(k.triangle.b - k.triangle.a, k.triangle.c - k.triangle.a)) > 0.0) return k;
    }
  }

 private:
  double Uniform(double lo, double hi) {
    return lo + (hi - lo) * (static_cast<double>(rng_() >> 11) * 0x1.0p-53);
  }
  double Sign() { return rng_() % 2 ? 1.0 : -1.0; }
  Vec3 Permute(const Vec3& v, int axis) {  // the z axis becomes `axis`.
    return axis == 2 ? v : (axis == 0 ? Vec3{v.z, v.x, v.y} : Vec3{v.y, v.z, v.x});
  }
  // Barycentric weights of an interior point, each >= 0.05.
  std::array<double, 3> Interior() {
    for (;;) {
      const double u = Uniform(0, 1), v = Uniform(0, 1 - u);
      if (std::min({u, v, 1 - u - v}) >= 0.05) return {1 - u - v, u, v};
    }
  }

  TiltCase Generic(double lo, double hi) {
    const double s = std::pow(10.0, Uniform(-6, 6));
    const Vec3 center{Uniform(-4, 4) * s, Uniform(-4, 4) * s, Uniform(-4, 4) * s};
    auto point = [&] { return center + Vec3{Uniform(-s, s), Uniform(-s, s), Uniform(-s, s)}; };
    const Triangle t{point(), point(), point()};
    const Vec3 n = Cross(t.b - t.a, t.c - t.a);
    if (Length(n) < 0.05 * s * s) return {};
    const Vec3 unit_n = n / Length(n);
    const auto [wa, wb, wc] = Interior();
    const Vec3 target = t.a * wa + t.b * wb + t.c * wc;
    const Vec3 r{Uniform(-1, 1), Uniform(-1, 1), Uniform(-1, 1)};
    const Vec3 in_plane = r - unit_n * Dot(r, unit_n);
    if (Length(in_plane) < 0.1) return {};
    // Tilted towards the normal by an angle whose tangent is 10^-x.
    const double tilt = Sign() * std::pow(10.0, -Uniform(lo, hi));
    const Vec3 d = (in_plane / Length(in_plane) + unit_n * tilt) * std::pow(10.0, Uniform(-2, 2));
    return {{target - d * (Uniform(0.5, 3) * s / Length(d)), d, kInfinity}, t};
  }

  TiltCase Exact(bool axis_plane) {
    const int axis = static_cast<int>(rng_() % 3);
    const double scale = std::ldexp(1.0, static_cast<int>(std::lround(Uniform(-20, 20))));
    // Coordinates on a 2^-20 * scale grid within [-scale, scale].
    auto grid = [&] { return std::ldexp(std::round(Uniform(-0x1p20, 0x1p20)), -20) * scale; };
    const double tilt = std::pow(10.0, -Uniform(6, 19));
    const double t_hit = std::ldexp(1.0, static_cast<int>(rng_() % 3) - 1);
    Triangle tri;
    Vec3 target, d;
    if (axis_plane) {
      tri = {{grid(), grid(), 0}, {grid(), grid(), 0}, {grid(), grid(), 0}};
      const auto [wa, wb, wc] = Interior();
      target = tri.a * wa + tri.b * wb + tri.c * wc;  // z exactly 0.
      const double angle = Uniform(0, 2 * M_PI), length = std::pow(10.0, Uniform(-2, 2)) * scale;
      d = {std::cos(angle) * length, std::sin(angle) * length, Sign() * tilt * length};
    } else {
      tri = {{grid(), grid(), 0}, {grid(), grid(), 0}, {grid(), grid(), grid()}};
      if (std::fabs(tri.c.z) < 0.1 * scale) return {};
      const Vec3 g = tri.b - tri.a;  // exact, z = 0.
      // d = g + delta e_z, delta a power of two near tilt * |g|.
      const double delta = Sign() * std::ldexp(1.0, std::ilogb(tilt * Length(g)));
      d = {g.x, g.y, delta};
      // target = a + lambda g + mu (c - a), exact: 24-bit barycentrics on
      // the grid; mu small enough that target.z - t_hit * delta is exact.
      const double mu_max = std::min(0.5, 0x1p50 * t_hit * std::fabs(delta) / std::fabs(tri.c.z));
      const double mu = std::ldexp(std::max(1.0, std::floor(Uniform(0.1, 1) * mu_max * 0x1p24)), -24);
      const double lambda = std::ldexp(std::round(Uniform(0.05, 0.95 - mu) * 0x1p24), -24);
      target = tri.a + g * lambda + (tri.c - tri.a) * mu;
    }
    // o + t_hit d = target: exact in z (the plane's axis), so the hit is at
    // t_hit up to the in-plane rounding of o.
    const Vec3 o = target - d * t_hit;
    return {{Permute(o, axis), Permute(d, axis), kInfinity},
            {Permute(tri.a, axis), Permute(tri.b, axis), Permute(tri.c, axis)}};
  }

  std::mt19937_64 rng_;
};

// The triangle's normal in binary128 (products of exact differences, ~2^-106
// relative): the sine of a direction's angle to the plane and a point's
// distance from it, to ~16 digits down to angles of 1e-18 and beyond.
class FineNormal {
 public:
  explicit FineNormal(const Triangle& t) {
    __float128 e1[3], e2[3];
    for (int j = 0; j < 3; ++j) {
      e1[j] = static_cast<__float128>(t.b[j]) - t.a[j];
      e2[j] = static_cast<__float128>(t.c[j]) - t.a[j];
    }
    for (int j = 0; j < 3; ++j) n_[j] = e1[(j + 1) % 3] * e2[(j + 2) % 3] - e1[(j + 2) % 3] * e2[(j + 1) % 3];
    length_ = std::sqrt(static_cast<double>(Dot(n_, n_)));
  }
  double SinAngleTo(const Vec3& d) const {
    const __float128 dq[3] = {d.x, d.y, d.z};
    return std::fabs(static_cast<double>(Dot(n_, dq))) / (length_ * Length(d));
  }
  double Offset(const Vec3& p, const Vec3& a) const {
    __float128 pa[3];
    for (int j = 0; j < 3; ++j) pa[j] = static_cast<__float128>(p[j]) - a[j];
    return std::fabs(static_cast<double>(Dot(n_, pa))) / length_;
  }

 private:
  static __float128 Dot(const __float128* x, const __float128* y) {
    return x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
  }
  __float128 n_[3];
  double length_;
};

class NearParallelRayDistanceTest : public ::testing::TestWithParam<TiltClass> {};

TEST_P(NearParallelRayDistanceTest, DistanceWithinUlpsOfTheExactHitAtAnyTilt) {
  const TiltClass c = GetParam();
  TiltCases gen(1600 + static_cast<int>(c));
  const int n = CaseCount(10000);
  // Hits and worst relative distance error per decade of tilt, 1e-6 .. 1e-19.
  std::array<int, 14> hits{};
  std::array<double, 14> worst{};
  int misses = 0, failures = 0;
  for (int i = 0; i < n; ++i) {
    const TiltCase k = gen.Make(c);
    const ReferenceRayTriangle ref = ReferenceRayCast(k.ray, k.triangle);
    if (!ref.certain || !ref.hit || ref.coplanar) {
      // The generic class's rounding can move the hit off the triangle; an
      // edge class's c could line up with the edge in x_k = 0 (the ray then
      // in the plane: the other suite's coplanar rule).
      ++misses;
      continue;
    }
    SCOPED_TRACE(::testing::Message()
                 << "case " << i << ": " << Describe(k.ray) << " " << Describe(k.triangle));
    const FineNormal nq(k.triangle);
    const double sin_tilt = nq.SinAngleTo(k.ray.direction);
    const int decade = std::clamp(static_cast<int>(std::floor(-std::log10(sin_tilt))) - 6, 0, 13);
    const RayHit hit = RayCast(k.ray, k.triangle);
    ASSERT_TRUE(hit.hit);
    const double err = RelativeError(hit.distance, ref);
    ++hits[decade];
    worst[decade] = std::max(worst[decade], err);
    // The point: near the exact hit o + t d, and on the triangle's plane.
    const Vec3 o = k.ray.origin, d = k.ray.direction;
    const double tol =
        16 * kEps * (std::max({std::fabs(o.x), std::fabs(o.y), std::fabs(o.z)}) + hit.distance);
    double point_err = 0.0;
    for (int j = 0; j < 3; ++j) {
      const __float128 exact = static_cast<__float128>(o[j]) + ref.t_fine * d[j];
      point_err = std::max(point_err, std::fabs(static_cast<double>(hit.point[j] - exact)));
    }
    const double plane_err = nq.Offset(hit.point, k.triangle.a);
    if (err > kDistanceBound || point_err > tol || plane_err > std::sqrt(3.0) * tol) {
      // Counted, the first few shown: the summary below tells how far off.
      if (++failures <= 3) {
        ADD_FAILURE() << "relative distance error " << err << " (bound " << kDistanceBound
                      << "), point off by " << point_err << " and the plane by " << plane_err
                      << " (tolerance " << tol << "), sin(tilt) " << sin_tilt << ", distance "
                      << DescribeNumber(hit.distance) << ", exact " << DescribeNumber(ref.distance);
      }
    }
    // The mesh ray cast: the same answer.
    const TriangleMesh mesh(MeshData{{k.triangle.a, k.triangle.b, k.triangle.c}, {{0, 1, 2}}});
    const MeshRayHit in_mesh = RayCastClosest(mesh, k.ray);
    ASSERT_TRUE(in_mesh.hit);
    ASSERT_EQ(in_mesh.distance, hit.distance);
    ASSERT_EQ(in_mesh.point, hit.point);
  }
  std::string summary;
  for (int j = 0; j < 14; ++j) {
    if (hits[j] == 0) continue;
    summary += " 1e-" + std::to_string(j + 6) + ": " + std::to_string(hits[j]) + " hits, worst " +
               DescribeNumber(worst[j] / kEps) + " eps;";
  }
  RecordProperty("tilt_decades", summary);
  std::cout << "distance error by tilt decade:" << summary << "\n";
  EXPECT_EQ(failures, 0) << "of " << n - misses << " hits";
  // Coverage: most cases hit, and every decade the class reaches is there.
  EXPECT_LE(misses, n / 10);
  const int deepest = c == TiltClass::kGeneric ? 8 : 12;  // 1e-14 or 1e-18.
  for (int j = 0; j <= deepest; ++j) EXPECT_GE(hits[j], n / 100) << "tilt decade 1e-" << j + 6;
}

std::string TiltClassName(const ::testing::TestParamInfo<TiltClass>& info) {
  constexpr const char* kNames[] = {"generic", "edge_in_axis_plane", "axis_plane"};
  return kNames[static_cast<int>(info.param)];
}
INSTANTIATE_TEST_SUITE_P(Classes, NearParallelRayDistanceTest,
                         ::testing::Values(TiltClass::kGeneric, TiltClass::kEdgeInAxisPlane,
                                           TiltClass::kAxisPlane),
                         TiltClassName);

// Steeper rays mostly take Woop's double t, used only where its error bound
// certifies 2^-32 (relative; watertight.cc): with |d| and the product, the
// distance within 2^-32 + 16 eps. Its worst measured error is recorded.
TEST(NearParallelRayDistanceTest, SteeperRaysWithinTheFastPathBound) {
  TiltCases gen(1700);
  const int n = CaseCount(10000);
  int hits = 0;
  double worst = 0.0;
  for (int i = 0; i < n; ++i) {
    const TiltCase k = gen.MakeGeneric(-1, 6);  // tan(tilt) 1e-6..10: any angle.
    const ReferenceRayTriangle ref = ReferenceRayCast(k.ray, k.triangle);
    if (!ref.certain || !ref.hit) continue;
    const RayHit hit = RayCast(k.ray, k.triangle);
    ASSERT_TRUE(hit.hit) << "case " << i << ": " << Describe(k.ray) << " " << Describe(k.triangle);
    ++hits;
    const double err = RelativeError(hit.distance, ref);
    worst = std::max(worst, err);
    ASSERT_LE(err, 0x1p-32 + 16 * kEps)
        << "case " << i << ": " << Describe(k.ray) << " " << Describe(k.triangle);
  }
  RecordProperty("worst_relative_distance_error", DescribeNumber(worst));
  std::cout << "steeper rays: " << hits << " hits, worst relative distance error " << worst << "\n";
  EXPECT_GE(hits, n * 9 / 10);
}

// ExactTriple (the distances' exact route) is the exact determinant rounded
// to the nearest double, ties to even: checked against GMP on determinants
// that cancel to 1e-30 of their terms, on exact zeros, and on ties.
mpq_class ExactDeterminant(const Vec3& p1, const Vec3& p0, const Vec3& q1, const Vec3& q0, const Vec3& r1,
                           const Vec3& r0) {
  mpq_class p[3], q[3], r[3];
  for (int j = 0; j < 3; ++j) {
    p[j] = mpq_class(p1[j]) - mpq_class(p0[j]);
    q[j] = mpq_class(q1[j]) - mpq_class(q0[j]);
    r[j] = mpq_class(r1[j]) - mpq_class(r0[j]);
  }
  return p[0] * (q[1] * r[2] - q[2] * r[1]) + p[1] * (q[2] * r[0] - q[0] * r[2]) +
         p[2] * (q[0] * r[1] - q[1] * r[0]);
}

TEST(ExactTripleTest, IsTheExactDeterminantRoundedToNearest) {
  std::mt19937_64 rng(1800);
  auto uniform = [&](double lo, double hi) {
    return lo + (hi - lo) * (static_cast<double>(rng() >> 11) * 0x1p-53);
  };
  auto vec = [&](double s) { return Vec3{uniform(-s, s), uniform(-s, s), uniform(-s, s)}; };
  int cancelled = 0;
  for (int i = 0; i < CaseCount(20000); ++i) {
    const double s = std::pow(10.0, uniform(-8, 8));
    const Vec3 p0 = vec(4 * s), q0 = vec(4 * s), r0 = vec(4 * s), p = vec(s), q = vec(s);
    // r nearly in the span of p and q: det cancels by up to 30 digits.
    const Vec3 r = p * uniform(-1, 1) + q * uniform(-1, 1) + vec(s * std::pow(10.0, -uniform(0, 30)));
    const Vec3 p1 = p0 + p, q1 = q0 + q, r1 = r0 + r;
    const double x = ExactTriple(p1, p0, q1, q0, r1, r0);
    const mpq_class exact = ExactDeterminant(p1, p0, q1, q0, r1, r0);
    ASSERT_EQ(ExactTripleSign(p1, p0, q1, q0, r1, r0), sgn(exact)) << "case " << i;
    if (exact == 0) {
      ASSERT_EQ(x, 0.0) << "case " << i;
      continue;
    }
    cancelled += std::fabs(x) < 1e-12 * s * s * s;
    // Nearest: neither neighbour of x is closer to the exact value.
    const mpq_class err = abs(mpq_class(x) - exact);
    ASSERT_LE(err, abs(mpq_class(std::nextafter(x, kInfinity)) - exact)) << "case " << i;
    ASSERT_LE(err, abs(mpq_class(std::nextafter(x, -kInfinity)) - exact)) << "case " << i;
  }
  EXPECT_GT(cancelled, CaseCount(20000) / 4);
  // det[(x - x0) e_x, e_y, e_z] = x - x0 exactly: ties go to even, a tail
  // past the tie breaks it.
  const Vec3 zero{}, ey{0, 1, 0}, ez{0, 0, 1};
  auto det = [&](double x, double x0) { return ExactTriple({x, 0, 0}, {x0, 0, 0}, ey, zero, ez, zero); };
  EXPECT_EQ(det(1.0, -0x1p-53), 1.0);                          // 1 + half an ulp: to even.
  EXPECT_EQ(det(1.0, -0x1.0000000000001p-53), 1.0 + 0x1p-52);  // past the tie.
  EXPECT_EQ(det(1.0, -0x3p-53), 1.0 + 0x1p-51);                // 1 + 1.5 ulp: to even.
  EXPECT_EQ(det(-1.0, 0x1p-53), -1.0);
  EXPECT_EQ(det(-1.0, 0x1.0000000000001p-53), -1.0 - 0x1p-52);
  EXPECT_EQ(det(1.0, 1.0), 0.0);
}

// Named regressions: a ray 1e-12 above a unit triangle's plane, parallel to
// it, aimed across its middle (reported as hitting before the exact test).
TEST(NearParallelRayRegression, ParallelRayJustAboveThePlaneMisses) {
  const Triangle t{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  EXPECT_FALSE(RayCast({{-1, 0.25, 1e-12}, {1, 0, 0}}, t).hit);
  EXPECT_FALSE(RayCast({{-1, 0.25, -1e-12}, {1, 0, 0}}, t).hit);
  const Triangle tilted{{0, 0, 0}, {1, 0, 1e-3}, {0, 1, 2e-3}};
  EXPECT_FALSE(RayCast({{-1, 0.25, -1e-3 + 1e-12}, {1, 0, 1e-3}}, tilted).hit);
}

// The coplanar rule: in the plane, the ray hits where it enters the closed
// triangle, with the entry edge's outward normal; from inside, at 0.
TEST(NearParallelRayRegression, CoplanarRayHitsAtTheEntryEdge) {
  const Triangle t{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  const RayHit entry = RayCast({{-1, 0.25, 0}, {1, 0, 0}}, t);
  ASSERT_TRUE(entry.hit);
  EXPECT_EQ(entry.distance, 1.0);
  EXPECT_EQ(entry.point, (Vec3{0, 0.25, 0}));
  EXPECT_EQ(entry.normal, (Vec3{-1, 0, 0}));
  const RayHit inside = RayCast({{0.25, 0.25, 0}, {1, 0, 0}}, t);
  ASSERT_TRUE(inside.hit);
  EXPECT_EQ(inside.distance, 0.0);
  EXPECT_EQ(inside.normal, (Vec3{-1, 0, 0}));
  EXPECT_FALSE(RayCast({{-1, 1.5, 0}, {1, 0, 0}}, t).hit);
  // Along the edge's line: meets the closed triangle at the vertex.
  const RayHit along = RayCast({{-2, 0, 0}, {1, 0, 0}}, t);
  ASSERT_TRUE(along.hit);
  EXPECT_EQ(along.distance, 2.0);
}

// core_fuzz found it: a ray with a tiny direction (|d| = 1e-9) meeting an
// edge exactly at max_distance = 1e12. Its t lies within t_max = 1e12 / |d|
// (rounded), and t * |d| rounded one ulp past max_distance: a hit's distance
// must never exceed max_distance, alone or in a mesh.
TEST(NearParallelRayRegression, HitAtMaxDistanceStaysWithinIt) {
  const double a = -0x1.d1a94a2p+39;
  const Triangle t{{a, a, 3}, {a, a, a}, {0x1.6a09e667f3bcdp-1, 0, 0}};
  const Ray ray{{a, 0, 0}, {0, -0x1.12e0be826d695p-30, 0}, -a};
  const RayHit hit = RayCast(ray, t);
  ASSERT_TRUE(hit.hit);
  EXPECT_LE(hit.distance, ray.max_distance);
  EXPECT_GE(hit.distance, std::nextafter(ray.max_distance, 0.0));
  const TriangleMesh mesh(MeshData{{t.a, t.b, t.c}, {{0, 1, 2}}});
  const MeshRayHit in_mesh = RayCastClosest(mesh, ray);
  ASSERT_TRUE(in_mesh.hit);
  EXPECT_EQ(in_mesh.distance, hit.distance);
}

// Origins on the triangle's plane or within a few ulps of it, rays steep to
// it (the fast path's edge functions are certain, only t's sign is not: the
// exact t is computed from the certain edge signs), against the exact
// reference: hit flags agree, a hit at exact t = 0 reports distance 0, others
// within kDistanceBound. Generic planes (the origin a rounded point of the
// plane) and axis planes (the origin exactly on it, a game map's floor).
TEST(RayFromThePlaneTest, OriginsOnOrNearThePlaneMatchTheExactReference) {
  std::mt19937_64 rng(1416);
  std::uniform_real_distribution<double> unit(-1.0, 1.0), bary(-0.3, 1.3);
  int checked = 0, at_zero = 0, hits = 0;
  for (int i = 0; i < CaseCount(20000); ++i) {
    const double scale = std::pow(10.0, 3 * (i % 3) - 3);
    const Vec3 shift{unit(rng) * 8 * scale, unit(rng) * 8 * scale, unit(rng) * 8 * scale};
    Triangle t{shift + Vec3{unit(rng), unit(rng), unit(rng)} * scale,
               shift + Vec3{unit(rng), unit(rng), unit(rng)} * scale,
               shift + Vec3{unit(rng), unit(rng), unit(rng)} * scale};
    const bool axis_plane = i % 2 == 1;
    if (axis_plane) t.a.z = t.b.z = t.c.z = shift.z;
    const double u = bary(rng), v = bary(rng);
    Vec3 o = t.a + (t.b - t.a) * u + (t.c - t.a) * v;
    if (axis_plane) o.z = shift.z;
    // Nudged off the plane by 0-3 ulps in z, either way, in half the cases.
    for (int k = static_cast<int>(rng() % 4); i % 4 >= 2 && k > 0; --k) {
      o.z = std::nextafter(o.z, i % 8 >= 4 ? kInfinity : -kInfinity);
    }
    Vec3 d{unit(rng), unit(rng), unit(rng)};
    const Vec3 n = Cross(t.b - t.a, t.c - t.a);
    if (!(std::fabs(Dot(d, n)) >= 0.1 * Length(d) * Length(n))) continue;  // steep: not near parallel.
    const Ray ray{o, d, kInfinity};
    const ReferenceRayTriangle ref = ReferenceRayCast(ray, t);
    ASSERT_TRUE(ref.certain);
    ++checked;
    const RayHit hit = RayCast(ray, t);
    ASSERT_EQ(hit.hit, ref.hit) << "case " << i << ": " << Describe(ray) << " " << Describe(t);
    if (!hit.hit) continue;
    ++hits;
    if (ref.distance_fine == 0) {
      ++at_zero;
      ASSERT_EQ(hit.distance, 0.0) << "case " << i;
    } else {
      ASSERT_LE(RelativeError(hit.distance, ref), kDistanceBound) << "case " << i << ": " << Describe(ray);
    }
  }
  // Both outcomes, and starts exactly on the triangle, are in the set.
  EXPECT_GT(hits, checked / 10);
  EXPECT_LT(hits, checked * 9 / 10);
  EXPECT_GT(at_zero, checked / 20);
}

}  // namespace
}  // namespace collide::testing
