// How the demo and the world bench send a tick's messages: through the Tick
// stream (one stream per world, messages pipelined) or unary calls.
#ifndef COLLIDE_CLIENT_CLI_WORLD_TICK_H_
#define COLLIDE_CLIENT_CLI_WORLD_TICK_H_

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "collide/world_client.h"

namespace collide::cli {

class TickTransport {
 public:
  virtual ~TickTransport() = default;
  virtual absl::StatusOr<std::vector<MoveVerdict>> ValidateMoves(std::span<const MoveRequest> moves) = 0;
  // Pushes `frame`, then validates `shots` against it.
  virtual absl::StatusOr<std::vector<ShotVerdict>> PushFrameAndShoot(const Frame& frame,
                                                                     std::span<const ShotRequest> shots) = 0;
  virtual std::string name() const = 0;
};

// `kind`: "unary" (PushFrame, ValidateMoves, ValidateShotsPacked), "stream"
// (the Tick stream), or "auto" (the stream when the server answers it, else
// unary).
absl::StatusOr<std::unique_ptr<TickTransport>> MakeTickTransport(WorldClient& client,
                                                                 const std::string& world_id,
                                                                 const std::string& kind);

}  // namespace collide::cli

#endif  // COLLIDE_CLIENT_CLI_WORLD_TICK_H_
