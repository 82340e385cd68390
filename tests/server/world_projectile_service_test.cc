// Projectile and melee verdicts through the service (unary and Tick parts):
// answers equal to the core's on the same world, bad items as INVALID
// verdicts, or with all_or_nothing the call's INVALID_ARGUMENT with paths.
#include <gtest/gtest.h>

#include <numbers>

#include "collide/v1/world.grpc.pb.h"
#include "convert/world_projectiles.h"
#include "tests/server/test_server.h"
#include "tests/server/world_fixtures.h"

namespace collide::server::testing {
namespace {

// The fixture's world (a wall at x = 10, the target at x = 5) in the core.
World CoreWorld() {
  World world(WorldSettings{.history_ticks = 16},
              {{kWall, kAllCategories, std::make_shared<const TriangleMesh>(Wall())}, Ball()});
  EXPECT_TRUE(world.PushFrame(Frame1()).ok());
  EXPECT_TRUE(world.PushFrame(Frame2()).ok());
  return world;
}

std::vector<ProjectileRequest> Projectiles() {
  ProjectileRequest p;
  p.shooter = kShooter;
  p.at = Time{1, 0};
  p.origin = {0, 0, 1.75};
  p.velocity = {50, 0, 0.5};  // into the head at x = 4.7
  p.gravity = {0, 0, -9.81};
  p.time_limit = 1;
  p.tick_seconds = 1;  // one tick, the fixture's two frames, is the whole second
  p.claim = ShotClaim{kTarget, kHead};
  ProjectileRequest wall = p;  // beside the target into the wall, back, out of time
  wall.velocity = {40, -8, 3};
  wall.max_bounces = 1;
  wall.restitution = 0.5;
  ProjectileRequest bad = p;
  bad.velocity.x = std::nan("");
  bad.tick_seconds = 0;
  ProjectileRequest far = p;  // 3 to the side of the shooter's eye at its command's tick
  far.origin.y = 3;
  far.command_at = Time{2, 0};
  return {p, wall, bad, far};
}

std::vector<MeleeRequest> Swings() {
  MeleeRequest m;
  m.attacker = kShooter;
  m.at = Time{1, 0};  // the target at x = 5, in the plane y = 0 through the eye (the origin)
  m.reach = MeleeArc{{1, 0, 0.2}, {0, 1, 0}, 5.5, std::numbers::pi / 2};
  m.claim = ShotClaim{kTarget, kChest};
  MeleeRequest short_arm = m;
  short_arm.reach = MeleeArc{{1, 0, 0.2}, {0, 1, 0}, 2, std::numbers::pi / 2};
  MeleeRequest bad = m;
  bad.reach = MeleeArc{{1, 0, 0}, {0, 0, 1}, 2, 0};
  return {m, short_arm, bad};
}

class WorldProjectileServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    stub_ = v1::WorldService::NewStub(server_.channel);
    v1::WorldInfo info;
    ASSERT_TRUE(stub_->CreateWorld(Ctx().get(), CreateRequest(), &info).ok());
    for (const Frame& f : {Frame1(), Frame2()}) {
      v1::PushFrameRequest push;
      push.set_world_id(kWorld);
      Put(f, push.mutable_frame());
      v1::PushFrameResponse pushed;
      ASSERT_TRUE(stub_->PushFrame(Ctx().get(), push, &pushed).ok());
    }
    for (const ProjectileRequest& p : Projectiles()) convert::ToProto(p, projectiles_.add_projectiles());
    projectiles_.set_world_id(kWorld);
    for (const MeleeRequest& m : Swings()) convert::ToProto(m, melee_.add_melee());
    melee_.set_world_id(kWorld);
  }

  void ExpectCoreAnswers(const v1::ValidateProjectilesResponse& p, const v1::ValidateMeleeResponse& m) {
    const World core = CoreWorld();
    const std::vector<ProjectileVerdict> want = core.ValidateProjectiles(Projectiles());
    ASSERT_EQ(p.verdicts_size(), static_cast<int>(want.size()));
    for (std::size_t i = 0; i < want.size(); ++i) {
      const ProjectileVerdict got = convert::FromProto(p.verdicts(static_cast<int>(i)));
      EXPECT_EQ(got.code, want[i].code) << i;
      EXPECT_EQ(got.hit, want[i].hit) << i;
      EXPECT_EQ(got.bounces, want[i].bounces) << i;
      EXPECT_EQ(got.position, want[i].position) << i;
      EXPECT_EQ(got.end_at, want[i].end_at) << i;
      EXPECT_EQ(got.origin_offset, want[i].origin_offset) << i;
      EXPECT_EQ(got.origin_allowance, want[i].origin_allowance) << i;
    }
    const std::vector<MeleeVerdict> swings = core.ValidateMelee(Swings());
    ASSERT_EQ(m.verdicts_size(), static_cast<int>(swings.size()));
    for (std::size_t i = 0; i < swings.size(); ++i) {
      const MeleeVerdict got = convert::FromProto(m.verdicts(static_cast<int>(i)));
      EXPECT_EQ(got.code, swings[i].code) << i;
      EXPECT_EQ(got.hits, swings[i].hits) << i;
      EXPECT_EQ(got.claim_miss_distance, swings[i].claim_miss_distance) << i;
    }
  }

