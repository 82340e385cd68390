// world.proto MovementModel <-> the core's (collide/movement.h): a preset
// with the fields set replacing its values.
#ifndef COLLIDE_CONVERT_WORLD_MOVEMENT_H_
#define COLLIDE_CONVERT_WORLD_MOVEMENT_H_

#include <string>

#include "collide/movement.h"
#include "collide/v1/world.pb.h"
#include "convert/violations.h"

namespace collide::convert {

// The model `in` describes; shapes that do not decode and an unknown preset
// are violations under `path` ("policy.movement"). The values are checked by
// the core (ValidateMovementModel).
bool DecodeMovement(const v1::MovementModel& in, const std::string& path, MovementModel& out,
                    ViolationList& violations);

// Every field set, no preset.
void ToProto(const MovementModel& in, v1::MovementModel* out);

}  // namespace collide::convert

#endif  // COLLIDE_CONVERT_WORLD_MOVEMENT_H_
