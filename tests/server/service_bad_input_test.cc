// The CollisionService's answers to bad input, one test per class (status code
// and BadRequest paths); the server keeps serving after each.
#include "tests/server/service_test_util.h"

namespace collide::server {
namespace {

using namespace ::collide::server::testing;  // NOLINT: the helpers of service_test_util.h

v1::CastRaysRequest OneCastPerKind() {
  collide::testing::ShapeFactory factory(12);
  v1::CastRaysRequest request;
  for (ShapeKind kind : kAllKinds) {
    v1::RayCast* cast = request.add_casts();
    Ray ray = factory.MakeRay();
    ray.max_distance = 10;
    convert::ToProto(ray, cast->mutable_ray());
    convert::ToProto(factory.Make(kind), cast->mutable_shape());
  }
  return request;
}

// The path of every double in `m` (set sub-messages and every repeated
// element), in field order, e.g. "pairs[5].a.obb.rotation.w".
void DoublePaths(const Message& m, const std::string& prefix, std::vector<std::string>& out) {
  const auto* descriptor = m.GetDescriptor();
  const auto* reflection = m.GetReflection();
  for (int f = 0; f < descriptor->field_count(); ++f) {
    const FieldDescriptor* field = descriptor->field(f);
    const std::string path = prefix.empty() ? field->name() : prefix + "." + field->name();
    if (field->is_repeated()) {
      if (field->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) continue;
      for (int i = 0; i < reflection->FieldSize(m, field); ++i) {
        DoublePaths(reflection->GetRepeatedMessage(m, field, i), path + "[" + std::to_string(i) + "]", out);
      }
    } else if (field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      if (reflection->HasField(m, field)) DoublePaths(reflection->GetMessage(m, field), path, out);
    } else if (field->cpp_type() == FieldDescriptor::CPPTYPE_DOUBLE) {
      out.push_back(path);
    }
  }
}

// Sets the double at `path` (as DoublePaths names it) to `value`.
void SetDouble(Message& m, std::string_view path, double value) {
  const std::size_t dot = path.find('.');
  std::string_view head = path.substr(0, dot);
  int index = -1;
  if (const std::size_t bracket = head.find('['); bracket != std::string_view::npos) {
    index = std::stoi(std::string(head.substr(bracket + 1)));
    head = head.substr(0, bracket);
  }
  const FieldDescriptor* field = m.GetDescriptor()->FindFieldByName(std::string(head));
  ASSERT_NE(field, nullptr) << head;
  const auto* reflection = m.GetReflection();
  if (dot == std::string_view::npos) {
    reflection->SetDouble(&m, field, value);
  } else if (index >= 0) {
    SetDouble(*reflection->MutableRepeatedMessage(&m, field, index), path.substr(dot + 1), value);
  } else {
    SetDouble(*reflection->MutableMessage(&m, field), path.substr(dot + 1), value);
  }
}

// A non-finite value is the only violation; a huge finite one may also break
// a relation (min <= max, a unit norm) that names a neighbouring path.
void ExpectNamed(const grpc::Status& status, const std::string& path, double bad) {
  if (std::isfinite(bad)) {
    EXPECT_THAT(BadRequestFields(status), ::testing::Contains(path)) << bad;
  } else {
    EXPECT_THAT(BadRequestFields(status), ElementsAre(path)) << bad;
  }
}

TEST(BadInputTest, NonFiniteOrHugeValueInAnyShapeOrRayFieldIsNamed) {
  TestServer t;
  const v1::QueryPairsRequest pairs = OnePairPerKind();
  const v1::CastRaysRequest casts = OneCastPerKind();
  std::vector<std::string> pair_paths, cast_paths;
  DoublePaths(pairs, "", pair_paths);
  DoublePaths(casts, "", cast_paths);
  ASSERT_GT(pair_paths.size(), 100u);
  for (double bad : {kNaN, kInfinity, -kInfinity, 2e12}) {
    for (const std::string& path : pair_paths) {
      v1::QueryPairsRequest request = pairs;
      SetDouble(request, path, bad);
      const grpc::Status status = Call(t, &v1::CollisionService::Stub::QueryPairs, request);
      EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << path << " = " << bad;
      ExpectNamed(status, path, bad);
    }
    for (const std::string& path : cast_paths) {
      v1::CastRaysRequest request = casts;
      SetDouble(request, path, bad);
      const grpc::Status status = Call(t, &v1::CollisionService::Stub::CastRays, request);
      // max_distance alone may be +infinity, and is not bounded by 1e12.
      if (path.ends_with("max_distance") && (bad == kInfinity || bad == 2e12)) {
        EXPECT_TRUE(status.ok()) << path << " = " << bad;
        continue;
      }
      EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << path << " = " << bad;
      ExpectNamed(status, path, bad);
    }
  }
  ExpectStillServing(t);
}

TEST(BadInputTest, NonFiniteValueAtAnyPackedIndexIsNamed) {
  TestServer t;
  collide::testing::ShapeFactory factory(13);
  for (ShapeKind kind : kAllKinds) {
    if (!convert::PackedKindOf(kind) || kind == ShapeKind::kHalfspace) continue;
    const std::vector<Shape> a = {factory.Make(kind), factory.Make(kind)};
    const std::vector<Shape> b = {factory.Make(ShapeKind::kSphere), factory.Make(ShapeKind::kSphere)};
    v1::QueryPairsPackedRequest base;
    base.set_level(v1::QUERY_LEVEL_DISTANCE);
    ASSERT_TRUE(convert::PackShapes(a, base.mutable_a()));
    ASSERT_TRUE(convert::PackShapes(b, base.mutable_b()));
    for (int i = 0; i < base.a().data_size(); ++i) {
      for (double bad : {kNaN, -kInfinity}) {
        v1::QueryPairsPackedRequest request = base;
        request.mutable_a()->set_data(i, bad);
        const grpc::Status status = Call(t, &v1::CollisionService::Stub::QueryPairsPacked, request);
        EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << ShapeKindName(kind) << " " << i;
        EXPECT_THAT(BadRequestFields(status), ElementsAre("a.data[" + std::to_string(i) + "]"));
      }
    }
  }
  v1::CastRaysPackedRequest rays;
  convert::PackRays(std::vector<Ray>{factory.MakeRay(), factory.MakeRay()}, rays.mutable_rays());
  ASSERT_TRUE(
      convert::PackShapes(std::vector<Shape>{factory.Make(ShapeKind::kAabb), factory.Make(ShapeKind::kAabb)},
                          rays.mutable_shapes()));
  for (int i = 0; i < rays.rays_size(); ++i) {
    v1::CastRaysPackedRequest request = rays;
    request.set_rays(i, kNaN);
    const grpc::Status status = Call(t, &v1::CollisionService::Stub::CastRaysPacked, request);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(BadRequestFields(status), ElementsAre("rays[" + std::to_string(i) + "]"));
  }
  ExpectStillServing(t);
}

TEST(BadInputTest, NegativeRadiusAndExtent) {
  TestServer t;
  v1::QueryPairsRequest request = OnePairPerKind();
  request.mutable_pairs(3)->mutable_a()->mutable_capsule()->set_radius(-0.5);
  request.mutable_pairs(5)->mutable_a()->mutable_obb()->mutable_half_extents()->set_y(-1);
  request.mutable_pairs(7)->mutable_b()->mutable_sphere()->set_radius(-2);
  const grpc::Status status = Call(t, &v1::CollisionService::Stub::QueryPairs, request);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(BadRequestFields(status),
              UnorderedElementsAre("pairs[3].a.capsule.radius", "pairs[5].a.obb.half_extents.y",
                                   "pairs[7].b.sphere.radius"));
  ExpectStillServing(t);
}

TEST(BadInputTest, AabbMinAboveMax) {
  TestServer t;
  v1::QueryPairsRequest request = OnePairPerKind();
  v1::Aabb* aabb = request.mutable_pairs(4)->mutable_a()->mutable_aabb();
  aabb->mutable_min()->set_z(aabb->max().z() + 1);
  const grpc::Status status = Call(t, &v1::CollisionService::Stub::QueryPairs, request);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(BadRequestFields(status), ElementsAre("pairs[4].a.aabb.min.z"));
  ExpectStillServing(t);
}

TEST(BadInputTest, NonUnitQuaternionAndHalfspaceNormal) {
  TestServer t;
  v1::QueryPairsRequest request = OnePairPerKind();
  request.mutable_pairs(5)->mutable_a()->mutable_obb()->mutable_rotation()->set_w(2);
  request.mutable_pairs(8)->mutable_a()->mutable_halfspace()->mutable_normal()->set_x(3);
  const grpc::Status status = Call(t, &v1::CollisionService::Stub::QueryPairs, request);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(BadRequestFields(status),
              UnorderedElementsAre("pairs[5].a.obb.rotation", "pairs[8].a.halfspace.normal"));
  ExpectStillServing(t);
}

TEST(BadInputTest, UnsetShape) {
  TestServer t;
  v1::QueryPairsRequest request = OnePairPerKind();
  request.mutable_pairs(0)->clear_a();
  request.mutable_pairs(2)->mutable_b()->Clear();
  const grpc::Status status = Call(t, &v1::CollisionService::Stub::QueryPairs, request);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(BadRequestFields(status), UnorderedElementsAre("pairs[0].a", "pairs[2].b"));
  ExpectStillServing(t);
}

TEST(BadInputTest, UnspecifiedOrUnknownLevel) {
  TestServer t;
  for (int level : {0, 99}) {
    v1::QueryPairsRequest request = OnePairPerKind();
    request.set_level(static_cast<v1::QueryLevel>(level));  // The raw setter takes unknown values.
    const grpc::Status status = Call(t, &v1::CollisionService::Stub::QueryPairs, request);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(BadRequestFields(status), ElementsAre("level"));
  }
  ExpectStillServing(t);
}

TEST(BadInputTest, EmptyBatches) {
  TestServer t;
  v1::QueryPairsRequest pairs;
  pairs.set_level(v1::QUERY_LEVEL_INTERSECT);
  grpc::Status status = Call(t, &v1::CollisionService::Stub::QueryPairs, pairs);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(BadRequestFields(status), ElementsAre("pairs"));
  status = Call(t, &v1::CollisionService::Stub::CastRays, v1::CastRaysRequest());
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(BadRequestFields(status), ElementsAre("casts"));
  v1::QueryPairsPackedRequest packed;
  packed.set_level(v1::QUERY_LEVEL_INTERSECT);
  packed.mutable_a()->set_kind(v1::PACKED_SHAPE_KIND_SPHERE);
  packed.mutable_b()->set_kind(v1::PACKED_SHAPE_KIND_SPHERE);
  status = Call(t, &v1::CollisionService::Stub::QueryPairsPacked, packed);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(BadRequestFields(status), ElementsAre("a.data"));
  ExpectStillServing(t);
}

TEST(BadInputTest, PackedDataOfTheWrongLength) {
  TestServer t;
  v1::QueryPairsPackedRequest request;
  request.set_level(v1::QUERY_LEVEL_INTERSECT);
  request.mutable_a()->set_kind(v1::PACKED_SHAPE_KIND_SPHERE);
  request.mutable_b()->set_kind(v1::PACKED_SHAPE_KIND_CAPSULE);
  for (int i = 0; i < 9; ++i) request.mutable_a()->add_data(1);   // 2.25 spheres.
  for (int i = 0; i < 14; ++i) request.mutable_b()->add_data(1);  // 2 capsules.
  grpc::Status status = Call(t, &v1::CollisionService::Stub::QueryPairsPacked, request);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(BadRequestFields(status), ElementsAre("a.data"));
  for (int i = 0; i < 7; ++i) request.mutable_a()->add_data(1);  // 4 spheres: count mismatch.
  status = Call(t, &v1::CollisionService::Stub::QueryPairsPacked, request);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(BadRequestFields(status), ElementsAre("b.data"));
  ExpectStillServing(t);
}

TEST(BadInputTest, ViolationsAreCappedWithACount) {
  TestServer t;
  v1::QueryPairsRequest request;
  request.set_level(v1::QUERY_LEVEL_INTERSECT);
  for (int i = 0; i < 250; ++i) request.add_pairs();  // 500 unset shapes.
  const grpc::Status status = Call(t, &v1::CollisionService::Stub::QueryPairs, request);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << status.error_message();
  const std::vector<std::string> fields = BadRequestFields(status);
  // At most 100 listed (fewer when they would overflow the client's metadata
  // limit), then the count of the rest.
  ASSERT_GE(fields.size(), 50u);
  ASSERT_LE(fields.size(), 101u);
  EXPECT_EQ(fields[0], "pairs[0].a");
  EXPECT_EQ(fields[1], "pairs[0].b");
  EXPECT_EQ(fields.back(), "...");
  google::rpc::Status details;
  ASSERT_TRUE(details.ParseFromString(status.error_details()));
  google::rpc::BadRequest bad_request;
  ASSERT_TRUE(details.details(0).UnpackTo(&bad_request));
  EXPECT_EQ(bad_request.field_violations().rbegin()->description(),
            std::to_string(500 - (fields.size() - 1)) + " more violations not listed");
  EXPECT_EQ(details.code(), grpc::StatusCode::INVALID_ARGUMENT);
}

TEST(BadInputTest, HalfspaceVsHalfspaceIsUnimplemented) {
  TestServer t;
  v1::QueryPairsRequest request = OnePairPerKind();
  *request.mutable_pairs(2)->mutable_b() = request.pairs(8).a();
  *request.mutable_pairs(8)->mutable_b() = request.pairs(8).a();
  grpc::Status status = Call(t, &v1::CollisionService::Stub::QueryPairs, request);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNIMPLEMENTED);
  EXPECT_THAT(BadRequestFields(status), ElementsAre("pairs[8]"));

  v1::QueryPairsPackedRequest packed;
  packed.set_level(v1::QUERY_LEVEL_CONTACT);
  for (v1::PackedShapes* side : {packed.mutable_a(), packed.mutable_b()}) {
    side->set_kind(v1::PACKED_SHAPE_KIND_HALFSPACE);
    for (double d : {0.0, 0.0, 1.0, 0.0}) side->add_data(d);
  }
  status = Call(t, &v1::CollisionService::Stub::QueryPairsPacked, packed);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNIMPLEMENTED);
  EXPECT_THAT(BadRequestFields(status), ElementsAre("b.kind"));
  ExpectStillServing(t);
}

}  // namespace
}  // namespace collide::server
