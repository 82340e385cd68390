// `collide world ...` against the real server binary: the demo a new user
// runs after the start command (its summary must report judged shots and
// moves), `collide bench --world` (the service's verdicts equal the core's),
// `collide bench --matches` (every bot's move judged every tick, the server's
// CPU and memory read),
// and create/info/list/delete from the arena, a JSON description and
// a map file in the server's --maps_dir (Debian's openarena-088-data).
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "support/server_process.h"

namespace collide {
namespace {

using testing::CommandResult;
using testing::ServerProcess;

constexpr char kMapsDir[] = "/usr/share/games/openarena/baseoa";

CommandResult Cli(const ServerProcess& server, std::vector<std::string> args) {
  args.insert(args.begin(), COLLIDE_CLI_BIN);
  args.push_back("--target=" + server.target());
  return testing::RunCommand(args, std::chrono::seconds(60));
}

// The count after `label` in `text` ("CONFIRMED 123"), 0 when absent.
long Count(const std::string& text, const std::string& label) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(label + " ([0-9]+)"))) return 0;
  return std::stol(m[1]);
}

class CliWorldTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ =
        new ServerProcess(COLLIDE_SERVER_BIN, {"--worker_threads=2", std::string("--maps_dir=") + kMapsDir});
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  void SetUp() override { ASSERT_NE(server_->port(), 0) << server_->log(); }
  static ServerProcess* server_;
};
ServerProcess* CliWorldTest::server_ = nullptr;

TEST_F(CliWorldTest, DemoReportsVerdicts) {
  // 128 ticks (2 s at 64 Hz, so at least one live line); 50 s is only a cap
  // for a machine slowed by sanitizers or load, within Cli's 60 s.
  const CommandResult r = Cli(*server_, {"world", "demo", "--ticks=128", "--seconds=50", "--players=8"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  // A live line per second, then the summary.
  EXPECT_GE(std::count(r.out.begin(), r.out.end(), '\n'), 5) << r.out;
  EXPECT_NE(r.out.find("frames/s"), std::string::npos) << r.out;
  const std::size_t summary = r.out.find("summary:");
  ASSERT_NE(summary, std::string::npos) << r.out;
  const std::string s = r.out.substr(summary);
  EXPECT_EQ(Count(s, "summary:"), 128) << s;  // every tick asked for, none cut by the cap.
  const long shots = Count(s, "CONFIRMED") + Count(s, "HIT_OTHER_PART") + Count(s, "HIT_OTHER_BODY") +
                     Count(s, "BLOCKED") + Count(s, "MISSED");
  EXPECT_GT(shots, 0) << s;
  EXPECT_GT(Count(s, "CONFIRMED"), 0) << s;
  EXPECT_GT(Count(s, "OK"), 0) << s;
  EXPECT_NE(s.find("tick latency p50"), std::string::npos) << s;
  // The demo deletes its world.
  const CommandResult list = Cli(*server_, {"world", "list"});
  EXPECT_EQ(list.exit_code, 0) << list.err;
  EXPECT_EQ(list.out.find("demo-"), std::string::npos) << list.out;
}

// The world bench's match judged by the service and by the core in process:
// equal verdicts, rates printed for every phase.
TEST_F(CliWorldTest, BenchWorldAnswersAsTheCore) {
  const CommandResult r =
      Cli(*server_, {"bench", "--world", "--phase=200ms", "--batch=256", "--concurrency=1", "--players=16"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("answers equal to the core's: yes (0 of 512 verdicts differ)"), std::string::npos)
      << r.out;
  for (const char* line : {"shots unary", "moves unary", "frames unary", "tick (frame of 16 bodies",
                           "empty stream message p50"}) {
    EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
  }
  EXPECT_EQ(r.out.find("ERRORS"), std::string::npos) << r.out;
}

// Matches per replica: each tick's message holds every bot's move and the
// tick's share of shots (16 players x 10 per second at 64 ticks/s: 2.5 a
// tick), all judged; the server's CPU and memory are read from /proc; the
// worlds are deleted at the end. 32 ticks a match (0.5 s at 64 Hz); the
// duration is only a cap.
TEST_F(CliWorldTest, BenchMatchesJudgesEveryMoveEveryTick) {
  const CommandResult r =
      Cli(*server_, {"bench", "--matches=3", "--players=16", "--ticks=32", "--duration=50s",
                     "--map=pak6-patch088.pk3:aggressor", "--transport=stream",
                     "--server_pid=" + std::to_string(server_->pid())});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  std::smatch m;
  ASSERT_TRUE(
      std::regex_search(r.out, m, std::regex("ticks ([0-9]+) .*shots ([0-9]+) .*moves ([0-9]+) .*errors 0")))
      << r.out;
  const long ticks = std::stol(m[1]), shots = std::stol(m[2]), moves = std::stol(m[3]);
  EXPECT_EQ(ticks, 3 * 32) << r.out;  // each match's 32 ticks, none cut by the 50 s cap.
  EXPECT_EQ(moves, 16 * ticks) << r.out;
  EXPECT_GE(shots, 2 * ticks) << r.out;
  EXPECT_LE(shots, 3 * ticks) << r.out;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex("result matches=3 .*cpu_ms_per_match_s=([0-9.]+)")))
      << r.out;
  EXPECT_GT(std::stod(m[1]), 0) << r.out;
  EXPECT_NE(r.out.find("through the Tick stream"), std::string::npos) << r.out;
  const CommandResult list = Cli(*server_, {"world", "list"});
  EXPECT_EQ(list.exit_code, 0) << list.err;
  EXPECT_EQ(list.out.find("match-"), std::string::npos) << list.out;
}

// --visibility: every tick message also asks for every player's visibility
// set, on worlds carrying occluders (the map's OCCLUDER brushes; the arena's
// pillars and crates): every pair of every tick judged, not all hidden, and
// on the map some (the arena's pillars rarely hide a whole swept region).
// Through the Tick stream on a map, and unary calls in the arena.
TEST_F(CliWorldTest, BenchMatchesAsksForVisibilitySetsEveryTick) {
  for (const std::vector<std::string> where :
       {std::vector<std::string>{"--map=pak6-patch088.pk3:aggressor", "--transport=stream"},
        std::vector<std::string>{"--transport=unary"}}) {
    std::vector<std::string> args = {"bench",      "--matches=2",    "--players=12",
                                     "--ticks=16", "--duration=50s", "--visibility"};
    args.insert(args.end(), where.begin(), where.end());
    const CommandResult r = Cli(*server_, args);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.out, m, std::regex("ticks ([0-9]+) .*errors 0"))) << r.out;
    const long ticks = std::stol(m[1]);
    EXPECT_EQ(ticks, 2 * 16) << r.out;
    ASSERT_TRUE(std::regex_search(
        r.out, m, std::regex("visibility: ([0-9]+) observer-target pairs judged .*, ([0-9.]+)% hidden")))
        << r.out;
    EXPECT_EQ(std::stol(m[1]), ticks * 12 * 11) << r.out;
    const double hidden = std::stod(m[2]);
    if (where[0].starts_with("--map")) EXPECT_GT(hidden, 0) << r.out;
    EXPECT_LT(hidden, 100) << r.out;
    EXPECT_NE(r.out.find("visibility sets every tick"), std::string::npos) << r.out;
  }
}

