// GetBodies and explained verdicts through a real in-process channel: the
// answers equal the core's bit for bit, the errors name their field or
// reason, and the Tick part `bodies` runs after the message's frame.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "collide/v1/world.grpc.pb.h"
#include "collide/world.h"
#include "convert/world_explain.h"
#include "convert/world_results.h"
#include "google/protobuf/util/message_differencer.h"
#include "tests/server/test_server.h"
#include "tests/server/world_fixtures.h"

namespace collide::server::testing {
namespace {

using google::protobuf::util::MessageDifferencer;

class WorldBodiesTest : public ::testing::Test {
 protected:
  WorldBodiesTest() : server_(Options{.max_items_per_request = 8}) {
    stub_ = v1::WorldService::NewStub(server_.channel);
    v1::WorldInfo info;
    EXPECT_TRUE(stub_->CreateWorld(Ctx().get(), CreateRequest(), &info).ok());
    for (const Frame& f : {Frame1(), Frame2()}) {
      v1::PushFrameRequest r;
      r.set_world_id(kWorld);
      Put(f, r.mutable_frame());
      v1::PushFrameResponse pushed;
      EXPECT_TRUE(stub_->PushFrame(Ctx().get(), r, &pushed).ok());
    }
  }
  grpc::Status GetBodies(const v1::GetBodiesRequest& r, v1::GetBodiesResponse* out,
                         const std::string& header = kWorld) {
    return stub_->GetBodies(Ctx(header).get(), r, out);
  }

