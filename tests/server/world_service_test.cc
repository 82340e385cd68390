// WorldService through a real in-process channel: every unary RPC, answers
// equal bit for bit to a core World built from the same core values (the
// requests are encoded here from those values), and one test per class of
// bad input asserting the code and the field path or limit named.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <future>
#include <limits>
#include <memory>
#include <mutex>
#include <regex>
#include <thread>

#include "collide/v1/world.grpc.pb.h"
#include "collide/world.h"
#include "convert/shapes.h"
#include "convert/world_packed.h"
#include "convert/world_results.h"
#include "google/protobuf/util/message_differencer.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpcpp/generic/generic_stub.h"
#include "server/world_metrics.h"
#include "spdlog/sinks/base_sink.h"
#include "spdlog/spdlog.h"
#include "support/wait_for.h"
#include "tests/server/test_server.h"
#include "tests/server/world_fixtures.h"

namespace collide::server::testing {
namespace {

using google::protobuf::util::MessageDifferencer;

class WorldServiceTest : public ::testing::Test {
 protected:
  explicit WorldServiceTest(Options options = {}) : server_(std::move(options)) {
    stub_ = v1::WorldService::NewStub(server_.channel);
  }
  grpc::Status Create(const v1::CreateWorldRequest& r, v1::WorldInfo* info = nullptr) {
    v1::WorldInfo ignored;
    return stub_->CreateWorld(Ctx(r.world_id()).get(), r, info ? info : &ignored);
  }
  grpc::Status Push(const Frame& f, const std::string& id = kWorld) {
    v1::PushFrameRequest r;
    r.set_world_id(id);
    Put(f, r.mutable_frame());
    return Push(r);
  }
  grpc::Status Push(const v1::PushFrameRequest& r) {
    v1::PushFrameResponse response;
    return stub_->PushFrame(Ctx(r.world_id()).get(), r, &response);
  }
  void CreateAndFill() {
    ASSERT_TRUE(Create(CreateRequest()).ok());
    ASSERT_TRUE(Push(Frame1()).ok());
    ASSERT_TRUE(Push(Frame2()).ok());
  }

