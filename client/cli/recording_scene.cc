#include "recording_scene.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "convert/shapes.h"
#include "convert/world_encode.h"
#include "convert/world_explain.h"
#include "convert/world_packed.h"
#include "record/replay.h"

namespace collide::cli {
namespace {

// How far an unbounded ray that met nothing is drawn.
constexpr double kUnboundedRayDrawn = 100.0;

void AddLevel(std::span<const StaticElement> statics, viewer::Level& level) {
  for (const StaticElement& element : statics) {
    if (const Shape* shape = std::get_if<Shape>(&element.geometry)) {
      convert::ToProto(*shape, level.add_shapes());
      continue;
    }
    const TriangleMesh& mesh = *std::get<std::shared_ptr<const TriangleMesh>>(element.geometry);
    const auto base = static_cast<std::uint32_t>(level.positions_size() / 3);
    for (const Vec3& v : mesh.vertices()) {
      level.add_positions(v.x);
      level.add_positions(v.y);
      level.add_positions(v.z);
    }
    for (const TriangleIndices& t : mesh.triangles()) {
      for (std::uint32_t i : t) level.add_indices(base + i);
    }
  }
}

// The body as the world poses it at `at`, or nothing when it does not exist
// then.
std::optional<v1::PosedBody> PosedBodyAt(const World& world, std::int64_t id, std::optional<Time> at) {
  const BodiesResult found = world.Bodies(at, std::span(&id, 1));
  if (found.bodies.empty()) return std::nullopt;
  v1::PosedBody out;
  convert::ToProto(found.bodies.front(), &out);
  return out;
}

// The recorded call with every verdict explained.
v1::TickRequest Explained(v1::TickRequest request) {
  if (request.has_shots()) request.mutable_shots()->set_explain(true);
  if (request.has_shots_packed()) request.mutable_shots_packed()->set_explain(true);
  if (request.has_moves()) request.mutable_moves()->set_explain(true);
  return request;
}

v1::Vec3 RayEnd(const v1::Shot& shot, const v1::ShotVerdict& verdict) {
  if (verdict.has_first_hit()) return verdict.first_hit().point();
  const Vec3 origin = convert::FromProto(shot.origin());
  const Vec3 d = convert::FromProto(shot.direction());
  const double length = std::sqrt(Dot(d, d));
  const double range =
      shot.has_max_range() && std::isfinite(shot.max_range()) ? shot.max_range() : kUnboundedRayDrawn;
  v1::Vec3 out;
  convert::ToProto(length > 0 ? origin + d * (range / length) : origin, &out);
  return out;
}

// The recorded verdict, with the replay's explanation when it has none.
template <typename Entry, typename Verdict>
void SetVerdict(const Verdict& recorded, const Verdict* replayed, Entry& entry) {
  *entry.mutable_verdict() = recorded;
  if (replayed == nullptr) return;
  entry.set_replay_differs(replayed->code() != recorded.code());
  if (!recorded.has_explanation() && replayed->has_explanation()) {
    *entry.mutable_verdict()->mutable_explanation() = replayed->explanation();
    entry.set_explanation_replayed(true);
  }
}

template <typename List>
auto* At(const List& list, int i) {
  return i < list.size() ? &list[i] : nullptr;
}

void AddShot(const World& world, int call, int item, const v1::Shot& shot, const v1::ShotVerdict& recorded,
             const v1::ShotVerdict* replayed, viewer::Scene& scene) {
  viewer::SceneShot& s = *scene.add_shots();
  s.set_call(call);
  s.set_item(item);
  s.set_latest_tick(world.latest_tick().value_or(0));
  *s.mutable_shot() = shot;
  SetVerdict(recorded, replayed, s);
  *s.mutable_ray_end() = RayEnd(shot, recorded);
  // Posed by the replayed world only when the explanation lacks them.
  if (!shot.has_claimed()) return;
  const v1::ShotExplanation& explained = s.verdict().explanation();
  const std::int64_t claimed = shot.claimed().body_id();
  if (!explained.has_claimed_rewound() && recorded.has_time()) {
    const Time used{recorded.time().at().tick(), recorded.time().at().fraction()};
    if (auto body = PosedBodyAt(world, claimed, used)) *s.mutable_claimed_rewound() = *body;
  }
  if (!explained.has_claimed_latest()) {
    if (auto body = PosedBodyAt(world, claimed, std::nullopt)) *s.mutable_claimed_latest() = *body;
  }
}

void AddShots(const World& world, int call, const v1::RecordedCall& recorded,
              const v1::TickResponse& replayed, viewer::Scene& scene) {
  const v1::TickRequest& request = recorded.request();
  const auto& shots = request.shots().shots();
  const auto& verdicts = recorded.response().shots().verdicts();
  for (int i = 0; i < std::min(shots.size(), verdicts.size()); ++i) {
    AddShot(world, call, i, shots[i], verdicts[i], At(replayed.shots().verdicts(), i), scene);
  }
  const auto& packed_verdicts = recorded.response().shots_packed().verdicts();
  if (packed_verdicts.empty()) return;
  convert::ViolationList violations;
  std::vector<ShotRequest> packed;
  // A packed batch that does not decode has INVALID verdicts: nothing to draw.
  if (!convert::DecodePacked(request.shots_packed(), packed, violations)) return;
  for (int i = 0; i < std::min(static_cast<int>(packed.size()), packed_verdicts.size()); ++i) {
    v1::Shot shot;
    convert::ToProto(packed[i], &shot);
    AddShot(world, call, i, shot, packed_verdicts[i], At(replayed.shots_packed().verdicts(), i), scene);
  }
}

void AddMoves(const World& world, std::optional<std::int64_t> previous_tick, int call,
              const v1::RecordedCall& recorded, const v1::TickResponse& replayed, viewer::Scene& scene) {
  const auto& moves = recorded.request().moves().moves();
  const auto& verdicts = recorded.response().moves().verdicts();
  for (int i = 0; i < std::min(moves.size(), verdicts.size()); ++i) {
    const v1::Move& move = moves[i];
    viewer::SceneMove& m = *scene.add_moves();
    m.set_call(call);
    m.set_item(i);
    m.set_latest_tick(world.latest_tick().value_or(0));
    *m.mutable_move() = move;
    SetVerdict(verdicts[i], At(replayed.moves().verdicts(), i), m);
    const v1::MoveExplanation& explained = m.verdict().explanation();
    if (move.has_from()) {
      *m.mutable_from() = move.from();
    } else if (explained.has_from()) {
      *m.mutable_from() = explained.from();
    } else {
      // As the judge resolves it: the frame before the latest, else the latest.
      std::optional<v1::PosedBody> body;
      if (previous_tick) body = PosedBodyAt(world, move.body_id(), Time{*previous_tick, 0});
      if (!body) body = PosedBodyAt(world, move.body_id(), std::nullopt);
      if (body) *m.mutable_from() = body->pose().position();
    }
    if (!explained.sweeps().empty()) {
      *m.mutable_sweeps() = explained.sweeps();
    } else {
      v1::MoveSweep& sweep = *m.add_sweeps();
      *sweep.mutable_from() = m.from();
      *sweep.mutable_to() = move.to();
      sweep.set_purpose("straight");
    }
  }
}

}  // namespace

absl::StatusOr<viewer::Scene> BuildScene(const record::Recording& recording, const std::string& maps_dir) {
  absl::StatusOr<std::unique_ptr<record::Replayer>> replayer =
      record::Replayer::Create(recording.header, maps_dir);
  if (!replayer.ok()) return replayer.status();
  const World& world = (*replayer)->world();
  viewer::Scene scene;
  scene.set_format("collide.viewer.scene");
  scene.set_version(1);
  scene.set_world_id(recording.header.create().world_id());
  scene.set_writer(recording.header.writer());
  scene.set_calls(static_cast<int>(recording.calls.size()));
  scene.set_stopped(recording.stopped);
  AddLevel(world.statics(), *scene.mutable_level());
  for (int call = 0; call < static_cast<int>(recording.calls.size()); ++call) {
    const v1::RecordedCall& recorded = recording.calls[call];
    const std::optional<std::int64_t> previous_tick = world.latest_tick();
    const v1::TickResponse replayed = (*replayer)->Run(Explained(recorded.request()));
    if (replayed.has_frame()) {
      viewer::TickBodies& tick = *scene.add_ticks();
      tick.set_tick(*world.latest_tick());
      tick.set_call(call);
      for (const PosedBody& body : world.Bodies(std::nullopt, {}).bodies)
        convert::ToProto(body, tick.add_bodies());
    }
    AddShots(world, call, recorded, replayed, scene);
    AddMoves(world, replayed.has_frame() ? previous_tick : std::nullopt, call, recorded, replayed, scene);
  }
  return scene;
}

absl::StatusOr<viewer::Scene> ReadScene(const std::string& path, const std::string& maps_dir) {
  absl::StatusOr<record::Recording> recording = record::ReadRecording(path);
  if (!recording.ok()) return recording.status();
  return BuildScene(*recording, maps_dir);
}

}  // namespace collide::cli
