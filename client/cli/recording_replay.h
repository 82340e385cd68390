// TEMPORARY: rebuilds the core World of a recording and applies its frames,
// call by call, until record/replay.h (the Replayer) lands; then this file
// goes and recording_scene.cc uses the Replayer.
#ifndef COLLIDE_CLIENT_CLI_RECORDING_REPLAY_H_
#define COLLIDE_CLIENT_CLI_RECORDING_REPLAY_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "absl/status/statusor.h"
#include "collide/v1/world.pb.h"
#include "collide/world.h"

namespace collide::cli {

class RecordingReplay {
 public:
  // The world of `header.create`; map files are read from `maps_dir`.
  static absl::StatusOr<RecordingReplay> Create(const v1::RecordingHeader& header,
                                                const std::string& maps_dir);

  // Applies the call's frame when the recorded answer says it was applied.
  // Returns whether it was.
  absl::StatusOr<bool> Run(const v1::RecordedCall& call);

  const World& world() const { return *world_; }
  // The ids of the bodies in the latest frame, sorted.
  const std::set<std::int64_t>& bodies() const { return bodies_; }
  // The tick of the frame before the latest (what a move without `from`
  // starts from), if any.
  std::optional<std::int64_t> previous_tick() const { return previous_tick_; }

 private:
  std::unique_ptr<World> world_;
  std::set<std::int64_t> bodies_;
  std::optional<std::int64_t> previous_tick_;
};

}  // namespace collide::cli

#endif  // COLLIDE_CLIENT_CLI_RECORDING_REPLAY_H_
