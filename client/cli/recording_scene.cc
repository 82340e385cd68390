#include "recording_scene.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "convert/shapes.h"
#include "convert/world_encode.h"
#include "convert/world_packed.h"
#include "recording_replay.h"

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
  const std::optional<Pose> pose = world.BodyPoseAt(id, at);
  if (!pose) return std::nullopt;
  v1::PosedBody out;
  out.set_id(id);
  convert::ToProto(*pose, out.mutable_pose());
  for (const auto& [part, shape] : world.BodyPartsAt(id, at)) {
    v1::PosedPart* p = out.add_parts();
    p->set_id(part);
    convert::ToProto(shape, p->mutable_shape());
  }
  return out;
}

Time ToCore(const v1::WorldTime& t) { return {t.tick(), t.fraction()}; }

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

void AddShot(const World& world, int call, int item, const v1::Shot& shot, const v1::ShotVerdict& verdict,
             viewer::Scene& scene) {
  viewer::SceneShot& s = *scene.add_shots();
  s.set_call(call);
  s.set_item(item);
  s.set_latest_tick(world.latest_tick().value_or(0));
  *s.mutable_shot() = shot;
  *s.mutable_verdict() = verdict;
  *s.mutable_ray_end() = RayEnd(shot, verdict);
  if (!shot.has_claimed()) return;
  const v1::ShotExplanation& explained = verdict.explanation();
  const std::int64_t claimed = shot.claimed().body_id();
  if (explained.has_claimed_rewound()) {
    *s.mutable_claimed_rewound() = explained.claimed_rewound();
  } else if (verdict.has_time()) {
    if (auto body = PosedBodyAt(world, claimed, ToCore(verdict.time().at())))
      *s.mutable_claimed_rewound() = *body;
  }
  if (explained.has_claimed_latest()) {
    *s.mutable_claimed_latest() = explained.claimed_latest();
  } else if (auto body = PosedBodyAt(world, claimed, std::nullopt)) {
    *s.mutable_claimed_latest() = *body;
  }
}

void AddShots(const World& world, int call, const v1::RecordedCall& recorded, viewer::Scene& scene) {
  const v1::TickRequest& request = recorded.request();
  const v1::TickResponse& response = recorded.response();
  const auto& shots = request.shots().shots();
  const auto& verdicts = response.shots().verdicts();
  for (int i = 0; i < std::min(shots.size(), verdicts.size()); ++i)
    AddShot(world, call, i, shots[i], verdicts[i], scene);
  if (response.shots_packed().verdicts().empty()) return;
  convert::ViolationList violations;
  std::vector<ShotRequest> packed;
  // A packed batch that does not decode has INVALID verdicts: nothing to draw.
  if (!convert::DecodePacked(request.shots_packed(), packed, violations)) return;
  const auto& packed_verdicts = response.shots_packed().verdicts();
  for (int i = 0; i < std::min(static_cast<int>(packed.size()), packed_verdicts.size()); ++i) {
    v1::Shot shot;
    convert::ToProto(packed[i], &shot);
    AddShot(world, call, i, shot, packed_verdicts[i], scene);
  }
}

void AddMoves(const RecordingReplay& replay, int call, const v1::RecordedCall& recorded,
              viewer::Scene& scene) {
  const World& world = replay.world();
  const auto& moves = recorded.request().moves().moves();
  const auto& verdicts = recorded.response().moves().verdicts();
  for (int i = 0; i < std::min(moves.size(), verdicts.size()); ++i) {
    const v1::Move& move = moves[i];
    const v1::MoveVerdict& verdict = verdicts[i];
    viewer::SceneMove& m = *scene.add_moves();
    m.set_call(call);
    m.set_item(i);
    m.set_latest_tick(world.latest_tick().value_or(0));
    *m.mutable_move() = move;
    *m.mutable_verdict() = verdict;
    const v1::MoveExplanation& explained = verdict.explanation();
    if (move.has_from()) {
      *m.mutable_from() = move.from();
    } else if (explained.has_from()) {
      *m.mutable_from() = explained.from();
    } else {
      // As the judge resolves it: the frame before the latest, else the latest.
      std::optional<Pose> pose;
      if (replay.previous_tick()) pose = world.BodyPoseAt(move.body_id(), Time{*replay.previous_tick(), 0});
      if (!pose) pose = world.BodyPoseAt(move.body_id(), std::nullopt);
      if (pose) convert::ToProto(pose->position, m.mutable_from());
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

absl::StatusOr<viewer::Scene> BuildScene(const Recording& recording, const std::string& maps_dir) {
  absl::StatusOr<RecordingReplay> replay = RecordingReplay::Create(recording.header, maps_dir);
  if (!replay.ok()) return replay.status();
  viewer::Scene scene;
  scene.set_format("collide.viewer.scene");
  scene.set_version(1);
  scene.set_world_id(recording.header.create().world_id());
  scene.set_writer(recording.header.writer());
  scene.set_calls(static_cast<int>(recording.calls.size()));
  scene.set_stopped(recording.stopped);
  AddLevel(replay->world().statics(), *scene.mutable_level());
  for (int call = 0; call < static_cast<int>(recording.calls.size()); ++call) {
    const v1::RecordedCall& recorded = recording.calls[call];
    absl::StatusOr<bool> applied = replay->Run(recorded);
    if (!applied.ok()) return applied.status();
    const World& world = replay->world();
    if (*applied) {
      viewer::TickBodies& tick = *scene.add_ticks();
      tick.set_tick(*world.latest_tick());
      tick.set_call(call);
      for (std::int64_t id : replay->bodies()) {
        if (auto body = PosedBodyAt(world, id, std::nullopt)) *tick.add_bodies() = *body;
      }
    }
    AddShots(world, call, recorded, scene);
    AddMoves(*replay, call, recorded, scene);
  }
  return scene;
}

absl::StatusOr<viewer::Scene> ReadScene(const std::string& path, const std::string& maps_dir) {
  absl::StatusOr<Recording> recording = ReadRecording(path);
  if (!recording.ok()) return recording.status();
  return BuildScene(*recording, maps_dir);
}

}  // namespace collide::cli
