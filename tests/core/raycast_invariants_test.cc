// Property tests of RayCast (collide/result.h RayHit) against every shape
// kind, over seeded random sets of 10,000 rays per kind (generic,
// degenerate, huge 1e6 and tiny 1e-6 shapes; rays aimed near the shape,
// some starting inside, some with a finite max_distance), with a hit-rate
// guard. Checks: status kOk and no NaN; a hit from outside lies on the
// surface (tests/support/reference.h), distance == |point - origin| and
// point == origin + distance * unit direction, distance <= max_distance,
// the normal is unit and faces the ray origin; a ray starting inside gives
// distance 0, point == origin and normal == -direction; and the first hit
// agrees with a brute-force reference: bisection along the ray of a segment
// intersect query (Intersect(Segment{origin, origin + t u}, shape) is false
// then true in t for a convex shape). FCL 0.7 cannot cast rays against
// shapes, so the bisection is the only reference.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "collide/query.h"
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

constexpr double kTol = 1e-9;

// 10,000 rays per kind.
constexpr testing::PairSetSize kSets[] = {
    {PairSet::kGeneric, 6000}, {PairSet::kDegenerate, 2000}, {PairSet::kHuge, 1000}, {PairSet::kTiny, 1000}};

// The middle of the shape's bounding box (support functions along the axes).
Vec3 Center(const RefShape& s) {
  Vec3 c;
  for (int i = 0; i < 3; ++i) {
    Vec3 e;
    e[i] = 1.0;
    c[i] = 0.5 * (s.Support(e) - s.Support(-e));
  }
  return c;
}

// First t in [0, t_max] where the segment origin -> origin + t u meets the
// shape (negative when it never does), by bisection of the segment
// intersect query.
double BisectFirstHit(const Ray& ray, const Vec3& u, double t_max, const Shape& shape) {
  auto meets = [&](double t) { return Intersect(Segment{ray.origin, ray.origin + u * t}, shape).hit; };
  if (!meets(t_max)) return -1.0;
  if (meets(0.0)) return 0.0;
  double lo = 0.0, hi = t_max;
  for (int i = 0; i < 200 && hi - lo > 0; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    (meets(mid) ? hi : lo) = mid;
  }
  return hi;
}

class RayCastInvariantsTest : public ::testing::TestWithParam<ShapeKind> {};

