// A projectile's flight between bounces in closed form (collide/projectile.h):
// dv/dt = g - k v from (p0, v0) at t0.
#ifndef COLLIDE_CORE_SRC_WORLD_TRAJECTORY_H_
#define COLLIDE_CORE_SRC_WORLD_TRAJECTORY_H_

#include "collide/math.h"

namespace collide::internal {

struct Trajectory {
  Vec3 p0;
  Vec3 v0;
  Vec3 gravity;
  double drag = 0.0;  // k >= 0.
  double t0 = 0.0;    // seconds since launch at (p0, v0).

  // Position, velocity and acceleration at t >= t0 (seconds since launch).
  Vec3 Position(double t) const;
  Vec3 Velocity(double t) const;
  Vec3 Acceleration(double t) const;
  // The longest chord from t whose curve stays within `tolerance` of it:
  // h = sqrt(8 tolerance / |a(t)|), the linear interpolation error bound
  // |a| h^2 / 8 with |a| decaying from t on (a(t) = (g - k v0) e^{-k t}).
  // Infinite for a straight flight.
  double ChordStep(double t, double tolerance) const;
};

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_WORLD_TRAJECTORY_H_