TEST_F(CliWorldTest, CreateInfoListDelete) {
  CommandResult r = Cli(*server_, {"world", "create", "cli-arena", "--arena"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("statics 14"), std::string::npos) << r.out;

  const std::string description = testing::TempPath("world.json");
  std::ofstream(description) << R"({"statics": [
      {"id": 1, "mesh": {"vertices": [0,0,0, 1,0,0, 0,1,0], "indices": [0,1,2]}},
      {"id": 2, "shape": {"sphere": {"center": {"x": 5}, "radius": 1}}}],
    "historyTicks": 8, "policy": {"maxRewindTicks": 4}})";
  r = Cli(*server_, {"world", "create", "cli-json", description});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("triangles 1 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("max_rewind_ticks 4"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("of 8"), std::string::npos) << r.out;

  r = Cli(*server_, {"world", "create", "cli-map", "--map=pak6-patch088.pk3:oa_ctf2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("triangles 71578"), std::string::npos) << r.out;

  r = Cli(*server_, {"world", "list"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* id : {"cli-arena", "cli-json", "cli-map"})
    EXPECT_NE(r.out.find(id), std::string::npos) << r.out;

  r = Cli(*server_, {"world", "info", "cli-json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("world cli-json"), std::string::npos) << r.out;

  // Errors: the server's, with field paths.
  r = Cli(*server_, {"world", "create", "cli-json", description});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("ALREADY_EXISTS"), std::string::npos) << r.err;
  r = Cli(*server_, {"world", "create", "cli-missing", "--map=no-such-map.glb"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("statics[0].map_file"), std::string::npos) << r.err;

  for (const char* id : {"cli-arena", "cli-json", "cli-map"}) {
    r = Cli(*server_, {"world", "delete", id});
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
  r = Cli(*server_, {"world", "info", "cli-json"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("NOT_FOUND"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace collide
