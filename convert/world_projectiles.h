// Projectile and melee verdicts on the wire (world.proto's Projectile,
// Melee and their verdicts) <-> the core's (collide/projectile.h,
// collide/melee.h), both directions: the server decodes requests and
// encodes verdicts, the C++ client the reverse. The numbers are the core's
// to validate per item (INVALID with its field names, which are the
// proto's but for the claim: ProtoFieldName).
#ifndef COLLIDE_CONVERT_WORLD_PROJECTILES_H_
#define COLLIDE_CONVERT_WORLD_PROJECTILES_H_

#include <vector>

#include "collide/melee.h"
#include "collide/projectile.h"
#include "collide/v1/world.pb.h"

namespace collide::convert {

// Server: requests in, verdicts out.
std::vector<ProjectileRequest> DecodeProjectiles(const v1::ValidateProjectilesRequest& in);
std::vector<MeleeRequest> DecodeMelee(const v1::ValidateMeleeRequest& in);
void ToProto(const ProjectileVerdict& in, v1::ProjectileVerdict* out);
void ToProto(const MeleeVerdict& in, v1::MeleeVerdict* out);

// Client: requests out, verdicts in.
void ToProto(const ProjectileRequest& in, v1::Projectile* out);
void ToProto(const MeleeRequest& in, v1::Melee* out);
ProjectileVerdict FromProto(const v1::ProjectileVerdict& in);
MeleeVerdict FromProto(const v1::MeleeVerdict& in);

}  // namespace collide::convert

#endif  // COLLIDE_CONVERT_WORLD_PROJECTILES_H_
