// `collide world audit` against the real binary: a binary audit trail of
// three rotated files printed as JSON Lines oldest first, each file once
// when named twice; a file cut short prints its whole records, then an error
// naming the file and the byte offset (exit 1); JSON Lines given to it and
// no file are refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "collide/v1/world.pb.h"
#include "record/audit_file.h"
#include "record/json_line.h"
#include "support/server_process.h"

namespace collide {
namespace {

using testing::CommandResult;

CommandResult Cli(std::vector<std::string> args) {
  args.insert(args.begin(), COLLIDE_CLI_BIN);
  return testing::RunCommand(args, std::chrono::seconds(60));
}

// A batch of `n` moves judged at `tick`: its bytes as the file holds them,
// and the JSON lines its records print as (built field by field).
struct Batch {
  std::string bytes;
  std::string lines;
};
Batch Moves(std::int64_t tick, int n) {
  std::vector<v1::Move> moves(n);
  std::vector<v1::MoveVerdict> verdicts(n);
  Batch batch;
  for (int i = 0; i < n; ++i) {
    moves[i].set_body_id(i + 1);
    moves[i].mutable_to()->set_x(0.5 * tick + i);
    moves[i].set_elapsed(1.0 / 64);
    verdicts[i].set_code(i % 2 == 0 ? v1::MOVE_CODE_OK : v1::MOVE_CODE_TOO_FAST);
    verdicts[i].mutable_allowed_position()->set_x(0.5 * tick);
    v1::AuditRecord record;
    record.set_world_id("m");
    record.set_unix_micros(1764720000000000 + tick);
    record.set_latest_tick(tick);
    record.set_call("ValidateMoves");
    record.set_index(i);
    *record.mutable_move()->mutable_move() = moves[i];
    *record.mutable_move()->mutable_verdict() = verdicts[i];
    record.set_batch_micros(12.5);
    record::AppendJson(record, batch.lines);
    batch.lines += '\n';
  }
  record::AppendAuditBatch(
      {.world_id = "m",
       .unix_micros = 1764720000000000 + tick,
       .latest_tick = tick,
       .call = "ValidateMoves",
       .batch_micros = 12.5},
      record::AuditItem::kMove, n, [&](int i) -> const google::protobuf::MessageLite& { return moves[i]; },
      [&](int i) -> const google::protobuf::MessageLite& { return verdicts[i]; }, batch.bytes);
  return batch;
}

void WriteAll(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

class CliAuditTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::TempPath("cli-audit");
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    trail_ = dir_ + "/m.audit.bin";
    const std::string header(record::kAuditFileHeader);
    // Oldest first: .2 (ticks 1, 2), .1 (tick 3), the current file (tick 4).
    const Batch b1 = Moves(1, 3), b2 = Moves(2, 2), b3 = Moves(3, 4), b4 = Moves(4, 1);
    WriteAll(trail_ + ".2", header + b1.bytes + b2.bytes);
    WriteAll(trail_ + ".1", header + b3.bytes);
    WriteAll(trail_, header + b4.bytes);
    expected_ = b1.lines + b2.lines + b3.lines + b4.lines;
    last_ = b4;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string dir_, trail_, expected_;
  Batch last_;
};

TEST_F(CliAuditTest, PrintsTheTrailOldestFileFirst) {
  CommandResult r = Cli({"world", "audit", trail_});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, expected_);
  EXPECT_EQ(r.err, "");
  // A shell glob names the rotated files too: each is read once, in order.
  r = Cli({"world", "audit", trail_, trail_ + ".1", trail_ + ".2"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, expected_);
  // A rotated file alone.
  r = Cli({"world", "audit", trail_ + ".1"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, Moves(3, 4).lines);
}

TEST_F(CliAuditTest, ACutFileGivesItsRecordsThenItsNameAndOffset) {
  // The current file ends inside a second batch (a crash mid-write).
  const std::string header(record::kAuditFileHeader);
  const Batch more = Moves(5, 2);
  WriteAll(trail_, header + last_.bytes + more.bytes.substr(0, more.bytes.size() / 2));
  const CommandResult r = Cli({"world", "audit", trail_});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, expected_);  // Every whole record, the cut batch's none.
  EXPECT_NE(r.err.find("world audit: " + trail_ + ": truncated or damaged at byte " +
                       std::to_string(header.size() + last_.bytes.size()) +
                       " after 1 records: the file ends inside a batch"),
            std::string::npos)
      << r.err;
}

TEST_F(CliAuditTest, RefusesJsonLinesAndNoFile) {
  const std::string jsonl = dir_ + "/m.audit.jsonl";
  WriteAll(jsonl, "{\"worldId\":\"m\"}\n");
  CommandResult r = Cli({"world", "audit", jsonl});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find(jsonl + ": not a binary audit trail"), std::string::npos) << r.err;
  r = Cli({"world", "audit", dir_ + "/none.audit.bin"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("none.audit.bin: cannot open"), std::string::npos) << r.err;
  r = Cli({"world", "audit"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("usage: collide world audit"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace collide
