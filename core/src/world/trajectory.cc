// The closed form of linear drag (e.g. Marion and Thornton, "Classical
// Dynamics", 2.4): with x = k t, v = v0 e^{-x} + g t phi1(x) and
// p = p0 + v0 t phi1(x) + g t^2 phi2(x), phi1 = (1 - e^{-x}) / x and
// phi2 = (x - 1 + e^{-x}) / x^2, written so that k -> 0 loses nothing.
#include "world/trajectory.h"

#include <cmath>

namespace collide::internal {
namespace {

double Phi1(double x) { return x < 1e-8 ? 1.0 - x / 2.0 : -std::expm1(-x) / x; }

// Below 1e-3 the series (error under x^4 / 720, < 2e-15): x + expm1(-x)
// cancels to x^2 / 2 there.
double Phi2(double x) {
  return x < 1e-3 ? 0.5 - x / 6.0 + x * x / 24.0 - x * x * x / 120.0 : (x + std::expm1(-x)) / (x * x);
}

}  // namespace

// Without drag the same values (phi1(0) = 1, phi2(0) = 1/2, e^0 = 1 exactly)
// without the exponentials: most projectiles have none.
Vec3 Trajectory::Position(double t) const {
  const double dt = t - t0, x = drag * dt;
  if (drag == 0.0) return p0 + v0 * dt + gravity * (dt * dt * 0.5);
  return p0 + v0 * (dt * Phi1(x)) + gravity * (dt * dt * Phi2(x));
}

Vec3 Trajectory::Velocity(double t) const {
  const double dt = t - t0, x = drag * dt;
  if (drag == 0.0) return v0 + gravity * dt;
  return v0 * std::exp(-x) + gravity * (dt * Phi1(x));
}

Vec3 Trajectory::Acceleration(double t) const {
  return drag == 0.0 ? gravity : (gravity - v0 * drag) * std::exp(-drag * (t - t0));
}

double Trajectory::ChordStep(double t, double tolerance) const {
  const double a = Length(Acceleration(t));
  return a > 0.0 ? std::sqrt(8.0 * tolerance / a) : kInfinity;
}

}  // namespace collide::internal
