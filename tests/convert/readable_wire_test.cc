// convert/readable_wire.h: the fast path decodes what protobuf encoders write
// exactly as protobuf + Decode do, declines everything else, and the response
// bytes equal protobuf's serialization of Encode's message.
#include "convert/readable_wire.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "convert/requests.h"
#include "convert/results.h"
#include "convert/shapes.h"
#include "support/random_shapes.h"

namespace collide::convert {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

constexpr ShapeKind kWireKinds[] = {ShapeKind::kPoint,    ShapeKind::kSegment,  ShapeKind::kSphere,
                                    ShapeKind::kCapsule,  ShapeKind::kAabb,     ShapeKind::kObb,
                                    ShapeKind::kTriangle, ShapeKind::kHalfspace};

std::span<const std::uint8_t> Bytes(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

// Same kind and the same bits in every number (no hulls here, so every
// alternative is plain doubles).
bool SameBits(const Shape& x, const Shape& y) {
  if (x.index() != y.index()) return false;
  return std::visit(
      [&y](const auto& a) {
        using T = std::decay_t<decltype(a)>;
        if constexpr (std::is_same_v<T, ConvexHull>) {
          return false;
        } else {
          return std::memcmp(&a, &std::get<T>(y), sizeof(T)) == 0;
        }
      },
      x);
}

// Decode of the protobuf-parsed bytes, the reference.
PairBatch Reference(const std::string& bytes) {
  v1::QueryPairsRequest parsed;
  EXPECT_TRUE(parsed.ParseFromString(bytes));
  PairBatch batch;
  ViolationList violations;
  EXPECT_TRUE(Decode(parsed, batch, violations));
  return batch;
}

void ExpectSameBatch(const PairBatch& wire, const PairBatch& reference) {
  EXPECT_EQ(wire.level, reference.level);
  ASSERT_EQ(wire.size(), reference.size());
  for (std::size_t i = 0; i < wire.size(); ++i) {
    EXPECT_TRUE(SameBits(wire.a[i], reference.a[i])) << "pair " << i << " a";
    EXPECT_TRUE(SameBits(wire.b[i], reference.b[i])) << "pair " << i << " b";
  }
}

v1::QueryPairsRequest RandomRequest(std::uint64_t seed, int pairs) {
  testing::ShapeFactory factory(seed);
  std::mt19937_64 rng(seed);
  v1::QueryPairsRequest request;
  request.set_level(static_cast<v1::QueryLevel>(1 + rng() % 3));
  for (int i = 0; i < pairs; ++i) {
    v1::ShapePair* pair = request.add_pairs();
    ToProto(factory.Make(kWireKinds[rng() % std::size(kWireKinds)]), pair->mutable_a());
    ToProto(factory.Make(kWireKinds[rng() % std::size(kWireKinds)]), pair->mutable_b());
  }
  return request;
}

TEST(ReadableWireTest, DecodesRandomRequestsAsProtobufAndDecodeDo) {
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    const std::string bytes = RandomRequest(seed, 200).SerializeAsString();
    PairBatch wire;
    ASSERT_TRUE(DecodeQueryPairsWire(Bytes(bytes), 65536, wire)) << "seed " << seed;
    ExpectSameBatch(wire, Reference(bytes));
  }
}

TEST(ReadableWireTest, DecodesDegenerateTinyAndUnsetFieldsAsProtobufDoes) {
  testing::ShapeFactory factory(7);
  v1::QueryPairsRequest request;
  request.set_level(v1::QUERY_LEVEL_CONTACT);
  for (const ShapeKind kind : kWireKinds) {
    v1::ShapePair* pair = request.add_pairs();
    ToProto(factory.MakeDegenerate(kind), pair->mutable_a());
    ToProto(factory.Make(kind), pair->mutable_b());
  }
  // Unset fields read as zero; an unset rotation is the identity; numbers
  // below 1e-50 flush to zero, -0.0 stays.
  v1::ShapePair* pair = request.add_pairs();
  pair->mutable_a()->mutable_obb()->mutable_half_extents()->set_x(1);
  pair->mutable_b()->mutable_sphere()->set_radius(1e-300);
  pair = request.add_pairs();
  pair->mutable_a()->mutable_point();
  pair->mutable_b()->mutable_capsule()->mutable_a()->set_x(-0.0);
  const std::string bytes = request.SerializeAsString();
  PairBatch wire;
  ASSERT_TRUE(DecodeQueryPairsWire(Bytes(bytes), 65536, wire));
  ExpectSameBatch(wire, Reference(bytes));
  EXPECT_EQ(std::get<Obb>(wire.a[wire.size() - 2]).rotation, Mat3{});
}

TEST(ReadableWireTest, RepeatedScalarsKeepTheLastValueAsProtobufDoes) {
  v1::QueryPairsRequest request;
  request.set_level(v1::QUERY_LEVEL_DISTANCE);
  v1::Sphere* sphere = request.add_pairs()->mutable_a()->mutable_sphere();
  sphere->set_radius(1);
  request.mutable_pairs(0)->mutable_b()->mutable_point();
  std::string bytes = request.SerializeAsString();
  // Append a second level (CONTACT) after the pairs: the last one wins.
  bytes += std::string("\x08\x03", 2);
  PairBatch wire;
  ASSERT_TRUE(DecodeQueryPairsWire(Bytes(bytes), 65536, wire));
  ExpectSameBatch(wire, Reference(bytes));
  EXPECT_EQ(wire.level, QueryLevel::kContact);
}

// A pair's a and b fields, each a Shape holding an unset Point.
const std::string kPointA("\x0a\x02\x0a\x00", 4);
const std::string kPointB("\x12\x02\x0a\x00", 4);

// A CONTACT request of the one pair whose fields are `pair`.
std::string OnePair(const std::string& pair) {
  return std::string("\x08\x03\x12", 3) + static_cast<char>(pair.size()) + pair;
}

TEST(ReadableWireTest, AcceptsTheCanonicalHandWrittenPair) {
  const std::string bytes = OnePair(kPointA + kPointB);
  PairBatch wire;
  ASSERT_TRUE(DecodeQueryPairsWire(Bytes(bytes), 65536, wire));
  ExpectSameBatch(wire, Reference(bytes));
}

// Requests the fast path must decline (the caller then uses protobuf).
std::vector<std::pair<std::string, std::string>> DeclinedRequests() {
  std::vector<std::pair<std::string, std::string>> cases;
  const v1::QueryPairsRequest good = RandomRequest(3, 4);
  const auto with = [&](const std::string& name, auto edit) {
    v1::QueryPairsRequest r = good;
    edit(r);
    cases.emplace_back(name, r.SerializeAsString());
  };
  with("no level", [](v1::QueryPairsRequest& r) { r.clear_level(); });
  with("unknown level", [](v1::QueryPairsRequest& r) { r.set_level(static_cast<v1::QueryLevel>(7)); });
  with("no pairs", [](v1::QueryPairsRequest& r) { r.clear_pairs(); });
  with("unset shape", [](v1::QueryPairsRequest& r) { r.mutable_pairs(1)->mutable_b()->Clear(); });
  with("unset pair side", [](v1::QueryPairsRequest& r) { r.mutable_pairs(2)->clear_a(); });
  with("negative radius",
       [](v1::QueryPairsRequest& r) { r.mutable_pairs(0)->mutable_a()->mutable_sphere()->set_radius(-1); });
  with("NaN", [](v1::QueryPairsRequest& r) {
    r.mutable_pairs(3)->mutable_b()->mutable_point()->mutable_position()->set_y(kNaN);
  });
  with("non-unit rotation", [](v1::QueryPairsRequest& r) {
    r.mutable_pairs(0)->mutable_a()->mutable_obb()->mutable_rotation()->set_w(2);
  });
  with("convex hull", [](v1::QueryPairsRequest& r) {
    testing::ShapeFactory factory(5);
    ToProto(factory.Make(ShapeKind::kConvexHull), r.mutable_pairs(0)->mutable_b());
  });
  const std::string bytes = good.SerializeAsString();
  cases.emplace_back("unknown field", bytes + std::string("\x18\x01", 2));  // Field 3, varint 1.
  cases.emplace_back("truncated", bytes.substr(0, bytes.size() - 3));
  cases.emplace_back("garbage after the pairs", bytes + std::string("\xff\xff", 2));
  // Hand-written pairs (the canonical one is accepted: see the next test).
  cases.emplace_back("a twice (protobuf merges them)", OnePair(kPointA + kPointA + kPointB));
  cases.emplace_back("two oneof members (the last wins)",
                     OnePair(std::string("\x0a\x04\x0a\x00\x1a\x00", 6) + kPointB));
  // Vec3.x as a varint: protobuf keeps it as an unknown field.
  cases.emplace_back("wrong wire type",
                     OnePair(std::string("\x0a\x06\x0a\x04\x0a\x02\x08\x01", 8) + kPointB));
  // Tag 1 of the pair written in two bytes (0x8a 0x00): valid, not canonical.
  cases.emplace_back("two-byte tag", OnePair(std::string("\x8a\x00\x02\x0a\x00", 5) + kPointB));
  return cases;
}

TEST(ReadableWireTest, DeclinesEverythingOutsideTheCommonForm) {
  for (const auto& [name, bytes] : DeclinedRequests()) {
    PairBatch wire;
    EXPECT_FALSE(DecodeQueryPairsWire(Bytes(bytes), 65536, wire)) << name;
  }
}

TEST(ReadableWireTest, DeclinesMorePairsThanTheLimit) {
  const std::string bytes = RandomRequest(9, 10).SerializeAsString();
  PairBatch wire;
  EXPECT_TRUE(DecodeQueryPairsWire(Bytes(bytes), 10, wire));
  EXPECT_FALSE(DecodeQueryPairsWire(Bytes(bytes), 9, wire));
}

TEST(ReadableWireTest, EveryPrefixOfARequestIsDeclinedOrDecodedAsProtobufDoes) {
  const std::string bytes = RandomRequest(11, 6).SerializeAsString();
  for (std::size_t n = 0; n <= bytes.size(); ++n) {
    const std::string prefix = bytes.substr(0, n);
    PairBatch wire;
    if (!DecodeQueryPairsWire(Bytes(prefix), 65536, wire)) continue;
    // Accepted: it must be a whole request protobuf reads the same way.
    ExpectSameBatch(wire, Reference(prefix));
  }
}

PairResult RandomResult(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-3, 3);
  const auto number = [&]() -> double {
    switch (rng() % 5) {
      case 0:
        return 0.0;
      case 1:
        return -0.0;
      default:
        return u(rng);
    }
  };
  const auto vec = [&]() -> Vec3 { return rng() % 4 == 0 ? Vec3{} : Vec3{number(), number(), number()}; };
  PairResult r;
  r.status = rng() % 5 == 0 ? QueryStatus::kNotConverged : QueryStatus::kOk;
  r.hit = rng() % 2 == 0;
  r.distance = number();
  r.point_a = vec();
  r.point_b = vec();
  r.normal = vec();
  return r;
}

TEST(ReadableWireTest, ResponseBytesEqualProtobufsSerialization) {
  std::mt19937_64 rng(5);
  for (const int n : {0, 1, 2, 100, 5000}) {
    std::vector<PairResult> results;
    for (int i = 0; i < n; ++i) results.push_back(RandomResult(rng));
    v1::QueryPairsResponse message;
    Encode(results, &message);
    std::string wire = "stale";
    EncodeQueryPairsResponseWire(results, wire);
    EXPECT_EQ(wire, message.SerializeAsString()) << n << " results";
  }
}

}  // namespace
}  // namespace collide::convert
