// Ray casts against boxes (RayCastAabb, RayCastObb): slab cases and seeded
// random checks against the segment-box intersect test.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "collide/query.h"
#include "query/box/closest_point_box.h"
#include "query/kernels_box.h"
#include "support/random_shapes.h"

namespace collide::internal {
namespace {

const Aabb kUnit{{-1, -1, -1}, {1, 1, 1}};

TEST(RayCastBoxTest, HitsFaceWithOutwardNormal) {
  const RayHit h = RayCastAabb(Ray{{-5, 0.5, 0.25}, {2, 0, 0}}, kUnit);  // direction need not be unit.
  EXPECT_TRUE(h.hit);
  EXPECT_EQ(h.distance, 4.0);
  EXPECT_EQ(h.point, (Vec3{-1, 0.5, 0.25}));
  EXPECT_EQ(h.normal, (Vec3{-1, 0, 0}));
  const RayHit down = RayCastAabb(Ray{{0, 0, 3}, {0, 0, -1}}, kUnit);
  EXPECT_EQ(down.distance, 2.0);
  EXPECT_EQ(down.normal, (Vec3{0, 0, 1}));
}

TEST(RayCastBoxTest, StartingInsideOrOnTheSurfaceHitsAtZero) {
  const Vec3 dir{1, 2, -2};
  const RayHit in = RayCastAabb(Ray{{0.1, 0.2, 0.3}, dir}, kUnit);
  EXPECT_TRUE(in.hit);
  EXPECT_EQ(in.distance, 0.0);
  EXPECT_EQ(in.point, (Vec3{0.1, 0.2, 0.3}));
  EXPECT_EQ(in.normal, (Vec3{-1, -2, 2}) / 3.0);
  // On the +x face, leaving: still a hit at 0.
  const RayHit on = RayCastAabb(Ray{{1, 0, 0}, {1, 0, 0}}, kUnit);
  EXPECT_TRUE(on.hit);
  EXPECT_EQ(on.distance, 0.0);
  EXPECT_EQ(on.normal, (Vec3{-1, 0, 0}));
}

TEST(RayCastBoxTest, ParallelToASlab) {
  // Inside the y slab: hits; outside it (or exactly on its plane): misses/hits.
  EXPECT_TRUE(RayCastAabb(Ray{{-5, 0.5, 0}, {1, 0, 0}}, kUnit).hit);
  EXPECT_FALSE(RayCastAabb(Ray{{-5, 1.5, 0}, {1, 0, 0}}, kUnit).hit);
  const RayHit graze = RayCastAabb(Ray{{-5, 1, 0}, {1, 0, 0}}, kUnit);  // along the +y face.
  EXPECT_TRUE(graze.hit);
  EXPECT_EQ(graze.distance, 4.0);
  // Along an edge (y = 1, z = 1).
  const RayHit edge = RayCastAabb(Ray{{-5, 1, 1}, {1, 0, 0}}, kUnit);
  EXPECT_TRUE(edge.hit);
  EXPECT_EQ(edge.distance, 4.0);
  EXPECT_FALSE(RayCastAabb(Ray{{-5, 1, 1 + 1e-12}, {1, 0, 0}}, kUnit).hit);
}

TEST(RayCastBoxTest, GrazingAnEdgeDiagonally) {
  // Through the edge x = 1, y = 1 only.
  const RayHit h = RayCastAabb(Ray{{0, 2, 0}, {1, -1, 0}}, kUnit);
  EXPECT_TRUE(h.hit);
  EXPECT_NEAR(h.distance, std::numbers::sqrt2, 1e-15);
  EXPECT_FALSE(RayCastAabb(Ray{{0, 2 + 1e-9, 0}, {1, -1, 0}}, kUnit).hit);
}

TEST(RayCastBoxTest, MaxDistanceJustShortAndLong) {
  EXPECT_FALSE(RayCastAabb(Ray{{-5, 0, 0}, {1, 0, 0}, 4.0 - 1e-12}, kUnit).hit);
  EXPECT_TRUE(RayCastAabb(Ray{{-5, 0, 0}, {1, 0, 0}, 4.0}, kUnit).hit);
  EXPECT_TRUE(RayCastAabb(Ray{{-5, 0, 0}, {3, 0, 0}, 4.0 + 1e-12}, kUnit).hit);
  EXPECT_TRUE(RayCastAabb(Ray{{0, 0, 0}, {1, 0, 0}, 0.0}, kUnit).hit);
  EXPECT_FALSE(RayCastAabb(Ray{{-5, 0, 0}, {-1, 0, 0}}, kUnit).hit);  // pointing away.
  EXPECT_EQ(RayCastAabb(Ray{{-5, 0, 0}, {-1, 0, 0}}, kUnit), RayHit{});
}

TEST(RayCastBoxTest, ObbInItsFrame) {
  const double c = std::cos(std::numbers::pi / 8), s = std::sin(std::numbers::pi / 8);
  const Obb box = Obb::FromQuat({10, 0, 0}, {c, 0, 0, s}, {1, 1, 1});  // 45 degrees about z.
  // Along -x towards the box's corner edge at x = 10 + sqrt 2.
  const RayHit h = RayCastObb(Ray{{20, 0, 0.5}, {-1, 0, 0}}, box);
  EXPECT_TRUE(h.hit);
  EXPECT_NEAR(h.distance, 10 - std::numbers::sqrt2, 1e-14);
  EXPECT_NEAR(h.point.x, 10 + std::numbers::sqrt2, 1e-14);
  EXPECT_NEAR(Length(h.normal), 1.0, 1e-15);
  EXPECT_GT(h.normal.x, 0.7);
  // From inside.
  const RayHit in = RayCastObb(Ray{{10, 0.1, 0}, {0, 0, 5}}, box);
  EXPECT_EQ(in.distance, 0.0);
  EXPECT_EQ(in.normal, (Vec3{0, 0, -1}));
  // Huge and tiny scales.
  for (const double scale : {1e-9, 1e9}) {
    const Obb b = Obb::FromQuat(Vec3{10, 0, 0} * scale, {c, 0, 0, s}, Vec3{1, 1, 1} * scale);
    const RayHit r = RayCastObb(Ray{Vec3{20, 0, 0} * scale, {-1, 0, 0}}, b);
    EXPECT_NEAR(r.distance, (10 - std::numbers::sqrt2) * scale, 1e-14 * scale);
  }
}

TEST(RayCastBoxTest, RandomRaysAgreeWithSegmentTestAndLandOnTheSurface) {
  testing::ShapeFactory f(99);
  int hits = 0;
  for (int n = 0; n < 3000; ++n) {
    const Obb box = std::get<Obb>(f.Make(ShapeKind::kObb));
    Ray ray = f.MakeRay();
    // Aim near the box for a useful hit rate; vary the direction's length.
    ray.direction = (box.center + f.Position() * 0.5 - ray.origin) * f.Uniform(0.1, 10.0);
    ray.max_distance = f.Uniform(0.0, 6.0);
    const RayHit h = RayCast(ray, box);
    const Vec3 u = ray.direction / Length(ray.direction);
    const bool seg = IntersectSegmentObb(Segment{ray.origin, ray.origin + u * ray.max_distance}, box);
    EXPECT_EQ(h.hit, seg);
    if (!h.hit) continue;
    ++hits;
    EXPECT_LE(h.distance, ray.max_distance);
    EXPECT_NEAR(Length(h.normal), 1.0, 1e-12);
    if (h.distance > 0) {
      EXPECT_NEAR(ContactPointObb(Point{h.point}, box).distance, 0.0, 1e-12);
      EXPECT_LT(Dot(h.normal, u), 0.0);  // the ray enters against the normal.
      // Nothing of the box before the hit.
      EXPECT_FALSE(IntersectSegmentObb(Segment{ray.origin, ray.origin + u * (h.distance * (1 - 1e-9))}, box));
    }
    // The Aabb kernel agrees with the Obb one for the box's bounding Aabb
    // when the rotation is the identity.
    const Obb axis_box{box.center, Mat3{}, box.half_extents};
    const Aabb aabb{box.center - box.half_extents, box.center + box.half_extents};
    const RayHit ha = RayCastAabb(ray, aabb), ho = RayCastObb(ray, axis_box);
    EXPECT_EQ(ha.hit, ho.hit);
    EXPECT_NEAR(ha.distance, ho.distance, 1e-12);
  }
  EXPECT_GT(hits, 600);
  EXPECT_LT(hits, 2700);
}

}  // namespace
}  // namespace collide::internal
