// The gRPC service end to end, in process, over a real loopback channel:
// every RPC in both encodings against the core library called directly (bit
// for bit), independence from thread count and batch split, one test per
// class of bad input (status code and BadRequest paths), limits, health,
// deadlines and cancellation.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <functional>
#include <future>
#include <limits>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "absl/cleanup/cleanup.h"
#include "collide/query.h"
#include "convert/packed.h"
#include "convert/readable_wire.h"
#include "convert/requests.h"
#include "convert/results.h"
#include "convert/shapes.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpcpp/generic/generic_stub.h"
#include "support/random_shapes.h"
#include "support/wait_for.h"
#include "tests/server/test_server.h"

namespace collide::server {
namespace {

using ::collide::server::testing::BadRequestFields;
using ::collide::server::testing::TestServer;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr ShapeKind kAllKinds[] = {ShapeKind::kPoint,    ShapeKind::kSegment,    ShapeKind::kSphere,
                                   ShapeKind::kCapsule,  ShapeKind::kAabb,       ShapeKind::kObb,
                                   ShapeKind::kTriangle, ShapeKind::kConvexHull, ShapeKind::kHalfspace};
constexpr QueryLevel kAllLevels[] = {QueryLevel::kIntersect, QueryLevel::kDistance, QueryLevel::kContact};

// Bit-for-bit equality of results (doubles compared as bits, so -0.0 != 0.0
// and NaN == NaN).
void ExpectBitEqual(const PairResult& expected, const PairResult& actual, const std::string& what) {
  const auto bits = [](const PairResult& r) {
    return std::vector<std::uint64_t>{
        std::bit_cast<std::uint64_t>(r.distance),  std::bit_cast<std::uint64_t>(r.point_a.x),
        std::bit_cast<std::uint64_t>(r.point_a.y), std::bit_cast<std::uint64_t>(r.point_a.z),
        std::bit_cast<std::uint64_t>(r.point_b.x), std::bit_cast<std::uint64_t>(r.point_b.y),
        std::bit_cast<std::uint64_t>(r.point_b.z), std::bit_cast<std::uint64_t>(r.normal.x),
        std::bit_cast<std::uint64_t>(r.normal.y),  std::bit_cast<std::uint64_t>(r.normal.z)};
  };
  EXPECT_EQ(expected.status, actual.status) << what;
  EXPECT_EQ(expected.hit, actual.hit) << what;
  EXPECT_EQ(bits(expected), bits(actual)) << what;
}

void ExpectBitEqual(const RayHit& expected, const RayHit& actual, const std::string& what) {
  ExpectBitEqual(
      PairResult{expected.status, expected.hit, expected.distance, expected.point, {}, expected.normal},
      PairResult{actual.status, actual.hit, actual.distance, actual.point, {}, actual.normal}, what);
}

// The core's answer to a request pair, computed from the same decoded shapes
// the server sees.
struct Expected {
  std::vector<PairResult> results;
};

// Random supported pairs of every kind pair, `per_pair` each, as a readable
// request, and the core's results for them.
v1::QueryPairsRequest RandomPairs(QueryLevel level, int per_pair, std::uint64_t seed,
                                  std::vector<PairResult>& expected) {
  collide::testing::ShapeFactory factory(seed);
  convert::DecodeArena arena;
  v1::QueryPairsRequest request;
  request.set_level(convert::ToProto(level));
  for (ShapeKind ka : kAllKinds) {
    for (ShapeKind kb : kAllKinds) {
      if (!IsSupported(ka, kb)) continue;
      for (int i = 0; i < per_pair; ++i) {
        v1::ShapePair pair;
        convert::ToProto(factory.Make(ka), pair.mutable_a());
        convert::ToProto(factory.Make(kb), pair.mutable_b());
        Shape a, b;
        std::vector<Violation> violations;
        EXPECT_TRUE(convert::FromProto(pair.a(), a, arena, violations));
        EXPECT_TRUE(convert::FromProto(pair.b(), b, arena, violations));
        const PairResult r = Query(level, a, b);
        if (r.status == QueryStatus::kUnsupported) continue;  // Not answered by the core yet.
        expected.push_back(r);
        *request.add_pairs() = std::move(pair);
      }
    }
  }
  return request;
}

TEST(ServiceTest, ReadablePairsMatchTheCoreBitForBit) {
  TestServer t;
  for (QueryLevel level : kAllLevels) {
    std::vector<PairResult> expected;
    const v1::QueryPairsRequest request = RandomPairs(level, 8, 1 + static_cast<int>(level), expected);
    ASSERT_GT(expected.size(), 100u);
    v1::QueryPairsResponse response;
    grpc::ClientContext context;
    const grpc::Status status = t.stub->QueryPairs(&context, request, &response);
    ASSERT_TRUE(status.ok()) << status.error_message();
    ASSERT_EQ(response.results_size(), static_cast<int>(expected.size()));
    int hits = 0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      ExpectBitEqual(expected[i], convert::FromProto(response.results(static_cast<int>(i))),
                     "pair " + std::to_string(i));
      hits += expected[i].hit;
    }
    // Not an all-miss set.
    EXPECT_GT(hits, static_cast<int>(expected.size()) / 10);
  }
}

TEST(ServiceTest, PackedPairsMatchTheCoreBitForBit) {
  TestServer t;
  collide::testing::ShapeFactory factory(3);
  for (QueryLevel level : kAllLevels) {
    for (ShapeKind ka : kAllKinds) {
      for (ShapeKind kb : kAllKinds) {
        if (!convert::PackedKindOf(ka) || !convert::PackedKindOf(kb) || !IsSupported(ka, kb)) continue;
        std::vector<Shape> a, b;
        for (int i = 0; i < 20; ++i) {
          a.push_back(factory.Make(ka));
          b.push_back(factory.Make(kb));
        }
        v1::QueryPairsPackedRequest request;
        request.set_level(convert::ToProto(level));
        ASSERT_TRUE(convert::PackShapes(a, request.mutable_a()));
        ASSERT_TRUE(convert::PackShapes(b, request.mutable_b()));
        convert::PairBatch batch;
        convert::ViolationList violations;
        ASSERT_TRUE(convert::Decode(request, batch, violations));
        std::vector<PairResult> expected;
        bool supported = true;
        for (std::size_t i = 0; i < a.size(); ++i) {
          expected.push_back(Query(level, batch.a[i], batch.b[i]));
          supported = supported && expected.back().status != QueryStatus::kUnsupported;
        }
        v1::QueryPairsPackedResponse response;
        grpc::ClientContext context;
        const grpc::Status status = t.stub->QueryPairsPacked(&context, request, &response);
        const std::string what = std::string(ShapeKindName(ka)) + "/" + std::string(ShapeKindName(kb));
        if (!supported) {  // A kernel not landed yet: never a silent miss.
          EXPECT_EQ(status.error_code(), grpc::StatusCode::UNIMPLEMENTED) << what;
          continue;
        }
        ASSERT_TRUE(status.ok()) << what << ": " << status.error_message();
        EXPECT_EQ(response.distance().empty(), level == QueryLevel::kIntersect);
        std::vector<PairResult> actual;
        ASSERT_TRUE(convert::DecodePacked(response, a.size(), actual)) << what;
        for (std::size_t i = 0; i < a.size(); ++i) {
          if (level == QueryLevel::kIntersect) {
            // Packed INTERSECT carries `hit` only (the core's zero vectors
            // may be -0.0, e.g. a flipped normal).
            EXPECT_EQ(expected[i].hit, actual[i].hit) << what;
            EXPECT_EQ(expected[i].status, actual[i].status) << what;
          } else {
            ExpectBitEqual(expected[i], actual[i], what);
          }
        }
      }
    }
  }
}

TEST(ServiceTest, RayCastsMatchTheCoreBitForBitInBothEncodings) {
  TestServer t;
  collide::testing::ShapeFactory factory(4);
  v1::CastRaysRequest readable;
  std::vector<RayHit> expected;
  for (ShapeKind kind : kAllKinds) {
    std::vector<Ray> rays;
    std::vector<Shape> shapes;
    for (int i = 0; i < 30; ++i) {
      Ray ray = factory.MakeRay();
      if (i % 3 == 0) ray.max_distance = factory.Uniform(0, 3);
      shapes.push_back(factory.Make(kind));
      if (i % 2 == 0) {  // Aimed near the shape's closest point: more hits.
        const PairResult closest = Distance(Point{ray.origin}, shapes.back());
        const Vec3 aim = closest.point_b - ray.origin + factory.UnitVector() * 0.05;
        if (LengthSquared(aim) > 0) ray.direction = aim;
      }
      rays.push_back(ray);
      v1::RayCast* cast = readable.add_casts();
      convert::ToProto(ray, cast->mutable_ray());
      convert::ToProto(shapes.back(), cast->mutable_shape());
    }
    if (!convert::PackedKindOf(kind)) continue;
    v1::CastRaysPackedRequest packed;
    convert::PackRays(rays, packed.mutable_rays());
    ASSERT_TRUE(convert::PackShapes(shapes, packed.mutable_shapes()));
    convert::RayBatch batch;
    convert::ViolationList violations;
    ASSERT_TRUE(convert::Decode(packed, batch, violations));
    v1::CastRaysPackedResponse response;
    grpc::ClientContext context;
    const grpc::Status status = t.stub->CastRaysPacked(&context, packed, &response);
    ASSERT_TRUE(status.ok()) << ShapeKindName(kind) << ": " << status.error_message();
    std::vector<RayHit> actual;
    ASSERT_TRUE(convert::DecodePacked(response, rays.size(), actual));
    for (std::size_t i = 0; i < rays.size(); ++i) {
      ExpectBitEqual(RayCast(batch.rays[i], batch.shapes[i]), actual[i], std::string(ShapeKindName(kind)));
    }
  }
  convert::RayBatch batch;
  convert::ViolationList violations;
  ASSERT_TRUE(convert::Decode(readable, batch, violations));
  v1::CastRaysResponse response;
  grpc::ClientContext context;
  const grpc::Status status = t.stub->CastRays(&context, readable, &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(response.hits_size(), readable.casts_size());
  int hits = 0;
  for (int i = 0; i < response.hits_size(); ++i) {
    const RayHit e = RayCast(batch.rays[i], batch.shapes[i]);
    ExpectBitEqual(e, convert::FromProto(response.hits(i)), "cast " + std::to_string(i));
    hits += e.hit;
  }
  EXPECT_GT(hits, readable.casts_size() / 4);
}

TEST(ServiceTest, ResultsDoNotDependOnThreadCountOrBatchSplit) {
  std::vector<PairResult> expected;
  const v1::QueryPairsRequest request = RandomPairs(QueryLevel::kContact, 40, 5, expected);
  ASSERT_GT(request.pairs_size(), 2000);  // Several chunks of BatchRunner::kChunkItems.
  std::string reference;
  for (int threads : {1, 4}) {
    TestServer t(Options{.worker_threads = threads});
    v1::QueryPairsResponse whole;
    grpc::ClientContext context;
    ASSERT_TRUE(t.stub->QueryPairs(&context, request, &whole).ok());
    std::string serialized;
    ASSERT_TRUE(whole.SerializeToString(&serialized));
    if (reference.empty()) reference = serialized;
    EXPECT_EQ(serialized, reference) << threads << " threads";
    for (int split : {1, 97, 1000}) {
      v1::QueryPairsResponse joined;
      for (int begin = 0; begin < request.pairs_size(); begin += split) {
        v1::QueryPairsRequest part;
        part.set_level(request.level());
        for (int i = begin; i < std::min(request.pairs_size(), begin + split); ++i) {
          *part.add_pairs() = request.pairs(i);
        }
        v1::QueryPairsResponse part_response;
        grpc::ClientContext part_context;
        ASSERT_TRUE(t.stub->QueryPairs(&part_context, part, &part_response).ok());
        for (auto& r : *part_response.mutable_results()) *joined.add_results() = std::move(r);
        if (split == 1 && begin >= 50) break;  // Enough single-pair calls.
      }
      for (int i = 0; i < joined.results_size(); ++i) {
        EXPECT_EQ(joined.results(i).SerializeAsString(), whole.results(i).SerializeAsString())
            << "split " << split << " pair " << i;
      }
    }
  }
}

TEST(ServiceTest, GetServerInfoReportsLimitsAndCounters) {
  TestServer t(
      Options{.worker_threads = 3, .max_items_per_request = 1000, .max_receive_message_bytes = 1 << 20});
  v1::ServerInfo info;
  {
    grpc::ClientContext context;
    ASSERT_TRUE(t.stub->GetServerInfo(&context, v1::GetServerInfoRequest(), &info).ok());
  }
  EXPECT_EQ(info.version(), COLLIDE_VERSION);
  EXPECT_THAT(info.replica(), HasSubstr(":" + std::to_string(getpid())));
  EXPECT_EQ(info.max_items_per_request(), 1000);
  EXPECT_EQ(info.max_receive_message_bytes(), 1 << 20);
  EXPECT_EQ(info.worker_threads(), 3);
  EXPECT_EQ(info.requests_served(), 0);
  std::vector<PairResult> expected;
  const v1::QueryPairsRequest request = RandomPairs(QueryLevel::kIntersect, 1, 6, expected);
  {
    v1::QueryPairsResponse response;
    grpc::ClientContext context;
    ASSERT_TRUE(t.stub->QueryPairs(&context, request, &response).ok());
  }
  {
    v1::QueryPairsResponse response;
    grpc::ClientContext context;
    ASSERT_FALSE(t.stub->QueryPairs(&context, v1::QueryPairsRequest(), &response).ok());  // Not counted.
  }
  grpc::ClientContext context;
  ASSERT_TRUE(t.stub->GetServerInfo(&context, v1::GetServerInfoRequest(), &info).ok());
  EXPECT_EQ(info.requests_served(), 1);
  EXPECT_EQ(info.items_served(), request.pairs_size());
}

// Bad input ---------------------------------------------------------------

// A valid request with one pair per shape kind (a of that kind, b a sphere)
// and every Obb rotation set explicitly.
v1::QueryPairsRequest OnePairPerKind() {
  collide::testing::ShapeFactory factory(11);
  v1::QueryPairsRequest request;
  request.set_level(v1::QUERY_LEVEL_CONTACT);
  for (ShapeKind kind : kAllKinds) {
    v1::ShapePair* pair = request.add_pairs();
    convert::ToProto(factory.Make(kind), pair->mutable_a());
    convert::ToProto(factory.Make(kind == ShapeKind::kHalfspace ? ShapeKind::kCapsule : ShapeKind::kSphere),
                     pair->mutable_b());
  }
  return request;
}

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

// One call of `method`; with a `deadline` when one is given.
template <typename Request, typename Response>
grpc::Status Call(TestServer& t,
                  grpc::Status (v1::CollisionService::Stub::*method)(grpc::ClientContext*, const Request&,
                                                                     Response*),
                  const Request& request, std::optional<std::chrono::seconds> deadline = std::nullopt) {
  Response response;
  grpc::ClientContext context;
  if (deadline) context.set_deadline(std::chrono::system_clock::now() + *deadline);
  return ((*t.stub).*method)(&context, request, &response);
}

// After any rejection the server still answers a good request.
void ExpectStillServing(TestServer& t) {
  const grpc::Status status = Call(t, &v1::CollisionService::Stub::QueryPairs, OnePairPerKind());
  EXPECT_TRUE(status.ok()) << status.error_message();
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

TEST(LimitsTest, TooManyItemsNamesTheLimit) {
  TestServer t(Options{.max_items_per_request = 8});
  const grpc::Status status = Call(t, &v1::CollisionService::Stub::QueryPairs, OnePairPerKind());  // 9 pairs.
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(status.error_message(), HasSubstr("max_items_per_request is 8"));
  v1::CastRaysPackedRequest rays;
  for (int i = 0; i < 9 * convert::kPackedRayStride; ++i) rays.add_rays(1);
  rays.mutable_shapes()->set_kind(v1::PACKED_SHAPE_KIND_POINT);
  EXPECT_EQ(Call(t, &v1::CollisionService::Stub::CastRaysPacked, rays).error_code(),
            grpc::StatusCode::RESOURCE_EXHAUSTED);
  v1::QueryPairsRequest eight = OnePairPerKind();
  eight.mutable_pairs()->RemoveLast();
  EXPECT_TRUE(Call(t, &v1::CollisionService::Stub::QueryPairs, eight).ok());
}

TEST(LimitsTest, MaxConcurrentCallsCountsOnlyCallsInFlight) {
  // One call at a time is always under a limit of 1: a call that finished,
  // OK or not, no longer counts.
  TestServer t(Options{.max_concurrent_calls = 1});
  v1::QueryPairsRequest bad = OnePairPerKind();
  bad.set_level(v1::QUERY_LEVEL_UNSPECIFIED);
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(Call(t, &v1::CollisionService::Stub::QueryPairs, bad).error_code(),
              grpc::StatusCode::INVALID_ARGUMENT);
    const grpc::Status status = Call(t, &v1::CollisionService::Stub::QueryPairs, OnePairPerKind());
    EXPECT_TRUE(status.ok()) << status.error_message();
  }
  EXPECT_FALSE(Server::Start(Options{.port = 0, .max_concurrent_calls = -1}).ok());
}

// Holds every multi-chunk call on its call thread (TestHooks::before_posted_call)
// until Open(); counts the calls it held.
class Gate {
 public:
  std::function<void(grpc::CallbackServerContext&)> Hook() {
    return [this](grpc::CallbackServerContext&) {
      std::unique_lock lock(mu_);
      ++entered_;
      cv_.notify_all();
      cv_.wait(lock, [this] { return open_; });
    };
  }
  // Waits (at most 60 s) until `n` calls reached the gate.
  bool WaitEntered(int n) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, std::chrono::seconds(60), [&] { return entered_ >= n; });
  }
  void Open() {
    std::lock_guard lock(mu_);
    open_ = true;
    cv_.notify_all();
  }
  int entered() {
    std::lock_guard lock(mu_);
    return entered_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int entered_ = 0;
  bool open_ = false;
};

// Results of a readable response against the core's, bit for bit.
void ExpectMatchesCore(const std::vector<PairResult>& expected, const v1::QueryPairsResponse& response) {
  ASSERT_EQ(response.results_size(), static_cast<int>(expected.size()));
  for (std::size_t i = 0; i < expected.size(); ++i) {
    ExpectBitEqual(expected[i], convert::FromProto(response.results(static_cast<int>(i))),
                   "pair " + std::to_string(i));
  }
}

// A call that never finishes unless it is answered without running: every
// call sent while the gate holds the only admitted one. The deadline is only
// a bound on a failing test (it would end DEADLINE_EXCEEDED).
grpc::Status CallWhileHeld(TestServer& t, const v1::QueryPairsRequest& request) {
  return Call(t, &v1::CollisionService::Stub::QueryPairs, request, std::chrono::seconds(30));
}

TEST(AdmissionTest, CallsPastMaxConcurrentCallsAreShedAtOnceWhileTheAdmittedOneRuns) {
  Gate gate;
  TestServer t(
      Options{.worker_threads = 1, .max_concurrent_calls = 1, .hooks = {.before_posted_call = gate.Hook()}});
  const absl::Cleanup open_on_exit = [&gate] { gate.Open(); };  // Before t stops, even on failure.
  std::vector<PairResult> expected;
  const v1::QueryPairsRequest big = RandomPairs(QueryLevel::kContact, 5, 31, expected);
  ASSERT_GT(expected.size(), BatchRunner::kChunkItems);  // Posted to the call thread, so held.
  v1::QueryPairsResponse held_response;
  grpc::Status held_status;
  std::thread held([&] {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
    held_status = t.stub->QueryPairs(&context, big, &held_response);
  });
  ASSERT_TRUE(gate.WaitEntered(1));
  // The held call counts: every other call, one chunk (run on the gRPC
  // thread) or many (posted), is refused without running.
  for (int i = 0; i < 6; ++i) {
    const grpc::Status status = CallWhileHeld(t, i % 2 ? big : OnePairPerKind());
    EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << status.error_message();
    EXPECT_THAT(status.error_message(), HasSubstr("--max_concurrent_calls"));
  }
  gate.Open();
  held.join();
  ASSERT_TRUE(held_status.ok()) << held_status.error_message();
  ExpectMatchesCore(expected, held_response);
  EXPECT_EQ(gate.entered(), 1) << "a shed call reached the call thread";
  // Recovered at once: the next calls are admitted and answered.
  v1::QueryPairsResponse response;
  grpc::ClientContext context;
  ASSERT_TRUE(t.stub->QueryPairs(&context, big, &response).ok());
  ExpectMatchesCore(expected, response);
  ExpectStillServing(t);
  grpc::ClientContext info_context;
  v1::ServerInfo info;
  ASSERT_TRUE(t.stub->GetServerInfo(&info_context, v1::GetServerInfoRequest(), &info).ok());
  EXPECT_EQ(info.requests_served(), 3);  // The held call and the two after it.
}

// n packed OBB contact pairs.
v1::QueryPairsPackedRequest ObbPairs(int n, std::uint64_t seed) {
  collide::testing::ShapeFactory factory(seed);
  std::vector<Shape> a, b;
  for (int i = 0; i < n; ++i) {
    a.push_back(factory.Make(ShapeKind::kObb));
    b.push_back(factory.Make(ShapeKind::kObb));
  }
  v1::QueryPairsPackedRequest request;
  request.set_level(v1::QUERY_LEVEL_CONTACT);
  EXPECT_TRUE(convert::PackShapes(a, request.mutable_a()));
  EXPECT_TRUE(convert::PackShapes(b, request.mutable_b()));
  return request;
}

grpc::Status PackedWhileHeld(TestServer& t, const v1::QueryPairsPackedRequest& request) {
  return Call(t, &v1::CollisionService::Stub::QueryPairsPacked, request, std::chrono::seconds(30));
}

// Typed requests count their items at arrival (the raw readable QueryPairs is
// charged an estimate from its size: its items are known once decoded).
TEST(AdmissionTest, CallsPastMaxItemsInFlightAreShedButSmallerOnesFit) {
  Gate gate;
  constexpr int kBig = 300;  // More than one chunk: posted, so held.
  const v1::QueryPairsPackedRequest big = ObbPairs(kBig, 32);
  // Room for the held call and 9 more items, not for a second big call.
  TestServer t(Options{.worker_threads = 1,
                       .max_items_per_request = kBig,
                       .max_items_in_flight = kBig + 9,
                       .hooks = {.before_posted_call = gate.Hook()}});
  const absl::Cleanup open_on_exit = [&gate] { gate.Open(); };
  grpc::Status held_status;
  std::thread held([&] {
    v1::QueryPairsPackedResponse response;
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
    held_status = t.stub->QueryPairsPacked(&context, big, &response);
  });
  ASSERT_TRUE(gate.WaitEntered(1));
  const grpc::Status shed = PackedWhileHeld(t, big);
  EXPECT_EQ(shed.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << shed.error_message();
  EXPECT_THAT(shed.error_message(), HasSubstr("--max_items_in_flight"));
  EXPECT_EQ(PackedWhileHeld(t, ObbPairs(10, 34)).error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  // 9 pairs fit beside the held call (and run on the gRPC thread).
  const grpc::Status small = PackedWhileHeld(t, ObbPairs(9, 35));
  EXPECT_TRUE(small.ok()) << small.error_message();
  gate.Open();
  held.join();
  EXPECT_TRUE(held_status.ok()) << held_status.error_message();
  EXPECT_TRUE(PackedWhileHeld(t, big).ok());
  // A lone call must always fit.
  EXPECT_FALSE(
      Server::Start(Options{.port = 0, .max_items_per_request = 100, .max_items_in_flight = 99}).ok());
}

// Many clients at once against a limit of 2 calls: each answer is either OK
// and exactly the core's results, or RESOURCE_EXHAUSTED; then a call is
// answered at once. (Whether a given call is shed depends on timing; the
// held-call tests above make shedding itself deterministic.)
TEST(AdmissionTest, BurstGetsOnlyCorrectOkOrResourceExhaustedAndRecovers) {
  TestServer t(Options{.worker_threads = 1, .max_concurrent_calls = 2});
  std::vector<PairResult> expected;
  const v1::QueryPairsRequest big = RandomPairs(QueryLevel::kContact, 10, 33, expected);
  constexpr int kClients = 12;
  constexpr int kCallsEach = 4;
  std::atomic<int> ok{0}, shed{0}, other{0};
  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&] {
      for (int i = 0; i < kCallsEach; ++i) {
        v1::QueryPairsResponse response;
        grpc::ClientContext context;
        context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
        const grpc::Status status = t.stub->QueryPairs(&context, big, &response);
        if (status.ok()) {
          ++ok;
          ExpectMatchesCore(expected, response);
        } else if (status.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED) {
          ++shed;
        } else {
          ++other;
          ADD_FAILURE() << status.error_code() << " " << status.error_message();
        }
      }
    });
  }
  for (std::thread& c : clients) c.join();
  std::printf("burst of %d calls: %d OK, %d RESOURCE_EXHAUSTED, %d other\n", kClients * kCallsEach, ok.load(),
              shed.load(), other.load());
  EXPECT_EQ(ok + shed, kClients * kCallsEach);
  EXPECT_GT(ok, 0);
  v1::QueryPairsResponse response;
  grpc::ClientContext context;
  ASSERT_TRUE(t.stub->QueryPairs(&context, big, &response).ok());
  ExpectMatchesCore(expected, response);
}