  TestServer server_;
  std::unique_ptr<v1::WorldService::Stub> stub_;
  v1::ValidateProjectilesRequest projectiles_;
  v1::ValidateMeleeRequest melee_;
};

TEST_F(WorldProjectileServiceTest, UnaryAnswersEqualTheCores) {
  v1::ValidateProjectilesResponse p;
  ASSERT_TRUE(stub_->ValidateProjectiles(Ctx().get(), projectiles_, &p).ok());
  v1::ValidateMeleeResponse m;
  ASSERT_TRUE(stub_->ValidateMelee(Ctx().get(), melee_, &m).ok());
  ExpectCoreAnswers(p, m);
  // The codes the fixture gives, and the bad items' fields.
  EXPECT_EQ(p.verdicts(0).code(), v1::PROJECTILE_CODE_CONFIRMED);
  EXPECT_EQ(p.verdicts(1).code(), v1::PROJECTILE_CODE_MISSED);
  EXPECT_EQ(p.verdicts(1).bounces_size(), 1);
  ASSERT_EQ(p.verdicts(2).code(), v1::PROJECTILE_CODE_INVALID);
  EXPECT_EQ(p.verdicts(2).violations(0).field(), "velocity");
  EXPECT_EQ(p.verdicts(2).violations(1).field(), "tick_seconds");
  EXPECT_EQ(p.verdicts(3).code(), v1::PROJECTILE_CODE_ORIGIN_IMPLAUSIBLE);
  EXPECT_GT(p.verdicts(3).origin_offset(), p.verdicts(3).origin_allowance());
  EXPECT_EQ(m.verdicts(0).code(), v1::SHOT_CODE_CONFIRMED);
  EXPECT_EQ(m.verdicts(1).code(), v1::SHOT_CODE_MISSED);
  EXPECT_EQ(m.verdicts(2).code(), v1::SHOT_CODE_INVALID);

  projectiles_.set_all_or_nothing(true);
  grpc::Status status = stub_->ValidateProjectiles(Ctx().get(), projectiles_, &p);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(BadRequestFields(status),
            (std::vector<std::string>{"projectiles[2].velocity", "projectiles[2].tick_seconds"}));
  melee_.set_all_or_nothing(true);
  status = stub_->ValidateMelee(Ctx().get(), melee_, &m);
  EXPECT_EQ(BadRequestFields(status), (std::vector<std::string>{"melee[2].arc.angle"}));
  // An unknown world.
  projectiles_.set_world_id("nowhere");
  status = stub_->ValidateProjectiles(Ctx("nowhere").get(), projectiles_, &p);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
}

TEST_F(WorldProjectileServiceTest, TickPartsAnswerAsTheUnaryCalls) {
  grpc::ClientContext context;
  context.AddMetadata("collide-world", kWorld);
  auto stream = stub_->Tick(&context);
  v1::TickRequest message;
  message.set_sequence(1);
  *message.mutable_projectiles() = projectiles_;
  *message.mutable_melee() = melee_;
  message.mutable_projectiles()->clear_world_id();
  ASSERT_TRUE(stream->Write(message));
  v1::TickResponse answer;
  ASSERT_TRUE(stream->Read(&answer));
  EXPECT_EQ(answer.sequence(), 1);
  EXPECT_FALSE(answer.has_status());
  ExpectCoreAnswers(answer.projectiles(), answer.melee());
  // A bad part names its fields under the part.
  message.set_sequence(2);
  message.mutable_melee()->set_all_or_nothing(true);
  ASSERT_TRUE(stream->Write(message));
  ASSERT_TRUE(stream->Read(&answer));
  EXPECT_EQ(answer.status().code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(answer.has_projectiles());  // it ran before the melee part.
  EXPECT_FALSE(answer.has_melee());
  stream->WritesDone();
  EXPECT_TRUE(stream->Finish().ok());
}

}  // namespace
}  // namespace collide::server::testing
