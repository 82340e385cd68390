// Re-judging a match recording: the world built from its header, then each
// recorded call's Tick message run by the same world calls the server runs
// (convert/world_calls.h), so that an unchanged build answers every call
// with the bytes the server sent.
#ifndef COLLIDE_RECORD_REPLAY_H_
#define COLLIDE_RECORD_REPLAY_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "collide/v1/world.pb.h"
#include "collide/world.h"
#include "convert/world_calls.h"

namespace collide::record {

class Replayer {
 public:
  // The world of header.create: its statics decoded, each map file read
  // from `maps_dir` after its size and CRC-32 match header.map_files
  // (FAILED_PRECONDITION naming the file when they differ, INVALID_ARGUMENT
  // when the creation does not decode, with the first violation).
  static absl::StatusOr<std::unique_ptr<Replayer>> Create(const v1::RecordingHeader& header,
                                                          const std::string& maps_dir);

  // Runs one call's message on the world: the answer as the server sends
  // it (sequence, each part answered, an error in `status`). The limits are
  // the server's defaults (WorldCallLimits), not the recording server's.
  v1::TickResponse Run(const v1::TickRequest& request);

  // The world as the calls so far left it (the viewer poses bodies on it).
  const World& world() const { return world_; }

 private:
  explicit Replayer(World world) : world_(std::move(world)) {}
  World world_;
  convert::WorldCallLimits limits_;
};

}  // namespace collide::record

#endif  // COLLIDE_RECORD_REPLAY_H_
