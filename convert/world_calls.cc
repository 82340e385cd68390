#include "convert/world_calls.h"

#include <algorithm>
#include <chrono>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "convert/world_explain.h"
#include "convert/world_items.h"
#include "convert/world_packed.h"
#include "convert/world_projectiles.h"
#include "convert/world_requests.h"
#include "convert/world_results.h"
#include "google/protobuf/arena.h"

namespace collide::convert {
namespace {

CallOutcome CheckItems(std::size_t items, int max) {
  if (items > static_cast<std::size_t>(max)) return TooManyItems(items, max);
  return std::nullopt;
}

// The core's per-query problems under the request's paths: times sit in the
// filter, a ray's fields in `ray`.
void AddQueryProblems(std::string_view list, std::size_t i, std::string_view rest_under,
                      std::vector<Violation>& problems, ViolationList& violations) {
  for (Violation& v : problems) {
    if (v.field.starts_with("at")) {
      v.field = "filter." + v.field;
    } else if (!rest_under.empty()) {
      v.field = JoinPath(rest_under, v.field);
    }
  }
  AddItemProblems(list, i, problems, violations);
}

RequestError AnswerTooLarge(std::size_t max_kept) {
  return {RequestError::Kind::kLimitExceeded,
          "the answer would keep more than " + std::to_string(max_kept) +
              " ray hits and overlap results (--max_send_message_bytes / " +
              std::to_string(kAnswerBytesPerKeptResult) +
              "); lower max_hits or max_results, or split the call"};
}

// Runs `queries` through `cast` a few at a time, adding each result's kept
// hits to `kept`; false as soon as they pass `max_kept` (the rest not run),
// so that memory stops growing at the cap.
template <typename Query, typename Result, typename Cast>
bool RunChunked(std::span<const Query> queries, Cast cast, std::vector<Result>& out, std::size_t& kept,
                std::size_t max_kept) {
  constexpr std::size_t kChunk = 16;  // At most 16 x 4096 results past the cap.
  out.reserve(queries.size());
  for (std::size_t at = 0; at < queries.size(); at += kChunk) {
    std::vector<Result> part = cast(queries.subspan(at, std::min(kChunk, queries.size() - at)));
    for (Result& r : part) {
      kept += r.hits.size();
      out.push_back(std::move(r));
    }
    if (kept > max_kept) return false;
  }
  return true;
}

// Shot verdicts of decoded `shots`; with all_or_nothing, the invalid ones
// are added by `add_problems` and fail the call.
template <typename AddProblems>
CallOutcome JudgeShots(WorldAccess& world, const std::vector<ShotRequest>& shots, bool all_or_nothing,
                       ViolationList& violations, AddProblems add_problems,
                       v1::ValidateShotsResponse* response) {
  std::vector<ShotVerdict> verdicts;
  world.Read([&](const World& w) { verdicts = w.ValidateShots(shots); });
  for (std::size_t i = 0; all_or_nothing && i < verdicts.size(); ++i) {
    if (verdicts[i].code == ShotCode::kInvalid) add_problems(i, verdicts[i].problems);
  }
  if (!violations.empty()) return InvalidFields(std::move(violations));
  for (const ShotVerdict& v : verdicts) ToProto(v, response->add_verdicts());
  return std::nullopt;
}

// One batch part into a fresh response, moved to (response->*out)() only
// when answered; its errors under `name`. Built on the response's arena
// (the Tick stream's), so that the swap is a pointer swap: an answer on the
// heap costs a malloc per verdict and per Vec3 in it, then a deep copy into
// the arena (~10% of the server's CPU under `collide bench --matches`).
template <typename Request, typename Response, typename RunFn>
CallOutcome RunPart(const char* name, RunFn run, const Request& part, Response* (v1::TickResponse::*out)(),
                    v1::TickResponse* response) {
  google::protobuf::Arena* arena = response->GetArena();
  Response on_heap;
  Response* answer = arena != nullptr ? google::protobuf::Arena::CreateMessage<Response>(arena) : &on_heap;
  if (CallOutcome refused = run(part, answer)) {
    refused->part = name;
    return refused;
  }
  (response->*out)()->Swap(answer);
  return std::nullopt;
}

}  // namespace

CallOutcome FrameOutcome(FrameError& error) {
  switch (error.kind) {
    case FrameError::Kind::kOk:
      break;
    case FrameError::Kind::kTickNotIncreasing:
      return RequestError{RequestError::Kind::kFailedPrecondition, error.message};
    case FrameError::Kind::kInvalid: {
      ViolationList violations;
      violations.AddUnder("frame", error.problems);
      return InvalidFields(std::move(violations));
    }
  }
  return std::nullopt;
}

CallOutcome RunFrame(WorldAccess& world, const v1::Frame& in, v1::PushFrameResponse* response) {
  std::int64_t parts = 0;
  for (int i = 0; i < in.bodies_size(); ++i) {
    if (CallOutcome refused = world.CheckBodyParts(i, in.bodies(i).parts_size())) return refused;
    parts += in.bodies(i).parts_size();
  }
  ViolationList violations;
  DecodeArena arena;
  Frame frame;
  if (!DecodeFrame(in, "frame", frame, arena, violations)) return InvalidFields(std::move(violations));
  std::int64_t oldest_tick = 0;
  if (CallOutcome refused = world.PushFrame(frame, parts, oldest_tick)) return refused;
  response->set_oldest_tick(oldest_tick);
  return std::nullopt;
}

CallOutcome RunQuery(WorldAccess& world, const WorldCallLimits& limits, const v1::QueryWorldRequest& request,
                     v1::QueryWorldResponse* response) {
  if (CallOutcome refused = CheckItems(RequestItems(request), limits.max_items_per_request)) return refused;
  ViolationList violations;
  DecodeArena arena;
  WorldQueries queries;
  if (!DecodeQueries(request, queries, arena, violations)) return InvalidFields(std::move(violations));
  std::vector<RayQueryResult> rays;
  std::vector<ShapeCastResult> casts;
  std::vector<OverlapQueryResult> overlaps;
  const std::size_t max_kept = limits.max_kept_results;
  std::size_t kept = 0;
  bool fits = true;
  // One frame for the whole call (the world is held across the chunks).
  world.Read([&](const World& w) {
    fits = RunChunked<RayQuery>(
               queries.rays, [&](std::span<const RayQuery> part) { return w.RayCasts(part); }, rays, kept,
               max_kept) &&
           RunChunked<OverlapQuery>(
               queries.overlaps, [&](std::span<const OverlapQuery> part) { return w.Overlaps(part); },
               overlaps, kept, max_kept);
    if (fits) casts = w.ShapeCasts(queries.shape_casts);
  });
  if (!fits) return AnswerTooLarge(max_kept);
  for (std::size_t i = 0; i < rays.size(); ++i)
    AddQueryProblems("ray_casts", i, "ray", rays[i].problems, violations);
  for (std::size_t i = 0; i < casts.size(); ++i)
    AddQueryProblems("shape_casts", i, "", casts[i].problems, violations);
  for (std::size_t i = 0; i < overlaps.size(); ++i) {
    AddQueryProblems("overlaps", i, "", overlaps[i].problems, violations);
  }
  if (!violations.empty()) return InvalidFields(std::move(violations));
  for (const RayQueryResult& r : rays) ToProto(r, response->add_ray_casts());
  for (const ShapeCastResult& r : casts) ToProto(r, response->add_shape_casts());
  for (const OverlapQueryResult& r : overlaps) ToProto(r, response->add_overlaps());
  return std::nullopt;
}

CallOutcome RunRaysPacked(WorldAccess& world, const WorldCallLimits& limits,
                          const v1::CastWorldRaysPackedRequest& request,
                          v1::CastWorldRaysPackedResponse* response) {
  if (CallOutcome refused = CheckItems(RequestItems(request), limits.max_items_per_request)) return refused;
  ViolationList violations;
  std::vector<RayQuery> rays;
  if (!DecodePacked(request, rays, violations)) return InvalidFields(std::move(violations));
  std::vector<RayQueryResult> results;
  world.Read([&](const World& w) { results = w.RayCasts(rays); });
  // Decoding checked every field the core checks; a problem left is a bug.
  for (std::size_t i = 0; i < results.size(); ++i) {
    AddQueryProblems("rays", i, "", results[i].problems, violations);
  }
  if (!violations.empty()) return InvalidFields(std::move(violations));
  EncodePacked(results, response);
  return std::nullopt;
}

CallOutcome RunShots(WorldAccess& world, const WorldCallLimits& limits,
                     const v1::ValidateShotsRequest& request, v1::ValidateShotsResponse* response) {
  if (CallOutcome refused = CheckItems(RequestItems(request), limits.max_items_per_request)) return refused;
  ViolationList violations;
  std::vector<ShotRequest> shots;
  DecodeShots(request, shots, violations);
  const auto add = [&violations](std::size_t i, std::vector<Violation>& problems) {
    AddItemProblems("shots", i, problems, violations);
  };
  return JudgeShots(world, shots, request.all_or_nothing(), violations, add, response);
}

CallOutcome RunShotsPacked(WorldAccess& world, const WorldCallLimits& limits,
                           const v1::ValidateShotsPackedRequest& request,
                           v1::ValidateShotsResponse* response) {
  if (CallOutcome refused = CheckItems(RequestItems(request), limits.max_items_per_request)) return refused;
  ViolationList violations;
  std::vector<ShotRequest> shots;
  if (!DecodePacked(request, shots, violations)) return InvalidFields(std::move(violations));
  const auto add = [&violations](std::size_t i, std::vector<Violation>& problems) {
    AddPackedShotProblems(i, problems, violations);
  };
  return JudgeShots(world, shots, request.all_or_nothing(), violations, add, response);
}

CallOutcome RunMoves(WorldAccess& world, const WorldCallLimits& limits,
                     const v1::ValidateMovesRequest& request, v1::ValidateMovesResponse* response) {
  if (CallOutcome refused = CheckItems(RequestItems(request), limits.max_items_per_request)) return refused;
  ViolationList violations;
  std::vector<MoveRequest> moves;
  DecodeMoves(request, moves, violations);
  std::vector<MoveVerdict> verdicts;
  world.Read([&](const World& w) { verdicts = w.ValidateMoves(moves); });
  for (std::size_t i = 0; request.all_or_nothing() && i < verdicts.size(); ++i) {
    if (verdicts[i].code == MoveCode::kInvalid) AddItemProblems("moves", i, verdicts[i].problems, violations);
  }
  if (!violations.empty()) return InvalidFields(std::move(violations));
  for (const MoveVerdict& v : verdicts) ToProto(v, response->add_verdicts());
  return std::nullopt;
}

// The verdicts into `response`, or with all_or_nothing and any bad item,
// INVALID_ARGUMENT naming every bad field ("projectiles[2].velocity").
template <typename Verdict, typename Response>
CallOutcome AnswerVerdicts(const char* list, std::vector<Verdict>& verdicts, bool all_or_nothing,
                           Response* response) {
  ViolationList violations;
  for (std::size_t i = 0; all_or_nothing && i < verdicts.size(); ++i) {
    if (!verdicts[i].problems.empty()) AddItemProblems(list, i, verdicts[i].problems, violations);
  }
  if (!violations.empty()) return InvalidFields(std::move(violations));
  for (const Verdict& v : verdicts) ToProto(v, response->add_verdicts());
  return std::nullopt;
}

CallOutcome RunProjectiles(WorldAccess& world, const WorldCallLimits& limits,
                           const v1::ValidateProjectilesRequest& request,
                           v1::ValidateProjectilesResponse* response) {
  if (CallOutcome refused = CheckItems(RequestItems(request), limits.max_items_per_request)) return refused;
  const std::vector<ProjectileRequest> projectiles = DecodeProjectiles(request);
  std::vector<ProjectileVerdict> verdicts;
  world.Read([&](const World& w) { verdicts = w.ValidateProjectiles(projectiles); });
  return AnswerVerdicts("projectiles", verdicts, request.all_or_nothing(), response);
}

CallOutcome RunMelee(WorldAccess& world, const WorldCallLimits& limits,
                     const v1::ValidateMeleeRequest& request, v1::ValidateMeleeResponse* response) {
  if (CallOutcome refused = CheckItems(RequestItems(request), limits.max_items_per_request)) return refused;
  const std::vector<MeleeRequest> melee = DecodeMelee(request);
  std::vector<MeleeVerdict> verdicts;
  world.Read([&](const World& w) { verdicts = w.ValidateMelee(melee); });
  return AnswerVerdicts("melee", verdicts, request.all_or_nothing(), response);
}

CallOutcome RunVisibility(WorldAccess& world, const WorldCallLimits& limits,
                          const v1::GetVisibilityRequest& request, v1::GetVisibilityResponse* response) {
  if (CallOutcome refused = CheckItems(RequestItems(request), limits.max_items_per_request)) return refused;
  VisibilityResult result;
  world.Read([&](const World& w) { result = w.VisibleSets(DecodeVisibility(request)); });
  if (!result.valid) {
    ViolationList violations;
    for (Violation& v : result.problems) violations.Add(v.field, std::move(v.description));
    return InvalidFields(std::move(violations));
  }
  ToProto(result, response);
  return std::nullopt;
}

CallOutcome RunBodies(WorldAccess& world, const WorldCallLimits& limits, const v1::GetBodiesRequest& request,
                      v1::GetBodiesResponse* response) {
  if (CallOutcome refused = CheckItems(RequestItems(request), limits.max_items_per_request)) return refused;
  const BodiesQuery query = FromProto(request);
  BodiesResult bodies;
  world.Read([&](const World& w) { bodies = w.Bodies(query.at, query.ids); });
  ViolationList violations;
  for (const Violation& p : bodies.problems) violations.Add(p.field, p.description);  // "at.fraction"
  if (!violations.empty()) return InvalidFields(std::move(violations));
  ToProto(bodies, response);
  return std::nullopt;
}

CallOutcome RunTickParts(WorldAccess& world, const WorldCallLimits& limits, const v1::TickRequest& request,
                         v1::TickResponse* response, TickPartMicros* micros) {
  if (request.has_frame()) {
    // Its paths start "frame." already, as in PushFrameRequest.
    v1::PushFrameResponse pushed;
    if (CallOutcome refused = RunFrame(world, request.frame(), &pushed)) return refused;
    response->mutable_frame()->Swap(&pushed);
  }
  const auto with = [&](auto run) {
    return
        [&world, &limits, run](const auto& part, auto* answer) { return run(world, limits, part, answer); };
  };
  // The batches in field order; the first error ends the message.
  using R = v1::TickResponse;
  CallOutcome refused;
  if (!refused && request.has_query())
    refused = RunPart("query", with(RunQuery), request.query(), &R::mutable_query, response);
  if (!refused && request.has_rays_packed())
    refused =
        RunPart("rays_packed", with(RunRaysPacked), request.rays_packed(), &R::mutable_rays_packed, response);
  // The verdict parts, timed when asked (the audit trail's batch_micros).
  const auto timed = [micros](double TickPartMicros::*slot, auto run) {
    if (micros == nullptr) return run();
    const auto start = std::chrono::steady_clock::now();
    CallOutcome outcome = run();
    (*micros).*slot =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    return outcome;
  };
  if (!refused && request.has_shots()) {
    refused = timed(&TickPartMicros::shots, [&] {
      return RunPart("shots", with(RunShots), request.shots(), &R::mutable_shots, response);
    });
  }
  if (!refused && request.has_shots_packed()) {
    refused = timed(&TickPartMicros::shots_packed, [&] {
      return RunPart("shots_packed", with(RunShotsPacked), request.shots_packed(), &R::mutable_shots_packed,
                     response);
    });
  }
  if (!refused && request.has_moves()) {
    refused = timed(&TickPartMicros::moves, [&] {
      return RunPart("moves", with(RunMoves), request.moves(), &R::mutable_moves, response);
    });
  }
  if (!refused && request.has_projectiles())
    refused = RunPart("projectiles", with(RunProjectiles), request.projectiles(), &R::mutable_projectiles,
                      response);
  if (!refused && request.has_melee())
    refused = RunPart("melee", with(RunMelee), request.melee(), &R::mutable_melee, response);
  if (!refused && request.has_visibility())
    refused =
        RunPart("visibility", with(RunVisibility), request.visibility(), &R::mutable_visibility, response);
  // After every other part: the bodies as this message's frame left them.
  if (!refused && request.has_bodies())
    refused = RunPart("bodies", with(RunBodies), request.bodies(), &R::mutable_bodies, response);
  return refused;
}

}  // namespace collide::convert
