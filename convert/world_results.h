// Core world results (world.h) -> collide.v1 world responses (world.proto).
// Never fails. Invalid queries become INVALID_ARGUMENT before encoding; an
// INVALID verdict is encoded with its violations alone.
#ifndef COLLIDE_CONVERT_WORLD_RESULTS_H_
#define COLLIDE_CONVERT_WORLD_RESULTS_H_

#include <string>
#include <string_view>

#include "collide/v1/world.pb.h"
#include "collide/world.h"

namespace collide::convert {

void ToProto(const HitTarget& in, v1::Target* out);
void ToProto(const TimeUsed& in, v1::TimeUsed* out);
void ToProto(const WorldRayHit& in, v1::WorldRayHit* out);
void ToProto(const RayQueryResult& in, v1::WorldRayResult* out);
void ToProto(const ShapeCastResult& in, v1::WorldShapeCastResult* out);
void ToProto(const OverlapQueryResult& in, v1::WorldOverlapResult* out);
// A shot's or move's field as world.proto names it: the core's names but
// for a shot's ray "max_distance" ("max_range") and its claim
// ("claimed.body_id").
std::string ProtoFieldName(std::string_view core_field);
void ToProto(const ShotVerdict& in, v1::ShotVerdict* out);
void ToProto(const MoveVerdict& in, v1::MoveVerdict* out);
void ToProto(const VisibilityResult& in, v1::GetVisibilityResponse* out);
void ToProto(const VisibilityGridInfo& in, v1::VisibilityGrid* out);
// The settings as a policy with every field set.
void ToProto(const WorldSettings& in, v1::WorldPolicy* out);

}  // namespace collide::convert

#endif  // COLLIDE_CONVERT_WORLD_RESULTS_H_
