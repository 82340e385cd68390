// Packed shots (world.proto ValidateShotsPackedRequest) <-> core shots: every
// field the packed form carries survives the trip, only INT64_MIN means the
// latest frame, and malformed optional arrays are named.
#include <gtest/gtest.h>

#include <limits>

#include "convert/world_packed.h"
#include "convert/world_encode.h"

namespace collide::convert {
namespace {

std::vector<ShotRequest> Shots() {
  ShotRequest a;
  a.shooter = 1;
  a.origin = {1, 2, 3};
  a.direction = {0, 1, 0};
  a.max_range = 50;
  a.at = Time{-5, 0.25};  // a negative tick is a tick.
  a.claim = ShotClaim{7, 2};
  a.tolerance = 0.5;
  a.command_at = Time{-2, 0.0};
  a.expected_at = Time{-6, 0.0};
  a.max_skew_ticks = 1.5;
  a.mask = 6;
  a.ignored_bodies = {3, 4};
  ShotRequest b;  // the latest frame, no claim, no options.
  b.shooter = 2;
  b.direction = {1, 0, 0};
  ShotRequest c = a;
  c.ignored_bodies = {9};
  c.command_at.reset();
  return {a, b, c};
}

void ExpectSame(const ShotRequest& got, const ShotRequest& want) {
  EXPECT_EQ(got.shooter, want.shooter);
  EXPECT_EQ(got.origin, want.origin);
  EXPECT_EQ(got.direction, want.direction);
  EXPECT_EQ(got.max_range, want.max_range);
  EXPECT_EQ(got.at, want.at);
  EXPECT_EQ(got.claim.has_value(), want.claim.has_value());
  if (got.claim && want.claim) EXPECT_EQ(got.claim->body, want.claim->body);
  EXPECT_EQ(got.tolerance, want.tolerance);
  EXPECT_EQ(got.command_at, want.command_at);
  EXPECT_EQ(got.expected_at, want.expected_at);
  EXPECT_EQ(got.max_skew_ticks, want.max_skew_ticks);
  EXPECT_EQ(got.mask, want.mask);
  EXPECT_EQ(got.ignored_bodies, want.ignored_bodies);
}

TEST(WorldPackedTest, ShotsRoundTripWithEveryOption) {
  const std::vector<ShotRequest> shots = Shots();
  v1::ValidateShotsPackedRequest packed;
  EncodePacked(shots, &packed);
  EXPECT_EQ(packed.ticks(1), kPackedLatestTick);
  EXPECT_EQ(packed.ignore_counts_size(), 3);
  ViolationList violations;
  std::vector<ShotRequest> decoded;
  ASSERT_TRUE(DecodePacked(packed, decoded, violations));
  ASSERT_EQ(decoded.size(), shots.size());
  for (std::size_t i = 0; i < shots.size(); ++i) {
    SCOPED_TRACE(i);
    ExpectSame(decoded[i], shots[i]);
  }
  // Without options the optional arrays stay empty.
  v1::ValidateShotsPackedRequest plain;
  EncodePacked(std::vector<ShotRequest>{shots[1]}, &plain);
  EXPECT_EQ(plain.command_ticks_size() + plain.expected_ticks_size() + plain.category_masks_size() +
                plain.ignore_counts_size(),
            0);
}

TEST(WorldPackedTest, MalformedOptionalArraysAreNamed) {
  v1::ValidateShotsPackedRequest packed;
  EncodePacked(Shots(), &packed);
  const auto paths = [](const v1::ValidateShotsPackedRequest& request) {
    ViolationList violations;
    std::vector<ShotRequest> out;
    EXPECT_FALSE(DecodePacked(request, out, violations));
    std::vector<std::string> fields;
    for (const auto& v : violations.kept()) fields.push_back(v.field);
    return fields;
  };
  v1::ValidateShotsPackedRequest short_masks = packed;
  short_masks.mutable_category_masks()->RemoveLast();
  EXPECT_EQ(paths(short_masks), std::vector<std::string>{"category_masks"});
  v1::ValidateShotsPackedRequest extra_id = packed;
  extra_id.add_ignore_body_ids(5);
  EXPECT_EQ(paths(extra_id), std::vector<std::string>{"ignore_body_ids"});
  v1::ValidateShotsPackedRequest negative = packed;
  negative.set_ignore_counts(1, -1);
  EXPECT_EQ(paths(negative), std::vector<std::string>{"ignore_counts[1]"});
}

}  // namespace
}  // namespace collide::convert