// HandleRequest is the service's whole request handling without gRPC (the
// request fuzzer calls it): same bytes as the served response, same errors.
TEST(HandleRequestTest, AnswersExactlyAsTheServedCall) {
  std::vector<PairResult> expected;
  const v1::QueryPairsRequest request = RandomPairs(QueryLevel::kContact, 2, 5, expected);
  BatchRunner runner(2);
  const auto never = [] { return false; };
  v1::QueryPairsResponse direct;
  std::size_t items = 0;
  const grpc::Status status =
      HandleRequest(request, &direct, ServiceConfig{}, runner, CallControl{never}, items);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(items, expected.size());
  TestServer t;
  v1::QueryPairsResponse served;
  grpc::ClientContext context;
  ASSERT_TRUE(t.stub->QueryPairs(&context, request, &served).ok());
  EXPECT_EQ(direct.SerializeAsString(), served.SerializeAsString());

  v1::QueryPairsRequest bad = request;
  bad.set_level(v1::QUERY_LEVEL_UNSPECIFIED);
  v1::QueryPairsResponse unused;
  const grpc::Status invalid =
      HandleRequest(bad, &unused, ServiceConfig{}, runner, CallControl{never}, items);
  EXPECT_EQ(invalid.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(BadRequestFields(invalid), ElementsAre("level"));

  const auto always = [] { return true; };
  EXPECT_EQ(HandleRequest(request, &unused, ServiceConfig{}, runner, CallControl{always}, items).error_code(),
            grpc::StatusCode::CANCELLED);
  EXPECT_EQ(
      HandleRequest(request, &unused, ServiceConfig{}, runner,
                    CallControl{never, std::chrono::system_clock::now() - std::chrono::seconds(1)}, items)
          .error_code(),
      grpc::StatusCode::DEADLINE_EXCEEDED);
}

// The served QueryPairs reads the request's bytes (HandleQueryPairsBytes):
// whichever path a request takes there (the wire fast path, or protobuf for
// everything it declines), the answer must be HandleRequest's on the parsed
// request, byte for byte.
void ExpectSameAnswer(const v1::QueryPairsRequest& request, const ServiceConfig& config,
                      const std::string& what) {
  BatchRunner runner(2);
  const auto never = [] { return false; };
  v1::QueryPairsResponse typed;
  std::size_t typed_items = 0;
  const grpc::Status expected =
      HandleRequest(request, &typed, config, runner, CallControl{never}, typed_items);
  const std::string bytes = request.SerializeAsString();
  std::string response;
  std::size_t items = 0;
  const grpc::Status actual =
      HandleQueryPairsBytes({reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()}, response,
                            config, runner, CallControl{never}, items);
  EXPECT_EQ(actual.error_code(), expected.error_code()) << what;
  EXPECT_EQ(actual.error_message(), expected.error_message()) << what;
  EXPECT_EQ(actual.error_details(), expected.error_details()) << what;
  if (expected.ok()) {
    EXPECT_EQ(items, typed_items) << what;
    EXPECT_EQ(response, typed.SerializeAsString()) << what;
  }
}

TEST(HandleQueryPairsBytesTest, AnswersAsHandleRequestOnEveryPath) {
  for (const QueryLevel level : kAllLevels) {
    std::vector<PairResult> expected;
    const v1::QueryPairsRequest all_kinds = RandomPairs(level, 3, 21, expected);
    ExpectSameAnswer(all_kinds, ServiceConfig{}, "all kinds (hulls: protobuf path)");
    v1::QueryPairsRequest no_hulls;  // The fast path.
    no_hulls.set_level(all_kinds.level());
    for (const v1::ShapePair& pair : all_kinds.pairs()) {
      if (!pair.a().has_convex_hull() && !pair.b().has_convex_hull()) *no_hulls.add_pairs() = pair;
    }
    const std::string no_hulls_bytes = no_hulls.SerializeAsString();
    convert::PairBatch batch;
    EXPECT_TRUE(convert::DecodeQueryPairsWire(
        {reinterpret_cast<const std::uint8_t*>(no_hulls_bytes.data()), no_hulls_bytes.size()}, 65536, batch))
        << "takes the fast path";
    ExpectSameAnswer(no_hulls, ServiceConfig{}, "no hulls");
    ExpectSameAnswer(no_hulls, ServiceConfig{.max_items_per_request = 10}, "over the item limit");
    v1::QueryPairsRequest invalid = no_hulls;
    invalid.mutable_pairs(4)->mutable_b()->mutable_sphere()->set_radius(-1);
    invalid.mutable_pairs(7)->mutable_a()->mutable_point()->mutable_position()->set_z(kNaN);
    ExpectSameAnswer(invalid, ServiceConfig{}, "invalid shapes");
    v1::QueryPairsRequest unsupported = no_hulls;
    unsupported.mutable_pairs(2)->mutable_a()->mutable_halfspace()->mutable_normal()->set_x(1);
    unsupported.mutable_pairs(2)->mutable_b()->mutable_halfspace()->mutable_normal()->set_y(1);
    ExpectSameAnswer(unsupported, ServiceConfig{}, "halfspace vs halfspace");
    v1::QueryPairsRequest no_level = no_hulls;
    no_level.clear_level();
    ExpectSameAnswer(no_level, ServiceConfig{}, "no level");
  }
  ExpectSameAnswer(v1::QueryPairsRequest{}, ServiceConfig{}, "empty request");
}

TEST(HandleQueryPairsBytesTest, FastPathStopsOnCancelAndDeadline) {
  std::vector<PairResult> expected;
  v1::QueryPairsRequest request = RandomPairs(QueryLevel::kContact, 1, 3, expected);
  request.mutable_pairs()->erase(
      std::remove_if(
          request.mutable_pairs()->begin(), request.mutable_pairs()->end(),
          [](const v1::ShapePair& p) { return p.a().has_convex_hull() || p.b().has_convex_hull(); }),
      request.mutable_pairs()->end());
  const std::string bytes = request.SerializeAsString();
  const std::span<const std::uint8_t> span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  BatchRunner runner(2);
  std::string response;
  std::size_t items = 0;
  const auto never = [] { return false; };
  const auto always = [] { return true; };
  EXPECT_EQ(
      HandleQueryPairsBytes(span, response, ServiceConfig{}, runner, CallControl{always}, items).error_code(),
      grpc::StatusCode::CANCELLED);
  EXPECT_EQ(HandleQueryPairsBytes(
                span, response, ServiceConfig{}, runner,
                CallControl{never, std::chrono::system_clock::now() - std::chrono::seconds(1)}, items)
                .error_code(),
            grpc::StatusCode::DEADLINE_EXCEEDED);
}

// Bytes that are no request message at all: every RPC answers
// INVALID_ARGUMENT naming the message type (UNIMPLEMENTED is reserved for
// unsupported shape pairs), and the server keeps serving.
TEST(HandleQueryPairsBytesTest, UnparsableBytesAreInvalidArgumentOverTheWireOnEveryRpc) {
  TestServer t;
  grpc::GenericStub generic(t.channel);
  const std::string garbage("\x12\xff\xff\xff\x0f\x01", 6);  // Field 2: a 4 GB length, then 1 byte.
  for (const std::string method :
       {"QueryPairs", "QueryPairsPacked", "CastRays", "CastRaysPacked", "GetServerInfo"}) {
    grpc::Slice slice(garbage);
    const grpc::ByteBuffer request(&slice, 1);
    grpc::ByteBuffer response;
    grpc::ClientContext context;
    std::promise<grpc::Status> done;
    generic.UnaryCall(&context, "/collide.v1.CollisionService/" + method, grpc::StubOptions(), &request,
                      &response, [&done](grpc::Status s) { done.set_value(std::move(s)); });
    const grpc::Status status = done.get_future().get();
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << method;
    const std::string type = method == "GetServerInfo" ? "GetServerInfoRequest" : method + "Request";
    EXPECT_EQ(status.error_message(),
              "the request is not a collide.v1." + type + ": its 6 bytes do not parse");
  }
  std::vector<PairResult> expected;
  const v1::QueryPairsRequest good = RandomPairs(QueryLevel::kDistance, 1, 4, expected);
  v1::QueryPairsResponse served;
  grpc::ClientContext again;
  EXPECT_TRUE(t.stub->QueryPairs(&again, good, &served).ok());
  EXPECT_EQ(served.results_size(), static_cast<int>(expected.size()));
}

TEST(LimitsTest, OversizedMessageIsRejectedByGrpc) {
  TestServer t(Options{.max_receive_message_bytes = 4096});
  v1::QueryPairsPackedRequest request;
  request.set_level(v1::QUERY_LEVEL_INTERSECT);
  request.mutable_a()->set_kind(v1::PACKED_SHAPE_KIND_POINT);
  request.mutable_b()->set_kind(v1::PACKED_SHAPE_KIND_POINT);
  for (int i = 0; i < 3 * 200; ++i) {  // 2 x 4800 bytes of doubles.
    request.mutable_a()->add_data(0);
    request.mutable_b()->add_data(1);
  }
  const grpc::Status status = Call(t, &v1::CollisionService::Stub::QueryPairsPacked, request);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  ExpectStillServing(t);
}

// Health, shutdown, deadlines ---------------------------------------------

grpc::health::v1::HealthCheckResponse::ServingStatus Health(TestServer& t, const std::string& service,
                                                            grpc::StatusCode* code = nullptr) {
  auto health = grpc::health::v1::Health::NewStub(t.channel);
  grpc::health::v1::HealthCheckRequest request;
  request.set_service(service);
  grpc::health::v1::HealthCheckResponse response;
  grpc::ClientContext context;
  const grpc::Status status = health->Check(&context, request, &response);
  if (code != nullptr) *code = status.error_code();
  return response.status();
}

TEST(HealthTest, ServingThenNotServingWhileDraining) {
  using grpc::health::v1::HealthCheckResponse;
  TestServer t;
  EXPECT_EQ(Health(t, ""), HealthCheckResponse::SERVING);
  EXPECT_EQ(Health(t, kServiceName), HealthCheckResponse::SERVING);
  grpc::StatusCode code;
  Health(t, "no.such.Service", &code);
  EXPECT_EQ(code, grpc::StatusCode::NOT_FOUND);

  // A watcher sees the change that Shutdown makes first.
  auto health = grpc::health::v1::Health::NewStub(t.channel);
  grpc::ClientContext watch_context;
  grpc::health::v1::HealthCheckRequest watch_request;
  watch_request.set_service(kServiceName);
  auto watch = health->Watch(&watch_context, watch_request);
  HealthCheckResponse update;
  ASSERT_TRUE(watch->Read(&update));
  EXPECT_EQ(update.status(), HealthCheckResponse::SERVING);

  t.server->StartDraining();
  EXPECT_EQ(Health(t, ""), HealthCheckResponse::NOT_SERVING);
  EXPECT_EQ(Health(t, kServiceName), HealthCheckResponse::NOT_SERVING);
  ASSERT_TRUE(watch->Read(&update));
  EXPECT_EQ(update.status(), HealthCheckResponse::NOT_SERVING);
  // Draining still answers calls in flight and new ones until Shutdown.
  ExpectStillServing(t);
  watch_context.TryCancel();
  watch->Finish().IgnoreError();
  t.server->Shutdown();
  t.server->Wait();
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(2));
  v1::ServerInfo info;
  EXPECT_FALSE(t.stub->GetServerInfo(&context, v1::GetServerInfoRequest(), &info).ok());
}

