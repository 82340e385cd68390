// proto <-> core conversion: round trips of every shape, ray and result, and
// the path of every kind of violation.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "convert/packed.h"
#include "convert/requests.h"
#include "convert/results.h"
#include "convert/shapes.h"
#include "convert/violations.h"
#include "support/random_shapes.h"

namespace collide::convert {
namespace {

using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<std::string> Paths(const ViolationList& violations) {
  std::vector<std::string> paths;
  for (const Violation& v : violations.kept()) paths.push_back(v.field);
  return paths;
}

constexpr ShapeKind kAllKinds[] = {ShapeKind::kPoint,    ShapeKind::kSegment,    ShapeKind::kSphere,
                                   ShapeKind::kCapsule,  ShapeKind::kAabb,       ShapeKind::kObb,
                                   ShapeKind::kTriangle, ShapeKind::kConvexHull, ShapeKind::kHalfspace};

// Shapes equal up to the rounding of an Obb rotation through a quaternion.
void ExpectSameShape(const Shape& expected, const Shape& actual) {
  ASSERT_EQ(expected.index(), actual.index());
  if (const auto* e = std::get_if<Obb>(&expected)) {
    const Obb& a = std::get<Obb>(actual);
    EXPECT_EQ(e->center, a.center);
    EXPECT_EQ(e->half_extents, a.half_extents);
    for (int c = 0; c < 3; ++c) {
      for (int r = 0; r < 3; ++r) EXPECT_NEAR(e->rotation.col[c][r], a.rotation.col[c][r], 1e-14);
    }
  } else if (const auto* e = std::get_if<ConvexHull>(&expected)) {
    const ConvexHull& a = std::get<ConvexHull>(actual);
    ASSERT_EQ(e->vertices.size(), a.vertices.size());
    for (std::size_t i = 0; i < e->vertices.size(); ++i) EXPECT_EQ(e->vertices[i], a.vertices[i]);
  } else {
    // Every other shape is plain doubles: compare their bits.
    std::visit(
        [&actual](const auto& e) {
          using T = std::decay_t<decltype(e)>;
          EXPECT_EQ(0, std::memcmp(&e, &std::get<T>(actual), sizeof(T)));
        },
        expected);
  }
}

TEST(ShapeConvertTest, RoundTripsEveryKind) {
  testing::ShapeFactory factory(7);
  DecodeArena arena;
  for (ShapeKind kind : kAllKinds) {
    for (int i = 0; i < 20; ++i) {
      const Shape shape = factory.Make(kind);
      v1::Shape message;
      ToProto(shape, &message);
      Shape back;
      std::vector<Violation> violations;
      ASSERT_TRUE(FromProto(message, back, arena, violations)) << ShapeKindName(kind);
      EXPECT_THAT(violations, IsEmpty());
      ExpectSameShape(shape, back);
    }
  }
}

TEST(ShapeConvertTest, PackedRoundTripsEveryPackableKind) {
  testing::ShapeFactory factory(8);
  for (ShapeKind kind : kAllKinds) {
    if (!PackedKindOf(kind)) continue;
    std::vector<Shape> shapes;
    for (int i = 0; i < 20; ++i) shapes.push_back(factory.Make(kind));
    v1::PackedShapes packed;
    ASSERT_TRUE(PackShapes(shapes, &packed));
    EXPECT_EQ(packed.data_size(), 20 * PackedStride(kind));
    for (int i = 0; i < 20; ++i) {
      Shape back;
      std::vector<Violation> violations;
      ASSERT_TRUE(UnpackShape(kind, packed.data().data() + i * PackedStride(kind), back, violations));
      ExpectSameShape(shapes[i], back);
    }
  }
}

TEST(ShapeConvertTest, PackShapesRefusesMixedKindsAndHulls) {
  testing::ShapeFactory factory(9);
  v1::PackedShapes packed;
  const std::vector<Shape> mixed = {factory.Make(ShapeKind::kSphere), factory.Make(ShapeKind::kAabb)};
  EXPECT_FALSE(PackShapes(mixed, &packed));
  const std::vector<Shape> hulls = {factory.Make(ShapeKind::kConvexHull)};
  EXPECT_FALSE(PackShapes(hulls, &packed));
}

TEST(ShapeConvertTest, UnsetObbRotationIsIdentity) {
  v1::Shape message;
  message.mutable_obb()->mutable_half_extents()->set_x(1);
  DecodeArena arena;
  Shape shape;
  std::vector<Violation> violations;
  ASSERT_TRUE(FromProto(message, shape, arena, violations));
  EXPECT_EQ(std::get<Obb>(shape).rotation, Mat3{});
}

TEST(ShapeConvertTest, ObbRotationWithinToleranceIsNormalizedExactly) {
  v1::Shape message;
  message.mutable_obb()->mutable_rotation()->set_w(1 + 5e-7);
  DecodeArena arena;
  Shape shape;
  std::vector<Violation> violations;
  ASSERT_TRUE(FromProto(message, shape, arena, violations));
  EXPECT_EQ(std::get<Obb>(shape).rotation, Mat3{});
}

// ObbFromWire accepts valid input without running Validate(Obb): it must give
// the very Obb and violations of ValidateRotation + FromQuat + Validate, on
// random valid obbs and on every kind of bad number in every field.
TEST(ShapeConvertTest, ObbFromWireMatchesTheFullValidation) {
  const auto reference = [](const Vec3& c, const Quat& wire_q, const Vec3& h, Obb& out,
                            std::vector<Violation>& v) {
    const Quat q{FlushTiny(wire_q.w), FlushTiny(wire_q.x), FlushTiny(wire_q.y), FlushTiny(wire_q.z)};
    bool ok = ValidateRotation(q, "rotation", v);
    out = Obb::FromQuat(FlushTiny(c), ok ? q : Quat{}, FlushTiny(h));
    return Validate(out, v) && ok;
  };
  testing::ShapeFactory factory(7);
  // 1e-60 and -1e-300 read as 0 (FlushTiny): valid.
  const double bad[] = {std::numeric_limits<double>::quiet_NaN(),
                        std::numeric_limits<double>::infinity(),
                        -std::numeric_limits<double>::infinity(),
                        2e12,
                        -3e12,
                        1e-60,
                        -0.5,
                        -1e-300,
                        1e13};
  int valid = 0, cases = 0;
  for (int i = 0; i < 200; ++i) {
    Vec3 c = factory.Position();
    Quat q = factory.Rotation();
    Vec3 h{factory.Size(), factory.Size(), factory.Size()};
    // Every fourth case stays valid; the others break one field (or scale q
    // to a norm well inside, just inside or just outside the 1e-6 tolerance).
    if (i % 4 != 0) {
      double* fields[10] = {&c.x, &c.y, &c.z, &q.w, &q.x, &q.y, &q.z, &h.x, &h.y, &h.z};
      const int which = i % 11;
      if (which == 10) {
        const double scale = 1.0 + (i % 3 == 0   ? 9e-7
                                    : i % 3 == 1 ? 9.995e-7
                                                 : 1.1e-6) *
                                       (i % 2 == 0 ? 1 : -1);
        q = {q.w * scale, q.x * scale, q.y * scale, q.z * scale};
      } else {
        *fields[which] = bad[i % std::size(bad)];
      }
    }
    Obb expected_obb;
    Shape shape;
    std::vector<Violation> expected, got;
    const bool expected_ok = reference(c, q, h, expected_obb, expected);
    EXPECT_EQ(ObbFromWire(c, q, h, shape, got), expected_ok) << i;
    EXPECT_EQ(got, expected) << i;
    ASSERT_TRUE(std::holds_alternative<Obb>(shape)) << i;
    EXPECT_EQ(std::memcmp(&std::get<Obb>(shape), &expected_obb, sizeof(Obb)), 0) << i;
    valid += expected_ok;
    ++cases;
  }
  // Both paths are exercised.
  EXPECT_GT(valid, cases / 5);
  EXPECT_LT(valid, cases / 2);
}
// Float dust (subnormals, 1e-60) is read as 0 rather than rejected: the core
// accepts only 0 or magnitudes >= 1e-50 (validate.h).
TEST(ShapeConvertTest, TinyMagnitudesReadAsZero) {
  v1::Shape message;
  message.mutable_capsule()->mutable_a()->set_x(4.9e-324);
  message.mutable_capsule()->mutable_b()->set_y(-1e-60);
  message.mutable_capsule()->set_radius(1e-51);
  DecodeArena arena;
  Shape shape;
  std::vector<Violation> violations;
  ASSERT_TRUE(FromProto(message, shape, arena, violations));
  EXPECT_EQ(std::get<Capsule>(shape), (Capsule{{0, 0, 0}, {0, 0, 0}, 0.0}));

  const double packed[4] = {1e-300, 2.0, -1e-55, 1e-49};
  ASSERT_TRUE(UnpackShape(ShapeKind::kSphere, packed, shape, violations));
  EXPECT_EQ(std::get<Sphere>(shape), (Sphere{{0, 2.0, 0}, 1e-49}));
  EXPECT_THAT(violations, IsEmpty());
}

TEST(RayConvertTest, UnsetMaxDistanceIsInfinite) {
  v1::Ray message;
  message.mutable_direction()->set_z(2);
  Ray ray;
  std::vector<Violation> violations;
  ASSERT_TRUE(FromProto(message, ray, violations));
  EXPECT_EQ(ray.max_distance, kInfinity);
  EXPECT_EQ(ray.direction, (Vec3{0, 0, 2}));
}

TEST(RayConvertTest, RoundTrips) {
  for (const Ray& ray : {Ray{{1, 2, 3}, {0, 1, 0}, kInfinity}, Ray{{-1, 0, 5}, {1, 1, 0}, 4.5}}) {
    v1::Ray message;
    ToProto(ray, &message);
    EXPECT_EQ(message.has_max_distance(), ray.max_distance != kInfinity);
    Ray back;
    std::vector<Violation> violations;
    ASSERT_TRUE(FromProto(message, back, violations));
    EXPECT_EQ(0, std::memcmp(&ray, &back, sizeof(Ray)));
    double packed[kPackedRayStride];
    PackRay(ray, packed);
    ASSERT_TRUE(UnpackRay(packed, back, violations));
    EXPECT_EQ(0, std::memcmp(&ray, &back, sizeof(Ray)));
  }
}

PairResult SomeResult(QueryStatus status) {
  return {status, true, -0.25, {1, 2, 3}, {1, 2, 2.75}, {0, 0, -1}};
}

TEST(ResultConvertTest, PairResultRoundTrips) {
  for (const PairResult& r : {SomeResult(QueryStatus::kOk), SomeResult(QueryStatus::kNotConverged),
                              PairResult{}, PairResult{QueryStatus::kOk, false, 0, {-0.0, 0, 0}, {}, {}}}) {
    v1::PairResult message;
    ToProto(r, &message);
    const PairResult back = FromProto(message);
    EXPECT_EQ(0, std::memcmp(&r.point_a, &back.point_a, sizeof(Vec3)));  // Keeps -0.0.
    EXPECT_EQ(r, back);
  }
  v1::PairResult zero;
  ToProto(PairResult{}, &zero);
  EXPECT_FALSE(zero.has_point_a());
}

TEST(ResultConvertTest, RayHitRoundTripsAndMissSetsOnlyStatus) {
  const RayHit hit{QueryStatus::kOk, true, 2.5, {0, 0, 2.5}, {0, 0, -1}};
  v1::RayHit message;
  ToProto(hit, &message);
  EXPECT_EQ(FromProto(message), hit);
  v1::RayHit miss;
  ToProto(RayHit{}, &miss);
  EXPECT_FALSE(miss.hit());
  EXPECT_FALSE(miss.has_point());
  EXPECT_FALSE(miss.has_normal());
}

TEST(ResultConvertTest, PackedPairResultsFillArraysPerLevel) {
  const std::vector<PairResult> results = {SomeResult(QueryStatus::kOk), PairResult{},
                                           SomeResult(QueryStatus::kNotConverged)};
  v1::QueryPairsPackedResponse contact;
  EncodePacked(results, QueryLevel::kContact, &contact);
  EXPECT_EQ(contact.hit_size(), 3);
  EXPECT_EQ(contact.distance_size(), 3);
  EXPECT_EQ(contact.point_a_size(), 9);
  EXPECT_EQ(contact.normal_size(), 9);
  EXPECT_THAT(contact.not_converged(), ElementsAre(2));
  std::vector<PairResult> back;
  ASSERT_TRUE(DecodePacked(contact, 3, back));
  EXPECT_EQ(back, results);
  EXPECT_FALSE(DecodePacked(contact, 4, back));

  const std::vector<PairResult> hits = {PairResult{.hit = true}, PairResult{}};
  v1::QueryPairsPackedResponse intersect;
  EncodePacked(hits, QueryLevel::kIntersect, &intersect);
  EXPECT_THAT(intersect.hit(), ElementsAre(true, false));
  EXPECT_THAT(intersect.distance(), IsEmpty());
  EXPECT_THAT(intersect.point_a(), IsEmpty());
  ASSERT_TRUE(DecodePacked(intersect, 2, back));
  EXPECT_EQ(back, hits);
}

TEST(ResultConvertTest, PackedRayHitsRoundTrip) {
  const std::vector<RayHit> hits = {RayHit{QueryStatus::kOk, true, 1, {1, 0, 0}, {-1, 0, 0}}, RayHit{},
                                    RayHit{QueryStatus::kNotConverged, true, 0, {}, {0, 1, 0}}};
  v1::CastRaysPackedResponse message;
  EncodePacked(hits, &message);
  EXPECT_THAT(message.not_converged(), ElementsAre(2));
  std::vector<RayHit> back;
  ASSERT_TRUE(DecodePacked(message, 3, back));
  EXPECT_EQ(back, hits);
}

// Request decoding ---------------------------------------------------------

v1::QueryPairsRequest SpherePairs(int n) {
  v1::QueryPairsRequest request;
  request.set_level(v1::QUERY_LEVEL_CONTACT);
  for (int i = 0; i < n; ++i) {
    v1::ShapePair* pair = request.add_pairs();
    pair->mutable_a()->mutable_sphere()->set_radius(1);
    pair->mutable_b()->mutable_sphere()->set_radius(1);
  }
  return request;
}

TEST(DecodeRequestTest, ValidReadablePairs) {
  testing::ShapeFactory factory(10);
  v1::QueryPairsRequest request;
  request.set_level(v1::QUERY_LEVEL_DISTANCE);
  std::vector<Shape> a, b;
  for (ShapeKind ka : kAllKinds) {
    for (ShapeKind kb : kAllKinds) {
      a.push_back(factory.Make(ka));
      b.push_back(factory.Make(kb));
      v1::ShapePair* pair = request.add_pairs();
      ToProto(a.back(), pair->mutable_a());
      ToProto(b.back(), pair->mutable_b());
    }
  }
  PairBatch batch;
  ViolationList violations;
  ASSERT_TRUE(Decode(request, batch, violations)) << Paths(violations).front();
  EXPECT_EQ(batch.level, QueryLevel::kDistance);
  ASSERT_EQ(batch.size(), a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    ExpectSameShape(a[i], batch.a[i]);
    ExpectSameShape(b[i], batch.b[i]);
  }
  EXPECT_EQ(ItemCount(request), a.size());
  // Decoding again into the same batch reuses it.
  ASSERT_TRUE(Decode(request, batch, violations));
  EXPECT_EQ(batch.size(), a.size());
}

TEST(DecodeRequestTest, ReadableViolationPaths) {
  v1::QueryPairsRequest request = SpherePairs(5);
  request.mutable_pairs(3)->mutable_b()->mutable_capsule()->set_radius(-1);
  request.mutable_pairs(0)->mutable_a()->Clear();
  request.mutable_pairs(1)->mutable_a()->mutable_sphere()->mutable_center()->set_y(kNaN);
  request.mutable_pairs(2)->mutable_b()->mutable_aabb()->mutable_min()->set_z(2);
  request.mutable_pairs(4)->mutable_a()->mutable_obb()->mutable_rotation()->set_w(0.5);
  request.mutable_pairs(4)->mutable_b()->mutable_obb()->mutable_half_extents()->set_x(kInfinity);
  PairBatch batch;
  ViolationList violations;
  EXPECT_FALSE(Decode(request, batch, violations));
  EXPECT_THAT(Paths(violations),
              UnorderedElementsAre("pairs[0].a", "pairs[1].a.sphere.center.y", "pairs[2].b.aabb.min.z",
                                   "pairs[3].b.capsule.radius", "pairs[4].a.obb.rotation",
                                   "pairs[4].b.obb.half_extents.x"));
  EXPECT_THAT(violations.kept(),
              ::testing::Contains(Field(&Violation::description, HasSubstr("must be set"))));
}

TEST(DecodeRequestTest, LevelUnspecifiedOrUnknown) {
  for (int level : {0, 99, -1}) {
    v1::QueryPairsRequest request = SpherePairs(1);
    request.set_level(static_cast<v1::QueryLevel>(level));
    PairBatch batch;
    ViolationList violations;
    EXPECT_FALSE(Decode(request, batch, violations));
    EXPECT_THAT(Paths(violations), ElementsAre("level"));
  }
}

TEST(DecodeRequestTest, EmptyBatches) {
  PairBatch pairs;
  RayBatch rays;
  ViolationList violations;
  v1::QueryPairsRequest readable;
  readable.set_level(v1::QUERY_LEVEL_INTERSECT);
  EXPECT_FALSE(Decode(readable, pairs, violations));
  EXPECT_THAT(Paths(violations), ElementsAre("pairs"));
  violations.Clear();
  v1::QueryPairsPackedRequest packed;
  packed.set_level(v1::QUERY_LEVEL_INTERSECT);
  packed.mutable_a()->set_kind(v1::PACKED_SHAPE_KIND_POINT);
  packed.mutable_b()->set_kind(v1::PACKED_SHAPE_KIND_POINT);
  EXPECT_FALSE(Decode(packed, pairs, violations));
  EXPECT_THAT(Paths(violations), ElementsAre("a.data"));
  violations.Clear();
  EXPECT_FALSE(Decode(v1::CastRaysRequest(), rays, violations));
  EXPECT_THAT(Paths(violations), ElementsAre("casts"));
  violations.Clear();
  v1::CastRaysPackedRequest packed_rays;
  packed_rays.mutable_shapes()->set_kind(v1::PACKED_SHAPE_KIND_SPHERE);
  EXPECT_FALSE(Decode(packed_rays, rays, violations));
  EXPECT_THAT(Paths(violations), ElementsAre("rays"));
}

v1::QueryPairsPackedRequest ObbPacked(int n) {
  v1::QueryPairsPackedRequest request;
  request.set_level(v1::QUERY_LEVEL_CONTACT);
  for (v1::PackedShapes* side : {request.mutable_a(), request.mutable_b()}) {
    side->set_kind(v1::PACKED_SHAPE_KIND_OBB);
    for (int i = 0; i < n; ++i) {
      for (double d : {0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0}) side->add_data(d);
    }
  }
  return request;
}

TEST(DecodeRequestTest, ValidPacked) {
  PairBatch batch;
  ViolationList violations;
  ASSERT_TRUE(Decode(ObbPacked(5), batch, violations));
  ASSERT_EQ(batch.size(), 5u);
  EXPECT_EQ(std::get<Obb>(batch.b[4]).half_extents, (Vec3{1, 1, 1}));
  EXPECT_EQ(ItemCount(ObbPacked(5)), 5u);
}

TEST(DecodeRequestTest, PackedViolationPathsIndexTheBadDouble) {
  v1::QueryPairsPackedRequest request = ObbPacked(5);
  request.mutable_a()->set_data(4 * 10 + 1, kNaN);  // Shape 4 center.y.
  request.mutable_b()->set_data(2 * 10 + 9, -1);    // Shape 2 half_extents.z.
  request.mutable_b()->set_data(3 * 10 + 3, 0.5);   // Shape 3 rotation not unit.
  PairBatch batch;
  ViolationList violations;
  EXPECT_FALSE(Decode(request, batch, violations));
  EXPECT_THAT(Paths(violations), UnorderedElementsAre("a.data[41]", "b.data[29]", "b.data[33]"));
  EXPECT_THAT(violations.kept(),
              ::testing::Contains(Field(&Violation::description, HasSubstr("obb 3 rotation"))));
}

TEST(DecodeRequestTest, PackedWrongLengthKindAndCount) {
  {
    v1::QueryPairsPackedRequest request = ObbPacked(2);
    request.mutable_a()->add_data(1);
    PairBatch batch;
    ViolationList violations;
    EXPECT_FALSE(Decode(request, batch, violations));
    EXPECT_THAT(Paths(violations), ElementsAre("a.data"));
  }
  {
    v1::QueryPairsPackedRequest request = ObbPacked(2);
    for (int i = 0; i < 10; ++i) request.mutable_b()->add_data(i == 3 ? 1 : 0);
    PairBatch batch;
    ViolationList violations;
    EXPECT_FALSE(Decode(request, batch, violations));
    EXPECT_THAT(Paths(violations), ElementsAre("b.data"));
    EXPECT_EQ(ItemCount(request), 3u);
  }
  {
    v1::QueryPairsPackedRequest request = ObbPacked(2);
    request.mutable_b()->set_kind(static_cast<v1::PackedShapeKind>(42));
    PairBatch batch;
    ViolationList violations;
    EXPECT_FALSE(Decode(request, batch, violations));
    EXPECT_THAT(Paths(violations), ElementsAre("b.kind"));
  }
}

TEST(DecodeRequestTest, ReadableRayViolationPaths) {
  v1::CastRaysRequest request;
  for (int i = 0; i < 3; ++i) {
    v1::RayCast* cast = request.add_casts();
    cast->mutable_ray()->mutable_direction()->set_x(1);
    cast->mutable_shape()->mutable_halfspace()->mutable_normal()->set_z(1);
  }
  request.mutable_casts(0)->mutable_ray()->mutable_direction()->set_x(0);
  request.mutable_casts(1)->mutable_ray()->set_max_distance(-2);
  request.mutable_casts(2)->mutable_shape()->mutable_halfspace()->mutable_normal()->set_z(2);
  request.mutable_casts(2)->mutable_ray()->mutable_origin()->set_x(-kInfinity);
  RayBatch batch;
  ViolationList violations;
  EXPECT_FALSE(Decode(request, batch, violations));
  EXPECT_THAT(Paths(violations),
              UnorderedElementsAre("casts[0].ray.direction", "casts[1].ray.max_distance",
                                   "casts[2].shape.halfspace.normal", "casts[2].ray.origin.x"));
}

TEST(DecodeRequestTest, PackedRays) {
  v1::CastRaysPackedRequest request;
  request.mutable_shapes()->set_kind(v1::PACKED_SHAPE_KIND_SPHERE);
  for (int i = 0; i < 3; ++i) {
    for (double d : {0.0, 0.0, -5.0, 0.0, 0.0, 1.0, kInfinity}) request.add_rays(d);
    for (double d : {0.0, 0.0, 0.0, 1.0}) request.mutable_shapes()->add_data(d);
  }
  RayBatch batch;
  ViolationList violations;
  ASSERT_TRUE(Decode(request, batch, violations));
  ASSERT_EQ(batch.size(), 3u);
  EXPECT_EQ(batch.rays[2].max_distance, kInfinity);
  EXPECT_EQ(batch.rays[0].origin, (Vec3{0, 0, -5}));
  EXPECT_EQ(std::get<Sphere>(batch.shapes[1]).radius, 1.0);

  request.set_rays(7 + 6, kNaN);                      // Ray 1 max_distance.
  request.mutable_shapes()->set_data(2 * 4 + 3, -1);  // Sphere 2 radius.
  EXPECT_FALSE(Decode(request, batch, violations));
  EXPECT_THAT(Paths(violations), UnorderedElementsAre("rays[13]", "shapes.data[11]"));

  violations.Clear();
  request.add_rays(0);
  request.mutable_shapes()->add_data(0);
  EXPECT_FALSE(Decode(request, batch, violations));
  EXPECT_THAT(Paths(violations), UnorderedElementsAre("rays", "shapes.data"));
}

TEST(ViolationListTest, KeepsTheFirstAndCountsAll) {
  v1::QueryPairsRequest request = SpherePairs(300);
  for (auto& pair : *request.mutable_pairs()) pair.mutable_a()->mutable_sphere()->set_radius(-1);
  PairBatch batch;
  ViolationList violations;
  EXPECT_FALSE(Decode(request, batch, violations));
  EXPECT_EQ(violations.total(), 300u);
  ASSERT_EQ(violations.kept().size(), ViolationList::kDefaultMaxKept);
  EXPECT_EQ(violations.kept()[99].field, "pairs[99].a.sphere.radius");
}

TEST(ViolationListTest, JoinPath) {
  EXPECT_EQ(JoinPath("pairs[0].a", ""), "pairs[0].a");
  EXPECT_EQ(JoinPath("pairs[0].a", "sphere.radius"), "pairs[0].a.sphere.radius");
  EXPECT_EQ(JoinPath("a", "[3]"), "a[3]");
}

}  // namespace
}  // namespace collide::convert
