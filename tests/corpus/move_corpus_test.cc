// Issue 31 item 4: legitimate Quake-style movement and cheats on three
// OpenArena maps, judged by World::ValidateMoves on the maps' player-
// collision geometry (docs/move-corpus.md has the table and how it is made).
// Each map: the bots' own legitimacy (never inside the geometry; they climb
// steps, jump and fall), then the moves judged by the Quake movement model
// at 16 and 48 ms server ticks with the box and the capsule movement shape:
// false rejections per 10,000 legitimate moves and the share of each cheat
// kind caught.
#include "support/move_corpus.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "support/case_count.h"

namespace collide::testing {
namespace {

// The targets: at most 1 false rejection per 10,000 legitimate
// moves, at 16 and at 48 ms ticks (this run: 0-0.7 at both).
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
      setup.movement_model = true;
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
      // Rates need the full corpus: the sanitizers' short run (a tenth of the
      // cheats, a sixth of the moves) checks memory and behaviour, where one
      // rejection would read as several per 10,000 and one cheat as 5 %.
      if (kSanitized) continue;
      EXPECT_LE(r.legit.PerTenThousand(), kMaxFalseRejectionsPer10k);
      EXPECT_TRUE(caught(CheatKind::kThroughWall, kMinCaught));
      EXPECT_TRUE(caught(CheatKind::kIntoSolid, kMinCaught));
      EXPECT_TRUE(caught(CheatKind::kFlying, kMinCaught));
      EXPECT_TRUE(caught(CheatKind::kTripleSpeed, kMinCaught));
      EXPECT_TRUE(caught(CheatKind::kSustainedSpeed, 1.0));
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
