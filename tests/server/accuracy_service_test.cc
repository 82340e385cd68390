// The accuracy contract of issue 14 (support/accuracy_contract.h) through the
// service, in both encodings: a few cases of every class and order of
// support/accuracy_cases.h sent as readable QueryPairs and as packed
// QueryPairsPacked, each answer bit for bit the core's and within the
// contract against the binary128 reference. The encodings carry doubles exactly, so this guards the
// conversion and dispatch path, not new arithmetic.
#include <gtest/gtest.h>

#include <bit>
#include <string>
#include <vector>

#include "collide/query.h"
#include "convert/packed.h"
#include "convert/requests.h"
#include "convert/results.h"
#include "convert/shapes.h"
#include "support/accuracy_cases.h"
#include "support/accuracy_contract.h"
#include "support/exact_reference.h"
#include "tests/server/test_server.h"

namespace collide::server {
namespace {

using ::collide::server::testing::TestServer;
using collide::testing::AccuracyCase;
using collide::testing::AccuracyClass;

struct ClassSet {
  AccuracyClass cls;
  ShapeKind box_kind;
  bool swapped;
  const char* name;
};
constexpr ClassSet kSets[] = {
    {AccuracyClass::kBoxBoxParallelEdges, ShapeKind::kObb, false, "obb-obb parallel edges"},
    {AccuracyClass::kBoxBoxParallelEdges, ShapeKind::kAabb, true, "obb-aabb parallel edges"},
    {AccuracyClass::kTriangleBoxParallelFace, ShapeKind::kObb, false, "obb-triangle parallel face"},
    {AccuracyClass::kTriangleBoxParallelFace, ShapeKind::kAabb, true, "triangle-aabb parallel face"},
    {AccuracyClass::kTriangleBoxThin, ShapeKind::kAabb, false, "aabb-triangle thin"},
    {AccuracyClass::kTriangleBoxThin, ShapeKind::kObb, true, "triangle-obb thin"},
    {AccuracyClass::kSphereTriangleThin, ShapeKind::kSphere, false, "sphere-triangle thin"},
    {AccuracyClass::kSphereTriangleThin, ShapeKind::kSphere, true, "triangle-sphere thin"},
};
constexpr QueryLevel kLevels[] = {QueryLevel::kIntersect, QueryLevel::kDistance, QueryLevel::kContact};

bool BitEqual(const PairResult& p, const PairResult& q) {
  const auto b = [](double v) { return std::bit_cast<std::uint64_t>(v); };
  const auto v = [&](const Vec3& x, const Vec3& y) {
    return b(x.x) == b(y.x) && b(x.y) == b(y.y) && b(x.z) == b(y.z);
  };
  return p.status == q.status && p.hit == q.hit && b(p.distance) == b(q.distance) &&
         v(p.point_a, q.point_a) && v(p.point_b, q.point_b) && v(p.normal, q.normal);
}

// Checks the service's answers for the cases at `level` (packed INTERSECT
// carries only the hit).
void Check(const ClassSet& set, const std::vector<AccuracyCase>& cases, QueryLevel level,
           const std::vector<PairResult>& answers, const char* encoding) {
  ASSERT_EQ(answers.size(), cases.size());
  for (size_t k = 0; k < cases.size(); ++k) {
    const std::string what = std::string(set.name) + " #" + std::to_string(k) + " " + encoding;
    const PairResult core = Query(level, cases[k].a, cases[k].b);
    if (level == QueryLevel::kIntersect && std::string(encoding) == "packed") {
      EXPECT_EQ(answers[k].hit, core.hit) << what;
    } else {
      EXPECT_TRUE(BitEqual(answers[k], core)) << what;
    }
    collide::testing::AccuracyWorst w;
    const double exact = collide::testing::ExactSignedDistance(cases[k].a, cases[k].b);
    for (const std::string& bad : collide::testing::ContractViolations(
             cases[k], level, core, exact, collide::testing::AccuracyTolerance(cases[k]), w))
      ADD_FAILURE() << what << ": " << bad;
  }
}

TEST(AccuracyServiceTest, HardCasesKeepTheContractInBothEncodings) {
  TestServer t;
  for (const ClassSet& set : kSets) {
    const std::vector<AccuracyCase> cases =
        collide::testing::MakeAccuracyCases(set.cls, set.box_kind, set.swapped, 6, 1400 + (&set - kSets));
    for (const QueryLevel level : kLevels) {
      // Readable.
      v1::QueryPairsRequest readable;
      readable.set_level(convert::ToProto(level));
      for (const AccuracyCase& c : cases) {
        v1::ShapePair* pair = readable.add_pairs();
        convert::ToProto(c.a, pair->mutable_a());
        convert::ToProto(c.b, pair->mutable_b());
      }
      v1::QueryPairsResponse response;
      grpc::ClientContext context;
      const grpc::Status status = t.stub->QueryPairs(&context, readable, &response);
      ASSERT_TRUE(status.ok()) << set.name << ": " << status.error_message();
      std::vector<PairResult> answers;
      for (const v1::PairResult& r : response.results()) answers.push_back(convert::FromProto(r));
      // The shapes as the server decodes them (an OBB travels as a
      // quaternion, so its matrix is rebuilt): the contract is on those.
      std::vector<AccuracyCase> seen;
      convert::DecodeArena arena;
      std::vector<Violation> violations;
      for (const v1::ShapePair& pair : readable.pairs()) {
        AccuracyCase c;
        ASSERT_TRUE(convert::FromProto(pair.a(), c.a, arena, violations));
        ASSERT_TRUE(convert::FromProto(pair.b(), c.b, arena, violations));
        seen.push_back(c);
      }
      Check(set, seen, level, answers, "readable");
      // Packed.
      std::vector<Shape> a, b;
      for (const AccuracyCase& c : cases) a.push_back(c.a), b.push_back(c.b);
      v1::QueryPairsPackedRequest packed;
      packed.set_level(convert::ToProto(level));
      ASSERT_TRUE(convert::PackShapes(a, packed.mutable_a()));
      ASSERT_TRUE(convert::PackShapes(b, packed.mutable_b()));
      v1::QueryPairsPackedResponse packed_response;
      grpc::ClientContext packed_context;
      const grpc::Status packed_status = t.stub->QueryPairsPacked(&packed_context, packed, &packed_response);
      ASSERT_TRUE(packed_status.ok()) << set.name << ": " << packed_status.error_message();
      std::vector<PairResult> packed_answers;
      ASSERT_TRUE(convert::DecodePacked(packed_response, a.size(), packed_answers));
      convert::PairBatch batch;
      convert::ViolationList packed_violations;
      ASSERT_TRUE(convert::Decode(packed, batch, packed_violations));
      std::vector<AccuracyCase> packed_seen;
      for (size_t k = 0; k < a.size(); ++k) packed_seen.push_back({batch.a[k], batch.b[k]});
      Check(set, packed_seen, level, packed_answers, "packed");
    }
  }
}

}  // namespace
}  // namespace collide::server
