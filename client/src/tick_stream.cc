// The Tick stream of WorldClient: messages encoded with the unary calls'
// conversions, answers matched to their messages by sequence, and the
// re-creation of a lost world followed by one more attempt of each message
// that found it missing (world_client.h, TickStream).
#include <algorithm>
#include <deque>
#include <map>
#include <memory>

#include "collide/world_client.h"
#include "collide/world_client_proto.h"
#include "convert/packed.h"
#include "convert/world_encode.h"
#include "convert/world_explain.h"
#include "convert/world_projectiles.h"
#include "google/protobuf/arena.h"
#include "world_client_impl.h"

namespace collide {

namespace pb = ::collide::v1;

namespace {

// A message on its own arena: a tick message of a 64-player match (a frame,
// 64 moves, 10 shots) or its answer is hundreds of sub-messages, each a
// malloc and a free on the heap; on an arena, one block (sized for such a
// message) freed at once.
template <typename Message>
struct OnArena {
  static google::protobuf::ArenaOptions Options() {
    google::protobuf::ArenaOptions options;
    options.start_block_size = 32 << 10;
    options.max_block_size = 256 << 10;
    return options;
  }
  std::unique_ptr<google::protobuf::Arena> arena = std::make_unique<google::protobuf::Arena>(Options());
  Message* message = google::protobuf::Arena::CreateMessage<Message>(arena.get());
};

bool HasQueries(const SceneQueries& q) {
  return !q.rays.empty() || !q.shape_casts.empty() || !q.overlaps.empty();
}

void Encode(const TickMessage& m, std::int64_t sequence, pb::TickRequest& out) {
  out.set_sequence(sequence);
  out.set_budget_ms(m.budget_ms);
  if (m.frame) convert::ToProto(*m.frame, out.mutable_frame());
  if (HasQueries(m.query)) EncodeQueries(m.query, *out.mutable_query());
  if (!m.rays.empty()) {
    convert::PackRays(m.rays, out.mutable_rays_packed()->mutable_rays());
    convert::ToProto(m.rays_filter, m.rays_at, out.mutable_rays_packed()->mutable_filter());
  }
  if (!m.shots.empty()) convert::EncodePacked(m.shots, out.mutable_shots_packed());
  for (const MoveRequest& move : m.moves) convert::ToProto(move, out.mutable_moves()->add_moves());
  if (std::ranges::any_of(m.moves, &MoveRequest::explain)) out.mutable_moves()->set_explain(true);
  if (m.bodies) convert::ToProto(m.bodies->at, m.bodies->ids, out.mutable_bodies());
  for (const ProjectileRequest& p : m.projectiles) {
    convert::ToProto(p, out.mutable_projectiles()->add_projectiles());
  }
  for (const MeleeRequest& swing : m.melee) convert::ToProto(swing, out.mutable_melee()->add_melee());
  if (m.visibility) convert::ToProto(*m.visibility, out.mutable_visibility());
}

absl::StatusOr<TickReply> Decode(const TickMessage& m, const pb::TickResponse& r) {
  TickReply out;
  out.sequence = r.sequence();
  if (r.has_status()) out.status = FromRpcStatus(r.status());
  if (r.has_frame()) out.oldest_tick = r.frame().oldest_tick();
  if (r.has_query()) {
    absl::StatusOr<SceneAnswers> answers = DecodeAnswers(r.query(), m.query);
    if (!answers.ok()) return answers.status();
    out.query = *std::move(answers);
  }
  if (r.has_rays_packed()) {
    absl::StatusOr<std::vector<RayQueryResult>> rays = DecodeRays(r.rays_packed(), m.rays.size());
    if (!rays.ok()) return rays.status();
    out.rays = *std::move(rays);
  }
  if (r.has_shots_packed()) {
    absl::StatusOr<std::vector<ShotVerdict>> shots = DecodeShots(r.shots_packed(), m.shots.size());
    if (!shots.ok()) return shots.status();
    out.shots = *std::move(shots);
  }
  if (r.has_moves()) {
    absl::StatusOr<std::vector<MoveVerdict>> moves = DecodeMoves(r.moves(), m.moves.size());
    if (!moves.ok()) return moves.status();
    out.moves = *std::move(moves);
  }
  if (r.has_bodies()) out.bodies = convert::FromProto(r.bodies());
  if (r.has_projectiles()) {
    absl::StatusOr<std::vector<ProjectileVerdict>> p =
        DecodeProjectiles(r.projectiles(), m.projectiles.size());
    if (!p.ok()) return p.status();
    out.projectiles = *std::move(p);
  }
  if (r.has_melee()) {
    absl::StatusOr<std::vector<MeleeVerdict>> swings = DecodeMelee(r.melee(), m.melee.size());
    if (!swings.ok()) return swings.status();
    out.melee = *std::move(swings);
  }
  if (r.has_visibility()) out.visibility = convert::FromProto(r.visibility());
  return out;
}

}  // namespace

struct TickStream::Impl {
  struct Pending {
    std::int64_t sequence = 0;
    TickMessage message;
    OnArena<pb::TickRequest> request;
    bool retried = false;
  };

