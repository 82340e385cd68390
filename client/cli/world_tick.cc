#include "world_tick.h"

namespace collide::cli {
namespace {

class UnaryTransport final : public TickTransport {
 public:
  UnaryTransport(WorldClient& client, std::string world_id) : client_(client), id_(std::move(world_id)) {}
  absl::StatusOr<TickAnswers> Send(const Frame* frame, std::span<const ShotRequest> shots,
                                   std::span<const MoveRequest> moves) override {
    TickAnswers out;
    if (frame != nullptr) {
      if (absl::StatusOr<std::int64_t> pushed = client_.PushFrame(id_, *frame); !pushed.ok())
        return pushed.status();
    }
    if (!shots.empty()) {
      absl::StatusOr<std::vector<ShotVerdict>> verdicts = client_.ValidateShotsPacked(id_, shots);
      if (!verdicts.ok()) return verdicts.status();
      out.shots = *std::move(verdicts);
    }
    if (!moves.empty()) {
      absl::StatusOr<std::vector<MoveVerdict>> verdicts = client_.ValidateMoves(id_, moves);
      if (!verdicts.ok()) return verdicts.status();
      out.moves = *std::move(verdicts);
    }
    return out;
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
