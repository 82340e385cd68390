#include "world/move_trace.h"

#include <cstdio>

namespace collide::internal {

int MoveTrace::Sweep(const Vec3& from, const Vec3& to, std::string_view purpose) {
  out_.sweeps.push_back({from, to, std::string(purpose)});
  return static_cast<int>(out_.sweeps.size()) - 1;
}

void MoveTrace::Contact(int sweep, double t, const Vec3& normal, const HitTarget& target) {
  const MoveSweep& s = out_.sweeps[static_cast<std::size_t>(sweep)];
  out_.contacts.push_back({sweep, t, s.from + (s.to - s.from) * t, normal, target});
}

std::string Num(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", x);
  return buffer;
}

std::string TargetName(const HitTarget& target) {
  if (target.kind == HitTarget::Kind::kBody) {
    return "body " + std::to_string(target.id) + " part " + std::to_string(target.part);
  }
  return "static " + std::to_string(target.id) + " triangle " + std::to_string(target.triangle);
}

}  // namespace collide::internal