  Impl(WorldClient::Impl& w, std::string_view id) : world(w), world_id(id) {}

  // The stream has ended: its final status (never OK while answers are due).
  absl::Status End() {
    if (!finished) {
      finished = true;
      final_status = FromGrpcStatus(stream->Finish());
    }
    if (final_status.ok()) return absl::InternalError("client: the tick stream ended with answers due");
    return final_status;
  }

  // Reads the next answer into `early`; false when the stream has ended.
  bool ReadAhead() {
    OnArena<pb::TickResponse> response;
    if (finished || !stream->Read(response.message)) return false;
    const std::int64_t sequence = response.message->sequence();
    early.insert_or_assign(sequence, std::move(response));
    return true;
  }

  WorldClient::Impl& world;
  std::string world_id;
  grpc::ClientContext context;
  std::unique_ptr<grpc::ClientReaderWriter<pb::TickRequest, pb::TickResponse>> stream;
  std::deque<Pending> pending;                              // written, not read, in order.
  std::map<std::int64_t, OnArena<pb::TickResponse>> early;  // answers read ahead of their turn.
  std::int64_t next_sequence = 1;
  bool finished = false;
  absl::Status final_status;
};

TickStream::TickStream(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

TickStream::~TickStream() {
  if (impl_ == nullptr || impl_->finished) return;
  impl_->context.TryCancel();
  (void)impl_->stream->Finish();  // CANCELLED: nobody waits for it.
}

absl::StatusOr<std::int64_t> TickStream::Write(TickMessage message) {
  Impl& s = *impl_;
  if (s.finished) return s.End();
  Impl::Pending p{s.next_sequence++, std::move(message), {}, false};
  Encode(p.message, p.sequence, *p.request.message);
  if (!s.stream->Write(*p.request.message)) return s.End();
  s.pending.push_back(std::move(p));
  return s.pending.back().sequence;
}

absl::StatusOr<TickReply> TickStream::Read() {
  Impl& s = *impl_;
  if (s.pending.empty()) return absl::FailedPreconditionError("client: no tick message awaits an answer");
  for (;;) {
    Impl::Pending& front = s.pending.front();
    auto it = s.early.find(front.sequence);
    if (it == s.early.end()) {
      if (!s.ReadAhead()) return s.End();
      continue;
    }
    const OnArena<pb::TickResponse> held = std::move(it->second);
    s.early.erase(it);
    const pb::TickResponse& response = *held.message;
    const absl::Status own = response.has_status() ? FromRpcStatus(response.status()) : absl::OkStatus();
    if (IsWorldNotFound(own) && s.world.world_options.recreate_lost_worlds && !front.retried) {
      // Every message in flight is answered before the world is created
      // again, so that none runs on a world re-created but not yet given
      // its state; then the lost one and each behind it that also found the
      // world missing go again, in order.
      for (std::size_t k = 1; k < s.pending.size(); ++k) {
        while (!s.early.contains(s.pending[k].sequence)) {
          if (!s.ReadAhead()) return s.End();
        }
      }
      absl::StatusOr<bool> recreated = s.world.Recreate(s.world_id, own);
      if (recreated.ok() && *recreated) {
        for (Impl::Pending& p : s.pending) {
          if (&p != &front) {
            const auto reply = s.early.find(p.sequence);
            if (p.retried || !reply->second.message->has_status() ||
                !IsWorldNotFound(FromRpcStatus(reply->second.message->status())))
              continue;
            s.early.erase(reply);
          }
          p.retried = true;
          if (!s.stream->Write(*p.request.message)) return s.End();
        }
        continue;
      }
    }
    if (const std::shared_ptr<CallRecorder>& recorder = s.world.world_options.recorder;
        recorder != nullptr && (own.ok() || own.code() == absl::StatusCode::kInvalidArgument ||
                                own.code() == absl::StatusCode::kFailedPrecondition)) {
      recorder->Called(s.world_id, *front.request.message, response);
    }
    absl::StatusOr<TickReply> reply = Decode(front.message, response);
    if (reply.ok() && reply->oldest_tick && front.message.frame)
      s.world.Keep(s.world_id, *front.message.frame);
    s.pending.pop_front();
    return reply;
  }
}

absl::StatusOr<TickReply> TickStream::Send(TickMessage message) {
  if (absl::StatusOr<std::int64_t> written = Write(std::move(message)); !written.ok())
    return written.status();
  return Read();
}

absl::Status TickStream::Finish() {
  Impl& s = *impl_;
  if (s.finished) return s.final_status;
  s.stream->WritesDone();
  pb::TickResponse dropped;
  while (s.stream->Read(&dropped)) {
  }
  s.finished = true;
  s.final_status = FromGrpcStatus(s.stream->Finish());
  return s.final_status;
}

absl::StatusOr<std::unique_ptr<TickStream>> WorldClient::OpenTickStream(std::string_view world_id) {
  auto impl = std::make_unique<TickStream::Impl>(*impl_, world_id);
  // No deadline: a stream lives as long as the match.
  AddAuthorization(impl_->options, impl->context);
  impl->context.AddMetadata(kWorldHeader, std::string(world_id));
  impl->stream = impl_->stub->Tick(&impl->context);
  return std::make_unique<TickStream>(std::move(impl));
}

absl::StatusOr<std::vector<pb::TickResponse>> SendTickMessages(WorldClient& client, std::string_view world_id,
                                                               const std::vector<pb::TickRequest>& requests) {
  WorldClient::Impl& w = *client.impl_;
  grpc::ClientContext context;  // No deadline, as a match's stream.
  AddAuthorization(w.options, context);
  context.AddMetadata(kWorldHeader, std::string(world_id));
  std::unique_ptr<grpc::ClientReaderWriter<pb::TickRequest, pb::TickResponse>> stream =
      w.stub->Tick(&context);
  std::vector<pb::TickResponse> answers;
  answers.reserve(requests.size());
  for (const pb::TickRequest& request : requests) {
    pb::TickResponse answer;
    if (!stream->Write(request) || !stream->Read(&answer)) {
      context.TryCancel();
      const absl::Status ended = FromGrpcStatus(stream->Finish());
      return ended.ok() ? absl::InternalError("client: the tick stream ended with answers due") : ended;
    }
    answers.push_back(std::move(answer));
  }
  stream->WritesDone();
  for (pb::TickResponse extra; stream->Read(&extra);) {
  }
  if (absl::Status ended = FromGrpcStatus(stream->Finish()); !ended.ok()) return ended;
  return answers;
}

}  // namespace collide
