// How the demo and the world bench send a tick's messages: through the Tick
// stream (one stream per world, one message holding every part) or unary
// calls (one per part).
#ifndef COLLIDE_CLIENT_CLI_WORLD_TICK_H_
#define COLLIDE_CLIENT_CLI_WORLD_TICK_H_

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "collide/world_client.h"

namespace collide::cli {

struct TickAnswers {
  std::vector<ShotVerdict> shots;
  std::vector<MoveVerdict> moves;
  std::optional<VisibilityResult> visibility;  // asked for.
};

class TickTransport {
 public:
  virtual ~TickTransport() = default;
  // Pushes `frame` (when given), then validates `shots` (packed) and `moves`
  // (each when not empty), then computes the `visibility` sets (when
  // given), in that order: the verdicts and the sets see the frame.
  virtual absl::StatusOr<TickAnswers> Send(const Frame* frame, std::span<const ShotRequest> shots,
                                           std::span<const MoveRequest> moves,
                                           const VisibilityRequest* visibility) = 0;
  absl::StatusOr<TickAnswers> Send(const Frame* frame, std::span<const ShotRequest> shots,
                                   std::span<const MoveRequest> moves) {
    return Send(frame, shots, moves, nullptr);
  }
  virtual std::string name() const = 0;
};

// `kind`: "unary" (PushFrame, ValidateShotsPacked, ValidateMoves), "stream"
// (the Tick stream), or "auto" (the stream when the server answers it, else
// unary).
absl::StatusOr<std::unique_ptr<TickTransport>> MakeTickTransport(WorldClient& client,
                                                                 const std::string& world_id,
                                                                 const std::string& kind);

}  // namespace collide::cli

#endif  // COLLIDE_CLIENT_CLI_WORLD_TICK_H_
