#include "world/move_states.h"

namespace collide::internal {

void MoveStates::Prune(const Snapshot& latest) {
  for (auto it = bodies.begin(); it != bodies.end();) {
    it = latest.Find(it->first) == nullptr ? bodies.erase(it) : std::next(it);
  }
}

}  // namespace collide::internal
