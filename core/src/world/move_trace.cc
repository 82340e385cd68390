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

std::string MoveTrace::Name(const HitTarget& target) const {
  if (target.kind == HitTarget::Kind::kBody) {
    return "body " + std::to_string(target.id) + " part " + std::to_string(target.part);
  }
  std::string name = "static " + std::to_string(target.id);
  for (std::size_t i = 0; i < statics_.elements.size(); ++i) {
    if (statics_.elements[i].id == target.id && statics_.MeshOf(i) != nullptr) {
      return name + " triangle " + std::to_string(target.triangle);
    }
  }
  return name;
}

}  // namespace collide::internal
