#include "convert/world_movement.h"

#include <vector>

#include "convert/shapes.h"

namespace collide::convert {

bool DecodeMovement(const v1::MovementModel& in, const std::string& path, MovementModel& out,
                    ViolationList& violations) {
  const std::size_t before = violations.total();
  switch (in.preset()) {
    case v1::MOVEMENT_PRESET_UNSPECIFIED:
      out = MovementModel{};
      break;
    case v1::MOVEMENT_PRESET_QUAKE:
      out = MovementModel::Quake();
      break;
    case v1::MOVEMENT_PRESET_SOURCE:
      out = MovementModel::Source();
      break;
    case v1::MOVEMENT_PRESET_UNREAL:
      out = MovementModel::Unreal();
      break;
    default:
      violations.Add(path + ".preset", "unknown preset " + std::to_string(in.preset()));
  }
  if (in.stances_size() > 0) out.stances.assign(in.stances_size(), Stance{});
  for (int i = 0; i < in.stances_size(); ++i) {
    const std::string at = path + ".stances[" + std::to_string(i) + "].shape";
    DecodeArena arena;
    std::vector<Violation> relative;
    if (!FromProto(in.stances(i).shape(), out.stances[i].shape, arena, relative))
      violations.AddUnder(at, relative);
    out.stances[i].max_speed = in.stances(i).max_speed();
  }
  if (in.has_air_speed()) out.air_speed = in.air_speed();
  if (in.has_gravity()) out.gravity = in.gravity();
  if (in.has_jump_speed()) out.jump_speed = in.jump_speed();
  if (in.has_max_fall_speed()) out.max_fall_speed = in.max_fall_speed();
  if (in.has_step_height()) out.step_height = in.step_height();
  if (in.has_walkable_normal_z()) out.walkable_normal_z = in.walkable_normal_z();
  if (in.has_ground_probe()) out.ground_probe = in.ground_probe();
  if (in.has_tolerance()) out.tolerance = in.tolerance();
  if (in.has_airborne_envelope()) out.airborne_envelope = in.airborne_envelope();
  if (in.has_ground_friction()) out.ground_friction = in.ground_friction();
  if (in.has_ground_accelerate()) out.ground_accelerate = in.ground_accelerate();
  if (in.has_air_acceleration()) out.air_acceleration = in.air_acceleration();
  return violations.total() == before;
}

void ToProto(const MovementModel& in, v1::MovementModel* out) {
  for (const Stance& s : in.stances) {
    v1::Stance* stance = out->add_stances();
    ToProto(s.shape, stance->mutable_shape());
    stance->set_max_speed(s.max_speed);
  }
  out->set_air_speed(in.air_speed);
  out->set_gravity(in.gravity);
  out->set_jump_speed(in.jump_speed);
  out->set_max_fall_speed(in.max_fall_speed);
  out->set_step_height(in.step_height);
  out->set_walkable_normal_z(in.walkable_normal_z);
  out->set_ground_probe(in.ground_probe);
  out->set_tolerance(in.tolerance);
  out->set_airborne_envelope(in.airborne_envelope);
  out->set_ground_friction(in.ground_friction);
  out->set_ground_accelerate(in.ground_accelerate);
  out->set_air_acceleration(in.air_acceleration);
}

MoveBudget FromProto(const v1::MoveBudget& in) {
  return {in.tick_seconds(), in.window() == 0.0 ? 1.0 : in.window(), in.max_speed(), in.time_slack(),
          in.distance_slack()};
}

void ToProto(const MoveBudget& in, v1::MoveBudget* out) {
  out->set_tick_seconds(in.tick_seconds);
  out->set_window(in.window);
  out->set_max_speed(in.max_speed);
  out->set_time_slack(in.time_slack);
  out->set_distance_slack(in.distance_slack);
}

}  // namespace collide::convert
