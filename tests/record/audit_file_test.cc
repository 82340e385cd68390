// The binary audit trail (record/audit_file.h) and the server's writer
// (server/audit_log.h) without a server: AppendAuditBatch's bytes are
// protobuf's serialization of the same AuditBatch; the same verdicts
// written as binary and as JSON Lines read back to identical lines; a file
// cut short, damaged or not binary is an error naming the file and the byte
// offset, after every whole record before it.
#include "record/audit_file.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "collide/v1/world.pb.h"
#include "convert/world_encode.h"
#include "record/json_line.h"
#include "server/audit_log.h"

namespace collide::record {
namespace {

std::string FreshDir() {
  const std::string dir = (std::filesystem::temp_directory_path() /
                           ("collide-audit-file-" + std::to_string(::getpid()) + "-" +
                            std::to_string(std::chrono::steady_clock::now().time_since_epoch().count())))
                              .string();
  std::filesystem::create_directories(dir);
  return dir;
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void WriteAll(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = text.find('\n', at);
    lines.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return lines;
}

// The file's records as JSON lines, and how reading it ended.
struct Read {
  std::vector<std::string> lines;
  absl::Status status;
};
Read ReadLines(const std::string& path) {
  Read read;
  read.status = ReadAuditFile(path, [&](const v1::AuditRecord& record) {
    std::string line;
    AppendJson(record, line);
    read.lines.push_back(line);
  });
  return read;
}

// A judged Tick message's verdict parts, with the fields a verdict carries
// (awkward values included: a NaN, a negative index-free id, an explanation).
void Verdicts(int n, v1::TickRequest& in, v1::TickResponse& out) {
  std::vector<ShotRequest> packed;
  for (int i = 0; i < n; ++i) {
    ShotRequest s;
    s.shooter = i + 1;
    s.origin = {1.5 * i, -2, 0.1};
    s.direction = {1, 0.25, -1e-300};
    s.at = Time{100 + i, 0.375};
    s.claim = ShotClaim{i + 2, i % 3};
    s.tolerance = 0.25;
    convert::ToProto(s, in.mutable_shots()->add_shots());
    packed.push_back(s);
    v1::ShotVerdict* v = out.mutable_shots()->add_verdicts();
    v->set_code(i % 2 == 0 ? v1::SHOT_CODE_CONFIRMED : v1::SHOT_CODE_MISSED);
    v->set_claimed_miss_distance(i == 1 ? std::numeric_limits<double>::quiet_NaN() : 0.4 * i);
    v->mutable_first_hit()->mutable_point()->set_x(-3.25);
    v->mutable_time()->mutable_at()->set_tick(100 + i);
    if (i == 0) v->mutable_explanation()->set_nearest_claimed_distance(1e17);
    *out.mutable_shots_packed()->add_verdicts() = *v;
    v1::Move* m = in.mutable_moves()->add_moves();
    m->set_body_id(-(i + 1));
    m->mutable_to()->set_z(2.5 * i);
    m->set_elapsed(1.0 / 64);
    m->set_slide(i % 2 == 1);
    v1::MoveVerdict* mv = out.mutable_moves()->add_verdicts();
    mv->set_code(v1::MOVE_CODE_OK);
    mv->mutable_allowed_position()->set_y(1.0 / 3);
    mv->set_grounded(true);
  }
  convert::EncodePacked(packed, in.mutable_shots_packed());
}

TEST(AuditFileTest, AppendAuditBatchIsTheMessageSerialized) {
  v1::TickRequest in;
  v1::TickResponse out;
  Verdicts(5, in, out);
  for (const AuditBatchHead& head :
       {AuditBatchHead{"match-1", 1764720000123456, 4242, "ValidateShots", 812.5},
        AuditBatchHead{"", 0, 0, "", 0}, AuditBatchHead{"w", -1, -7, "ValidateMoves", -0.0}}) {
    for (const AuditItem item : {AuditItem::kShot, AuditItem::kMove}) {
      std::string ours;
      const bool shot = item == AuditItem::kShot;
      AppendAuditBatch(
          head, item, 5,
          [&](int i) -> const google::protobuf::MessageLite& {
            return shot ? static_cast<const google::protobuf::MessageLite&>(in.shots().shots(i))
                        : in.moves().moves(i);
          },
          [&](int i) -> const google::protobuf::MessageLite& {
            return shot ? static_cast<const google::protobuf::MessageLite&>(out.shots().verdicts(i))
                        : out.moves().verdicts(i);
          },
          ours);
      v1::AuditBatch batch;
      batch.set_world_id(std::string(head.world_id));
      batch.set_unix_micros(head.unix_micros);
      batch.set_latest_tick(head.latest_tick);
      batch.set_call(std::string(head.call));
      batch.set_batch_micros(head.batch_micros);
      for (int i = 0; i < 5; ++i) {
        if (shot) {
          *batch.add_shots()->mutable_shot() = in.shots().shots(i);
          *batch.mutable_shots(i)->mutable_verdict() = out.shots().verdicts(i);
        } else {
          *batch.add_moves()->mutable_move() = in.moves().moves(i);
          *batch.mutable_moves(i)->mutable_verdict() = out.moves().verdicts(i);
        }
      }
      const std::string message = batch.SerializeAsString();
      std::size_t offset = 0;
      absl::StatusOr<std::string_view> framed = NextAuditBatch(ours, offset);
      ASSERT_TRUE(framed.ok()) << framed.status();
      EXPECT_EQ(offset, ours.size());
      EXPECT_EQ(std::string(*framed), message) << head.world_id;
    }
  }
  std::string none;
  AppendAuditBatch(
      {"w"}, AuditItem::kShot, 0, [&](int) -> const google::protobuf::MessageLite& { return in; },
      [&](int) -> const google::protobuf::MessageLite& { return out; }, none);
  EXPECT_EQ(none, "");
}

// The same verdicts through the server's writer as binary and as JSON Lines:
// the binary file read back prints the JSON file, line for line.
TEST(AuditFileTest, BinaryTrailReadsBackAsTheJsonTrail) {
  const std::string dir = FreshDir();
  std::size_t verdicts = 0;
  {
    server::AuditLog log;
    auto binary = log.OpenTrail(dir, "match-7", server::AuditFormat::kBinary, 64 << 20, 8);
    auto jsonl = log.OpenTrail(dir, "match-7", server::AuditFormat::kJsonl, 64 << 20, 8);
    ASSERT_TRUE(binary.ok() && jsonl.ok());
    for (int batch = 0; batch < 20; ++batch) {
      v1::TickRequest in;
      v1::TickResponse out;
      Verdicts(1 + batch % 6, in, out);
      std::string bytes;
      const std::size_t n = server::AppendAuditBatches(
          {.world_id = "match-7", .unix_micros = 1764720000000000 + batch, .latest_tick = 10 + batch}, in,
          out, {.shots = 10.5, .shots_packed = 20.25, .moves = 0}, bytes);
      EXPECT_EQ(n, 3u * (1 + batch % 6));
      verdicts += n;
      log.Submit({.trail = *binary, .verdicts = n, .bytes = bytes});
      log.Submit({.trail = *jsonl, .verdicts = n, .bytes = bytes});
    }
  }  // The writer has written everything queued.
  const std::vector<std::string> json = Lines(ReadAll(dir + "/match-7.audit.jsonl"));
  ASSERT_EQ(json.size(), verdicts);
  const std::string bin = ReadAll(dir + "/match-7.audit.bin");
  EXPECT_TRUE(bin.starts_with(kAuditFileHeader));
  EXPECT_LT(bin.size() * 2, ReadAll(dir + "/match-7.audit.jsonl").size());
  const Read read = ReadLines(dir + "/match-7.audit.bin");
  ASSERT_TRUE(read.status.ok()) << read.status;
  EXPECT_EQ(read.lines, json);
  EXPECT_NE(json[0].find(R"("call":"ValidateShots")"), std::string::npos) << json[0];
  EXPECT_NE(json[1].find(R"("call":"ValidateShotsPacked")"), std::string::npos) << json[1];
  EXPECT_NE(json[2].find(R"("call":"ValidateMoves")"), std::string::npos) << json[2];
  EXPECT_NE(std::find_if(json.begin(), json.end(),
                         [](const std::string& l) {
                           return l.find(R"("claimedMissDistance":"NaN")") != std::string::npos;
                         }),
            json.end());
  std::filesystem::remove_all(dir);
}

TEST(AuditFileTest, BinaryTrailRotatesWholeBatchesWithinItsBound) {
  const std::string dir = FreshDir();
  constexpr std::int64_t kMaxBytes = 4096;
  std::size_t verdicts = 0;
  {
    server::AuditLog log;
    auto trail = log.OpenTrail(dir, "r", server::AuditFormat::kBinary, kMaxBytes, 3);
    ASSERT_TRUE(trail.ok());
    for (int batch = 0; batch < 60; ++batch) {
      v1::TickRequest in;
      v1::TickResponse out;
      Verdicts(2, in, out);
      std::string bytes;
      const std::size_t n = server::AppendAuditBatches(
          {.world_id = "r", .unix_micros = 1, .latest_tick = batch}, in, out, {}, bytes);
      verdicts += n;
      log.Submit({.trail = *trail, .verdicts = n, .bytes = bytes});
    }
  }
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    files.push_back(entry.path().filename().string());
    EXPECT_LE(entry.file_size(), static_cast<std::uintmax_t>(kMaxBytes)) << entry.path();
  }
  std::sort(files.begin(), files.end());
  ASSERT_EQ(files, (std::vector<std::string>{"r.audit.bin", "r.audit.bin.1", "r.audit.bin.2"}));
  // Oldest first: whole files, the ticks in order, the newest kept.
  std::int64_t last_tick = -1, records = 0;
  for (const char* file : {"r.audit.bin.2", "r.audit.bin.1", "r.audit.bin"}) {
    const absl::Status read = ReadAuditFile(dir + "/" + file, [&](const v1::AuditRecord& record) {
      EXPECT_GE(record.latest_tick(), last_tick);
      last_tick = record.latest_tick();
      ++records;
    });
    EXPECT_TRUE(read.ok()) << read;
  }
  EXPECT_EQ(last_tick, 59);
  EXPECT_GT(records, 0);
  EXPECT_LT(records, static_cast<std::int64_t>(verdicts));  // The oldest files were removed.

  // The world created again under its id: the file with records is rotated,
  // the new one starts with its header.
  {
    server::AuditLog log;
    auto trail = log.OpenTrail(dir, "r", server::AuditFormat::kBinary, kMaxBytes, 3);
    ASSERT_TRUE(trail.ok());
  }
  EXPECT_EQ(ReadAll(dir + "/r.audit.bin"), kAuditFileHeader);
  EXPECT_TRUE(ReadLines(dir + "/r.audit.bin.1").status.ok());
  std::filesystem::remove_all(dir);
}

class DamagedFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FreshDir();
    file_ = std::string(kAuditFileHeader);
    for (int tick = 0; tick < 3; ++tick) {
      v1::TickRequest in;
      v1::TickResponse out;
      Verdicts(2, in, out);
      server::AppendAuditBatches({.world_id = "d", .latest_tick = tick}, in, out, {}, file_);
    }
    // Where each batch starts, and the records before it.
    std::int64_t records = 0;
    for (std::size_t offset = kAuditFileHeader.size(); offset < file_.size();) {
      starts_.push_back(offset);
      before_.push_back(records);
      absl::StatusOr<std::string_view> message = NextAuditBatch(file_, offset);
      ASSERT_TRUE(message.ok());
      v1::AuditBatch batch;
      ASSERT_TRUE(batch.ParseFromArray(message->data(), static_cast<int>(message->size())));
      records += batch.shots_size() + batch.moves_size();
    }
    ASSERT_EQ(records, 18);  // Three Tick messages of 2 shots, 2 packed shots, 2 moves.
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string dir_;
  std::string file_;
  std::vector<std::size_t> starts_;
  std::vector<std::int64_t> before_;
};

TEST_F(DamagedFileTest, ACutFileGivesItsWholeRecordsThenItsNameAndOffset) {
  const std::string path = dir_ + "/d.audit.bin";
  const std::size_t last = starts_.back();
  for (const std::size_t cut : {last + 1, last + 2, last + 40, file_.size() - 1}) {
    WriteAll(path, file_.substr(0, cut));
    const Read read = ReadLines(path);
    EXPECT_EQ(read.status.code(), absl::StatusCode::kDataLoss) << cut;
    EXPECT_EQ(static_cast<std::int64_t>(read.lines.size()), before_.back()) << cut;
    EXPECT_NE(read.status.message().find(path + ": truncated or damaged at byte " + std::to_string(last) +
                                         " after " + std::to_string(before_.back()) +
                                         " records: the file ends inside a batch"),
              std::string::npos)
        << read.status;
  }
  WriteAll(path, file_.substr(0, last));  // Cut between batches: whole.
  EXPECT_TRUE(ReadLines(path).status.ok());
}

TEST_F(DamagedFileTest, DamagedBytesAndOtherFilesAreErrorsNamingThem) {
  const std::string path = dir_ + "/d.audit.bin";
  // A byte count past any batch.
  std::string damaged = file_;
  damaged.replace(starts_[4], 2, "\xff\xff\xff\xff\x7f");
  WriteAll(path, damaged);
  Read read = ReadLines(path);
  EXPECT_EQ(static_cast<std::int64_t>(read.lines.size()), before_[4]);
  EXPECT_NE(read.status.message().find(path + ": truncated or damaged at byte " + std::to_string(starts_[4]) +
                                       " after " + std::to_string(before_[4]) + " records: a batch of"),
            std::string::npos)
      << read.status;
  // A batch whose bytes are not an AuditBatch (an end-group tag).
  damaged = file_;
  damaged[starts_[7] + 2] = '\x0c';
  WriteAll(path, damaged);
  read = ReadLines(path);
  EXPECT_EQ(static_cast<std::int64_t>(read.lines.size()), before_[7]);
  EXPECT_NE(
      read.status.message().find(path + ": damaged at byte " + std::to_string(starts_[7]) + " after " +
                                 std::to_string(before_[7]) + " records: a batch that is not an AuditBatch"),
      std::string::npos)
      << read.status;
  // JSON Lines, and a missing file.
  WriteAll(path, "{\"worldId\":\"d\"}\n");
  read = ReadLines(path);
  EXPECT_EQ(read.status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(read.status.message().find(path + ": not a binary audit trail"), std::string::npos)
      << read.status;
  EXPECT_TRUE(read.lines.empty());
  EXPECT_EQ(ReadLines(dir_ + "/none.audit.bin").status.code(), absl::StatusCode::kNotFound);
  // An empty file: no records.
  WriteAll(path, "");
  EXPECT_TRUE(ReadLines(path).status.ok());
}

}  // namespace
}  // namespace collide::record
