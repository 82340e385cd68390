// The audit trail's JSON printer (record/json_line.h) against protobuf's
// JSON parser: every line reads back equal to the record it printed, for
// records with every kind of field the audit trail holds and the awkward
// values (NaN, infinities, 64-bit integers past 2^53, escapes, unknown
// enum values, empty messages, oneofs).
#include "record/json_line.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "collide/v1/world.pb.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/message_differencer.h"

namespace collide::record {
namespace {

// Parses `json` back and expects it equal to `message` (NaN equal to NaN).
template <typename M>
void ExpectReadsBack(const M& message) {
  std::string json;
  AppendJson(message, json);
  EXPECT_EQ(json.find('\n'), std::string::npos) << json;
  M parsed;
  const auto status = google::protobuf::util::JsonStringToMessage(json, &parsed);
  ASSERT_TRUE(status.ok()) << status.ToString() << "\n" << json;
  google::protobuf::util::MessageDifferencer differ;
  differ.set_float_comparison(google::protobuf::util::MessageDifferencer::EXACT);
  google::protobuf::util::DefaultFieldComparator comparator;
  comparator.set_treat_nan_as_equal(true);
  differ.set_field_comparator(&comparator);
  std::string report;
  differ.ReportDifferencesToString(&report);
  const bool equal = differ.Compare(message, parsed);
  EXPECT_TRUE(equal) << report << "\n" << json << "\n" << parsed.DebugString();
}

TEST(JsonLineTest, AwkwardValuesReadBackEqual) {
  v1::AuditRecord record;
  record.set_world_id("w \"quoted\" \\ back\nslash\t\x01 é");
  record.set_unix_micros(std::numeric_limits<std::int64_t>::max());
  record.set_latest_tick(-(std::int64_t{1} << 60) - 1);
  record.set_call("ValidateShots");
  record.set_index(-7);
  record.set_batch_micros(1e-7);  // Not -0: JSON parsers read "-0" as the integer 0.
  v1::ShotAudit* shot = record.mutable_shot();
  shot->mutable_shot()->set_shooter_id(3);
  shot->mutable_shot()->mutable_origin()->set_x(std::numeric_limits<double>::quiet_NaN());
  shot->mutable_shot()->mutable_origin()->set_y(std::numeric_limits<double>::infinity());
  shot->mutable_shot()->mutable_origin()->set_z(-std::numeric_limits<double>::infinity());
  shot->mutable_shot()->mutable_direction()->set_x(0.1 + 0.2);
  shot->mutable_shot()->mutable_direction()->set_y(std::numeric_limits<double>::denorm_min());
  shot->mutable_shot()->mutable_direction()->set_z(1e300);
  shot->mutable_verdict()->set_code(static_cast<v1::ShotCode>(77));  // unknown: printed as its number.
  shot->mutable_verdict()->set_rewound_across_teleport(true);
  v1::ItemViolation* violation = shot->mutable_verdict()->add_violations();
  violation->set_field("direction");
  violation->set_description("must not be zero");
  shot->mutable_verdict()->add_violations();  // An empty message in a list.
  ExpectReadsBack(record);
  ExpectReadsBack(v1::AuditRecord());
}

TEST(JsonLineTest, RandomRecordsReadBackEqualAndMatchProtobufsMapping) {
  std::mt19937_64 rng(36);
  std::uniform_real_distribution<double> real(-1e4, 1e4);
  for (int i = 0; i < 500; ++i) {
    v1::AuditRecord record;
    record.set_world_id("match-" + std::to_string(i));
    record.set_unix_micros(static_cast<std::int64_t>(rng() >> 1));
    record.set_latest_tick(static_cast<std::int64_t>(rng() % 100000));
    record.set_index(static_cast<int>(rng() % 64));
    record.set_batch_micros(real(rng));
    if (i % 2 == 0) {
      record.set_call("ValidateMoves");
      v1::MoveAudit* move = record.mutable_move();
      move->mutable_move()->set_body_id(static_cast<std::int64_t>(rng() % 64));
      move->mutable_move()->mutable_to()->set_x(real(rng));
      move->mutable_move()->set_elapsed(1.0 / 64);
      move->mutable_move()->set_slide(rng() % 2 == 0);
      move->mutable_verdict()->set_code(static_cast<v1::MoveCode>(rng() % 4));
      move->mutable_verdict()->set_speed(real(rng));
      move->mutable_verdict()->mutable_allowed_position()->set_z(real(rng));
    } else {
      record.set_call("ValidateShotsPacked");
      v1::ShotAudit* shot = record.mutable_shot();
      shot->mutable_shot()->set_shooter_id(static_cast<std::int64_t>(rng() % 64));
      shot->mutable_shot()->mutable_direction()->set_y(real(rng));
      shot->mutable_shot()->mutable_at()->set_tick(static_cast<std::int64_t>(rng() % 1000));
      shot->mutable_shot()->mutable_at()->set_fraction(real(rng) / 1e4);
      shot->mutable_verdict()->set_code(static_cast<v1::ShotCode>(rng() % 12));
      shot->mutable_verdict()->mutable_first_hit()->set_distance(real(rng));
    }
    record.set_dropped_before(static_cast<std::int64_t>(rng() % 3));
    ExpectReadsBack(record);
    // protobuf's own printer gives a line that reads back to the same record.
    std::string theirs;
    ASSERT_TRUE(google::protobuf::util::MessageToJsonString(record, &theirs).ok());
    v1::AuditRecord from_theirs, from_ours;
    std::string ours;
    AppendJson(record, ours);
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(theirs, &from_theirs).ok());
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(ours, &from_ours).ok());
    EXPECT_EQ(from_theirs.SerializeAsString(), from_ours.SerializeAsString()) << ours << "\n" << theirs;
  }
}

}  // namespace
}  // namespace collide::record
