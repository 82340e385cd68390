// The movement model's presets and validation (collide/movement.h; the
// values' sources are cited there and in docs/moves.md).
#include <cmath>
#include <string>

#include "collide/movement.h"
#include "world/scene.h"

namespace collide {

MovementModel MovementModel::Quake() {
  MovementModel m;
  // PM_CheckDuck: mins (-15, -15, MINS_Z = -24), maxs z 32, ducked 16;
  // pm_duckScale 0.25.
  m.stances = {{Shape{Aabb{{-15, -15, -24}, {15, 15, 32}}}, 320.0},
               {Shape{Aabb{{-15, -15, -24}, {15, 15, 16}}}, 80.0}};
  m.air_speed = 640.0;
  m.air_acceleration = 320.0;  // pm_airaccelerate 1 x g_speed 320
  m.gravity = 800.0;
  m.jump_speed = 270.0;       // JUMP_VELOCITY
  m.max_fall_speed = 2000;    // Quake 3 has none; Quake's sv_maxvelocity
  m.step_height = 18.0;       // STEPSIZE
  m.walkable_normal_z = 0.7;  // MIN_WALK_NORMAL
  m.ground_probe = 0.25;      // PM_GroundTrace
  m.tolerance = 1.0;
  m.ground_friction = 6.0;     // pm_friction
  m.ground_accelerate = 10.0;  // pm_accelerate
  return m;
}

MovementModel MovementModel::Source() {
  MovementModel m;
  // VEC_HULL (-16, -16, 0)..(16, 16, 72), VEC_DUCK_HULL max z 36; ducking
  // moves at a third of the speed.
  m.stances = {{Shape{Aabb{{-16, -16, 0}, {16, 16, 72}}}, 320.0},
               {Shape{Aabb{{-16, -16, 0}, {16, 16, 36}}}, 320.0 / 3.0}};
  m.air_speed = 640.0;
  m.air_acceleration = 2000.0;                   // at most 30 a tick (AirAccelerate's cap) at 66 ticks/s
  m.gravity = 800.0;                             // sv_gravity
  m.jump_speed = std::sqrt(2.0 * 800.0 * 45.0);  // 268.33: a 45-unit jump
  m.max_fall_speed = 3500.0;                     // sv_maxvelocity
  m.step_height = 18.0;                          // sv_stepsize
  m.walkable_normal_z = 0.7;                     // sv_standable_normal
  m.ground_probe = 2.0;                          // CategorizePosition
  m.tolerance = 1.0;
  m.ground_friction = 4.0;     // sv_friction
  m.ground_accelerate = 10.0;  // sv_accelerate
  return m;
}

MovementModel MovementModel::Unreal() {
  MovementModel m;
  // ACharacter's capsule (radius 34, half height 88) about the origin;
  // crouched (half height 40) with the feet kept where they are.
  m.stances = {{Shape{Capsule{{0, 0, -54}, {0, 0, 54}, 34}}, 600.0},
               {Shape{Capsule{{0, 0, -54}, {0, 0, -42}, 34}}, 300.0}};
  m.air_speed = 600.0;  // falling keeps the walk speed (AirControl 0.05)
  m.gravity = 980.0;
  m.jump_speed = 420.0;
  m.max_fall_speed = 4000.0;  // APhysicsVolume::TerminalVelocity
  m.step_height = 45.0;
  m.walkable_normal_z = 0.71;
  m.ground_probe = 2.4;  // MAX_FLOOR_DIST
  m.tolerance = 1.0;
  m.ground_friction = 8.0;  // GroundFriction
  return m;
}

bool ValidateMovementModel(const MovementModel& m, std::string_view path, std::vector<Violation>& out) {
  const std::size_t before = out.size();
  const std::string at(path);
  const auto check = [&](const char* field, double value, bool ok, const char* rule) {
    if (!ok || !std::isfinite(value)) out.push_back({at + "." + field, rule});
  };
  if (m.stances.empty()) out.push_back({at + ".stances", "must hold at least one stance"});
  for (std::size_t i = 0; i < m.stances.size(); ++i) {
    const std::string stance = at + ".stances[" + std::to_string(i) + "]";
    internal::ValidatePartShape(m.stances[i].shape, stance + ".shape", out);
    if (!(m.stances[i].max_speed >= 0.0) || !std::isfinite(m.stances[i].max_speed))
      out.push_back({stance + ".max_speed", "must be a valid number >= 0"});
  }
  check("air_speed", m.air_speed, m.air_speed >= 0.0, "must be a valid number >= 0");
  check("air_acceleration", m.air_acceleration, m.air_acceleration >= 0.0, "must be a valid number >= 0");
  check("gravity", m.gravity, m.gravity > 0.0, "must be a valid number > 0");
  check("jump_speed", m.jump_speed, m.jump_speed >= 0.0, "must be a valid number >= 0");
  check("max_fall_speed", m.max_fall_speed, m.max_fall_speed > 0.0, "must be a valid number > 0");
  check("step_height", m.step_height, m.step_height >= 0.0, "must be a valid number >= 0");
  check("walkable_normal_z", m.walkable_normal_z, m.walkable_normal_z > 0.0 && m.walkable_normal_z <= 1.0,
        "must be in (0, 1]");
  check("ground_probe", m.ground_probe, m.ground_probe >= 0.0, "must be a valid number >= 0");
  check("tolerance", m.tolerance, m.tolerance >= 0.0, "must be a valid number >= 0");
  check("ground_friction", m.ground_friction, m.ground_friction >= 0.0, "must be a valid number >= 0");
  check("ground_accelerate", m.ground_accelerate, m.ground_accelerate >= 0.0, "must be a valid number >= 0");
  return out.size() == before;
}

bool ValidateMoveBudget(const MoveBudget& b, std::string_view path, std::vector<Violation>& out) {
  const std::size_t before = out.size();
  const std::string at(path);
  const auto check = [&](const char* field, double value, bool ok, const char* rule) {
    if (!ok || !std::isfinite(value)) out.push_back({at + "." + field, rule});
  };
  check("tick_seconds", b.tick_seconds, b.tick_seconds > 0.0, "must be a valid number > 0");
  check("window", b.window, b.window >= b.tick_seconds && b.window <= 3600.0,
        "must be in [tick_seconds, 3600] seconds");
  check("max_speed", b.max_speed, b.max_speed >= 0.0, "must be a valid number >= 0");
  check("time_slack", b.time_slack, b.time_slack >= 0.0, "must be a valid number >= 0");
  check("distance_slack", b.distance_slack, b.distance_slack >= 0.0, "must be a valid number >= 0");
  return out.size() == before;
}

}  // namespace collide