  TestServer server_;
  std::unique_ptr<v1::WorldService::Stub> stub_;
};

TEST_F(WorldServiceTest, CreateGetListDelete) {
  v1::WorldInfo created;
  ASSERT_TRUE(Create(CreateRequest(), &created).ok());
  EXPECT_EQ(created.static_elements(), 2);
  EXPECT_EQ(created.triangles(), 2);
  EXPECT_EQ(created.frames_kept(), 0);
  EXPECT_EQ(created.history_ticks(), 16);
  EXPECT_EQ(created.policy().max_rewind_ticks(), WorldSettings{}.max_rewind_ticks);
  EXPECT_GT(created.memory_bytes(), 0);

  const grpc::Status again = Create(CreateRequest());
  EXPECT_EQ(again.error_code(), grpc::StatusCode::ALREADY_EXISTS);

  ASSERT_TRUE(Push(Frame1()).ok());
  ASSERT_TRUE(Push(Frame2()).ok());
  v1::GetWorldRequest get;
  get.set_world_id(kWorld);
  v1::WorldInfo info;
  ASSERT_TRUE(stub_->GetWorld(Ctx().get(), get, &info).ok());
  EXPECT_EQ(info.bodies(), 2);
  EXPECT_EQ(info.latest_tick(), 2);
  EXPECT_EQ(info.oldest_tick(), 1);
  EXPECT_EQ(info.frames_kept(), 2);
  EXPECT_GT(info.memory_bytes(), created.memory_bytes());

  ASSERT_TRUE(Create(CreateRequest("match-2")).ok());
  v1::ListWorldsResponse list;
  grpc::ClientContext list_context;  // No header needed.
  ASSERT_TRUE(stub_->ListWorlds(&list_context, {}, &list).ok());
  ASSERT_EQ(list.worlds_size(), 2);
  EXPECT_EQ(list.worlds(0).world_id(), kWorld);
  EXPECT_EQ(list.worlds(1).world_id(), "match-2");

  v1::DeleteWorldRequest del;
  del.set_world_id(kWorld);
  v1::DeleteWorldResponse deleted;
  ASSERT_TRUE(stub_->DeleteWorld(Ctx().get(), del, &deleted).ok());
  const grpc::Status gone = stub_->GetWorld(Ctx().get(), get, &info);
  EXPECT_EQ(gone.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(ErrorReason(gone), "WORLD_NOT_FOUND");
  EXPECT_EQ(stub_->DeleteWorld(Ctx().get(), del, &deleted).error_code(), grpc::StatusCode::NOT_FOUND);
}

TEST_F(WorldServiceTest, QueriesEqualTheCore) {
  CreateAndFill();
  const World core = CoreWorld();
  v1::QueryWorldRequest request;
  request.set_world_id(kWorld);
  std::vector<RayQuery> rays;
  // Closest along +x at the latest frame and halfway back; all hits through
  // the ball and the wall; any, masking the shooter.
  for (const auto& [y, at, mode] : {std::tuple{2.0, std::optional<Time>{}, RayMode::kClosest},
                                    {1.0, std::optional<Time>{Time{1, 0.5}}, RayMode::kClosest},
                                    {4.0, std::optional<Time>{}, RayMode::kAll},
                                    {2.0, std::optional<Time>{Time{0, 0.0}}, RayMode::kAny}}) {
    RayQuery q{Ray{{-1, y, 1.6}, {1, 0, 0}, 100}, at, {kAllCategories, {kShooter}}, mode, 8};
    rays.push_back(q);
    v1::WorldRayCast* c = request.add_ray_casts();
    convert::ToProto(q.ray, c->mutable_ray());
    if (at)
      c->mutable_filter()->mutable_at()->set_tick(at->tick),
          c->mutable_filter()->mutable_at()->set_fraction(at->fraction);
    c->mutable_filter()->add_ignore_bodies(kShooter);
    c->set_mode(mode == RayMode::kClosest ? v1::RAY_MODE_CLOSEST
                : mode == RayMode::kAll   ? v1::RAY_MODE_ALL
                                          : v1::RAY_MODE_ANY);
    c->set_max_hits(8);
  }
  const ShapeCastQuery cast{Shape{Sphere{{0, 4, 1}, 0.5}}, {20, 0, 0}, std::nullopt, {}};
  v1::WorldShapeCast* c = request.add_shape_casts();
  convert::ToProto(cast.shape, c->mutable_shape());
  Put(cast.translation, c->mutable_translation());
  const OverlapQuery overlap{
      Shape{Aabb{{3, -1, 0}, {7, 7, 2}}}, Time{1, 0.25}, {}, QueryLevel::kContact, 256};
  v1::WorldOverlap* o = request.add_overlaps();
  convert::ToProto(overlap.shape, o->mutable_shape());
  o->mutable_filter()->mutable_at()->set_tick(1);
  o->mutable_filter()->mutable_at()->set_fraction(0.25);
  o->set_level(v1::QUERY_LEVEL_CONTACT);

  v1::QueryWorldResponse response;
  const grpc::Status status = stub_->QueryWorld(Ctx().get(), request, &response);
  ASSERT_TRUE(status.ok()) << status.error_message();

  v1::QueryWorldResponse expected;
  for (const RayQueryResult& r : core.RayCasts(rays)) convert::ToProto(r, expected.add_ray_casts());
  for (const ShapeCastResult& r : core.ShapeCasts(std::span(&cast, 1)))
    convert::ToProto(r, expected.add_shape_casts());
  for (const OverlapQueryResult& r : core.Overlaps(std::span(&overlap, 1)))
    convert::ToProto(r, expected.add_overlaps());
  EXPECT_TRUE(MessageDifferencer::Equals(response, expected))
      << response.DebugString() << expected.DebugString();
  // Not vacuous: the rays hit the target, the ball and the wall.
  ASSERT_EQ(response.ray_casts_size(), 4);
  EXPECT_EQ(response.ray_casts(0).hits(0).target().body().body_id(), kTarget);
  EXPECT_EQ(response.ray_casts(2).hits_size(), 2);
  EXPECT_TRUE(response.shape_casts(0).hit());
  EXPECT_GE(response.overlaps(0).overlaps_size(), 2);
}

TEST_F(WorldServiceTest, VerdictsEqualTheCore) {
  CreateAndFill();
  const World core = CoreWorld();
  // Head at tick 1 (claimed then, confirmed), the same claim at the latest
  // frame (the target moved), through the wall, and an implausible origin.
  const std::vector<ShotRequest> shots = Shots();
  const v1::ValidateShotsRequest shot_request = ShotsRequest(shots);
  v1::ValidateShotsResponse shot_response, shot_expected;
  ASSERT_TRUE(stub_->ValidateShots(Ctx().get(), shot_request, &shot_response).ok());
  for (const ShotVerdict& v : core.ValidateShots(shots)) convert::ToProto(v, shot_expected.add_verdicts());
  EXPECT_TRUE(MessageDifferencer::Equals(shot_response, shot_expected)) << shot_response.DebugString();
  ASSERT_EQ(shot_response.verdicts_size(), 4);
  EXPECT_EQ(shot_response.verdicts(0).code(), v1::SHOT_CODE_CONFIRMED);
  EXPECT_EQ(shot_response.verdicts(2).code(), v1::SHOT_CODE_BLOCKED);
  EXPECT_EQ(shot_response.verdicts(3).code(), v1::SHOT_CODE_ORIGIN_IMPLAUSIBLE);

  // Into the wall (blocked, with and without slide), a short step, too fast,
  // and an unknown body.
  const std::vector<MoveRequest> moves = Moves();
  const v1::ValidateMovesRequest move_request = MovesRequest(moves);
  v1::ValidateMovesResponse move_response, move_expected;
  ASSERT_TRUE(stub_->ValidateMoves(Ctx().get(), move_request, &move_response).ok());
  for (const MoveVerdict& v : core.ValidateMoves(moves)) convert::ToProto(v, move_expected.add_verdicts());
  EXPECT_TRUE(MessageDifferencer::Equals(move_response, move_expected)) << move_response.DebugString();
  ASSERT_EQ(move_response.verdicts_size(), 5);
  EXPECT_EQ(move_response.verdicts(0).code(), v1::MOVE_CODE_BLOCKED);
  EXPECT_EQ(move_response.verdicts(0).target().static_element().element_id(), kWall);
  EXPECT_NE(move_response.verdicts(1).slid_position().y(), move_response.verdicts(1).allowed_position().y());
  EXPECT_EQ(move_response.verdicts(2).code(), v1::MOVE_CODE_OK);
  EXPECT_EQ(move_response.verdicts(3).code(), v1::MOVE_CODE_TOO_FAST);
  EXPECT_EQ(move_response.verdicts(4).code(), v1::MOVE_CODE_UNKNOWN_BODY);
}

TEST_F(WorldServiceTest, BadFramesNameTheField) {
  ASSERT_TRUE(Create(CreateRequest()).ok());
  ASSERT_TRUE(Push(Frame1()).ok());
  const auto push = [&](const std::function<void(v1::Frame&)>& edit) {
    v1::PushFrameRequest r;
    r.set_world_id(kWorld);
    Put(Frame2(), r.mutable_frame());
    edit(*r.mutable_frame());
    return Push(r);
  };
  const struct {
    const char* name;
    std::function<void(v1::Frame&)> edit;
    const char* field;
  } cases[] = {
      {"NaN",
       [](v1::Frame& f) { f.mutable_bodies(0)->mutable_pose()->mutable_position()->set_x(std::nan("")); },
       "frame.bodies[0].pose.position"},
      {"non-unit quaternion",
       [](v1::Frame& f) { f.mutable_bodies(0)->mutable_pose()->mutable_rotation()->set_w(2); },
       "frame.bodies[0].pose.rotation"},
      {"duplicate body id", [](v1::Frame& f) { *f.add_bodies() = f.bodies(0); }, "frame.bodies[1].id"},
      {"unknown body without parts",
       [](v1::Frame& f) {
         f.mutable_bodies(0)->set_id(77);
         f.mutable_bodies(0)->clear_part_poses();
       },
       "frame.bodies[0].parts"},
      {"bad part shape",
       [](v1::Frame& f) {
         v1::BodyPart* p = f.mutable_bodies(0)->add_parts();
         p->mutable_shape()->mutable_sphere()->set_radius(-1);
       },
       "frame.bodies[0].parts[0].shape.sphere.radius"},
      {"unknown removal", [](v1::Frame& f) { f.add_removals(55); }, "frame.removals[0]"},
  };
  for (const auto& c : cases) {
    const grpc::Status s = push(c.edit);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << c.name;
    const std::vector<std::string> fields = BadRequestFields(s);
    EXPECT_NE(std::find(fields.begin(), fields.end(), c.field), fields.end())
        << c.name << ": " << s.error_message();
  }
  // Nothing of them was applied: tick 2 is still free.
  ASSERT_TRUE(Push(Frame2()).ok());
  const grpc::Status stale = Push(Frame2());
  EXPECT_EQ(stale.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(stale.error_message().find('2'), std::string::npos) << stale.error_message();
  Frame older = Frame2();
  older.tick = 1;
  const grpc::Status back = Push(older);
  EXPECT_EQ(back.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(back.error_message().find('1'), std::string::npos);
  EXPECT_NE(back.error_message().find('2'), std::string::npos) << back.error_message();
}

TEST_F(WorldServiceTest, BadItemsNameTheField) {
  CreateAndFill();
  v1::ValidateShotsRequest shots;
  shots.set_world_id(kWorld);
  v1::Shot* s = shots.add_shots();
  s->set_shooter_id(kShooter);
  s->mutable_direction()->set_x(std::nan(""));
  shots.add_shots()->mutable_direction()->set_x(1);
  shots.mutable_shots(1)->set_max_range(-1);
  v1::Shot* good = shots.add_shots();  // a shot into the air: MISSED.
  good->set_shooter_id(kShooter);
  good->mutable_origin()->set_z(1);
  good->mutable_direction()->set_z(1);
  v1::ValidateShotsResponse shot_response;
  // By default each bad shot is an INVALID verdict naming its fields, and the
  // others are judged.
  grpc::Status status = stub_->ValidateShots(Ctx().get(), shots, &shot_response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(shot_response.verdicts_size(), 3);
  EXPECT_EQ(shot_response.verdicts(0).code(), v1::SHOT_CODE_INVALID);
  ASSERT_EQ(shot_response.verdicts(0).violations_size(), 1);
  EXPECT_EQ(shot_response.verdicts(0).violations(0).field(), "direction.x");
  EXPECT_FALSE(shot_response.verdicts(0).has_time());
  EXPECT_EQ(shot_response.verdicts(1).code(), v1::SHOT_CODE_INVALID);
  EXPECT_EQ(shot_response.verdicts(1).violations(0).field(), "max_range");
  EXPECT_EQ(shot_response.verdicts(2).code(), v1::SHOT_CODE_MISSED);
  // all_or_nothing: the call fails, naming every bad field.
  shots.set_all_or_nothing(true);
  status = stub_->ValidateShots(Ctx().get(), shots, &shot_response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  std::vector<std::string> fields = BadRequestFields(status);
  EXPECT_NE(std::find(fields.begin(), fields.end(), "shots[0].direction.x"), fields.end())
      << status.error_message();
  EXPECT_NE(std::find(fields.begin(), fields.end(), "shots[1].max_range"), fields.end())
      << status.error_message();

  v1::ValidateMovesRequest moves;
  moves.set_world_id(kWorld);
  moves.add_moves()->set_body_id(kShooter);  // elapsed 0.
  v1::ValidateMovesResponse move_response;
  status = stub_->ValidateMoves(Ctx().get(), moves, &move_response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(move_response.verdicts_size(), 1);
  EXPECT_EQ(move_response.verdicts(0).code(), v1::MOVE_CODE_INVALID);
  ASSERT_EQ(move_response.verdicts(0).violations_size(), 1);
  EXPECT_EQ(move_response.verdicts(0).violations(0).field(), "elapsed");
  moves.set_all_or_nothing(true);
  status = stub_->ValidateMoves(Ctx().get(), moves, &move_response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  fields = BadRequestFields(status);
  EXPECT_NE(std::find(fields.begin(), fields.end(), "moves[0].elapsed"), fields.end())
      << status.error_message();

  v1::QueryWorldRequest query;
  query.set_world_id(kWorld);
  query.add_ray_casts()->mutable_ray()->mutable_direction()->set_x(1);
  query.mutable_ray_casts(0)->mutable_filter()->mutable_at()->set_fraction(1.5);
  query.add_overlaps();  // No shape.
  v1::QueryWorldResponse query_response;
  status = stub_->QueryWorld(Ctx().get(), query, &query_response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  fields = BadRequestFields(status);
  EXPECT_NE(std::find(fields.begin(), fields.end(), "overlaps[0].shape"), fields.end())
      << status.error_message();

  query.clear_overlaps();
  status = stub_->QueryWorld(Ctx().get(), query, &query_response);
  fields = BadRequestFields(status);
  EXPECT_NE(std::find(fields.begin(), fields.end(), "ray_casts[0].filter.at.fraction"), fields.end())
      << status.error_message();

  v1::CreateWorldRequest bad = CreateRequest("bad-mesh");
  bad.mutable_statics(0)->mutable_mesh()->set_indices(2, 9);
  status = Create(bad);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  fields = BadRequestFields(status);
  EXPECT_NE(std::find(fields.begin(), fields.end(), "statics[0].mesh.triangles[0][2]"), fields.end())
      << status.error_message();
  bad = CreateRequest("dup-static");
  bad.mutable_statics(1)->set_id(kWall);
  fields = BadRequestFields(Create(bad));
  EXPECT_NE(std::find(fields.begin(), fields.end(), "statics[1].id"), fields.end());
}

TEST_F(WorldServiceTest, HeaderAndIdAreChecked) {
  ASSERT_TRUE(Create(CreateRequest()).ok());
  v1::GetWorldRequest get;
  get.set_world_id(kWorld);
  v1::WorldInfo info;
  for (const std::string& header : {std::string(), std::string("match-2")}) {
    const grpc::Status s = stub_->GetWorld(Ctx(header).get(), get, &info);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << header;
    EXPECT_EQ(BadRequestFields(s), std::vector<std::string>{"collide-world"}) << header;
  }
  v1::PushFrameRequest push;
  push.set_world_id(kWorld);
  Put(Frame1(), push.mutable_frame());
  v1::PushFrameResponse pushed;
  EXPECT_EQ(stub_->PushFrame(Ctx("other").get(), push, &pushed).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);

  get.set_world_id("no such world");  // A space: not an id.
  const grpc::Status bad_id = stub_->GetWorld(Ctx("no such world").get(), get, &info);
  EXPECT_EQ(BadRequestFields(bad_id), std::vector<std::string>{"world_id"});

  get.set_world_id("unknown");
  const grpc::Status unknown = stub_->GetWorld(Ctx("unknown").get(), get, &info);
  EXPECT_EQ(unknown.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(ErrorReason(unknown), "WORLD_NOT_FOUND");
  EXPECT_EQ(Push(Frame1(), "unknown").error_code(), grpc::StatusCode::NOT_FOUND);
}

Options SmallLimits() {
  Options o;
  o.world_limits.max_worlds = 2;
  o.world_limits.max_triangles_per_world = 2;
  o.world_limits.max_bodies_per_world = 2;
  o.world_limits.max_parts_per_body = 2;
  o.world_limits.max_history_ticks = 16;
  return o;
}
class WorldLimitsTest : public WorldServiceTest {
 protected:
  WorldLimitsTest() : WorldServiceTest(SmallLimits()) {}
};

void ExpectExhausted(const grpc::Status& s, const std::string& flag) {
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << flag << ": " << s.error_message();
  EXPECT_NE(s.error_message().find(flag), std::string::npos) << s.error_message();
}

TEST_F(WorldLimitsTest, EveryLimitIsNamed) {
  v1::CreateWorldRequest big = CreateRequest("big");
  big.mutable_statics(0)->mutable_mesh()->add_indices(0),
      big.mutable_statics(0)->mutable_mesh()->add_indices(1),
      big.mutable_statics(0)->mutable_mesh()->add_indices(3);
  ExpectExhausted(Create(big), "--max_triangles_per_world is 2");
  v1::CreateWorldRequest long_history = CreateRequest("long");
  long_history.set_history_ticks(17);
  ExpectExhausted(Create(long_history), "--max_history_ticks 16");

  ASSERT_TRUE(Create(CreateRequest()).ok());
  ASSERT_TRUE(Push(Frame1()).ok());
  Frame third{2, {{3, At(1, 1), Hitboxes(), {}, {}, {}, false}}, {}};
  ExpectExhausted(Push(third), "--max_bodies_per_world is 2");
  Frame many_parts{2, {{kTarget, {}, Hitboxes(), {}, {}, {}, false}}, {}};
  many_parts.bodies[0].parts.push_back({5, Sphere{{}, 0.1}, {}});
  ExpectExhausted(Push(many_parts), "--max_parts_per_body is 2");

  ASSERT_TRUE(Create(CreateRequest("second")).ok());
  ExpectExhausted(Create(CreateRequest("third")), "--max_worlds is 2");
}

// Alone on its server: a short TTL elsewhere would evict worlds of a slow
// (sanitizer) run between two calls.
Options ShortTtl() {
  Options o = SmallLimits();
  o.world_limits.idle_ttl = absl::Milliseconds(300);
  return o;
}
class WorldEvictionTest : public WorldServiceTest {
 protected:
  WorldEvictionTest() : WorldServiceTest(ShortTtl()) {}
};

TEST_F(WorldEvictionTest, IdleWorldsAreEvicted) {
  ASSERT_TRUE(Create(CreateRequest()).ok());
  ASSERT_TRUE(Create(CreateRequest("second")).ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  // Both idle past the TTL: gone, and their slots free again.
  EXPECT_EQ(Push(Frame1()).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_TRUE(Create(CreateRequest("third")).ok());
  EXPECT_TRUE(Create(CreateRequest("fourth")).ok());
}

TEST(WorldMemoryBudgetTest, CreationBeyondTheBudgetIsRefusedBeforeBuilding) {
  Options o;
  o.world_limits.memory_budget_bytes = 5000;  // One small world, not two.
  TestServer server(o);
  auto stub = v1::WorldService::NewStub(server.channel);
  v1::WorldInfo info;
  ASSERT_TRUE(stub->CreateWorld(Ctx().get(), CreateRequest(), &info).ok());
  const grpc::Status s = stub->CreateWorld(Ctx("b").get(), CreateRequest("b"), &info);
  ExpectExhausted(s, "--world_memory_budget_bytes is 5000");
}

// Frames whose bodies send all their part poses every tick (animation):
// the world's memory never goes past the budget; the frame that would is
// refused naming it.
TEST(WorldMemoryBudgetTest, AnimatedFramesStayWithinTheBudget) {
  Options o;
  o.world_limits.memory_budget_bytes = 300 * 1024;
  o.world_limits.max_parts_per_body = 16;
  o.world_limits.max_bodies_per_world = 64;
  TestServer server(o);
  auto stub = v1::WorldService::NewStub(server.channel);
  v1::CreateWorldRequest create = CreateRequest();
  create.set_history_ticks(64);
  v1::WorldInfo info;
  ASSERT_TRUE(stub->CreateWorld(Ctx().get(), create, &info).ok());
  bool refused = false;
  for (int tick = 1; tick <= 64 && !refused; ++tick) {
    Frame f{tick, {}, {}};
    for (int b = 0; b < 48; ++b) {
      BodyUpdate u;
      u.id = 100 + b;
      u.pose = At(b, 0.1 * tick);
      for (int p = 0; p < 16; ++p) {
        const Pose local{{0.01 * tick, 0, 0.1 * p}, {}};
        if (tick == 1) {
          u.parts.push_back({p, Sphere{{0, 0, 0}, 0.1}, local});
        } else {
          u.part_poses.push_back({p, local});
        }
      }
      f.bodies.push_back(std::move(u));
    }
    v1::PushFrameRequest push;
    push.set_world_id(kWorld);
    Put(f, push.mutable_frame());
    v1::PushFrameResponse pushed;
    if (const grpc::Status s = stub->PushFrame(Ctx().get(), push, &pushed); !s.ok()) {
      ExpectExhausted(s, "--world_memory_budget_bytes");
      refused = true;
    }
    v1::GetWorldRequest get;
    get.set_world_id(kWorld);
    ASSERT_TRUE(stub->GetWorld(Ctx().get(), get, &info).ok());
    EXPECT_LE(info.memory_bytes(), o.world_limits.memory_budget_bytes) << "after tick " << tick;
  }
  EXPECT_TRUE(refused);
}

TEST_F(WorldServiceTest, PackedFormsEqualTheReadable) {
  CreateAndFill();
  const World core = CoreWorld();
  // Rays along +x in rows through the target, the ball, the wall, and one
  // missing everything, at tick 1.5 ignoring the shooter.
  v1::CastWorldRaysPackedRequest rays;
  rays.set_world_id(kWorld);
  std::vector<RayQuery> queries;
  for (const double y : {1.1, 0.9, 4.0, -4.0, 40.0}) {
    queries.push_back({Ray{{-1, y, 1.2}, {1, 0, 0}, kInfinity},
                       Time{1, 0.5},
                       {kAllCategories, {kShooter}},
                       RayMode::kClosest,
                       1});
    for (double v : {-1.0, y, 1.2, 1.0, 0.0, 0.0, kInfinity}) rays.add_rays(v);
  }
  rays.mutable_filter()->mutable_at()->set_tick(1);
  rays.mutable_filter()->mutable_at()->set_fraction(0.5);
  rays.mutable_filter()->add_ignore_bodies(kShooter);
  v1::CastWorldRaysPackedResponse packed;
  ASSERT_TRUE(stub_->CastWorldRaysPacked(Ctx().get(), rays, &packed).ok());
  const std::vector<RayQueryResult> expected = core.RayCasts(queries);
  ASSERT_EQ(packed.hit_size(), 5);
  for (int i = 0; i < 5; ++i) {
    ASSERT_EQ(packed.hit(i), !expected[i].hits.empty()) << i;
    if (!packed.hit(i)) continue;
    const WorldRayHit& h = expected[i].hits[0];
    EXPECT_EQ(packed.distance(i), h.distance);
    EXPECT_EQ(packed.point(3 * i + 1), h.point.y);
    EXPECT_EQ(packed.normal(3 * i), h.normal.x);
    EXPECT_EQ(packed.target_kind(i), h.target.kind == HitTarget::Kind::kBody ? 2 : 1);
    EXPECT_EQ(packed.target_id(i), h.target.id);
  }
  EXPECT_EQ(packed.target_id(0), kTarget);
  EXPECT_EQ(packed.target_id(2), kBall);
  EXPECT_EQ(packed.target_id(3), kWall);
  EXPECT_FALSE(packed.hit(4));
  EXPECT_EQ(packed.time().at().tick(), 1);

  // The verdicts test's shots, packed, get the readable answers.
  v1::ValidateShotsRequest readable;
  readable.set_world_id(kWorld);
  v1::ValidateShotsPackedRequest shots;
  shots.set_world_id(kWorld);
  const struct {
    Vec3 origin, direction;
    double range;
    std::int64_t tick;
    double fraction;
    std::int64_t body;
    std::int32_t part;
  } cases[] = {{{0, 0, 1.6}, {1, 0, 0.02}, kInfinity, 1, 0.0, kTarget, kHead},
               {{0, 0, 1.6}, {1, 0, 0.02}, 50, convert::kPackedLatestTick, 0.0, kTarget, kHead},
               {{0, -1.5, 1}, {1, 0, 0}, kInfinity, 1, 0.5, -1, -1}};
  for (const auto& c : cases) {
    for (double v : {c.origin.x, c.origin.y, c.origin.z, c.direction.x, c.direction.y, c.direction.z, c.range,
                     c.fraction, 0.0, 0.0}) {
      shots.add_doubles(v);
    }
    shots.add_shooter_ids(kShooter), shots.add_ticks(c.tick), shots.add_claimed_body_ids(c.body);
    shots.add_claimed_part_ids(c.part);
    v1::Shot* s = readable.add_shots();
    s->set_shooter_id(kShooter);
    Put(c.origin, s->mutable_origin());
    Put(c.direction, s->mutable_direction());
    if (std::isfinite(c.range)) s->set_max_range(c.range);
    if (c.tick != convert::kPackedLatestTick) {
      s->mutable_at()->set_tick(c.tick), s->mutable_at()->set_fraction(c.fraction);
    }
    if (c.body != -1) s->mutable_claimed()->set_body_id(c.body), s->mutable_claimed()->set_part_id(c.part);
  }
  v1::ValidateShotsResponse from_packed, from_readable;
  ASSERT_TRUE(stub_->ValidateShotsPacked(Ctx().get(), shots, &from_packed).ok());
  ASSERT_TRUE(stub_->ValidateShots(Ctx().get(), readable, &from_readable).ok());
  EXPECT_TRUE(MessageDifferencer::Equals(from_packed, from_readable)) << from_packed.DebugString();
  EXPECT_EQ(from_packed.verdicts(0).code(), v1::SHOT_CODE_CONFIRMED);

  // A bad packed shot is an INVALID verdict naming its field as Shot does;
  // with all_or_nothing the call fails naming the element.
  shots.set_doubles(13, std::nan(""));  // Shot 1's direction.x.
  grpc::Status status = stub_->ValidateShotsPacked(Ctx().get(), shots, &from_packed);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(from_packed.verdicts(1).code(), v1::SHOT_CODE_INVALID);
  EXPECT_EQ(from_packed.verdicts(1).violations(0).field(), "direction.x");
  EXPECT_EQ(from_packed.verdicts(0).code(), v1::SHOT_CODE_CONFIRMED);
  shots.set_all_or_nothing(true);
  status = stub_->ValidateShotsPacked(Ctx().get(), shots, &from_packed);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(BadRequestFields(status), std::vector<std::string>{"doubles[13]"}) << status.error_message();
  shots.add_ticks(3);
  status = stub_->ValidateShotsPacked(Ctx().get(), shots, &from_packed);
  EXPECT_EQ(BadRequestFields(status), std::vector<std::string>{"ticks"}) << status.error_message();
  rays.set_rays(10, 0.0), rays.set_rays(11, 0.0), rays.set_rays(12, 0.0);  // Ray 1's direction: zero.
  status = stub_->CastWorldRaysPacked(Ctx().get(), rays, &packed);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(BadRequestFields(status), std::vector<std::string>{"rays[10]"}) << status.error_message();
  rays.add_rays(1.0);
  EXPECT_EQ(BadRequestFields(stub_->CastWorldRaysPacked(Ctx().get(), rays, &packed)),
            std::vector<std::string>{"rays"});
}

TEST_F(WorldServiceTest, UnparsableBytesAreInvalidArgumentOnEveryMethod) {
  ASSERT_TRUE(Create(CreateRequest()).ok());
  grpc::GenericStub generic(server_.channel);
  const std::string garbage("\x12\xff\xff\xff\x0f\x01", 6);  // Field 2: a 4 GB length, then 1 byte.
  for (const std::string method :
       {"CreateWorld", "DeleteWorld", "GetWorld", "ListWorlds", "PushFrame", "QueryWorld",
        "CastWorldRaysPacked", "ValidateShots", "ValidateShotsPacked", "ValidateMoves"}) {
    grpc::Slice slice(garbage);
    const grpc::ByteBuffer request(&slice, 1);
    grpc::ByteBuffer response;
    std::unique_ptr<grpc::ClientContext> context = Ctx();
    std::promise<grpc::Status> done;
    generic.UnaryCall(context.get(), "/collide.v1.WorldService/" + method, grpc::StubOptions(), &request,
                      &response, [&done](grpc::Status s) { done.set_value(std::move(s)); });
    const grpc::Status status = done.get_future().get();
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << method;
    EXPECT_NE(status.error_message().find("do not parse"), std::string::npos)
        << method << status.error_message();
  }
  v1::GetWorldRequest get;  // The world is untouched and served.
  get.set_world_id(kWorld);
  v1::WorldInfo info;
  EXPECT_TRUE(stub_->GetWorld(Ctx().get(), get, &info).ok());
}

// Map files from --maps_dir: an OBJ wall is imported and queried like the
// inline one; a corrupt file, a path and a server without maps are named.
TEST(WorldMapFileTest, ImportedFromMapsDir) {
  const std::string dir = ::testing::TempDir() + "/world_maps_" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/wall.obj") << "v 10 -5 0\nv 10 5 0\nv 10 5 4\nv 10 -5 4\nf 1 2 3\nf 1 3 4\n";
  std::ofstream(dir + "/broken.glb") << "glTF this is not";
  Options o;
  o.maps_dir = dir;
  TestServer server(o);
  auto stub = v1::WorldService::NewStub(server.channel);
  v1::CreateWorldRequest request;
  request.set_world_id(kWorld);
  v1::StaticElement* e = request.add_statics();
  e->set_id(kWall);
  e->mutable_map_file()->set_name("wall.obj");
  v1::WorldInfo info;
  const grpc::Status created = stub->CreateWorld(Ctx().get(), request, &info);
  ASSERT_TRUE(created.ok()) << created.error_message();
  EXPECT_EQ(info.triangles(), 2);
  v1::QueryWorldRequest query;
  query.set_world_id(kWorld);
  v1::WorldRayCast* c = query.add_ray_casts();
  c->mutable_ray()->mutable_origin()->set_y(1);
  c->mutable_ray()->mutable_origin()->set_z(1);
  c->mutable_ray()->mutable_direction()->set_x(1);
  v1::QueryWorldResponse response;
  ASSERT_TRUE(stub->QueryWorld(Ctx().get(), query, &response).ok());
  ASSERT_EQ(response.ray_casts(0).hits_size(), 1);
  EXPECT_EQ(response.ray_casts(0).hits(0).distance(), 10.0);
  EXPECT_EQ(response.ray_casts(0).hits(0).target().static_element().element_id(), kWall);
  // Worlds on one map file share its mesh (server/map_cache.h) while the
  // file is unchanged; a file replaced on disk is read afresh.
  const auto wall_at = [&](const std::string& world) {
    query.set_world_id(world);
    response.Clear();
    EXPECT_TRUE(stub->QueryWorld(Ctx(world).get(), query, &response).ok());
    return response.ray_casts(0).hits_size() == 1 ? response.ray_casts(0).hits(0).distance() : -1.0;
  };
  request.set_world_id("same");
  ASSERT_TRUE(stub->CreateWorld(Ctx("same").get(), request, &info).ok());
  EXPECT_EQ(wall_at("same"), 10.0);
  std::ofstream(dir + "/wall.obj") << "v 120 -5 0\nv 120 5 0\nv 120 5 4\nv 120 -5 4\nf 1 2 3\nf 1 3 4\n";
  request.set_world_id("moved");
  ASSERT_TRUE(stub->CreateWorld(Ctx("moved").get(), request, &info).ok());
  EXPECT_EQ(wall_at("moved"), 120.0);
  EXPECT_EQ(wall_at(kWorld), 10.0);  // The worlds made before keep theirs.
  query.set_world_id(kWorld);

  for (const auto& [name, field] : {std::pair{"broken.glb", "statics[0].map_file"},
                                    {"missing.obj", "statics[0].map_file"},
                                    {"../wall.obj", "statics[0].map_file.name"}}) {
    request.set_world_id("other");
    e->mutable_map_file()->set_name(name);
    const grpc::Status s = stub->CreateWorld(Ctx("other").get(), request, &info);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << name;
    EXPECT_EQ(BadRequestFields(s), std::vector<std::string>{field}) << name << ": " << s.error_message();
  }
  TestServer no_maps;
  auto plain = v1::WorldService::NewStub(no_maps.channel);
  e->mutable_map_file()->set_name("wall.obj");
  const grpc::Status s = plain->CreateWorld(Ctx("other").get(), request, &info);
  EXPECT_EQ(BadRequestFields(s), std::vector<std::string>{"statics[0].map_file"});
  std::filesystem::remove_all(dir);
}

// A map name in --maps_dir that is not a regular file is refused by name at
// once: a FIFO no writer ever opens (open() would block a thread for good)
// and a directory. Three such calls at once, then a legitimate one on the
// same server.
TEST(WorldMapFileTest, OnlyRegularFilesAreOpened) {
  const std::string dir = ::testing::TempDir() + "/world_fifo_maps_" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  ASSERT_EQ(mkfifo((dir + "/trap.bsp").c_str(), 0600), 0);
  std::filesystem::create_directories(dir + "/folder.obj");
  std::ofstream(dir + "/wall.obj") << "v 10 -5 0\nv 10 5 0\nv 10 5 4\nv 10 -5 4\nf 1 2 3\nf 1 3 4\n";
  Options o;
  o.maps_dir = dir;
  TestServer server(o);
  auto stub = v1::WorldService::NewStub(server.channel);
  const auto create = [&](const std::string& world, const std::string& map) {
    v1::CreateWorldRequest request;
    request.set_world_id(world);
    v1::StaticElement* e = request.add_statics();
    e->set_id(kWall);
    e->mutable_map_file()->set_name(map);
    v1::WorldInfo info;
    std::unique_ptr<grpc::ClientContext> context = Ctx(world);
    context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    return stub->CreateWorld(context.get(), request, &info);
  };
  std::vector<std::future<grpc::Status>> fifo_calls;
  for (int i = 0; i < 3; ++i) {
    fifo_calls.push_back(std::async(std::launch::async, create, "fifo-" + std::to_string(i), "trap.bsp"));
  }
  for (std::future<grpc::Status>& call : fifo_calls) {
    const grpc::Status s = call.get();
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << s.error_message();
    EXPECT_NE(s.error_message().find("trap.bsp: not a regular file (a FIFO)"), std::string::npos)
        << s.error_message();
    EXPECT_EQ(BadRequestFields(s), std::vector<std::string>{"statics[0].map_file"});
  }
  const grpc::Status folder = create("folder", "folder.obj");
  EXPECT_EQ(folder.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(folder.error_message().find("folder.obj: not a regular file (a directory)"), std::string::npos)
      << folder.error_message();
  const grpc::Status wall = create(kWorld, "wall.obj");
  EXPECT_TRUE(wall.ok()) << wall.error_message();
  std::filesystem::remove_all(dir);
}

// What world.proto documents, held: a map over --max_triangles_per_world is
// RESOURCE_EXHAUSTED naming the flag; default_max_speed must be > 0; an
// empty QueryWorld is INVALID_ARGUMENT naming ray_casts; a move's max_speed
// of +Inf is an INVALID verdict.
TEST(WorldProtoContractTest, LimitsAndRangesAreAsDocumented) {
  const std::string dir = ::testing::TempDir() + "/world_contract_maps_" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/wall.obj") << "v 10 -5 0\nv 10 5 0\nv 10 5 4\nv 10 -5 4\nf 1 2 3\nf 1 3 4\n";
  Options o;
  o.maps_dir = dir;
  o.world_limits.max_triangles_per_world = 1;
  TestServer server(o);
  auto stub = v1::WorldService::NewStub(server.channel);
  v1::CreateWorldRequest map_world;
  map_world.set_world_id("map");
  v1::StaticElement* e = map_world.add_statics();
  e->set_id(kWall);
  e->mutable_map_file()->set_name("wall.obj");
  v1::WorldInfo info;
  const grpc::Status over = stub->CreateWorld(Ctx("map").get(), map_world, &info);
  EXPECT_EQ(over.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << over.error_message();
  EXPECT_NE(over.error_message().find("wall.obj: 2 triangles exceed the limit of 1"), std::string::npos)
      << over.error_message();
  EXPECT_NE(over.error_message().find("--max_triangles_per_world is 1"), std::string::npos)
      << over.error_message();

  TestServer plain;
  auto worlds = v1::WorldService::NewStub(plain.channel);
  v1::CreateWorldRequest zero = CreateRequest("zero");
  zero.mutable_policy()->set_default_max_speed(0);
  const grpc::Status zero_speed = worlds->CreateWorld(Ctx("zero").get(), zero, &info);
  EXPECT_EQ(zero_speed.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(BadRequestFields(zero_speed), std::vector<std::string>{"policy.default_max_speed"})
      << zero_speed.error_message();
  ASSERT_TRUE(worlds->CreateWorld(Ctx().get(), CreateRequest(), &info).ok());
  v1::QueryWorldRequest empty;
  empty.set_world_id(kWorld);
  v1::QueryWorldResponse answer;
  const grpc::Status nothing = worlds->QueryWorld(Ctx().get(), empty, &answer);
  EXPECT_EQ(nothing.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(BadRequestFields(nothing), std::vector<std::string>{"ray_casts"}) << nothing.error_message();

  v1::PushFrameRequest push;
  push.set_world_id(kWorld);
  Put(Frame1(), push.mutable_frame());
  v1::PushFrameResponse pushed;
  ASSERT_TRUE(worlds->PushFrame(Ctx().get(), push, &pushed).ok());
  v1::ValidateMovesRequest moves = MovesRequest({Moves()[2]});
  moves.mutable_moves(0)->set_max_speed(std::numeric_limits<double>::infinity());
  v1::ValidateMovesResponse verdicts;
  ASSERT_TRUE(worlds->ValidateMoves(Ctx().get(), moves, &verdicts).ok());
  ASSERT_EQ(verdicts.verdicts_size(), 1);
  EXPECT_EQ(verdicts.verdicts(0).code(), v1::MOVE_CODE_INVALID);
  std::filesystem::remove_all(dir);
}

// Shape statics have a per-world limit of their own, as triangles do:
// checked before decoding, RESOURCE_EXHAUSTED naming the flag and its value;
// meshes do not count against it.
TEST(WorldPrimitiveLimitTest, PrimitiveStaticsPerWorldAreLimited) {
  Options o;
  o.world_limits.max_primitive_statics_per_world = 2;
  TestServer server(o);
  auto stub = v1::WorldService::NewStub(server.channel);
  v1::CreateWorldRequest request = CreateRequest();  // A wall mesh and one ball.
  v1::WorldInfo info;
  ASSERT_TRUE(stub->CreateWorld(Ctx().get(), request, &info).ok());
  request.set_world_id("three");
  for (int i = 0; i < 2; ++i) {
    v1::StaticElement* e = request.add_statics();
    e->set_id(100 + i);
    *e->mutable_shape() = request.statics(1).shape();
  }
  const grpc::Status over = stub->CreateWorld(Ctx("three").get(), request, &info);
  EXPECT_EQ(over.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(over.error_message(),
            "the world has 3 primitive (shape) statics; --max_primitive_statics_per_world is 2");
  v1::GetWorldRequest get;
  get.set_world_id("three");
  EXPECT_EQ(stub->GetWorld(Ctx("three").get(), get, &info).error_code(), grpc::StatusCode::NOT_FOUND);
  o.world_limits.max_primitive_statics_per_world = -1;
  EXPECT_FALSE(Server::Start(o).ok());
}

// Long world work runs off gRPC's callback threads: with every call thread
// held inside CreateWorld (a test hook) and more creations queued behind
// them, health checks, a short world call and a pair query are answered at
// once. A creation whose deadline passed while it waited is not run.
TEST(WorldBusyTest, LongWorldWorkLeavesHealthAndShortCallsServed) {
  std::mutex mu;
  std::condition_variable cv;
  bool hold = false, released = false;
  int held = 0;
  Options o;
  o.worker_threads = 2;
  o.hooks.before_posted_world_call = [&](grpc::CallbackServerContext&) {
    std::unique_lock lock(mu);
    if (!hold) return;
    ++held;
    cv.notify_all();
    cv.wait(lock, [&] { return released; });
  };
  TestServer server(o);
  auto stub = v1::WorldService::NewStub(server.channel);
  v1::WorldInfo info;
  ASSERT_TRUE(stub->CreateWorld(Ctx().get(), CreateRequest(), &info).ok());
  {
    std::lock_guard lock(mu);
    hold = true;
  }
  const auto create = [&](const std::string& id, std::chrono::milliseconds timeout) {
    std::unique_ptr<grpc::ClientContext> context = Ctx(id);
    context->set_deadline(std::chrono::system_clock::now() + timeout);
    v1::WorldInfo created;
    return stub->CreateWorld(context.get(), CreateRequest(id), &created);
  };
  std::vector<std::future<grpc::Status>> creations;
  for (int i = 0; i < 6; ++i) {
    creations.push_back(
        std::async(std::launch::async, create, "busy-" + std::to_string(i), std::chrono::seconds(30)));
  }
  {
    std::unique_lock lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(10), [&] { return held == 2; }));
  }
  const grpc::Status late = create("late", std::chrono::milliseconds(300));
  EXPECT_EQ(late.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);

  auto health = grpc::health::v1::Health::NewStub(server.channel);
  for (int i = 0; i < 20; ++i) {
    grpc::health::v1::HealthCheckRequest request;
    grpc::health::v1::HealthCheckResponse response;
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(2));
    ASSERT_TRUE(health->Check(&context, request, &response).ok()) << i;
    EXPECT_EQ(response.status(), grpc::health::v1::HealthCheckResponse::SERVING);
  }
  const auto soon = [] {
    std::unique_ptr<grpc::ClientContext> context = Ctx();
    context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(2));
    return context;
  };
  v1::GetWorldRequest get;
  get.set_world_id(kWorld);
  EXPECT_TRUE(stub->GetWorld(soon().get(), get, &info).ok());
  v1::QueryWorldRequest query;
  query.set_world_id(kWorld);
  v1::WorldRayCast* ray = query.add_ray_casts();
  ray->mutable_ray()->mutable_origin()->set_z(1);
  ray->mutable_ray()->mutable_direction()->set_x(1);
  v1::QueryWorldResponse answer;
  const grpc::Status queried = stub->QueryWorld(soon().get(), query, &answer);
  EXPECT_TRUE(queried.ok()) << queried.error_message();
  v1::QueryPairsRequest pairs;
  pairs.set_level(v1::QUERY_LEVEL_INTERSECT);
  v1::ShapePair* pair = pairs.add_pairs();
  pair->mutable_a()->mutable_sphere()->set_radius(1);
  pair->mutable_b()->mutable_sphere()->set_radius(1);
  v1::QueryPairsResponse pair_answer;
  grpc::ClientContext pair_context;
  pair_context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(2));
  const grpc::Status paired = server.stub->QueryPairs(&pair_context, pairs, &pair_answer);
  EXPECT_TRUE(paired.ok()) << paired.error_message();
  {
    std::lock_guard lock(mu);
    EXPECT_EQ(held, 2);  // The short calls did not wait for a call thread.
    released = true;
  }
  cv.notify_all();
  for (std::future<grpc::Status>& creation : creations) {
    const grpc::Status s = creation.get();
    EXPECT_TRUE(s.ok()) << s.error_message();
  }
  get.set_world_id("late");
  EXPECT_EQ(stub->GetWorld(Ctx("late").get(), get, &info).error_code(), grpc::StatusCode::NOT_FOUND);
}

// A posted call is admitted before it waits for a call thread: with one
// creation running (held) and one queued, a third is refused at once
// (RESOURCE_EXHAUSTED naming --max_concurrent_calls) instead of queueing
// with its parsed request; once they end, calls are admitted again.
TEST(WorldBusyTest, QueuedCallsCountAgainstAdmission) {
  std::mutex mu;
  std::condition_variable cv;
  bool released = false;
  int held = 0;
  Options o;
  o.worker_threads = 1;
  o.max_concurrent_calls = 2;
  o.hooks.before_posted_world_call = [&](grpc::CallbackServerContext&) {
    std::unique_lock lock(mu);
    ++held;
    cv.notify_all();
    cv.wait(lock, [&] { return released; });
  };
  TestServer server(o);
  auto stub = v1::WorldService::NewStub(server.channel);
  const auto create = [&](const std::string& id) {
    v1::WorldInfo info;
    return stub->CreateWorld(Ctx(id).get(), CreateRequest(id), &info);
  };
  std::future<grpc::Status> running = std::async(std::launch::async, create, "running");
  {
    std::unique_lock lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(10), [&] { return held == 1; }));
  }
  std::future<grpc::Status> queued = std::async(std::launch::async, create, "queued");
  // The queued creation is in flight once a short call (run where it
  // arrives, never queued) is refused.
  v1::GetWorldRequest get;
  get.set_world_id("running");
  grpc::Status short_call;
  ASSERT_TRUE(::collide::testing::WaitFor([&] {
    v1::WorldInfo info;
    short_call = stub->GetWorld(Ctx("running").get(), get, &info);
    return short_call.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED;
  })) << short_call.error_message();
  const grpc::Status refused = create("third");
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(refused.error_message().find("--max_concurrent_calls"), std::string::npos)
      << refused.error_message();
  {
    std::lock_guard lock(mu);
    released = true;
  }
  cv.notify_all();
  EXPECT_TRUE(running.get().ok());
  EXPECT_TRUE(queued.get().ok());
  EXPECT_TRUE(create("third").ok());
}

// Queries and frames on one world from many threads: every answer is the
// core's before or after a frame, never a mix; other worlds are unaffected.
TEST(WorldConcurrencyTest, QueriesSeeWholeFrames) {
  TestServer server;
  auto stub = v1::WorldService::NewStub(server.channel);
  v1::WorldInfo info;
  ASSERT_TRUE(stub->CreateWorld(Ctx().get(), CreateRequest(), &info).ok());
  // Frame t puts all 8 bodies at x = t % 9 (in rows y = -2, -5, ..., clear
  // of the statics): the ray along +x in each row hits its body's chest at
  // the same distance, unless a query saw part of a frame.
  constexpr int kBodies = 8, kFrames = 60;
  const auto frame = [](int t) {
    Frame f{t, {}, {}};
    for (int b = 0; b < kBodies; ++b) {
      BodyUpdate u{b, Pose{{static_cast<double>(t % 9), -3.0 * b - 2, 0}, {}}, {}, {}, {}, {}, false};
      if (t == 1) u.parts = Hitboxes();
      f.bodies.push_back(u);
    }
    return f;
  };
  std::atomic<bool> done{false};
  std::atomic<int> mixed{0}, answered{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 2; ++r) {
    readers.emplace_back([&] {
      auto reader = v1::WorldService::NewStub(server.channel);
      v1::QueryWorldRequest q;
      q.set_world_id(kWorld);
      for (int b = 0; b < kBodies; ++b) {
        v1::WorldRayCast* c = q.add_ray_casts();
        c->mutable_ray()->mutable_origin()->set_x(-1);
        c->mutable_ray()->mutable_origin()->set_y(-3.0 * b - 2);
        c->mutable_ray()->mutable_origin()->set_z(1.0);
        c->mutable_ray()->mutable_direction()->set_x(1);
        c->mutable_ray()->set_max_distance(9.5);
      }
      while (!done) {
        v1::QueryWorldResponse response;
        if (!reader->QueryWorld(Ctx().get(), q, &response).ok()) continue;
        // All rays see one frame: equal distances.
        const auto distance = [&](int b) {
          return response.ray_casts(b).hits_size() ? response.ray_casts(b).hits(0).distance() : -1.0;
        };
        for (int b = 1; b < kBodies; ++b) mixed += distance(b) != distance(0);
        ++answered;
      }
    });
  }
  v1::PushFrameRequest push;
  push.set_world_id(kWorld);
  v1::PushFrameResponse pushed;
  for (int t = 1; t <= kFrames; ++t) {
    push.Clear();
    push.set_world_id(kWorld);
    Put(frame(t), push.mutable_frame());
    ASSERT_TRUE(stub->PushFrame(Ctx().get(), push, &pushed).ok());
  }
  done = true;
  for (std::thread& t : readers) t.join();
  EXPECT_EQ(mixed.load(), 0);
  EXPECT_GT(answered.load(), 0);
}

// Log text captured for a test, read under the mutex the server's threads
// log under (reading an ostream_sink's stream directly races with them: the
// test's thread learns of a call's end through gRPC, which TSan cannot see).
class CaptureSink : public spdlog::sinks::base_sink<std::mutex> {
 public:
  std::string text() {
    std::lock_guard lock(mutex_);
    return text_;
  }
  void clear() {
    std::lock_guard lock(mutex_);
    text_.clear();
  }

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    spdlog::memory_buf_t formatted;
    formatter_->format(msg, formatted);
    text_.append(formatted.data(), formatted.size());
  }
  void flush_() override {}

 private:
  std::string text_;
};

// At debug level each world call writes one access line (RPC, world, items,
// status, latency, the message when not OK), at most
// WorldMetrics::kAccessLinesPerSecond, then a line counting the dropped ones.
TEST_F(WorldServiceTest, AccessLinesAtDebugNameTheCallAndAreRateLimited) {
  auto captured = std::make_shared<CaptureSink>();
  const std::shared_ptr<spdlog::logger> previous = spdlog::default_logger();
  auto logger = std::make_shared<spdlog::logger>("capture", captured);
  logger->set_pattern("%v");
  logger->set_level(spdlog::level::debug);
  spdlog::set_default_logger(logger);

  ASSERT_TRUE(Create(CreateRequest()).ok());
  ASSERT_TRUE(Push(Frame1()).ok());
  v1::ValidateShotsResponse shots;
  ASSERT_TRUE(stub_->ValidateShots(Ctx().get(), ShotsRequest(Shots()), &shots).ok());
  ASSERT_EQ(Push(Frame2(), "nowhere").error_code(), grpc::StatusCode::NOT_FOUND);
  const std::string calls = captured->text();
  EXPECT_TRUE(
      std::regex_search(calls, std::regex("CreateWorld world=match-1 items=0 status=0 latency_us=\\d+\n")))
      << calls;
  EXPECT_TRUE(
      std::regex_search(calls, std::regex("PushFrame world=match-1 items=0 status=0 latency_us=\\d+\n")))
      << calls;
  EXPECT_TRUE(std::regex_search(
      calls, std::regex("ValidateShots world=match-1 items=" + std::to_string(shots.verdicts_size()) +
                        " status=0 latency_us=\\d+\n")))
      << calls;
  EXPECT_TRUE(std::regex_search(
      calls, std::regex("PushFrame world=nowhere items=0 status=5 latency_us=\\d+ message=.*nowhere")))
      << calls;

  // A burst past the bucket, then one more call once it has refilled.
  captured->clear();
  constexpr int kCalls = 300;
  v1::GetWorldRequest get;
  get.set_world_id(kWorld);
  v1::WorldInfo info;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kCalls; ++i) ASSERT_TRUE(stub_->GetWorld(Ctx().get(), get, &info).ok());
  const double burst_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ASSERT_TRUE(stub_->GetWorld(Ctx().get(), get, &info).ok());
  spdlog::set_default_logger(previous);

  const std::string burst = captured->text();
  int written = 0;
  for (std::size_t at = burst.find("GetWorld world="); at != std::string::npos;
       at = burst.find("GetWorld world=", at + 1)) {
    ++written;
  }
  int suppressed = 0;
  const std::regex count("world calls: suppressed (\\d+) access log lines");
  for (auto it = std::sregex_iterator(burst.begin(), burst.end(), count); it != std::sregex_iterator();
       ++it) {
    suppressed += std::stoi((*it)[1]);
  }
  // The bucket, its refill during the burst and the last call: in Release the
  // burst takes tens of milliseconds, so most lines are dropped and counted.
  EXPECT_LE(written, WorldMetrics::kAccessLinesPerSecond * (1 + burst_seconds) + 1);
  EXPECT_EQ(written + suppressed, kCalls + 1);
}

}  // namespace
}  // namespace collide::server::testing