  TestServer server_;
  std::unique_ptr<v1::WorldService::Stub> stub_;
};

v1::GetBodiesRequest BodiesRequest(std::optional<Time> at, std::vector<std::int64_t> ids) {
  v1::GetBodiesRequest r;
  r.set_world_id(kWorld);
  convert::ToProto(at, ids, &r);
  return r;
}

TEST_F(WorldBodiesTest, BodiesEqualTheCore) {
  const World core = CoreWorld();
  // Half way between the frames (the target moving and turning), an unknown
  // id, then every body at the latest frame.
  const std::vector<std::int64_t> ids = {kTarget, 99, kShooter};
  for (const std::optional<Time> at : {std::optional<Time>(Time{1, 0.5}), std::optional<Time>()}) {
    for (const std::vector<std::int64_t>& asked : {ids, std::vector<std::int64_t>{}}) {
      v1::GetBodiesResponse response, expected;
      ASSERT_TRUE(GetBodies(BodiesRequest(at, asked), &response).ok());
      convert::ToProto(core.Bodies(at, asked), &expected);
      EXPECT_TRUE(MessageDifferencer::Equals(response, expected)) << response.DebugString();
      ASSERT_EQ(response.bodies_size(), 2);
      EXPECT_EQ(response.bodies(0).id(), kShooter);
      EXPECT_EQ(response.bodies(1).parts_size(), 2);
      EXPECT_EQ(response.missing_size(), asked.empty() ? 0 : 1);
    }
  }
  v1::GetBodiesResponse half;
  ASSERT_TRUE(GetBodies(BodiesRequest(Time{1, 0.5}, {kTarget}), &half).ok());
  EXPECT_DOUBLE_EQ(half.bodies(0).pose().position().y(), 1.0);  // half way from y 0 to 2.
  EXPECT_EQ(half.time().at().tick(), 1);
  EXPECT_DOUBLE_EQ(half.time().at().fraction(), 0.5);
}

TEST_F(WorldBodiesTest, ErrorsNameTheFieldOrTheReason) {
  v1::GetBodiesResponse response;
  grpc::Status status = GetBodies(BodiesRequest(Time{1, 1.5}, {}), &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(BadRequestFields(status), std::vector<std::string>{"at.fraction"}) << status.error_message();
  status = GetBodies(BodiesRequest(std::nullopt, std::vector<std::int64_t>(9, kTarget)), &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);  // as every world call over the limit
  EXPECT_NE(status.error_message().find("max_items_per_request is 8"), std::string::npos)
      << status.error_message();
  v1::GetBodiesRequest elsewhere = BodiesRequest(std::nullopt, {});
  elsewhere.set_world_id("no-such-world");
  status = GetBodies(elsewhere, &response, "no-such-world");
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(ErrorReason(status), "WORLD_NOT_FOUND");
}

TEST_F(WorldBodiesTest, ExplainedVerdictsEqualTheCore) {
  const World core = CoreWorld();
  std::vector<ShotRequest> shots = Shots();
  v1::ValidateShotsRequest shot_request = ShotsRequest(shots);
  shot_request.set_explain(true);
  for (ShotRequest& s : shots) s.explain = true;
  v1::ValidateShotsResponse shot_response, shot_expected;
  ASSERT_TRUE(stub_->ValidateShots(Ctx().get(), shot_request, &shot_response).ok());
  for (const ShotVerdict& v : core.ValidateShots(shots)) convert::ToProto(v, shot_expected.add_verdicts());
  EXPECT_TRUE(MessageDifferencer::Equals(shot_response, shot_expected)) << shot_response.DebugString();
  ASSERT_TRUE(shot_response.verdicts(0).has_explanation());
  const v1::ShotExplanation& confirmed = shot_response.verdicts(0).explanation();
  EXPECT_EQ(confirmed.claimed_rewound().id(), kTarget);
  EXPECT_DOUBLE_EQ(confirmed.claimed_rewound().pose().position().y(), 0.0);  // tick 1
  EXPECT_DOUBLE_EQ(confirmed.claimed_latest().pose().position().y(), 2.0);
  EXPECT_EQ(confirmed.nearest_claimed_distance(), 0.0);
  EXPECT_TRUE(confirmed.has_ray());

  std::vector<MoveRequest> moves = Moves();
  v1::ValidateMovesRequest move_request = MovesRequest(moves);
  move_request.set_explain(true);
  for (MoveRequest& m : moves) m.explain = true;
  v1::ValidateMovesResponse move_response, move_expected;
  ASSERT_TRUE(stub_->ValidateMoves(Ctx().get(), move_request, &move_response).ok());
  for (const MoveVerdict& v : core.ValidateMoves(moves)) convert::ToProto(v, move_expected.add_verdicts());
  EXPECT_TRUE(MessageDifferencer::Equals(move_response, move_expected)) << move_response.DebugString();
  const v1::MoveExplanation& slid = move_response.verdicts(1).explanation();
  ASSERT_GE(slid.sweeps_size(), 2);
  EXPECT_EQ(slid.sweeps(1).purpose(), "slide");
  EXPECT_EQ(slid.contacts(0).target().static_element().element_id(), kWall);
}

TEST_F(WorldBodiesTest, TheTickPartRunsAfterTheFrame) {
  grpc::ClientContext context;
  context.AddMetadata("collide-world", kWorld);
  auto stream = stub_->Tick(&context);
  // Frame 3 moves the target to y = 4; the bodies part of the same message
  // sees it.
  v1::TickRequest m;
  m.set_sequence(1);
  Frame f{3, {}, {}};
  f.bodies.push_back({kTarget, At(5, 4), {}, {}, {}, {}, false});
  Put(f, m.mutable_frame());
  m.mutable_bodies()->add_body_ids(kTarget);
  ASSERT_TRUE(stream->Write(m));
  v1::TickResponse r;
  ASSERT_TRUE(stream->Read(&r));
  EXPECT_EQ(r.status().code(), 0) << r.status().message();
  ASSERT_EQ(r.bodies().bodies_size(), 1);
  EXPECT_DOUBLE_EQ(r.bodies().bodies(0).pose().position().y(), 4.0);
  EXPECT_EQ(r.bodies().time().at().tick(), 3);
  // A bad time fails the part, named under it.
  v1::TickRequest bad;
  bad.set_sequence(2);
  bad.mutable_bodies()->mutable_at()->set_fraction(-0.5);
  ASSERT_TRUE(stream->Write(bad));
  ASSERT_TRUE(stream->Read(&r));
  EXPECT_EQ(r.status().code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(r.status().message().find("bodies"), std::string::npos) << r.status().message();
  stream->WritesDone();
  EXPECT_TRUE(stream->Finish().ok());
}

}  // namespace
}  // namespace collide::server::testing
