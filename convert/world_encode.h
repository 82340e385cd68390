// The client's direction of the world wire (world.proto): core world requests
// (world.h) -> collide.v1 requests, and collide.v1 world results -> core
// results. The inverse of world_requests.h and world_results.h / the packed
// encoders of world_packed.h, so that a value sent through both directions
// answers as the core does (tests/client/world_client_test.cc).
//
// What the wire cannot say: a category mask of 0 (the core's 0 sees nothing;
// the wire's 0 means all 64 bits), in filters and moves alike; it is sent
// as 0.
#ifndef COLLIDE_CONVERT_WORLD_ENCODE_H_
#define COLLIDE_CONVERT_WORLD_ENCODE_H_

#include <optional>
#include <span>
#include <vector>

#include "collide/mesh_data.h"
#include "collide/v1/world.pb.h"
#include "collide/world.h"

namespace collide::convert {

// Requests: core -> wire.
void ToProto(const Quat& in, v1::Quaternion* out);
void ToProto(const Pose& in, v1::Pose* out);
void ToProto(const MeshData& in, v1::Mesh* out);
void ToProto(const Frame& in, v1::Frame* out);
// `at` unset leaves the filter's time unset (the latest frame).
void ToProto(const QueryFilter& filter, const std::optional<Time>& at, v1::SceneFilter* out);
void ToProto(const RayQuery& in, v1::WorldRayCast* out);
void ToProto(const ShapeCastQuery& in, v1::WorldShapeCast* out);
void ToProto(const OverlapQuery& in, v1::WorldOverlap* out);
void ToProto(const ShotRequest& in, v1::Shot* out);
void ToProto(const MoveRequest& in, v1::Move* out);
// A target mask of all bits is sent as 0 (all).
void ToProto(const VisibilityRequest& in, v1::GetVisibilityRequest* out);
// The packed shot arrays (world_packed.h's layout), appended to `out`; the
// batch's explain flag set when any shot asks (the wire's flag is per batch).
void EncodePacked(std::span<const ShotRequest> shots, v1::ValidateShotsPackedRequest* out);

// Results: wire -> core. Fields the wire leaves unset read as the core's
// defaults; a result's `valid` is true (the server answers invalid items
// with INVALID_ARGUMENT instead).
Pose FromProto(const v1::Pose& in);  // unset position: origin; unset rotation: identity.
HitTarget FromProto(const v1::Target& in);
TimeUsed FromProto(const v1::TimeUsed& in);
WorldRayHit FromProto(const v1::WorldRayHit& in);
RayQueryResult FromProto(const v1::WorldRayResult& in);
ShapeCastResult FromProto(const v1::WorldShapeCastResult& in);
OverlapQueryResult FromProto(const v1::WorldOverlapResult& in);
ShotVerdict FromProto(const v1::ShotVerdict& in);
MoveVerdict FromProto(const v1::MoveVerdict& in);
VisibilityResult FromProto(const v1::GetVisibilityResponse& in);
// The settings a WorldInfo reports (history_ticks and every policy field).
WorldSettings SettingsFromProto(const v1::WorldInfo& in);
// The packed rays' answers for n rays, one closest hit at most each, all with
// the response's time. False when the arrays do not hold n entries.
bool DecodePacked(const v1::CastWorldRaysPackedResponse& in, std::size_t n, std::vector<RayQueryResult>& out);

}  // namespace collide::convert

#endif  // COLLIDE_CONVERT_WORLD_ENCODE_H_
