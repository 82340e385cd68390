// What the CollisionService tests (service_*_test.cc) share: an in-process
// server (test_server.h), the shape kinds and levels, bit-for-bit equality
// with the core, random request pairs, one good request per kind and a call
// helper.
#ifndef COLLIDE_TESTS_SERVER_SERVICE_TEST_UTIL_H_
#define COLLIDE_TESTS_SERVER_SERVICE_TEST_UTIL_H_

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
#include "collide/version.h"
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

namespace collide::server::testing {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr ShapeKind kAllKinds[] = {
    ShapeKind::kPoint, ShapeKind::kSegment,  ShapeKind::kSphere,     ShapeKind::kCapsule,  ShapeKind::kAabb,
    ShapeKind::kObb,   ShapeKind::kTriangle, ShapeKind::kConvexHull, ShapeKind::kHalfspace};
constexpr QueryLevel kAllLevels[] = {QueryLevel::kIntersect, QueryLevel::kDistance, QueryLevel::kContact};

// Bit-for-bit equality of results (doubles compared as bits, so -0.0 != 0.0
// and NaN == NaN).
inline void ExpectBitEqual(const PairResult& expected, const PairResult& actual, const std::string& what) {
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

inline void ExpectBitEqual(const RayHit& expected, const RayHit& actual, const std::string& what) {
  ExpectBitEqual(
      PairResult{expected.status, expected.hit, expected.distance, expected.point, {}, expected.normal},
      PairResult{actual.status, actual.hit, actual.distance, actual.point, {}, actual.normal}, what);
}

// Random supported pairs of every kind pair, `per_pair` each, as a readable
// request, and the core's results for them.
inline v1::QueryPairsRequest RandomPairs(QueryLevel level, int per_pair, std::uint64_t seed,
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

// A valid request with one pair per shape kind (a of that kind, b a sphere)
// and every Obb rotation set explicitly.
inline v1::QueryPairsRequest OnePairPerKind() {
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
inline void ExpectStillServing(TestServer& t) {
  const grpc::Status status = Call(t, &v1::CollisionService::Stub::QueryPairs, OnePairPerKind());
  EXPECT_TRUE(status.ok()) << status.error_message();
}

// n packed OBB contact pairs of ShapeFactory(seed).
inline v1::QueryPairsPackedRequest ObbPairs(int n, std::uint64_t seed) {
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

}  // namespace collide::server::testing

#endif  // COLLIDE_TESTS_SERVER_SERVICE_TEST_UTIL_H_
