// A unary world call as the Tick message of its one part, and its answer as
// that message's answer (PushFrame as `frame`, ValidateShots as `shots`,
// ...): the one shape a match recording gives every call, whatever the
// transport (world.proto RecordedCall). The part's world_id is left empty,
// as a Tick message leaves it. GetWorld, CreateWorld and the rest have no
// part, and GetBodies changes nothing to replay: AsTickPart is not declared
// for them.
#ifndef COLLIDE_CONVERT_WORLD_TICK_PARTS_H_
#define COLLIDE_CONVERT_WORLD_TICK_PARTS_H_

#include "collide/v1/world.pb.h"

namespace collide::convert {

void AsTickPart(const v1::PushFrameRequest& in, v1::TickRequest* out);
void AsTickPart(const v1::QueryWorldRequest& in, v1::TickRequest* out);
void AsTickPart(const v1::CastWorldRaysPackedRequest& in, v1::TickRequest* out);
void AsTickPart(const v1::ValidateShotsRequest& in, v1::TickRequest* out);
void AsTickPart(const v1::ValidateShotsPackedRequest& in, v1::TickRequest* out);
void AsTickPart(const v1::ValidateMovesRequest& in, v1::TickRequest* out);

// The part's name in a Tick message, as its errors are prefixed ("shots";
// "" for the frame, whose paths start "frame." already).
inline const char* TickPartName(const v1::PushFrameRequest&) { return ""; }
inline const char* TickPartName(const v1::QueryWorldRequest&) { return "query"; }
inline const char* TickPartName(const v1::CastWorldRaysPackedRequest&) { return "rays_packed"; }
inline const char* TickPartName(const v1::ValidateShotsRequest&) { return "shots"; }
inline const char* TickPartName(const v1::ValidateShotsPackedRequest&) { return "shots_packed"; }
inline const char* TickPartName(const v1::ValidateMovesRequest&) { return "moves"; }

// The answer of the request's part (`request` picks ValidateShots' `shots`
// or ValidateShotsPacked's `shots_packed`).
void AsTickAnswer(const v1::PushFrameRequest&, const v1::PushFrameResponse& in, v1::TickResponse* out);
void AsTickAnswer(const v1::QueryWorldRequest&, const v1::QueryWorldResponse& in, v1::TickResponse* out);
void AsTickAnswer(const v1::CastWorldRaysPackedRequest&, const v1::CastWorldRaysPackedResponse& in,
                  v1::TickResponse* out);
void AsTickAnswer(const v1::ValidateShotsRequest&, const v1::ValidateShotsResponse& in,
                  v1::TickResponse* out);
void AsTickAnswer(const v1::ValidateShotsPackedRequest&, const v1::ValidateShotsResponse& in,
                  v1::TickResponse* out);
void AsTickAnswer(const v1::ValidateMovesRequest&, const v1::ValidateMovesResponse& in,
                  v1::TickResponse* out);

}  // namespace collide::convert

#endif  // COLLIDE_CONVERT_WORLD_TICK_PARTS_H_
