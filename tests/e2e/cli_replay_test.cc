// `collide world demo --record` and `collide world replay` against the real
// binaries: the demo's match (the arena, the Tick stream) re-judged offline
// and live with identical answers; a server-side recording (journal.record)
// of a map world re-judged offline; a flipped verdict found (exit 1, the
// call and the field named); truncated and garbage files refused (exit 2).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "record/recording_file.h"
#include "support/server_process.h"

namespace collide {
namespace {

using testing::CommandResult;
using testing::ServerProcess;

constexpr char kMapsDir[] = "/usr/share/games/openarena/baseoa";

CommandResult Cli(std::vector<std::string> args) {
  args.insert(args.begin(), COLLIDE_CLI_BIN);
  return testing::RunCommand(args, std::chrono::seconds(60));
}

// "compared N calls, V verdicts: D differ" as {N, V, D}; {-1, -1, -1} when absent.
std::vector<long> Compared(const std::string& out) {
  std::smatch m;
  if (!std::regex_search(out, m, std::regex("compared ([0-9]+) calls, ([0-9]+) verdicts: ([0-9]+) differ"))) {
    return {-1, -1, -1};
  }
  return {std::stol(m[1]), std::stol(m[2]), std::stol(m[3])};
}

class CliReplayTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    recordings_ = new std::string(testing::TempPath("cli-replay-recordings"));
    std::filesystem::remove(*recordings_);
    std::filesystem::create_directories(*recordings_);
    server_ = new ServerProcess(
        COLLIDE_SERVER_BIN,
        {"--worker_threads=2", std::string("--maps_dir=") + kMapsDir, "--recordings_dir=" + *recordings_});
    demo_ = new std::string(testing::TempPath("cli-replay-demo.collide-rec"));
  }
  static void TearDownTestSuite() {
    delete server_;
    std::filesystem::remove_all(*recordings_);
    std::filesystem::remove(*demo_);
    delete recordings_;
    delete demo_;
  }
  void SetUp() override { ASSERT_NE(server_->port(), 0) << server_->log(); }

  // The demo's recording, made once.
  static const std::string& DemoRecording() {
    if (std::filesystem::file_size(*demo_) == 0) {
      const CommandResult r =
          Cli({"world", "demo", "--ticks=64", "--tick_rate=0", "--players=8", "--transport=stream",
               "--record=" + *demo_, "--target=" + server_->target()});
      EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
      EXPECT_NE(r.out.find("recorded "), std::string::npos) << r.out;
    }
    return *demo_;
  }

  static ServerProcess* server_;
  static std::string* recordings_;
  static std::string* demo_;
};
ServerProcess* CliReplayTest::server_ = nullptr;
std::string* CliReplayTest::recordings_ = nullptr;
std::string* CliReplayTest::demo_ = nullptr;

TEST_F(CliReplayTest, DemoRecordingReplaysIdenticallyOfflineAndLive) {
  const std::string& path = DemoRecording();
  const CommandResult offline = Cli({"world", "replay", path});
  ASSERT_EQ(offline.exit_code, 0) << offline.out << offline.err;
  const std::vector<long> n = Compared(offline.out);
  // The floor probe's queries, the ping, then 64 ticks of two messages but the first.
  EXPECT_GE(n[0], 127) << offline.out;
  EXPECT_GT(n[1], 0) << offline.out;
  EXPECT_EQ(n[2], 0) << offline.out;

  const CommandResult live = Cli({"world", "replay", path, "--target=" + server_->target()});
  ASSERT_EQ(live.exit_code, 0) << live.out << live.err;
  EXPECT_NE(live.out.find("re-judged by the server at"), std::string::npos) << live.out;
  EXPECT_EQ(Compared(live.out), n) << live.out;
}

TEST_F(CliReplayTest, ServerRecordingOfAMapWorldReplaysIdentically) {
  // A map world asking for journal.record, created from a description and
  // deleted: its recording pins the map file, which the replay checks and
  // imports (record_test plays a whole recorded match on such a world).
  const std::string description = testing::TempPath("cli-replay-world.json");
  std::ofstream(description)
      << R"({"statics": [{"id": 1, "mapFile": {"name": "pak6-patch088.pk3", "map": "aggressor"}}],
    "policy": {"movement": {"preset": "MOVEMENT_PRESET_QUAKE"}}, "journal": {"record": true}})";
  CommandResult r = Cli({"world", "create", "mapworld", description, "--target=" + server_->target()});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  r = Cli({"world", "delete", "mapworld", "--target=" + server_->target()});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string recording = *recordings_ + "/_/mapworld.collide-rec";
  ASSERT_TRUE(std::filesystem::exists(recording));
  r = Cli({"world", "replay", recording, std::string("--maps_dir=") + kMapsDir});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(Compared(r.out)[2], 0) << r.out;
  // Without the maps directory the map cannot be rebuilt: said, exit 1.
  r = Cli({"world", "replay", recording});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("maps directory"), std::string::npos) << r.err;
  std::filesystem::remove(description);
}

TEST_F(CliReplayTest, AFlippedVerdictIsReportedWithItsCallAndField) {
  absl::StatusOr<record::Recording> recording = record::ReadRecording(DemoRecording());
  ASSERT_TRUE(recording.ok()) << recording.status();
  std::size_t call = 0;
  while (call < recording->calls.size() &&
         recording->calls[call].response().shots_packed().verdicts_size() == 0) {
    ++call;
  }
  ASSERT_LT(call, recording->calls.size());
  v1::ShotVerdict* verdict =
      recording->calls[call].mutable_response()->mutable_shots_packed()->mutable_verdicts(0);
  verdict->set_code(verdict->code() == v1::SHOT_CODE_MISSED ? v1::SHOT_CODE_CONFIRMED : v1::SHOT_CODE_MISSED);
  const std::string flipped = testing::TempPath("cli-replay-flipped.collide-rec");
  {
    absl::StatusOr<std::unique_ptr<record::RecordingWriter>> writer =
        record::RecordingWriter::Open(flipped, recording->header);
    ASSERT_TRUE(writer.ok()) << writer.status();
    for (const v1::RecordedCall& c : recording->calls) ASSERT_TRUE((*writer)->Append(c).ok());
  }
  const CommandResult r = Cli({"world", "replay", flipped});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(Compared(r.out)[2], 1) << r.out;
  EXPECT_NE(r.out.find("call " + std::to_string(call) + " "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("shots_packed.verdicts[0].code"), std::string::npos) << r.out;
  std::filesystem::remove(flipped);
}

TEST_F(CliReplayTest, TruncatedAndGarbageFilesAreRefused) {
  const std::string& path = DemoRecording();
  const auto size = std::filesystem::file_size(path);
  std::string bytes(size, '\0');
  std::ifstream(path, std::ios::binary).read(bytes.data(), static_cast<std::streamsize>(size));
  const std::string cut = testing::TempPath("cli-replay-cut.collide-rec");
  std::ofstream(cut, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(size / 2 + 7));
  CommandResult r = Cli({"world", "replay", cut});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("truncated after "), std::string::npos) << r.err;

  std::ofstream(cut, std::ios::binary | std::ios::trunc) << "garbage, not a recording";
  r = Cli({"world", "replay", cut});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("not a collide recording"), std::string::npos) << r.err;
  std::filesystem::remove(cut);
}

}  // namespace
}  // namespace collide
