// The CollisionService end to end, in process, over a real loopback channel:
// every RPC in both encodings against the core library called directly (bit
// for bit), independence from thread count and batch split, GetServerInfo.
#include "tests/server/service_test_util.h"

namespace collide::server {
namespace {

using namespace ::collide::server::testing;  // NOLINT: the helpers of service_test_util.h

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

}  // namespace
}  // namespace collide::server
