// The budget across a body's moves (collide/movement.h, MoveBudget), ticks
// of 1/64 s and a one-second window: honest running for two seconds passes;
// running at 1.5x, each move well under the per-move limit, is caught within
// the second; claiming twice the elapsed time of the ticks is caught; bodies
// are judged apart.
#include <gtest/gtest.h>

#include <vector>

#include "collide/world.h"

namespace collide {
namespace {

constexpr double kTick = 1.0 / 64;

World Runners() {
  WorldSettings settings;
  settings.default_max_speed = 640;  // the per-move limit: lenient
  settings.move_budget = MoveBudget{kTick, 1.0, 320, 0.05, 16};
  return World(settings, {});
}

// Pushes tick `tick` with bodies 1..n at x = their position.
void Push(World& w, std::int64_t tick, const std::vector<double>& x) {
  Frame f{tick, {}, {}};
  for (std::size_t i = 0; i < x.size(); ++i) {
    f.bodies.push_back(
        {static_cast<std::int64_t>(i + 1), Pose{{x[i], 0, 0}, {}}, {{0, Sphere{{0, 0, 0}, 1}, {}}}});
  }
  ASSERT_TRUE(w.PushFrame(f).ok());
}

// Runs bodies at `speeds` (claiming `claim` times the tick) for `seconds`
// and returns each body's first rejection (code and second), or OK.
struct Caught {
  MoveCode code = MoveCode::kOk;
  double at = -1;
};
std::vector<Caught> RunFor(const std::vector<double>& speeds, double claim, double seconds, int splits = 1) {
  World w = Runners();
  std::vector<double> x(speeds.size(), 0.0);
  std::vector<Caught> caught(speeds.size());
  Push(w, 0, x);
  for (std::int64_t tick = 1; tick * kTick <= seconds; ++tick) {
    std::vector<double> next = x;
    for (std::size_t i = 0; i < x.size(); ++i) next[i] += speeds[i] * kTick * claim;
    Push(w, tick, next);
    std::vector<MoveRequest> moves;
    for (std::size_t i = 0; i < x.size(); ++i) {
      for (int k = 0; k < splits; ++k) {  // the tick's move cut in `splits`
        const double step = (next[i] - x[i]) / splits;
        moves.push_back({static_cast<std::int64_t>(i + 1),
                         Vec3{x[i] + k * step, 0, 0},
                         {x[i] + (k + 1) * step, 0, 0},
                         kTick * claim / splits});
      }
    }
    const std::vector<MoveVerdict> verdicts = w.ValidateMoves(moves);
    for (std::size_t j = 0; j < verdicts.size(); ++j) {
      Caught& c = caught[j / splits];
      if (verdicts[j].code != MoveCode::kOk && c.code == MoveCode::kOk) c = {verdicts[j].code, tick * kTick};
    }
    x = next;
  }
  return caught;
}

TEST(WorldMoveBudget, HonestRunningPassesSpeedHacksCutSmallAreCaught) {
  const std::vector<Caught> caught = RunFor({320, 480, 300}, 1.0, 2.0, 4);
  EXPECT_EQ(caught[0].code, MoveCode::kOk) << MoveCodeName(caught[0].code);
  EXPECT_EQ(caught[1].code, MoveCode::kDistanceBudget) << MoveCodeName(caught[1].code);
  EXPECT_GT(caught[1].at, 0.0);
  EXPECT_LE(caught[1].at, 1.0);
  EXPECT_EQ(caught[2].code, MoveCode::kOk) << MoveCodeName(caught[2].code);
}

TEST(WorldMoveBudget, ClaimingMoreTimeThanTheTicksIsCaught) {
  // Twice the tick at the honest speed: each move is 320 units/s.
  const std::vector<Caught> caught = RunFor({320 / 2.0, 320}, 2.0, 1.0);
  EXPECT_EQ(caught[0].code, MoveCode::kTimeBudget) << MoveCodeName(caught[0].code);
  EXPECT_LE(caught[0].at, 0.1);
  EXPECT_EQ(caught[1].code, MoveCode::kTimeBudget) << MoveCodeName(caught[1].code);
}

TEST(WorldMoveBudget, BadBudgetsAreNamed) {
  WorldSettings settings;
  settings.move_budget = MoveBudget{0, 1, 320};
  std::vector<Violation> out;
  EXPECT_FALSE(ValidateSettings(settings, out));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].field, "move_budget.tick_seconds");
}

}  // namespace
}  // namespace collide
