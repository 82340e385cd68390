// Move validation (docs/worlds.md, "Verdicts"; docs/moves.md): the request,
// the body, then either the straight move (speed, start pose, a sweep with
// slides: move_sweep.cc) or, with a movement model, its rules
// (move_model.cc).
#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "world/move_model.h"
#include "world/move_states.h"
#include "world/move_sweep.h"
#include "world/move_trace.h"

namespace collide {
namespace {

// The position a body starting a move without `from` is taken from: its
// position in the frame before the latest, or in the latest when it is new
// there, teleported there, or only one frame is kept.
Vec3 DefaultFrom(const World& world, const internal::BodyState& latest_state) {
  const auto& history = internal::SceneAccess::History(world);
  const internal::BodyState* before = history.size() >= 2 && !latest_state.teleported
                                          ? history[history.size() - 2]->Find(latest_state.id)
                                          : nullptr;
  return (before != nullptr ? before : &latest_state)->pose.position;
}

// Whether the body teleported into a frame after tick `since` (its last
// judged move), or the history no longer reaches back to it: its movement
// state is then stale and it starts afresh.
bool TeleportedSince(const World& world, std::int64_t body, std::int64_t since) {
  const auto& history = internal::SceneAccess::History(world);
  return history.empty() || history.front()->tick > since || internal::TeleportedAfter(world, {body}, since);
}

// The straight move: the 3-D speed limit, the start pose, a sweep with slides.
void JudgeStraight(const World& world, const MoveRequest& move, const internal::BodyState& body,
                   const Vec3& from, CategoryMask mask, MoveVerdict& v, internal::MoveTrace* trace) {
  using internal::Num;
  const WorldSettings& settings = world.settings();
  const Vec3 delta = move.to - from;
  const double max_speed = move.max_speed.value_or(settings.default_max_speed);
  std::vector<Shape> shapes;
  internal::PlaceMoving(body, nullptr, from, shapes);
  if (trace != nullptr && shapes.size() == 1) trace->out().shape = shapes.front();
  if (v.speed > max_speed * (1.0 + 1e-12)) {
    v.code = MoveCode::kTooFast;
    if (trace != nullptr) trace->Reason("speed " + Num(v.speed) + " > max_speed " + Num(max_speed));
    return;
  }
  const internal::StaticSet& statics = internal::SceneAccess::Statics(world);
  if (internal::SweptBoxesAreClear(statics, shapes, delta, mask)) {
    v.allowed_position = v.slid_position = move.to;
    if (trace != nullptr) {
      trace->Sweep(from, move.to, "straight");
      trace->Reason("nothing static near the swept bounds: the move is clear");
    }
    return;
  }
  if (const internal::Penetration p = internal::DeepestStart(statics, shapes, mask, settings.skin_width);
      p.found) {
    v.code = MoveCode::kStartPenetrating;
    v.depth = p.depth;
    v.normal = p.normal;
    v.target = p.target;
    if (trace != nullptr) {
      trace->Reason("starts " + Num(p.depth) + " deep in " + trace->Name(p.target) + " > skin_width " +
                    Num(settings.skin_width));
    }
    return;
  }
  const internal::Scene scene = internal::SceneAccess::At(world, std::nullopt);
  const internal::PathSweep path = internal::SweepPath(scene, shapes, from, delta, mask, settings.skin_width,
                                                       move.slide ? settings.slide_iterations : 0, trace);
  if (path.blocked) {
    v.code = MoveCode::kBlocked;
    v.t = path.t;
    v.normal = path.normal;
    v.target = path.target;
    if (trace != nullptr) {
      trace->Reason("the straight sweep meets " + trace->Name(path.target) + " at t " + Num(path.t) +
                    (move.slide
                         ? ", slid along up to " + std::to_string(settings.slide_iterations) + " planes"
                         : std::string()));
    }
  } else if (trace != nullptr) {
    trace->Reason("the straight sweep is clear");
  }
  v.allowed_position = path.allowed;
  v.slid_position = path.slid;
}

MoveVerdict Judge(const World& world, const MoveRequest& move, internal::MoveStates& states,
                  internal::MoveTrace* trace) {
  MoveVerdict v;
  const WorldSettings& settings = world.settings();
  const MovementModel* model = move.movement       ? &*move.movement
                               : settings.movement ? &*settings.movement
                                                   : nullptr;
  if (move.from && !IsValidNumber(*move.from)) v.problems.push_back({"from", "not a valid number"});
  if (!IsValidNumber(move.to)) v.problems.push_back({"to", "not a valid number"});
  if (!(move.elapsed > 0.0) || !IsValidNumber(move.elapsed))
    v.problems.push_back({"elapsed", "must be > 0 seconds"});
  if (move.max_speed && (!(*move.max_speed >= 0.0) || !IsValidNumber(*move.max_speed))) {
    v.problems.push_back({"max_speed", "must be a valid number >= 0"});
  }
  if (move.movement) ValidateMovementModel(*move.movement, "movement", v.problems);
  if (model != nullptr &&
      (move.stance < 0 || static_cast<std::size_t>(move.stance) >= model->stances.size())) {
    v.problems.push_back(
        {"stance", "must name one of the model's " + std::to_string(model->stances.size()) + " stances"});
  }
  if (!v.problems.empty()) {
    v.code = MoveCode::kInvalid;
    return v;
  }
  const internal::Snapshot* latest = internal::SceneAccess::Latest(world);
  const internal::BodyState* body = latest != nullptr ? latest->Find(move.body) : nullptr;
  if (body == nullptr) {
    v.code = MoveCode::kUnknownBody;
    if (trace != nullptr) trace->Reason("body " + std::to_string(move.body) + " is not in the latest frame");
    return v;
  }
  const CategoryMask mask = move.mask != 0 ? move.mask : settings.move_mask;
  const Vec3 from = move.from ? *move.from : DefaultFrom(world, *body);
  if (trace != nullptr) trace->out().from = from;
  v.allowed_position = v.slid_position = from;
  v.speed = Length(move.to - from) / move.elapsed;
  // The budget first (a move it rejects leaves the body's arc as it was),
  // counting the move once it is OK.
  internal::BodyBudget* budget = nullptr;
  const double across = std::hypot(move.to.x - from.x, move.to.y - from.y);
  if (settings.move_budget) {
    budget = &states.budgets.try_emplace(move.body, internal::BodyBudget{latest->tick, {}}).first->second;
    v.code = internal::CheckBudget(*settings.move_budget, latest->tick, move.elapsed, across, *budget, trace);
    if (v.code != MoveCode::kOk) return v;
  }
  if (model == nullptr) {
    JudgeStraight(world, move, *body, from, mask, v, trace);
  } else {
    // The body's state, unless it teleported since its last move, or its
    // last move was rejected and the server did not put it where the
    // verdict said (a log-only server): it then starts afresh at `from`,
    // and one cheat is not counted again on every move after it.
    std::optional<internal::MoveState> state;
    if (const auto it = states.bodies.find(move.body);
        it != states.bodies.end() && !TeleportedSince(world, move.body, it->second.tick) &&
        !(it->second.put_back && Length(*it->second.put_back - from) > model->tolerance)) {
      state = it->second;
    }
    internal::ModelMove m{model, &model->stances[move.stance], body, from, mask, trace, std::nullopt};
    if (state && state->ended_at == from) m.heading = state->heading;
    internal::JudgeWithModel(world, move, m, state, v);
    state->stance = move.stance;
    state->tick = latest->tick;
    state->put_back.reset();
    state->off_ground_at.reset();
    if (v.code != MoveCode::kOk) state->put_back = v.allowed_position;
    if (v.code == MoveCode::kOk && !v.grounded) state->off_ground_at = move.to, state->off_ground_mask = mask;
    state->ended_at.reset();
    if (v.code == MoveCode::kOk) {
      state->ended_at = move.to;
      state->heading = Vec3{move.to.x - from.x, move.to.y - from.y, 0.0} / move.elapsed;
    }
    states.bodies[move.body] = *state;
  }
  if (budget != nullptr && v.code == MoveCode::kOk)
    internal::Record(latest->tick, move.elapsed, across, *budget);
  return v;
}

}  // namespace

std::vector<MoveVerdict> World::ValidateMoves(std::span<const MoveRequest> moves) const {
  std::vector<MoveVerdict> out;
  out.reserve(moves.size());
  // Only moves under a model or budget touch the per-body state: the others
  // run concurrently as every const query does.
  const bool stateful =
      settings_.movement || settings_.move_budget ||
      std::any_of(moves.begin(), moves.end(), [](const MoveRequest& m) { return m.movement.has_value(); });
  std::unique_lock lock(move_states_->mu, std::defer_lock);
  if (stateful) lock.lock();
  if (const internal::Snapshot* latest = internal::SceneAccess::Latest(*this);
      stateful && latest != nullptr &&
      std::max(move_states_->bodies.size(), move_states_->budgets.size()) > latest->bodies.size()) {
    move_states_->Prune(*latest);
  }
  for (const MoveRequest& move : moves) {
    if (!move.explain) {
      out.push_back(Judge(*this, move, *move_states_, nullptr));
      continue;
    }
    MoveExplanation e;
    e.from = move.from.value_or(Vec3{});
    e.to = move.to;
    internal::MoveTrace trace(e, internal::SceneAccess::Statics(*this));
    MoveVerdict& v = out.emplace_back(Judge(*this, move, *move_states_, &trace));
    if (v.code == MoveCode::kInvalid) continue;
    if (e.reason.empty()) e.reason = MoveCodeName(v.code);
    v.explanation = std::make_shared<const MoveExplanation>(std::move(e));
  }
  return out;
}

}  // namespace collide