// `n` OBB contact pairs; 65536 of them outlast a short deadline.
v1::QueryPairsPackedRequest ObbBatch(int n) {
  collide::testing::ShapeFactory factory(14);
  std::vector<Shape> a, b;
  for (int i = 0; i < n; ++i) {
    a.push_back(factory.Make(ShapeKind::kObb));
    b.push_back(factory.Make(ShapeKind::kObb));
  }
  v1::QueryPairsPackedRequest request;
  request.set_level(v1::QUERY_LEVEL_CONTACT);
  EXPECT_TRUE(convert::PackShapes(a, request.mutable_a()));
  EXPECT_TRUE(convert::PackShapes(b, request.mutable_b()));
  return request;
}
v1::QueryPairsPackedRequest HugeObbBatch() { return ObbBatch(65536); }

// Each huge call is held in the server for its whole deadline before its
// batch runs. The server's deadline is its time of reading the call plus the
// grpc-timeout sent, so no later than the hold's start plus kDeadline: past
// on any machine, and the batch's own deadline check must stop it, however
// fast the machine would run the 65,536 pairs. The deadline is long enough
// for the 10 MB request to reach the server (checked: `held`).
constexpr auto kDeadline = std::chrono::seconds(1);
TEST(DeadlineTest, HugeBatchPastItsDeadlineStopsAndServerKeepsServing) {
  std::atomic<int> held{0};
  TestServer t(
      Options{.worker_threads = 1, .hooks = {.before_posted_call = [&held](grpc::CallbackServerContext&) {
                                     ++held;
                                     // A sleep as a lower bound only; the margin covers
                                     // grpc-timeout's rounding up.
                                     std::this_thread::sleep_for(kDeadline + std::chrono::milliseconds(10));
                                   }}});
  const v1::QueryPairsPackedRequest request = HugeObbBatch();
  for (int i = 0; i < 3; ++i) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + kDeadline);
    v1::QueryPairsPackedResponse response;
    const grpc::Status status = t.stub->QueryPairsPacked(&context, request, &response);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  }
  // The calls reached the server's batch path (the client alone would also
  // say DEADLINE_EXCEEDED); each returns only after its hold.
  EXPECT_TRUE(collide::testing::WaitFor([&held] { return held == 3; }));
  ExpectStillServing(t);
  grpc::ClientContext context;
  v1::ServerInfo info;
  ASSERT_TRUE(t.stub->GetServerInfo(&context, v1::GetServerInfoRequest(), &info).ok());
  EXPECT_EQ(info.items_served(), 9);  // Only the good request's pairs.
}

