// ShapeCast (collide/sweep.h): analytic cases, and seeded random sweeps of
// every moving kind (all but halfspace) against every kind, checked against
// the contract and an independent reference.
//
// Contract checks per sweep: status kOk; on a hit t in [0, 1], the shapes at
// t touch (|signed distance| within the band), and no sample t' < t
// overlaps; the point lies on both shapes at t, the normal is unit and (for
// t > 0) does not point against the motion; a start overlap reports t = 0
// and Contact's depth; a miss stays apart at every sample of the path. The
// reference knows nothing of the sweep: the signed distance along a
// translation is convex in t, so a golden-section search of Distance finds
// its minimum and a bisection of Intersect on [0, t_min] the first contact.
// Mirror: ShapeCast(B, -v, A) hits alike and its t satisfies the contract
// for (A, v, B).
#include "collide/sweep.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "collide/query.h"
#include "query/sweep/sweep_internal.h"
#include "support/case_count.h"
#include "support/check_failures.h"
#include "support/random_shapes.h"

namespace collide {
namespace {

using testing::CheckFailures;
using testing::Describe;
using testing::DescribeNumber;
using testing::PairSet;
using testing::ShapeFactory;

Shape Moved(const Shape& s, const Vec3& v, std::vector<Vec3>& storage) {
  return internal::TranslateShape(s, v, &storage);
}

// Contact's signed distance of A moved by t * v and B.
double SignedGap(const Shape& a, const Vec3& v, double t, const Shape& b) {
  std::vector<Vec3> storage;
  return Contact(Moved(a, v * t, storage), b).distance;
}

// The band within which "touching" is judged: ten times the documented
// tolerance (the checking queries round too).
double Band(const Shape& a, const Vec3& v, const Shape& b) {
  return 10.0 * internal::SweepTolerance(a, v, b) + 1e-300;
}

// --- Analytic cases --------------------------------------------------------

TEST(SweepTest, SphereAgainstSphereHeadOn) {
  const SweepResult r = ShapeCast(Sphere{{0, 0, 0}, 1}, {10, 0, 0}, Sphere{{5, 0, 0}, 1});
  ASSERT_TRUE(r.hit);
  EXPECT_EQ(r.status, QueryStatus::kOk);
  EXPECT_NEAR(r.t, 0.3, 1e-15);
  EXPECT_NEAR(r.normal.x, 1.0, 1e-15);
  EXPECT_NEAR(r.point.x, 4.0, 1e-14);
  EXPECT_EQ(r.depth, 0.0);
}

TEST(SweepTest, HugeAndTinyScaleKeepTheTime) {
  for (const double s : {1e-6, 1.0, 1e6}) {
    const Vec3 o{3 * s, -2 * s, s};
    const SweepResult r = ShapeCast(Sphere{o, s}, {10 * s, 0, 0}, Sphere{o + Vec3{5 * s, 0, 0}, s});
    ASSERT_TRUE(r.hit) << s;
    EXPECT_NEAR(r.t, 0.3, 1e-12) << s;
    const SweepResult c = ShapeCast(Capsule{o, o + Vec3{0, s, 0}, s}, {10 * s, 0, 0},
                                    Aabb{o + Vec3{5 * s, -s, -s}, o + Vec3{6 * s, s, s}});
    ASSERT_TRUE(c.hit) << s;
    EXPECT_NEAR(c.t, 0.4, 1e-9) << s;
    EXPECT_NEAR(c.normal.x, 1.0, 1e-9) << s;
  }
}

TEST(SweepTest, GrazingTouchIsAHitAndAHairAwayIsAMiss) {
  // A sphere passing a sphere at exactly the sum of radii.
  const SweepResult r = ShapeCast(Sphere{{0, 2, 0}, 1}, {10, 0, 0}, Sphere{{5, 0, 0}, 1});
  ASSERT_TRUE(r.hit);
  EXPECT_NEAR(r.t, 0.5, 1e-12);
  EXPECT_NEAR(r.normal.y, -1.0, 1e-12);
  EXPECT_FALSE(ShapeCast(Sphere{{0, 2 + 1e-6, 0}, 1}, {10, 0, 0}, Sphere{{5, 0, 0}, 1}).hit);
  // A box sliding along a box face 1e-6 above it (generic path) never touches.
  EXPECT_FALSE(ShapeCast(Aabb{{0, 1 + 1e-6, 0}, {1, 2, 1}}, {10, 0, 0}, Aabb{{2, 0, 0}, {3, 1, 1}}).hit);
  // A capsule grazing a box's top face from its edge on (generic path): the
  // gap closes quadratically, so t is only as close as the distance
  // tolerance allows (sqrt(1e-8)), while the distance at t is within it.
  const SweepResult e =
      ShapeCast(Capsule{{0, 1.5, -1}, {0, 1.5, 1}, 0.5}, {10, 0, 0}, Aabb{{5, 0, 0}, {6, 1, 1}});
  ASSERT_TRUE(e.hit);
  EXPECT_NEAR(e.t, 0.5, 1e-4);
  EXPECT_LE(SignedGap(Capsule{{0, 1.5, -1}, {0, 1.5, 1}, 0.5}, {10, 0, 0}, e.t, Aabb{{5, 0, 0}, {6, 1, 1}}),
            1e-8);
}

TEST(SweepTest, CapsulesCrossedAndParallel) {
  // Crossed axes: A along x falls onto B along y.
  const SweepResult x =
      ShapeCast(Capsule{{-2, 0, 5}, {2, 0, 5}, 0.5}, {0, 0, -10}, Capsule{{0, -2, 0}, {0, 2, 0}, 0.5});
  ASSERT_TRUE(x.hit);
  EXPECT_NEAR(x.t, 0.4, 1e-12);
  EXPECT_NEAR(x.normal.z, -1.0, 1e-12);
  EXPECT_NEAR(Length(x.point - Vec3{0, 0, 0.5}), 0.0, 1e-12);
  // Parallel axes, side by side: a whole line of contact.
  const SweepResult p =
      ShapeCast(Capsule{{-1, 3, 0}, {1, 3, 0}, 0.5}, {0, -10, 0}, Capsule{{-2, 0, 0}, {2, 0, 0}, 0.5});
  ASSERT_TRUE(p.hit);
  EXPECT_NEAR(p.t, 0.2, 1e-12);
  EXPECT_NEAR(p.normal.y, -1.0, 1e-12);
  // Segments crossing: a hit only through the other's line.
  const SweepResult s = ShapeCast(Segment{{-1, 0, 1}, {1, 0, 1}}, {0, 0, -2}, Segment{{0, -1, 0}, {0, 1, 0}});
  ASSERT_TRUE(s.hit);
  EXPECT_NEAR(s.t, 0.5, 1e-12);
  EXPECT_FALSE(ShapeCast(Segment{{2, 0, 1}, {3, 0, 1}}, {0, 0, -2}, Segment{{0, -1, 0}, {0, 1, 0}}).hit);
}

// A point meeting a point or a segment exactly: no surface normal; the
// ray kernels' -direction (and, for the segment, its part across the
// segment) makes the sweep's normal the motion's. Regression: the point's
// normal was round-off noise, opposing the motion on (3, 5, 3).
TEST(SweepTest, PointMeetingAPointOrASegmentObliquely) {
  for (const Vec3 p : {Vec3{2, 5, 5}, Vec3{3, 5, 3}}) {
    const SweepResult r = ShapeCast(Point{{0, 0, 0}}, p * 2, Point{p});
    ASSERT_TRUE(r.hit);
    EXPECT_NEAR(r.t, 0.5, 1e-15);
    EXPECT_NEAR(Length(r.normal - p / Length(p)), 0.0, 3e-16);
  }
  const SweepResult s = ShapeCast(Point{{0.5, -5, -3}}, {0.4, 10, 6}, Segment{{-1, 0, 0}, {1, 0, 0}});
  ASSERT_TRUE(s.hit);
  EXPECT_NEAR(s.t, 0.5, 1e-15);
  EXPECT_NEAR(Length(s.normal - Vec3{0, 5, 3} / std::sqrt(34.0)), 0.0, 3e-16);
}

TEST(SweepTest, ParallelFacesMeetAtTheGap) {
  const Obb box = Obb::FromQuat({0.5, 0.5, 0.5}, Quat{}, {0.5, 0.5, 0.5});
  for (const Shape& target :
       {Shape{Aabb{{3, 0, 0}, {4, 1, 1}}}, Shape{Obb::FromQuat({3.5, 0.5, 0.5}, Quat{}, {0.5, 0.5, 0.5})},
        Shape{Triangle{{3, -1, -1}, {3, 3, -1}, {3, -1, 3}}}, Shape{Halfspace{{-1, 0, 0}, -3}}}) {
    const SweepResult r = ShapeCast(box, {5, 0, 0}, target);
    ASSERT_TRUE(r.hit) << Describe(target);
    EXPECT_EQ(r.status, QueryStatus::kOk);
    EXPECT_NEAR(r.t, 0.4, 1e-9) << Describe(target);
    EXPECT_NEAR(r.normal.x, 1.0, 1e-9) << Describe(target);
  }
}

TEST(SweepTest, StartingInContactOrOverlappingReportsTimeZeroAndContact) {
  const Sphere a{{0, 0, 0}, 1};
  const Sphere touching{{2, 0, 0}, 1};
  for (const Vec3& v : {Vec3{1, 0, 0}, Vec3{-1, 0, 0}, Vec3{}}) {
    const SweepResult r = ShapeCast(a, v, touching);
    ASSERT_TRUE(r.hit);
    EXPECT_EQ(r.t, 0.0);
    EXPECT_NEAR(r.depth, 0.0, 1e-15);
    EXPECT_NEAR(r.normal.x, 1.0, 1e-15);
  }
  const Sphere overlapping{{1.5, 0, 0}, 1};
  const PairResult c = Contact(a, overlapping);
  for (const Vec3& v : {Vec3{1, 0, 0}, Vec3{-1, 0, 0}, Vec3{}}) {
    const SweepResult r = ShapeCast(a, v, overlapping);
    ASSERT_TRUE(r.hit);
    EXPECT_EQ(r.t, 0.0);
    EXPECT_DOUBLE_EQ(r.depth, 0.5);
    EXPECT_EQ(r.normal, c.normal);
  }
  // The generic path too (box in a box).
  const SweepResult b = ShapeCast(Aabb{{0, 0, 0}, {1, 1, 1}}, {3, 0, 0}, Aabb{{0.75, 0, 0}, {2, 1, 1}});
  ASSERT_TRUE(b.hit);
  EXPECT_EQ(b.t, 0.0);
  EXPECT_NEAR(b.depth, 0.25, 1e-12);
}

// start_contacts_block = false (the world's ground probe) holds on the GJK
// path too: a box touching a wall triangle beside it, moving down along it,
// is not stopped by it, while moving into it is.
TEST(SweepTest, StartContactMovingAwayDoesNotBlockWhenAsked) {
  internal::SweepOptions probe;
  probe.start_contacts_block = false;
  const Triangle wall{{1, -5, -5}, {1, 5, -5}, {1, 0, 5}};
  const Aabb box{{0, -1, -1}, {1, 1, 1}};
  EXPECT_FALSE(internal::ShapeCast(box, {0, 0, -2}, wall, probe).hit);
  EXPECT_FALSE(internal::ShapeCast(box, {-1, 0, -2}, wall, probe).hit);
  const SweepResult into = internal::ShapeCast(box, {1, 0, -2}, wall, probe);
  ASSERT_TRUE(into.hit);
  EXPECT_EQ(into.t, 0.0);
  EXPECT_TRUE(ShapeCast(box, {0, 0, -2}, wall).hit);
}

TEST(SweepTest, ZeroTranslationAnswersWhetherTheShapesTouch) {
  EXPECT_FALSE(ShapeCast(Sphere{{0, 0, 0}, 1}, {}, Sphere{{3, 0, 0}, 1}).hit);
  EXPECT_FALSE(ShapeCast(Capsule{{0, 0, 0}, {0, 1, 0}, 0.5}, {}, Aabb{{2, 0, 0}, {3, 1, 1}}).hit);
  EXPECT_TRUE(ShapeCast(Capsule{{0, 0, 0}, {0, 1, 0}, 0.5}, {}, Aabb{{0.25, 0, 0}, {3, 1, 1}}).hit);
}

TEST(SweepTest, FastShapesDoNotTunnelThroughThinOnes) {
  const Triangle wall{{-5, -5, 0}, {5, -5, 0}, {0, 5, 0}};
  const SweepResult s = ShapeCast(Sphere{{0, 0, -100}, 0.1}, {0, 0, 200}, wall);
  ASSERT_TRUE(s.hit);
  EXPECT_NEAR(s.t, 99.9 / 200, 1e-12);
  EXPECT_NEAR(s.normal.z, 1.0, 1e-12);
  const SweepResult c = ShapeCast(Capsule{{0, 0, -101}, {0, 0, -100}, 0.1}, {0, 0, 200}, wall);
  ASSERT_TRUE(c.hit);
  EXPECT_NEAR(c.t, 99.9 / 200, 1e-9);
  // A segment through a zero-thickness box (a rectangle).
  const SweepResult g =
      ShapeCast(Segment{{-1, 0, -50}, {1, 0, -50}}, {0, 0, 100}, Aabb{{-2, -2, 0}, {2, 2, 0}});
  ASSERT_TRUE(g.hit);
  EXPECT_NEAR(g.t, 0.5, 1e-9);
}

TEST(SweepTest, AHalfspaceNeverMovesButIsATarget) {
  const SweepResult r = ShapeCast(Halfspace{{0, 0, 1}, 0}, {1, 0, 0}, Sphere{{0, 0, 5}, 1});
  EXPECT_EQ(r.status, QueryStatus::kUnsupported);
  EXPECT_FALSE(r.hit);
  const SweepResult h = ShapeCast(Aabb{{-1, -1, -1}, {1, 1, 1}}, {0, 0, -10}, Halfspace{{0, 0, 1}, -5});
  ASSERT_TRUE(h.hit);
  EXPECT_NEAR(h.t, 0.4, 1e-9);
  EXPECT_NEAR(h.normal.z, -1.0, 1e-12);
}

TEST(SweepTest, MirroredClosedFormShiftsThePointAndFlipsTheNormal) {
  // A box moving onto a sphere is the sphere moving by -v onto the box.
  const SweepResult r = ShapeCast(Aabb{{4, -1, -1}, {6, 1, 1}}, {-10, 0, 0}, Sphere{{0, 0, 0}, 1});
  ASSERT_TRUE(r.hit);
  EXPECT_NEAR(r.t, 0.3, 1e-15);
  EXPECT_NEAR(r.normal.x, -1.0, 1e-15);
  EXPECT_NEAR(r.point.x, 1.0, 1e-14);
}

// --- Seeded random sweeps --------------------------------------------------

constexpr ShapeKind kMoving[] = {ShapeKind::kPoint,    ShapeKind::kSegment,   ShapeKind::kSphere,
                                 ShapeKind::kCapsule,  ShapeKind::kAabb,      ShapeKind::kObb,
                                 ShapeKind::kTriangle, ShapeKind::kConvexHull};
constexpr PairSet kSets[] = {PairSet::kGeneric, PairSet::kParallel, PairSet::kDegenerate,
                             PairSet::kHuge,    PairSet::kTiny,     PairSet::kTouching};

int Dimension(ShapeKind k) {
  switch (k) {
    case ShapeKind::kPoint:
      return 0;
    case ShapeKind::kSegment:
      return 1;
    case ShapeKind::kTriangle:
      return 2;
    default:
      return 3;
  }
}

// The reference: the first t in [0, 1] at which A moved by t v meets B, or
// -1, and the minimum signed distance along the path.
struct Reference {
  double t = -1.0;
  double min_distance = 0.0;
};
Reference FirstContact(const Shape& a, const Vec3& v, const Shape& b) {
  std::vector<Vec3> storage;
  auto d = [&](double t) { return Distance(Moved(a, v * t, storage), b).distance; };
  auto meets = [&](double t) { return Intersect(Moved(a, v * t, storage), b).hit; };
  // Golden-section search of the convex distance.
  const double g = (std::sqrt(5.0) - 1) / 2;
  double lo = 0, hi = 1, x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo), f1 = d(x1), f2 = d(x2);
  for (int i = 0; i < 50 && f1 > 0 && f2 > 0; ++i) {
    if (f1 < f2) {
      hi = x2, x2 = x1, f2 = f1, x1 = hi - g * (hi - lo), f1 = d(x1);
    } else {
      lo = x1, x1 = x2, f1 = f2, x2 = lo + g * (hi - lo), f2 = d(x2);
    }
  }
  double t_min = f1 < f2 ? x1 : x2;
  Reference r;
  r.min_distance = std::min({f1, f2, d(0.0), d(1.0)});
  if (d(1.0) <= r.min_distance) t_min = 1.0;
  if (meets(0.0)) {
    r.t = 0.0;
    return r;
  }
  if (!meets(t_min)) return r;
  double a0 = 0.0, a1 = t_min;
  for (int i = 0; i < 60; ++i) {
    const double m = 0.5 * (a0 + a1);
    (meets(m) ? a1 : a0) = m;
  }
  r.t = a1;
  return r;
}

struct PairStats {
  int cases = 0, hits = 0, not_converged = 0;
};

// One random sweep case: A and B from MakePair (near each other), A moved
// back along a random direction and swept forward through that position.
void CheckCase(const Shape& a0, const Shape& b, ShapeFactory& f, PairSet set, bool with_reference,
               PairStats& stats, CheckFailures& fails) {
  const double scale = testing::PairSetScale(set);
  const Vec3 u = f.UnitVector();
  const double reach = f.Uniform(0.5, 4.0) * scale;
  // The touching set starts in contact and moves off in a random direction.
  const bool from_contact = set == PairSet::kTouching;
  std::vector<Vec3> storage;
  const Shape a = from_contact ? a0 : Moved(a0, u * -reach, storage);
  const Vec3 v =
      from_contact ? u * reach : u * (reach * f.Uniform(0.5, 2.5)) + f.UnitVector() * (0.3 * scale);
  ++stats.cases;
  const SweepResult r = ShapeCast(a, v, b);
  const std::string what = Describe(a) + " v=" + Describe(v) + " " + Describe(b);
  if (r.status == QueryStatus::kNotConverged) {
    ++stats.not_converged;
    if (r.hit) fails.Add("not converged claims a hit", what);
    return;
  }
  if (r.status != QueryStatus::kOk) fails.Add("status", what);
  const double band = Band(a, v, b);
  auto gap = [&](double t) { return SignedGap(a, v, t, b); };
  if (r.hit) {
    ++stats.hits;
    if (!(r.t >= 0.0 && r.t <= 1.0)) fails.Add("t in [0, 1]", what);
    const double at = gap(r.t);
    if (r.t > 0.0 && std::fabs(at) > band) fails.Add("touch at t", what + " gap " + DescribeNumber(at));
    if (r.t == 0.0 && !(at <= band)) fails.Add("hit at 0 is in contact", what + " gap " + DescribeNumber(at));
    if (r.t == 0.0 && std::fabs(r.depth - std::max(0.0, -at)) > band) {
      fails.Add("depth from Contact",
                what + " depth " + DescribeNumber(r.depth) + " gap " + DescribeNumber(at));
    }
    if (r.t > 0.0 && r.depth != 0.0) fails.Add("depth 0 when t > 0", what);
    for (int k = 0; k < 8 && r.t > 0.0; ++k) {
      const double tk = r.t * k / 8.0;
      if (gap(tk) < -band) fails.Add("no overlap before t", what + " t'=" + DescribeNumber(tk));
    }
    if (std::fabs(Length(r.normal) - 1.0) > 1e-9) fails.Add("unit normal", what);
    // The normal of a first contact never opposes the motion (moving A on
    // by v cannot separate it from B), for every pair.
    if (r.t > 0.0 && Dot(r.normal, v) < -1e-9 * Length(v)) fails.Add("normal along the motion", what);
    const Shape at_t = Moved(a, v * r.t, storage);
    // (A start overlap's point is the midpoint of Contact's witnesses.)
    if (r.depth <= band &&
        (Distance(Point{r.point}, at_t).distance > band || Distance(Point{r.point}, b).distance > band)) {
      fails.Add("point on both shapes", what + " point " + Describe(r.point));
    }
  } else {
    for (int k = 0; k <= 16; ++k) {
      if (gap(k / 16.0) < -band) fails.Add("a miss stays apart", what + " t'=" + DescribeNumber(k / 16.0));
    }
  }
  if (with_reference) {
    const Reference ref = FirstContact(a, v, b);
    const bool ambiguous = std::fabs(ref.min_distance) <= band;
    if (!ambiguous && (ref.t >= 0.0) != r.hit) {
      fails.Add("hit agrees with the reference", what + " ref t " + DescribeNumber(ref.t));
    }
    if (r.hit && ref.t >= 0.0 && r.t > ref.t + 1e-9 && gap(ref.t) < -band) {
      fails.Add("not later than the reference",
                what + " t " + DescribeNumber(r.t) + " ref " + DescribeNumber(ref.t));
    }
  }
  if (KindOf(b) != ShapeKind::kHalfspace) {
    const SweepResult m = ShapeCast(b, -v, a);
    if (m.status == QueryStatus::kOk && m.hit != r.hit && std::fabs(gap(r.hit ? r.t : m.t)) > band) {
      fails.Add("mirror hits alike", what);
    } else if (m.status == QueryStatus::kOk && m.hit && std::fabs(gap(m.t)) > band &&
               !(m.t == 0.0 && gap(0.0) <= band)) {
      fails.Add("mirror t is a contact", what + " mirror t " + DescribeNumber(m.t));
    }
  }
}

TEST(SweepTest, RandomSweepsOfEveryPairKeepTheContract) {
  // Per pair: kCases sweeps, every kReferenceEvery-th also against the
  // bisection reference (the costliest check).
  const int cases = testing::CaseCount(10000);
  constexpr int kReferenceEvery = 10;
  const auto start = std::chrono::steady_clock::now();
  int not_converged = 0;
  double min_rate = 1.0, max_rate = 0.0;
  for (const ShapeKind ka : kMoving) {
    for (int kb = 0; kb < kShapeKindCount; ++kb) {
      const ShapeKind b_kind = static_cast<ShapeKind>(kb);
      ShapeFactory f(0x5eed0000u + 16 * static_cast<int>(ka) + kb);
      PairStats stats;
      CheckFailures fails;
      for (int i = 0; i < cases; ++i) {
        const PairSet set = kSets[i % std::size(kSets)];
        const auto [a, b] = f.MakePair(ka, b_kind, set);
        CheckCase(a, b, f, set, i % kReferenceEvery == 0, stats, fails);
      }
      const std::string pair = std::string(ShapeKindName(ka)) + "-" + std::string(ShapeKindName(b_kind));
      for (const std::string& check : fails.Checks()) ADD_FAILURE() << pair << " " << fails.Report(check);
      not_converged += stats.not_converged;
      const double rate = static_cast<double>(stats.hits) / stats.cases;
      if (Dimension(ka) + Dimension(b_kind) >= 2)
        min_rate = std::min(min_rate, rate), max_rate = std::max(max_rate, rate);
      // kNotConverged: a long grazing path; rare.
      EXPECT_LE(stats.not_converged, stats.cases / 100) << pair;
      // Hit-rate guard where hits have positive probability.
      if (Dimension(ka) + Dimension(b_kind) >= 2) {
        EXPECT_GE(stats.hits, stats.cases / 10) << pair;
        EXPECT_LE(stats.hits, stats.cases * (b_kind == ShapeKind::kHalfspace ? 99 : 95) / 100) << pair;
      }
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%d sweeps per pair, 72 pairs, %.1f s; %d not converged in all; hit rates %.2f-%.2f\n", cases,
              seconds, not_converged, min_rate, max_rate);
}

}  // namespace
}  // namespace collide
