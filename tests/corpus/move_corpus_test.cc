// Issue 31 item 4: legitimate Quake-style movement and cheats on three
// OpenArena maps, judged by World::ValidateMoves on the maps' player-
// collision geometry (docs/move-corpus.md has the table and how it is made).
// Each map: the bots' own legitimacy (never inside the geometry; they climb
// steps, jump and fall), then the moves at 16 and 48 ms server ticks with
// the box and the capsule movement shape: false rejections per 10,000
// legitimate moves and the share of each cheat kind caught.
#include "support/move_corpus.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "support/case_count.h"

namespace collide::testing {
namespace {

// Flip to true once World::ValidateMoves judges moves with the movement
// model (issue 31 items 2 and 3: step height, gravity and jumps, slopes,
// crouch, separate horizontal and vertical speed limits, a budget across
// moves) and JudgeCorpus gives the world the Quake preset: the test then
// also asserts the targets that today's rule (one straight sweep and one
// 3-D speed limit, move.cc) cannot meet: <= 1 false rejection per 10,000
// legitimate moves, >= 99 % of flying >= 0.5 s caught.
constexpr bool kMovementModel = false;

// The targets.
constexpr double kMaxFalseRejectionsPer10k = 1.0;
constexpr double kMinCaught = 0.99;
// Below this many cases a share says little: the map offered too few places.
constexpr std::int64_t kMinCases = 10;
// How deep a recorded player box may be in the geometry (rounding of the
// exact sweeps; the game keeps 0.03125 units away).
constexpr double kOverlapTolerance = 0.01;

class MoveCorpusTest : public ::testing::TestWithParam<const char*> {};

TEST_P(MoveCorpusTest, BotsAreLegitimateAndVerdictsMeetTheTargets) {
  BotRunOptions bots;
  bots.bots = 12;
  bots.seconds = kSanitized ? 10.0 : 60.0;
  std::string error;
  const MapCorpus corpus = MakeMapCorpus(GetParam(), bots, error);
  ASSERT_NE(corpus.mesh, nullptr) << error;
  ASSERT_EQ(corpus.tracks.size(), 12u) << "no spawn point where a player fits";

  // The legitimate corpus is legitimate, and (over the full run) covers
  // steps, jumps, crouching and falls.
  const CorpusStats s = MeasureCorpus(corpus);
  EXPECT_LE(s.deepest_overlap, kOverlapTolerance);
  if (!kSanitized) {
    EXPECT_GT(s.step_ups, 0);
    EXPECT_GT(s.jumps, 0);
    EXPECT_GT(s.airborne, 0);
    EXPECT_GT(s.crouched, 0);
    EXPECT_GT(s.max_fall_speed, corpus.params.jump_velocity) << "no fall deeper than a jump";
  }

  std::string table = TableHeader() + "\n";
  for (std::size_t commands_per_tick : {1, 3}) {
    for (MoveShapeKind shape : {MoveShapeKind::kBox, MoveShapeKind::kCapsule}) {
      JudgeSetup setup;
      setup.commands_per_tick = commands_per_tick;
      setup.shape = shape;
      setup.cheats_per_kind = CaseCount(200);
      const JudgeResult r = JudgeCorpus(corpus, setup);
      table += TableRow(GetParam(), setup, r) + "\n";
      SCOPED_TRACE(TableRow(GetParam(), setup, r));
      const auto cheat = [&](CheatKind k) { return r.cheats[static_cast<std::size_t>(k)]; };
      // At least `share` of the cases caught (true for none: counted above).
      const auto caught = [&](CheatKind k, double share) {
        const CheatTally t = cheat(k);
        return static_cast<double>(t.caught) >= share * static_cast<double>(t.cases);
      };
      if (!kSanitized) {
        EXPECT_GE(r.legit.moves, 10'000);
        for (const CheatTally& t : r.cheats) EXPECT_GE(t.cases, kMinCases);
      }
      // Met by today's rule: the sweep stops teleports through walls and
      // moves into solids; the 3-D limit of 1.1x run speed stops 3x and
      // 1.5x speed (at the price of falls and jumps, below).
      EXPECT_TRUE(caught(CheatKind::kThroughWall, kMinCaught));
      EXPECT_TRUE(caught(CheatKind::kIntoSolid, kMinCaught));
      EXPECT_TRUE(caught(CheatKind::kTripleSpeed, kMinCaught));
      EXPECT_TRUE(caught(CheatKind::kSustainedSpeed, 1.0));
      if (kMovementModel) {
        EXPECT_LE(r.legit.PerTenThousand(), kMaxFalseRejectionsPer10k);
        EXPECT_TRUE(caught(CheatKind::kFlying, kMinCaught));
      }
    }
  }
  std::printf("%s: %lld commands, %lld step-ups, %lld jumps, %lld airborne, %lld crouched, %lld respawns\n%s",
              GetParam(), static_cast<long long>(s.commands), static_cast<long long>(s.step_ups),
              static_cast<long long>(s.jumps), static_cast<long long>(s.airborne),
              static_cast<long long>(s.crouched), static_cast<long long>(s.respawns), table.c_str());
}

INSTANTIATE_TEST_SUITE_P(OpenArena, MoveCorpusTest,
                         ::testing::Values("aggressor", "oa_ctf2", "am_underworks2"));

}  // namespace
}  // namespace collide::testing