TEST_P(RayCastInvariantsTest, RandomRaysKeepTheRayConvention) {
  const ShapeKind kind = GetParam();
  CheckFailures failures;
  int total = 0, inside_starts = 0, compared = 0;
  for (const testing::PairSetSize& set_size : kSets) {
    const PairSet set = set_size.set;
    ShapeFactory f(9000011ull * static_cast<int>(kind) + static_cast<int>(set),
                   /*extent=*/testing::PairSetScale(set), /*size=*/testing::PairSetScale(set));
    const double scale = testing::PairSetScale(set);
    const double tol = kTol * scale;
    int hits = 0;
    for (int i = 0; i < set_size.count; ++i, ++total) {
      const Shape shape =
          (set == PairSet::kDegenerate && f.Uniform(0, 1) < 0.7) ? f.MakeDegenerate(kind) : f.Make(kind);
      const RefShape ref(shape);
      // Aim at a point near the shape (exactly on it for points, segments
      // and flat shapes half the time, whose hits are otherwise rare).
      const Vec3 c = kind == ShapeKind::kHalfspace ? f.Position() : Center(ref);
      Vec3 target = c + f.UnitVector() * (scale * f.Uniform(0, 1.2));
      if (ref.Dimension() < 3 && f.Uniform(0, 1) < 0.5) target = testing::SupportPoint(shape, f.UnitVector());
      const Vec3 u = f.UnitVector();
      Vec3 origin = target - u * (scale * f.Uniform(0.5, 3.0));
      if (f.Uniform(0, 1) < 0.1) origin = target;  // often inside a solid.
      // Non-unit direction lengths: t is still world distance.
      const Ray ray{origin, u * f.Uniform(0.01, 100.0),
                    f.Uniform(0, 1) < 0.2 ? scale * f.Uniform(0, 3) : kInfinity};
      const RayHit h = RayCast(ray, shape);
      auto fail = [&](const std::string& check, const std::string& detail = "") {
        failures.Add(check, std::string(testing::PairSetName(set)) + " #" + std::to_string(i) + ": " +
                                Describe(ray) + " vs " + Describe(shape) + " -> " + Describe(h) +
                                (detail.empty() ? "" : " | " + detail));
      };
      if (h.status != QueryStatus::kOk) {
        fail("status is kOk");
        continue;
      }
      if (!std::isfinite(h.distance) || !IsFinite(h.point) || !IsFinite(h.normal)) {
        fail("no NaN or infinity");
        continue;
      }
      const double sd_origin = ref.SurfaceDistance(origin);
      const bool inside = ref.HasVolume() && sd_origin < -tol;
      if (inside) {
        ++inside_starts;
        if (!h.hit || h.distance != 0 || !(h.point == origin) || Length(h.normal + u) > 1e-12) {
          fail("a ray starting inside hits at distance 0, point origin, normal -direction");
        }
      }
      if (h.hit) {
        ++hits;
        if (h.distance < 0 || h.distance > ray.max_distance) fail("0 <= distance <= max_distance");
        if (Length(h.point - (origin + u * h.distance)) > tol)
          fail("point == origin + distance * unit direction");
        if (std::fabs(Length(h.point - origin) - h.distance) > tol) fail("distance == |point - origin|");
        if (std::fabs(Length(h.normal) - 1.0) > 1e-12) fail("normal is unit");
        if (!inside && std::fabs(sd_origin) > tol) {
          const double s = ref.SurfaceDistance(h.point);
          if (std::fabs(s) > tol) fail("hit point on the surface", "surface distance " + DescribeNumber(s));
          // Facing the origin is defined for faces and solids; a point or a
          // segment has a whole cone of outward normals.
          if (ref.Dimension() >= 2 && Dot(h.normal, u) > 1e-9) fail("normal faces the ray origin");
        }
      } else if (h.distance != 0 || !(h.point == Vec3{}) || !(h.normal == Vec3{})) {
        fail("a miss has every field zero");
      }
      // Brute-force reference over [0, t_max].
      const double reach = Length(origin - c) + 4 * scale;
      const double t_max = kind == ShapeKind::kHalfspace ? std::min(ray.max_distance, 1e8 * scale)
                                                         : std::min(ray.max_distance, reach);
      const double t_ref = BisectFirstHit(ray, u, t_max, shape);
      // Near-grazing rays and near-touching segments are ill-conditioned:
      // compare only where the segment to t_max is clearly in or out.
      const PairResult seg = Contact(Segment{origin, origin + u * t_max}, shape);
      if (std::fabs(seg.distance) <= 1e-6 * scale) {
        // Grazing or aimed exactly at a point or segment: a hit of measure
        // zero, counted as one for the hit-rate guard.
        hits += !h.hit;
        continue;
      }
      if ((t_ref >= 0) != h.hit) {
        fail("hit == brute-force segment bisection", "reference t " + DescribeNumber(t_ref));
      } else if (h.hit && (inside || std::fabs(Dot(h.normal, u)) > 1e-3)) {
        ++compared;
        if (std::fabs(h.distance - t_ref) > tol + 1e-12 * h.distance) {
          fail("distance == brute-force segment bisection", "reference t " + DescribeNumber(t_ref));
        }
        // The segment to the hit touches the shape; a shorter one does not.
        if (h.distance > 1e-6 * scale && !inside) {
          if (!Intersect(Segment{origin, origin + u * (h.distance + tol)}, shape).hit) {
            fail("segment origin -> point (+1e-9) meets the shape");
          }
          if (Intersect(Segment{origin, origin + u * (h.distance * (1 - 1e-6))}, shape).hit) {
            fail("segment origin -> 0.999999 * point misses the shape");
          }
        }
      }
    }
    const double rate = static_cast<double>(hits) / set_size.count;
    EXPECT_GE(rate, 0.1) << testing::PairSetName(set) << " set: hit rate too low";
    EXPECT_LE(rate, 0.9) << testing::PairSetName(set) << " set: hit rate too high";
  }
  std::printf("%d rays, %d starting inside, %d distances compared with the bisection\n", total, inside_starts,
              compared);
  for (const std::string& check : failures.Checks()) {
    ADD_FAILURE() << "of " << total << " rays, " << failures.Report(check);
  }
}

INSTANTIATE_TEST_SUITE_P(AllKinds, RayCastInvariantsTest,
                         ::testing::Values(ShapeKind::kPoint, ShapeKind::kSegment, ShapeKind::kSphere,
                                           ShapeKind::kCapsule, ShapeKind::kAabb, ShapeKind::kObb,
                                           ShapeKind::kTriangle, ShapeKind::kConvexHull,
                                           ShapeKind::kHalfspace),
                         [](const ::testing::TestParamInfo<ShapeKind>& info) {
                           return std::string(ShapeKindName(info.param));
                         });

}  // namespace
}  // namespace collide
