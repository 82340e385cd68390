#include "world/move_budget.h"

#include <algorithm>
#include <cmath>

namespace collide::internal {

MoveCode CheckBudget(const MoveBudget& budget, std::int64_t latest, double elapsed, double distance,
                     BodyBudget& body, MoveTrace* trace) {
  // Window ticks, at least one; a tick is tiny next to 2^40 of them.
  const double ticks = std::min(std::ceil(budget.window / budget.tick_seconds - 1e-9), 0x1p40);
  const std::int64_t window = std::max<std::int64_t>(1, static_cast<std::int64_t>(ticks));
  while (!body.entries.empty() && body.entries.front().tick <= latest - window) body.entries.pop_front();
  const std::int64_t covered = std::min(window, latest - body.first_tick + 1);
  const double server_time = static_cast<double>(covered) * budget.tick_seconds;
  double claimed = elapsed, travelled = distance;
  for (const BudgetEntry& e : body.entries) claimed += e.elapsed, travelled += e.distance;
  if (claimed > server_time + budget.time_slack) {
    if (trace != nullptr) {
      trace->Reason("move budget: " + Num(claimed) + " s claimed in the window > " + Num(server_time) +
                    " s of server ticks + time_slack " + Num(budget.time_slack));
    }
    return MoveCode::kTimeBudget;
  }
  if (travelled > budget.max_speed * server_time + budget.distance_slack) {
    if (trace != nullptr) {
      trace->Reason("move budget: " + Num(travelled) + " travelled in the window > max_speed " +
                    Num(budget.max_speed) + " x " + Num(server_time) + " s + distance_slack " +
                    Num(budget.distance_slack));
    }
    return MoveCode::kDistanceBudget;
  }
  return MoveCode::kOk;
}

void Record(std::int64_t latest, double elapsed, double distance, BodyBudget& body) {
  body.entries.push_back({latest, elapsed, distance});
  if (body.entries.size() > kMaxBudgetEntries) {
    body.entries[1].elapsed += body.entries[0].elapsed;
    body.entries[1].distance += body.entries[0].distance;
    body.entries.pop_front();
  }
}

}  // namespace collide::internal
