#include "world/arc.h"

#include <cmath>

namespace collide::internal {

double Arc::Height(double v0, double t) const {
  const double terminal = (v0 + max_fall_speed) / gravity;  // when the fall speed is reached
  if (t <= terminal) return v0 * t - 0.5 * gravity * t * t;
  return v0 * terminal - 0.5 * gravity * terminal * terminal - max_fall_speed * (t - terminal);
}

double Arc::SpeedFor(double dz, double t) const {
  // Before the terminal speed: dz = v0 t - g t^2 / 2.
  const double free = (dz + 0.5 * gravity * t * t) / t;
  if (free >= gravity * t - max_fall_speed) return free;
  // After it at tc = (v0 + F) / g: dz = g tc^2 / 2 - F t.
  const double reach = dz + max_fall_speed * t;
  if (reach <= 0.0) return -max_fall_speed + reach / t;
  return gravity * std::sqrt(2.0 * reach / gravity) - max_fall_speed;
}

}  // namespace collide::internal
