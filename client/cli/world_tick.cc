#include "world_tick.h"

namespace collide::cli {
namespace {

class UnaryTransport final : public TickTransport {
 public:
  UnaryTransport(WorldClient& client, std::string world_id) : client_(client), id_(std::move(world_id)) {}
  absl::StatusOr<TickAnswers> Send(const Frame* frame, std::span<const ShotRequest> shots,
                                   std::span<const MoveRequest> moves,
                                   const VisibilityRequest* visibility) override {
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
    if (visibility != nullptr) {
      absl::StatusOr<VisibilityResult> sets = client_.GetVisibility(id_, *visibility);
      if (!sets.ok()) return sets.status();
      out.visibility = *std::move(sets);
    }
    return out;
  }
  std::string name() const override { return "unary calls"; }

 private:
  WorldClient& client_;
  std::string id_;
};

// One stream message per Send, all parts in it.
class StreamTransport final : public TickTransport {
 public:
  explicit StreamTransport(std::unique_ptr<TickStream> stream) : stream_(std::move(stream)) {}
  ~StreamTransport() override { stream_->Finish().IgnoreError(); }
  absl::StatusOr<TickAnswers> Send(const Frame* frame, std::span<const ShotRequest> shots,
                                   std::span<const MoveRequest> moves,
                                   const VisibilityRequest* visibility) override {
    TickMessage m;
    if (frame != nullptr) m.frame = *frame;
    m.shots.assign(shots.begin(), shots.end());
    m.moves.assign(moves.begin(), moves.end());
    if (visibility != nullptr) m.visibility = *visibility;
    absl::StatusOr<TickReply> reply = stream_->Send(std::move(m));
    if (!reply.ok()) return reply.status();
    if (!reply->status.ok()) return reply->status;
    return TickAnswers{std::move(reply->shots), std::move(reply->moves), std::move(reply->visibility)};
  }
  std::string name() const override { return "the Tick stream"; }

 private:
  std::unique_ptr<TickStream> stream_;
};

// A stream whose first message (a ping) is answered.
absl::StatusOr<std::unique_ptr<TickStream>> OpenStream(WorldClient& client, const std::string& world_id) {
  absl::StatusOr<std::unique_ptr<TickStream>> stream = client.OpenTickStream(world_id);
  if (!stream.ok()) return stream.status();
  absl::StatusOr<TickReply> ping = (*stream)->Send({});
  if (!ping.ok()) return ping.status();
  if (!ping->status.ok()) return ping->status;
  return stream;
}

}  // namespace

absl::StatusOr<std::unique_ptr<TickTransport>> MakeTickTransport(WorldClient& client,
                                                                 const std::string& world_id,
                                                                 const std::string& kind) {
  if (kind == "unary") return std::make_unique<UnaryTransport>(client, world_id);
  if (kind == "stream" || kind == "auto") {
    absl::StatusOr<std::unique_ptr<TickStream>> stream = OpenStream(client, world_id);
    if (stream.ok()) return std::make_unique<StreamTransport>(*std::move(stream));
    // A server from before the stream answers UNIMPLEMENTED.
    if (kind == "stream" || stream.status().code() != absl::StatusCode::kUnimplemented)
      return stream.status();
    return std::make_unique<UnaryTransport>(client, world_id);
  }
  return absl::InvalidArgumentError("--transport must be auto, stream or unary, not \"" + kind + "\"");
}

}  // namespace collide::cli