// The call is cancelled by the client once it reached the server's call
// thread, and its batch starts only when the server has seen the
// cancellation: the batch must stop at its first check, serving none of its
// pairs, and the server go on serving. A second multi-chunk call, queued
// behind it on the only call thread, runs once the first has ended.
TEST(DeadlineTest, CancelledCallStopsAndServerKeepsServing) {
  std::atomic<int> calls{0};
  std::atomic<bool> entered{false}, seen_cancelled{false};
  TestServer t(Options{.worker_threads = 1,
                       .hooks = {.before_posted_call = [&](grpc::CallbackServerContext& c) {
                         if (calls++ > 0) return;
                         entered = true;
                         seen_cancelled = collide::testing::WaitFor([&c] { return c.IsCancelled(); });
                       }}});
  grpc::ClientContext context;
  std::thread canceller([&] {
    collide::testing::WaitFor([&entered] { return entered.load(); });
    context.TryCancel();
  });
  v1::QueryPairsPackedResponse response;
  const grpc::Status status = t.stub->QueryPairsPacked(&context, HugeObbBatch(), &response);
  canceller.join();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::CANCELLED) << status.error_message();
  ASSERT_TRUE(entered);
  constexpr int kNext = 1000;  // Four chunks: a posted call.
  grpc::ClientContext next_context;
  const grpc::Status next = t.stub->QueryPairsPacked(&next_context, ObbBatch(kNext), &response);
  EXPECT_TRUE(next.ok()) << next.error_message();
  EXPECT_EQ(calls, 2);
  EXPECT_TRUE(seen_cancelled) << "the server never saw the cancellation";
  grpc::ClientContext info_context;
  v1::ServerInfo info;
  ASSERT_TRUE(t.stub->GetServerInfo(&info_context, v1::GetServerInfoRequest(), &info).ok());
  EXPECT_EQ(info.items_served(), kNext) << "the cancelled batch was served";
}

}  // namespace
}  // namespace collide::server
