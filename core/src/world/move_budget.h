// The budget across a body's moves (collide/movement.h, MoveBudget): the
// OK moves of a sliding window of server ticks, their claimed time and
// horizontal distance.
#ifndef COLLIDE_CORE_SRC_WORLD_MOVE_BUDGET_H_
#define COLLIDE_CORE_SRC_WORLD_MOVE_BUDGET_H_

#include <cstdint>
#include <deque>

#include "collide/world.h"
#include "world/move_trace.h"

namespace collide::internal {

struct BudgetEntry {
  std::int64_t tick = 0;  // the latest frame's when the move was judged
  double elapsed = 0.0;
  double distance = 0.0;
};
// At most kMaxBudgetEntries moves are kept per body: beyond, the oldest two
// are merged into the newer one's tick (they then count a little longer,
// never less).
inline constexpr std::size_t kMaxBudgetEntries = 512;
struct BodyBudget {
  std::int64_t first_tick = 0;  // the first tick a move of the body was judged at
  std::deque<BudgetEntry> entries;
};

// OK, kTimeBudget or kDistanceBudget for a move of `elapsed` seconds and
// `distance` horizontal length judged at tick `latest`; the window's expired
// entries are dropped.
// With a trace, a rejection's numbers are its reason.
MoveCode CheckBudget(const MoveBudget& budget, std::int64_t latest, double elapsed, double distance,
                     BodyBudget& body, MoveTrace* trace = nullptr);
// Counts an OK move.
void Record(std::int64_t latest, double elapsed, double distance, BodyBudget& body);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_WORLD_MOVE_BUDGET_H_
