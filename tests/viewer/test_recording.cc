#include "test_recording.h"

#include <memory>
#include <vector>

#include "convert/shapes.h"
#include "convert/world_encode.h"
#include "convert/world_results.h"

namespace collide::testing {
namespace {

constexpr std::int64_t kShooter = 1, kRunner = 2, kHidden = 3;
constexpr int kTorso = 0, kHead = 1;
constexpr double kEyeHeight = 1.6;

std::vector<BodyPart> Hitboxes() {
  return {{kTorso, Capsule{{0, 0, 0.3}, {0, 0, 1.1}, 0.3}, {}},
          {kHead, Sphere{{0, 0, kEyeHeight}, 0.25}, {}}};
}

// The runner walks +y, 0.2 a tick.
Vec3 RunnerAt(std::int64_t tick) { return {6, -2 + 0.2 * static_cast<double>(tick), 0}; }

Frame FrameAt(std::int64_t tick) {
  Frame frame{.tick = tick};
  const std::vector<std::pair<std::int64_t, Vec3>> bodies = {
      {kShooter, {-6, 0, 0}}, {kRunner, RunnerAt(tick)}, {kHidden, {6, 5, 0}}};
  for (const auto& [id, position] : bodies) {
    BodyUpdate update{.id = id, .pose = Pose{position, {}}};
    if (tick == 1) {
      update.parts = Hitboxes();
      update.eye = Vec3{0, 0, kEyeHeight};
    }
    frame.bodies.push_back(std::move(update));
  }
  return frame;
}

ShotRequest ShotAt(const Vec3& target, std::int64_t body, std::int64_t seen_tick) {
  const Vec3 eye{-6, 0, kEyeHeight};
  return {.shooter = kShooter,
          .origin = eye,
          .direction = target - eye,
          .at = Time{seen_tick, 0},
          .claim = ShotClaim{body, kHead}};
}

}  // namespace

record::Recording MakeTestRecording() {
  record::Recording out;
  v1::RecordingHeader& header = out.header;
  header.set_format("collide.v1.recording");
  header.set_version(1);
  header.set_writer("collide tests/viewer");
  v1::CreateWorldRequest& create = *header.mutable_create();
  create.set_world_id("viewer-test");
  // A 20 x 20 floor at z = 0 and a wall between the shooter and kHidden.
  const MeshData floor{{{-10, -10, 0}, {10, -10, 0}, {10, 10, 0}, {-10, 10, 0}}, {{0, 1, 2}, {0, 2, 3}}};
  const Shape wall = Aabb{{-0.5, 1, 0}, {0.5, 8, 3}};
  v1::StaticElement* s = create.add_statics();
  s->set_id(1);
  convert::ToProto(floor, s->mutable_mesh());
  s = create.add_statics();
  s->set_id(2);
  convert::ToProto(wall, s->mutable_shape());
  std::vector<StaticElement> statics = {{1, kAllCategories, std::make_shared<const TriangleMesh>(floor)},
                                        {2, kAllCategories, wall}};
  World world(WorldSettings{}, std::move(statics));

  for (std::int64_t tick = 1; tick <= 10; ++tick) {
    const Frame frame = FrameAt(tick);
    world.PushFrame(frame);
    v1::RecordedCall& call = out.calls.emplace_back();
    call.set_unix_micros(1'700'000'000'000'000 + tick * 15'625);
    call.mutable_request()->set_sequence(tick);
    convert::ToProto(frame, call.mutable_request()->mutable_frame());
    call.mutable_response()->set_sequence(tick);
    call.mutable_response()->mutable_frame()->set_oldest_tick(1);
  }

  const Vec3 head{0, 0, kEyeHeight};
  const std::vector<ShotRequest> shots = {
      ShotAt(RunnerAt(8) + head, kRunner, 8),      // where the runner's head was at tick 8
      ShotAt(RunnerAt(10) + head, kRunner, 8),     // where it is now: 0.4 off at tick 8
      ShotAt(Vec3{6, 5, 0} + head, kHidden, 10)};  // behind the wall
  std::vector<MoveRequest> moves = {
      {.body = kRunner, .from = RunnerAt(10), .to = RunnerAt(10) + Vec3{1, 0, 0}, .elapsed = 0.5},
      {.body = kHidden, .from = Vec3{6, 5, 0}, .to = {-2, 5, 0}, .elapsed = 1}};
  v1::RecordedCall& call = out.calls.emplace_back();
  call.set_unix_micros(1'700'000'000'200'000);
  v1::TickRequest& request = *call.mutable_request();
  v1::TickResponse& response = *call.mutable_response();
  request.set_sequence(11);
  response.set_sequence(11);
  for (const ShotRequest& shot : shots) convert::ToProto(shot, request.mutable_shots()->add_shots());
  for (const ShotVerdict& v : world.ValidateShots(shots))
    convert::ToProto(v, response.mutable_shots()->add_verdicts());
  // The moves are recorded explained, the shots not (the viewer's replay
  // explains them).
  request.mutable_moves()->set_explain(true);
  for (MoveRequest& move : moves) {
    move.explain = true;
    convert::ToProto(move, request.mutable_moves()->add_moves());
  }
  for (const MoveVerdict& v : world.ValidateMoves(moves))
    convert::ToProto(v, response.mutable_moves()->add_verdicts());
  return out;
}

absl::Status WriteTestRecording(const record::Recording& recording, const std::string& path) {
  absl::StatusOr<std::unique_ptr<record::RecordingWriter>> writer =
      record::RecordingWriter::Open(path, recording.header);
  if (!writer.ok()) return writer.status();
  for (const v1::RecordedCall& call : recording.calls) {
    if (absl::Status s = (*writer)->Append(call); !s.ok()) return s;
  }
  return (*writer)->Close();
}

}  // namespace collide::testing
