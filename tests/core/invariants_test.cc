// Property tests of the result convention (collide/result.h) for every
// ordered pair of shape kinds at every query level, over seeded random sets
// of 10,000 pairs per pair (tests/support/random_shapes.h: generic,
// touching, parallel, degenerate, huge and tiny). Every claim a result makes
// is checked against an independent certificate (tests/support/reference.h):
//   apart:       the witness points lie on the surfaces, |pB - pA| equals the
//                distance, and the plane through them normal to `normal`
//                separates the shapes (support functions), which proves the
//                distance is the minimum;
//   overlapping: the deepest points lie on the surfaces and each inside the
//                other shape (a common point proves the hit), translating B
//                by the depth along the normal closes the support gap exactly
//                (so the depth is achieved), and no direction of a brute-force
//                search over the sphere needs a shorter translation (so it is
//                the minimum).
// Plus mirror symmetry (bitwise), invariance under a common rigid motion,
// agreement between levels, and the move-by-depth test.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "collide/query.h"
#include "support/case_count.h"
#include "support/check_failures.h"
#include "support/random_shapes.h"
#include "support/reference.h"

namespace collide {
namespace {

using testing::CheckFailures;
using testing::Describe;
using testing::DescribeNumber;
using testing::PairSet;
using testing::RefShape;
using testing::ShapeFactory;

// Absolute tolerance of every geometric check and half-width of the
// near-touching band (where hit flags may legitimately differ), relative to
// the set's length scale.
constexpr double kTol = 1e-9;
constexpr double kBand = 1e-9;
// Normals and points compared across a rigid motion, where unique.
constexpr double kMotionNormalTol = 1e-6;

// 10,000 pairs per ordered pair of kinds and level (a tenth under sanitizers,
// where these 324 tests were over half the suite's time: support/case_count.h).
using testing::CaseCount;
constexpr testing::PairSetSize kSets[] = {
    {PairSet::kGeneric, CaseCount(4000)},  {PairSet::kTouching, CaseCount(1500)},
    {PairSet::kParallel, CaseCount(1500)}, {PairSet::kDegenerate, CaseCount(1500)},
    {PairSet::kHuge, CaseCount(750)},      {PairSet::kTiny, CaseCount(750)}};

bool BitEqual(double x, double y) {
  return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y);
}
bool BitEqual(const Vec3& a, const Vec3& b) {
  return BitEqual(a.x, b.x) && BitEqual(a.y, b.y) && BitEqual(a.z, b.z);
}
bool BitEqual(const PairResult& a, const PairResult& b) {
  return a.status == b.status && a.hit == b.hit && BitEqual(a.distance, b.distance) &&
         BitEqual(a.point_a, b.point_a) && BitEqual(a.point_b, b.point_b) && BitEqual(a.normal, b.normal);
}
bool AllFinite(const PairResult& r) {
  return std::isfinite(r.distance) && IsFinite(r.point_a) && IsFinite(r.point_b) && IsFinite(r.normal);
}
bool SameShapeBits(const Shape& a, const Shape& b) {
  return KindOf(a) == KindOf(b) && Describe(a) == Describe(b);
}

struct Param {
  QueryLevel level;
  ShapeKind a;
  ShapeKind b;
};

void PrintTo(const Param& p, std::ostream* os) {
  *os << QueryLevelName(p.level) << "(" << ShapeKindName(p.a) << ", " << ShapeKindName(p.b) << ")";
}

std::string ParamName(const ::testing::TestParamInfo<Param>& info) {
  return std::string(QueryLevelName(info.param.level)) + "_" + std::string(ShapeKindName(info.param.a)) +
         "_" + std::string(ShapeKindName(info.param.b));
}

std::vector<Param> AllParams() {
  std::vector<Param> out;
  for (QueryLevel level : {QueryLevel::kIntersect, QueryLevel::kDistance, QueryLevel::kContact}) {
    for (int a = 0; a < kShapeKindCount; ++a) {
      for (int b = 0; b < kShapeKindCount; ++b) {
        out.push_back({level, static_cast<ShapeKind>(a), static_cast<ShapeKind>(b)});
      }
    }
  }
  return out;
}

class InvariantsTest : public ::testing::TestWithParam<Param> {};

// Halfspace vs halfspace has no bounded answer: kUnsupported with zero
// fields, never a silent miss.
TEST(InvariantsUnsupportedTest, HalfspaceHalfspaceIsUnsupported) {
  EXPECT_FALSE(IsSupported(ShapeKind::kHalfspace, ShapeKind::kHalfspace));
  const Shape a = Halfspace{{0, 0, 1}, 0.0};
  const Shape b = Halfspace{{0, 0, -1}, 1.0};
  for (QueryLevel level : {QueryLevel::kIntersect, QueryLevel::kDistance, QueryLevel::kContact}) {
    const PairResult r = Query(level, a, b);
    EXPECT_EQ(r, (PairResult{.status = QueryStatus::kUnsupported})) << QueryLevelName(level);
  }
  for (int k = 0; k < kShapeKindCount; ++k) {
    EXPECT_EQ(IsSupported(static_cast<ShapeKind>(k), ShapeKind::kHalfspace), k != 8);
    EXPECT_EQ(IsSupported(ShapeKind::kHalfspace, static_cast<ShapeKind>(k)), k != 8);
  }
}

TEST_P(InvariantsTest, RandomPairsKeepTheResultConvention) {
  const Param p = GetParam();
  if (p.a == ShapeKind::kHalfspace && p.b == ShapeKind::kHalfspace) {
    // Covered by HalfspaceHalfspaceIsUnsupported; the random sets cannot
    // place two halfspaces.
    ShapeFactory f(1);
    const auto [a, b] = f.MakePair(p.a, p.b, PairSet::kGeneric);
    EXPECT_EQ(Query(p.level, a, b).status, QueryStatus::kUnsupported);
    return;
  }
  {
    // Every pair but halfspace vs halfspace (handled above) must be answered.
    ShapeFactory f(1);
    const auto [a, b] = f.MakePair(p.a, p.b, PairSet::kGeneric);
    if (Query(p.level, a, b).status == QueryStatus::kUnsupported) {
      FAIL() << "Query(" << QueryLevelName(p.level) << ", " << ShapeKindName(p.a) << ", "
             << ShapeKindName(p.b) << ") returns kUnsupported";
    }
  }
  const bool has_halfspace = p.a == ShapeKind::kHalfspace || p.b == ShapeKind::kHalfspace;
  const bool has_aabb = p.a == ShapeKind::kAabb || p.b == ShapeKind::kAabb;
  CheckFailures failures;
  int total = 0;
  for (const testing::PairSetSize& set_size : kSets) {
    const PairSet set = set_size.set;
    // Same seed for (A, B) and (B, A) only by accident: each ordered pair
    // draws its own pairs.
    ShapeFactory f(1000003ull * (static_cast<int>(p.a) * 16 + static_cast<int>(p.b)) + static_cast<int>(set));
    const double scale = testing::PairSetScale(set);
    const double tol = kTol * scale;
    const double band = kBand * scale;
    int touching_or_hit = 0;
    for (int i = 0; i < set_size.count; ++i, ++total) {
      const auto pair = f.MakePair(p.a, p.b, set);  // Named: clang 14 cannot capture bindings.
      const Shape &a = pair.first, &b = pair.second;
      const RefShape ra(a), rb(b);
      const PairResult r = Query(p.level, a, b);
      const PairResult c = p.level == QueryLevel::kContact ? r : Query(QueryLevel::kContact, a, b);
      auto fail = [&](const std::string& check, const std::string& detail = "") {
        failures.Add(check, std::string(testing::PairSetName(set)) + " #" + std::to_string(i) +
                                ": A = " + Describe(a) + ", B = " + Describe(b) + " -> " + Describe(r) +
                                (detail.empty() ? "" : " | " + detail));
      };
      if (r.status != QueryStatus::kOk || c.status != QueryStatus::kOk) {
        fail("status is kOk", "contact " + Describe(c));
        continue;
      }
      if (!AllFinite(r) || !AllFinite(c)) {
        fail("no NaN or infinity", "contact " + Describe(c));
        continue;
      }
      // The contact result is checked in full by the contact-level test;
      // here it gives the lower levels the truth and the near-touching band.
      const bool near_touching = std::fabs(c.distance) <= band;
      if (c.hit || near_touching) ++touching_or_hit;
      if (set == PairSet::kTouching && !(std::fabs(c.distance) <= tol)) {
        fail("touching pairs have distance ~0", "contact " + Describe(c));
      }

      // Mirror symmetry, bitwise.
      if (!SameShapeBits(a, b)) {
        const PairResult m = Query(p.level, b, a);
        if (!BitEqual(m, r.Flipped())) fail("Query(b, a) == Query(a, b).Flipped() bitwise", Describe(m));
      }

      const Vec3 pa = r.point_a, pb = r.point_b;
      if (p.level == QueryLevel::kIntersect) {
        if (r.distance != 0.0 || r.point_a != Vec3{} || r.point_b != Vec3{} || r.normal != Vec3{}) {
          fail("intersect level: distance, points and normal are zero");
        }
        if (!near_touching && r.hit != c.hit) fail("intersect hit == contact hit outside the band");
      } else {
        if (r.hit != (r.distance <= 0)) fail("hit exactly when distance <= 0");
        if (p.level == QueryLevel::kDistance) {
          if (!near_touching && r.hit != c.hit) fail("distance hit == contact hit outside the band");
          if (r.distance < 0) fail("distance level: distance >= 0");
          if (!r.hit && !c.hit && std::fabs(r.distance - c.distance) > tol) {
            fail("distance level distance == contact distance when apart", "contact " + Describe(c));
          }
        }
        if (r.hit && p.level == QueryLevel::kDistance) {
          if (r.distance != 0 || r.normal != Vec3{} || !(pa == pb)) {
            fail("distance level hit: distance 0, normal 0, point_a == point_b");
          }
          if (ra.Distance(pa) > tol || rb.Distance(pa) > tol) {
            fail(
                "distance level hit: the common point is in both shapes",
                "dist to A " + DescribeNumber(ra.Distance(pa)) + ", to B " + DescribeNumber(rb.Distance(pa)));
          }
        } else {
          // Apart (distance, contact) or overlapping (contact): witnesses.
          const double d = r.distance;
          const Vec3 n = r.normal;
          if (std::fabs(Length(n) - 1.0) > 1e-12) {
            fail("normal is unit (contact; distance level when apart)");
          }
          if (Length(pb - pa - r.normal * d) > tol) fail("point_b - point_a == distance * normal");
          const double sa = ra.SurfaceDistance(pa), sb = rb.SurfaceDistance(pb);
          if (std::fabs(sa) > tol || std::fabs(sb) > tol) {
            fail("witness points on the surfaces",
                 "surface distance of pa " + DescribeNumber(sa) + ", pb " + DescribeNumber(sb));
          }
          if (has_halfspace) {
            // Closed form: the other shape's extreme point against the plane.
            const testing::RefSignedDistance ref = ReferenceSignedDistance(ra, rb);
            if (std::fabs(d - ref.distance) > tol) {
              fail("halfspace: distance == closed form", "reference " + DescribeNumber(ref.distance));
            }
            if (Length(n - ref.normal) > 1e-9) {
              fail("halfspace: normal == +-plane normal", "reference " + Describe(ref.normal));
            }
          } else if (!r.hit) {
            // The plane normal to n between the points separates A and B.
            // The normal of points ~d apart is only known to ~1e-16 S / d
            // radians, which moves the supports by that times the size.
            const double slack = tol + 1e-15 * scale * scale / d;
            const double sep = -testing::Gap(ra, rb, n);
            if (d > band && sep < d - slack)
              fail("apart: separating plane certifies the distance", "-gap(n) " + DescribeNumber(sep));
          } else {
            const double gap = testing::Gap(ra, rb, n);
            if (std::fabs(gap + d) > tol)
              fail("overlap: depth == support gap along the normal", "gap " + DescribeNumber(gap));
            const testing::RefSignedDistance ref = ReferenceSignedDistance(ra, rb);
            if (ref.distance > d + tol) {
              fail("overlap: no shallower direction than the normal (brute force)",
                   "reference signed distance " + DescribeNumber(ref.distance) + " along " +
                       Describe(ref.normal));
            }
          }
          if (r.hit) {
            // The deepest points are the extreme points of A along the
            // normal and of B against it. (Each need not lie in the other
            // shape: when B is inside A no point of B is "deepest in A".)
            if (!has_halfspace) {
              const double ea = Dot(n, pa) - ra.Support(n), eb = -Dot(n, pb) - rb.Support(-n);
              if (std::fabs(ea) > tol || std::fabs(eb) > tol) {
                fail("overlap: point_a and point_b are the extreme points along the normal",
                     "h_A(n) - n.pa " + DescribeNumber(-ea) + ", h_B(-n) + n.pb " + DescribeNumber(-eb));
              }
            }
            // Translating B by the depth along the normal separates the
            // shapes; 1% less does not (the depth is the minimum).
            if (-d > 100 * band) {
              const Shape out = f.Translated(b, n * (-d * 1.01));
              const Shape in = f.Translated(b, n * (-d * 0.99));
              if (Intersect(a, out).hit) fail("moving B by 1.01 * depth along the normal separates");
              if (!Intersect(a, in).hit) fail("moving B by 0.99 * depth along the normal does not separate");
            }
          }
        }
      }

      // A common rigid motion of both shapes (a signed axis permutation
      // when an Aabb must stay axis-aligned).
      const Mat3 rot = has_aabb ? f.SignedPermutation() : RotationFromQuat(f.Rotation());
      const Vec3 t = f.UnitVector() * (scale * f.Uniform(0, 2));
      const Shape a2 = f.Moved(a, rot, t), b2 = f.Moved(b, rot, t);
      const PairResult r2 = Query(p.level, a2, b2);
      if (r2.status != QueryStatus::kOk || !AllFinite(r2)) {
        fail("moved: status kOk and finite", Describe(r2));
        continue;
      }
      if (!near_touching && r2.hit != r.hit) fail("moved: same hit", Describe(r2));
      if (std::fabs(r2.distance - r.distance) > kTol * std::max(scale, std::fabs(r.distance))) {
        fail("moved: same distance", Describe(r2));
      }
      const bool unique = set == PairSet::kGeneric || set == PairSet::kHuge || set == PairSet::kTiny;
      if (unique && !near_touching) {
        if (p.level == QueryLevel::kContact && Length(r2.normal - rot * r.normal) > kMotionNormalTol) {
          fail("moved: normal rotates with the shapes", Describe(r2));
        }
        // Closest points are unique when one shape is a point or a ball
        // (polytopes have parallel faces: aabb pairs always do).
        const bool round = p.a == ShapeKind::kPoint || p.a == ShapeKind::kSphere ||
                           p.b == ShapeKind::kPoint || p.b == ShapeKind::kSphere;
        if (p.level != QueryLevel::kIntersect && !r.hit && round &&
            (Length(r2.point_a - (rot * pa + t)) > kMotionNormalTol * scale ||
             Length(r2.point_b - (rot * pb + t)) > kMotionNormalTol * scale)) {
          fail("moved: closest points move with the shapes", Describe(r2));
        }
      }
    }
    // Hit-rate guard: the set must exercise both answers.
    if (set != PairSet::kTouching) {
      const double rate = static_cast<double>(touching_or_hit) / set_size.count;
      EXPECT_GE(rate, 0.1) << testing::PairSetName(set) << " set: hit rate too low";
      EXPECT_LE(rate, 0.9) << testing::PairSetName(set) << " set: hit rate too high";
    }
  }
  for (const std::string& check : failures.Checks()) {
    ADD_FAILURE() << "of " << total << " pairs, " << failures.Report(check);
  }
}

INSTANTIATE_TEST_SUITE_P(AllPairs, InvariantsTest, ::testing::ValuesIn(AllParams()), ParamName);

}  // namespace
}  // namespace collide
