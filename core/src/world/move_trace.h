// The sink a move's sweeps and rule are recorded into when the move is
// explained (MoveRequest::explain). The judge passes a null MoveTrace*
// otherwise: nothing is recorded or formatted, and the verdict is the same
// either way (the trace only watches).
#ifndef COLLIDE_CORE_SRC_WORLD_MOVE_TRACE_H_
#define COLLIDE_CORE_SRC_WORLD_MOVE_TRACE_H_

#include <string>
#include <string_view>

#include "collide/world.h"
#include "world/statics.h"

namespace collide::internal {

class MoveTrace {
 public:
  MoveTrace(MoveExplanation& out, const StaticSet& statics) : out_(out), statics_(statics) {}
  // Records a sweep of the body origin from `from` to `to`; its index.
  int Sweep(const Vec3& from, const Vec3& to, std::string_view purpose);
  // Records a contact at fraction t of sweep `sweep` (normal from the body
  // towards the static).
  void Contact(int sweep, double t, const Vec3& normal, const HitTarget& target);
  // The rule that decided, in words (a later rule replaces it).
  void Reason(std::string text) { out_.reason = std::move(text); }
  MoveExplanation& out() { return out_; }
  // What a reason calls a target: "static 3", "static 1 triangle 12" (a
  // mesh's), "body 7 part 2".
  std::string Name(const HitTarget& target) const;

 private:
  MoveExplanation& out_;
  const StaticSet& statics_;
};

// A number as the reasons write it: up to 6 significant digits.
std::string Num(double x);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_WORLD_MOVE_TRACE_H_
