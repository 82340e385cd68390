// The vertical arc of an airborne body: z(t) = z0 + v0 t - g t^2 / 2 until
// it falls at the terminal speed, then linear (Quake, Source and Unreal
// integrate gravity so; Source and Unreal clamp the fall speed).
#ifndef COLLIDE_CORE_SRC_WORLD_ARC_H_
#define COLLIDE_CORE_SRC_WORLD_ARC_H_

namespace collide::internal {

struct Arc {
  double gravity = 0.0;         // > 0
  double max_fall_speed = 0.0;  // > 0
  // Height gained after t >= 0 seconds from take-off speed v0 >= -max_fall_speed.
  double Height(double v0, double t) const;
  // The take-off speed whose Height at t > 0 is dz (Height is increasing in
  // v0; below the lowest arc, the line through it with slope t).
  double SpeedFor(double dz, double t) const;
};

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_WORLD_ARC_H_
