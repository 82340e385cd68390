// WorldClient's internals, shared by its unary calls (world_client.cc) and
// the tick stream (tick_stream.cc): the stub, the kept worlds and their
// re-creation, and the conversions of batches both use.
#ifndef COLLIDE_CLIENT_SRC_WORLD_CLIENT_IMPL_H_
#define COLLIDE_CLIENT_SRC_WORLD_CLIENT_IMPL_H_

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "client_internals.h"
#include "collide/v1/world.grpc.pb.h"
#include "collide/world_client.h"
#include "convert/world_encode.h"
#include "convert/world_tick_parts.h"
#include "kept_world.h"
#include "rpc_status.h"

namespace collide {

inline constexpr char kWorldHeader[] = "collide-world";

// SceneQueries -> the request's three lists (appended).
void EncodeQueries(const SceneQueries& queries, v1::QueryWorldRequest& out);
// Answers, checked to hold one result per query (INTERNAL otherwise).
absl::StatusOr<SceneAnswers> DecodeAnswers(const v1::QueryWorldResponse& response,
                                           const SceneQueries& queries);
absl::StatusOr<std::vector<RayQueryResult>> DecodeRays(const v1::CastWorldRaysPackedResponse& response,
                                                       std::size_t n);
absl::StatusOr<std::vector<ShotVerdict>> DecodeShots(const v1::ValidateShotsResponse& response,
                                                     std::size_t n);
absl::StatusOr<std::vector<MoveVerdict>> DecodeMoves(const v1::ValidateMovesResponse& response,
                                                     std::size_t n);

struct WorldClient::Impl {
  std::shared_ptr<grpc::Channel> channel;
  ClientOptions options;
  WorldClientOptions world_options;
  std::unique_ptr<v1::WorldService::Stub> stub;
  std::mutex mu;  // guards kept.
  std::map<std::string, KeptWorld, std::less<>> kept;
  std::atomic<std::int64_t> losses{0};

  Impl(std::shared_ptr<grpc::Channel> c, ClientOptions o, WorldClientOptions w)
      : channel(std::move(c)),
        options(std::move(o)),
        world_options(std::move(w)),
        stub(v1::WorldService::NewStub(channel)) {}

  // A context with the deadline, the token and, for a world's call, the
  // routing header.
  void Prepare(grpc::ClientContext& context, std::string_view world_id) const {
    context.set_deadline(absl::ToChronoTime(absl::Now() + options.deadline));
    AddAuthorization(options, context);
    if (!world_id.empty()) context.AddMetadata(kWorldHeader, std::string(world_id));
  }

  template <typename Request, typename Response>
  absl::Status Call(grpc::Status (v1::WorldService::Stub::*method)(grpc::ClientContext*, const Request&,
                                                                   Response*),
                    std::string_view world_id, const Request& request, Response& response) {
    grpc::ClientContext context;
    Prepare(context, world_id);
    return FromGrpcStatus((stub.get()->*method)(&context, request, &response));
  }

  // `call` (a function returning absl::Status), and once more after
  // re-creating the world when it answers WORLD_NOT_FOUND for a kept world.
  template <typename Fn>
  absl::Status WithRecreation(std::string_view world_id, Fn&& call) {
    absl::Status status = call();
    if (status.ok() || !world_options.recreate_lost_worlds || !IsWorldNotFound(status)) return status;
    absl::StatusOr<bool> recreated = Recreate(world_id, status);
    if (!recreated.ok()) {
      absl::Status out(
          status.code(),
          absl::StrCat(status.message(), "; re-creating it failed: ", recreated.status().ToString()));
      status.ForEachPayload([&out](absl::string_view url, const absl::Cord& p) { out.SetPayload(url, p); });
      return out;
    }
    return *recreated ? call() : status;
  }

  // Call on a world, repeated once after re-creating it when lost
  // (WithRecreation): every world method's round trip.
  template <typename Request, typename Response>
  absl::Status CallInWorld(grpc::Status (v1::WorldService::Stub::*method)(grpc::ClientContext*,
                                                                          const Request&, Response*),
                           std::string_view world_id, const Request& request, Response& response) {
    const absl::Status status =
        WithRecreation(world_id, [&] { return Call(method, world_id, request, response); });
    if constexpr (requires(v1::TickRequest * tick) { convert::AsTickPart(request, tick); }) {
      if (status.ok() && world_options.recorder != nullptr) {
        v1::TickRequest tick;
        v1::TickResponse answer;
        convert::AsTickPart(request, &tick);
        convert::AsTickAnswer(request, response, &answer);
        world_options.recorder->Called(world_id, tick, answer);
      }
    }
    return status;
  }

  // Folds an accepted frame into the kept state of the world (if kept).
  void Keep(std::string_view world_id, const Frame& frame) {
    if (!world_options.recreate_lost_worlds) return;
    std::lock_guard lock(mu);
    if (const auto it = kept.find(world_id); it != kept.end()) it->second.bodies.Apply(frame);
  }

  // Creates the world again from its kept request and pushes the kept state;
  // false when nothing is kept for it. A concurrent re-creation by another
  // thread or client (ALREADY_EXISTS, then a frame not after the latest) is
  // success.
  absl::StatusOr<bool> Recreate(std::string_view world_id, const absl::Status& cause) {
    v1::CreateWorldRequest request;
    std::optional<Frame> state;
    {
      std::lock_guard lock(mu);
      const auto it = kept.find(world_id);
      if (it == kept.end()) return false;
      request = it->second.request;
      state = it->second.bodies.Snapshot();
    }
    v1::WorldInfo info;
    absl::Status s = Call(&v1::WorldService::Stub::CreateWorld, world_id, request, info);
    if (!s.ok() && s.code() != absl::StatusCode::kAlreadyExists) return s;
    if (state) {
      v1::PushFrameRequest push;
      push.set_world_id(std::string(world_id));
      convert::ToProto(*state, push.mutable_frame());
      v1::PushFrameResponse pushed;
      s = Call(&v1::WorldService::Stub::PushFrame, world_id, push, pushed);
      if (!s.ok() && s.code() != absl::StatusCode::kFailedPrecondition) return s;
    }
    losses.fetch_add(1, std::memory_order_relaxed);
    if (world_options.on_history_lost) {
      world_options.on_history_lost(HistoryLoss{std::string(world_id), cause,
                                                state ? std::optional(state->tick) : std::nullopt,
                                                state ? static_cast<int>(state->bodies.size()) : 0});
    }
    return true;
  }
};

}  // namespace collide

#endif  // COLLIDE_CLIENT_SRC_WORLD_CLIENT_IMPL_H_
