// The movement model through the service: WorldPolicy.movement from a preset
// with a field replaced, a Move's stance and own model, the new codes and
// `grounded`, and bad models named by field.
#include <gtest/gtest.h>

#include "collide/v1/world.grpc.pb.h"
#include "tests/server/test_server.h"
#include "tests/server/world_fixtures.h"

namespace collide::server::testing {
namespace {

// A floor under a Quake player at (0, 0, 24).
v1::CreateWorldRequest Floor(const std::string& id) {
  v1::CreateWorldRequest r;
  r.set_world_id(id);
  v1::StaticElement* floor = r.add_statics();
  floor->set_id(1);
  convert::ToProto(Shape{Aabb{{-1000, -1000, -16}, {1000, 1000, 0}}}, floor->mutable_shape());
  return r;
}

// Creates `create` and pushes the player at (0, 0, 24) in tick 1.
void Start(v1::WorldService::Stub& stub, const v1::CreateWorldRequest& create, v1::WorldInfo& info) {
  ASSERT_TRUE(stub.CreateWorld(Ctx(create.world_id()).get(), create, &info).ok());
  v1::PushFrameRequest push;
  push.set_world_id(create.world_id());
  Put(Frame{1, {{kShooter, Pose{{0, 0, 24}, {}}, {{0, Shape{Sphere{{0, 0, 0}, 10}}, {}}}}}, {}},
      push.mutable_frame());
  v1::PushFrameResponse pushed;
  ASSERT_TRUE(stub.PushFrame(Ctx(create.world_id()).get(), push, &pushed).ok());
}

v1::Move QuakeMove(double x, int stance) {
  v1::Move m;
  m.set_body_id(kShooter);
  Put(Vec3{0, 0, 24}, m.mutable_from());
  Put(Vec3{x, 0, 24}, m.mutable_to());
  m.set_elapsed(0.1);
  m.set_stance(stance);
  return m;
}

TEST(WorldMovementServiceTest, PolicyAndMoveModelsJudgeMoves) {
  TestServer server;
  auto stub = v1::WorldService::NewStub(server.channel);
  v1::CreateWorldRequest create = Floor(kWorld);
  create.mutable_policy()->mutable_movement()->set_preset(v1::MOVEMENT_PRESET_QUAKE);
  create.mutable_policy()->mutable_movement()->set_air_speed(500);
  v1::WorldInfo info;
  Start(*stub, create, info);
  EXPECT_EQ(info.policy().movement().stances_size(), 2);
  EXPECT_EQ(info.policy().movement().air_speed(), 500);
  EXPECT_EQ(info.policy().movement().jump_speed(), 270);

  v1::ValidateMovesRequest moves;
  moves.set_world_id(kWorld);
  *moves.add_moves() = QuakeMove(30, 1);  // crouched: 80 x sqrt(10 / 6) = 103 at most
  *moves.add_moves() = QuakeMove(30, 0);  // 300 units/s standing: OK
  *moves.add_moves() = QuakeMove(30, 2);  // no third stance
  v1::ValidateMovesResponse verdicts;
  ASSERT_TRUE(stub->ValidateMoves(Ctx().get(), moves, &verdicts).ok());
  EXPECT_EQ(verdicts.verdicts(0).code(), v1::MOVE_CODE_TOO_FAST_HORIZONTAL);
  EXPECT_EQ(verdicts.verdicts(1).code(), v1::MOVE_CODE_OK);
  EXPECT_TRUE(verdicts.verdicts(1).grounded());
  EXPECT_EQ(verdicts.verdicts(2).code(), v1::MOVE_CODE_INVALID);
  ASSERT_EQ(verdicts.verdicts(2).violations_size(), 1);
  EXPECT_EQ(verdicts.verdicts(2).violations(0).field(), "stance");

  // A world without a model: a move brings its own (Source: 320 x
  // sqrt(10 / 4) = 506 at most).
  Start(*stub, Floor("plain"), info);
  moves.set_world_id("plain");
  moves.clear_moves();
  v1::Move fast = QuakeMove(60, 0);
  fast.set_max_speed(1000);
  *moves.add_moves() = fast;  // the straight sweep: 600 < 1000
  fast.mutable_movement()->set_preset(v1::MOVEMENT_PRESET_SOURCE);
  Put(Vec3{0, 0, 0.5}, fast.mutable_from());  // Source's origin is at the feet
  Put(Vec3{60, 0, 0.5}, fast.mutable_to());
  *moves.add_moves() = fast;
  ASSERT_TRUE(stub->ValidateMoves(Ctx("plain").get(), moves, &verdicts).ok());
  EXPECT_EQ(verdicts.verdicts(0).code(), v1::MOVE_CODE_OK);
  EXPECT_EQ(verdicts.verdicts(1).code(), v1::MOVE_CODE_TOO_FAST_HORIZONTAL);

  // Bad models name their fields.
  create.set_world_id("bad");
  create.mutable_policy()->mutable_movement()->set_gravity(-1);
  const grpc::Status bad = stub->CreateWorld(Ctx("bad").get(), create, &info);
  EXPECT_EQ(BadRequestFields(bad), std::vector<std::string>{"policy.movement.gravity"});
}

// A budget: a move claiming a second of elapsed time on the first tick.
TEST(WorldMovementServiceTest, TheBudgetCatchesClaimedTime) {
  TestServer server;
  auto stub = v1::WorldService::NewStub(server.channel);
  v1::CreateWorldRequest create = Floor(kWorld);
  v1::MoveBudget* budget = create.mutable_policy()->mutable_move_budget();
  budget->set_tick_seconds(1.0 / 64);
  budget->set_max_speed(320);
  v1::WorldInfo info;
  Start(*stub, create, info);
  EXPECT_EQ(info.policy().move_budget().window(), 1.0);
  v1::ValidateMovesRequest moves;
  moves.set_world_id(kWorld);
  v1::Move slow = QuakeMove(5, 0);
  slow.set_elapsed(1.0);
  *moves.add_moves() = slow;
  v1::ValidateMovesResponse verdicts;
  ASSERT_TRUE(stub->ValidateMoves(Ctx().get(), moves, &verdicts).ok());
  EXPECT_EQ(verdicts.verdicts(0).code(), v1::MOVE_CODE_TIME_BUDGET);
  create.set_world_id("bad");
  budget->set_tick_seconds(0);
  EXPECT_EQ(BadRequestFields(stub->CreateWorld(Ctx("bad").get(), create, &info)),
            std::vector<std::string>{"policy.move_budget.tick_seconds"});
}

}  // namespace
}  // namespace collide::server::testing
