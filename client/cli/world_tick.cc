#include "world_tick.h"

namespace collide::cli {
namespace {

class UnaryTransport final : public TickTransport {
 public:
  UnaryTransport(WorldClient& client, std::string world_id) : client_(client), id_(std::move(world_id)) {}
  absl::StatusOr<std::vector<MoveVerdict>> ValidateMoves(std::span<const MoveRequest> moves) override {
    return client_.ValidateMoves(id_, moves);
  }
  absl::StatusOr<std::vector<ShotVerdict>> PushFrameAndShoot(const Frame& frame,
                                                             std::span<const ShotRequest> shots) override {
    if (absl::StatusOr<std::int64_t> pushed = client_.PushFrame(id_, frame); !pushed.ok())
      return pushed.status();
    return client_.ValidateShotsPacked(id_, shots);
  }
  std::string name() const override { return "unary calls"; }

 private:
  WorldClient& client_;
  std::string id_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<TickTransport>> MakeTickTransport(WorldClient& client,
                                                                 const std::string& world_id,
                                                                 const std::string& kind) {
  if (kind == "unary" || kind == "auto") return std::make_unique<UnaryTransport>(client, world_id);
  if (kind == "stream") return absl::UnimplementedError("the Tick stream is not in this client yet");
  return absl::InvalidArgumentError("--transport must be auto, stream or unary, not \"" + kind + "\"");
}

}  // namespace collide::cli
