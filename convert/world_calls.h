// The world calls as one world runs them: decode -> core World -> encode for
// each part of a Tick message (frame, query, rays_packed, shots,
// shots_packed, moves, projectiles, melee, visibility, bodies), and the message's parts in their order. The
// server's handlers (server/world_service.cc: locks, admission, limits and memory accounting around these)
// and a replay of a recording (record/replay.h) both run these functions, so that a replay answers a recorded
// call with the same bytes by construction.
#ifndef COLLIDE_CONVERT_WORLD_CALLS_H_
#define COLLIDE_CONVERT_WORLD_CALLS_H_

#include <cstddef>
#include <cstdint>
#include <optional>

#include "absl/functional/function_ref.h"
#include "collide/v1/world.pb.h"
#include "collide/world.h"
#include "convert/request_error.h"

namespace collide::convert {

// What running a call came to: nullopt when answered, else why not.
using CallOutcome = std::optional<RequestError>;

// The world the calls run on, and how: the server reads it under its shared
// lock and pushes frames through its registry (limits, memory accounting);
// a replay owns its World outright.
class WorldAccess {
 public:
  virtual ~WorldAccess() = default;
  // Runs `read` on the world as one consistent frame.
  virtual void Read(absl::FunctionRef<void(const World&)> read) = 0;
  // Refuses body `index` of a frame with `parts` parts before it is decoded.
  virtual CallOutcome CheckBodyParts(int index, int parts) = 0;
  // Appends the decoded `frame` (`parts` parts in all); sets `oldest_tick`.
  virtual CallOutcome PushFrame(const Frame& frame, std::int64_t parts, std::int64_t& oldest_tick) = 0;
};

struct WorldCallLimits {
  // --max_items_per_request: a batch over it is RESOURCE_EXHAUSTED.
  int max_items_per_request = 65536;
  // Most ray hits and overlap results one QueryWorld answer keeps
  // (MaxKeptResults of --max_send_message_bytes).
  std::size_t max_kept_results = (std::size_t{64} << 20) / 128;
};

// Bytes of answer each kept ray hit or overlap result stands for: an encoded
// ray hit is about 70 bytes, so an answer at the cap fits
// --max_send_message_bytes (64 MiB: 524,288 results), and the core's
// results, the response and its bytes stay a bounded multiple of it.
// Per-query caps (max_hits, max_results up to 4096) alone would let 512 rays
// of 20 KB keep 2 million hits (812 MB, then a 145 MB answer gRPC refuses).
inline constexpr std::size_t kAnswerBytesPerKeptResult = 128;
inline std::size_t MaxKeptResults(int max_send_message_bytes) {
  return static_cast<std::size_t>(max_send_message_bytes) / kAnswerBytesPerKeptResult;
}

// What the core's refusal of a frame (World::PushFrame) answers:
// FAILED_PRECONDITION for a tick not after the latest, INVALID_ARGUMENT with
// the problems under "frame"; nullopt for kOk.
CallOutcome FrameOutcome(FrameError& error);

// One part each; the response is meant only when the outcome is nullopt.
CallOutcome RunFrame(WorldAccess& world, const v1::Frame& frame, v1::PushFrameResponse* response);
CallOutcome RunQuery(WorldAccess& world, const WorldCallLimits& limits, const v1::QueryWorldRequest& request,
                     v1::QueryWorldResponse* response);
CallOutcome RunRaysPacked(WorldAccess& world, const WorldCallLimits& limits,
                          const v1::CastWorldRaysPackedRequest& request,
                          v1::CastWorldRaysPackedResponse* response);
CallOutcome RunShots(WorldAccess& world, const WorldCallLimits& limits,
                     const v1::ValidateShotsRequest& request, v1::ValidateShotsResponse* response);
CallOutcome RunShotsPacked(WorldAccess& world, const WorldCallLimits& limits,
                           const v1::ValidateShotsPackedRequest& request,
                           v1::ValidateShotsResponse* response);
CallOutcome RunMoves(WorldAccess& world, const WorldCallLimits& limits,
                     const v1::ValidateMovesRequest& request, v1::ValidateMovesResponse* response);
CallOutcome RunProjectiles(WorldAccess& world, const WorldCallLimits& limits,
                           const v1::ValidateProjectilesRequest& request,
                           v1::ValidateProjectilesResponse* response);
CallOutcome RunMelee(WorldAccess& world, const WorldCallLimits& limits,
                     const v1::ValidateMeleeRequest& request, v1::ValidateMeleeResponse* response);
CallOutcome RunVisibility(WorldAccess& world, const WorldCallLimits& limits,
                          const v1::GetVisibilityRequest& request, v1::GetVisibilityResponse* response);
CallOutcome RunBodies(WorldAccess& world, const WorldCallLimits& limits, const v1::GetBodiesRequest& request,
                      v1::GetBodiesResponse* response);

// Microseconds each verdict part of a Tick message took (0: not run).
struct TickPartMicros {
  double shots = 0;
  double shots_packed = 0;
  double moves = 0;
};

// A Tick message's parts in order (frame, then the batches in field order,
// then bodies),
// each answered into `response` (its arena, if any, holds the answers); the
// first error ends the message, with RequestError::part naming its part.
// The message's own checks (budget, world ids, items, admission) are the
// caller's; the sequence and the status are not set here.
// `micros`, if given, gets each verdict part's time.
CallOutcome RunTickParts(WorldAccess& world, const WorldCallLimits& limits, const v1::TickRequest& request,
                         v1::TickResponse* response, TickPartMicros* micros = nullptr);

}  // namespace collide::convert

#endif  // COLLIDE_CONVERT_WORLD_CALLS_H_
