// WorldService.Tick through a real in-process channel: messages answered in
// order with their sequences, each part equal bit for bit to the unary call's
// answer on a twin world, errors answered per message while the stream goes
// on, the budget, admission, the header and an unknown world, and the drain
// at shutdown (the message running finishes, then UNAVAILABLE, not a reset).
#include "server/world_tick.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>

#include "convert/world_packed.h"
#include "google/protobuf/util/message_differencer.h"
#include "grpcpp/impl/codegen/client_unary_call.h"
#include "grpcpp/support/sync_stream.h"
#include "server/call_executor.h"
#include "support/wait_for.h"
#include "tests/server/test_server.h"
#include "tests/server/world_fixtures.h"

namespace collide::server::testing {
namespace {

using google::protobuf::util::MessageDifferencer;

// An open Tick stream with its context.
class TickCall {
 public:
  TickCall(v1::WorldService::Stub& stub, const std::string& header = kWorld) {
    if (!header.empty()) context_.AddMetadata("collide-world", header);
    stream_ = stub.Tick(&context_);
  }
  bool Send(const v1::TickRequest& request) { return stream_->Write(request); }
  // The next answer; sequence -1 when the stream has ended.
  v1::TickResponse Receive() {
    v1::TickResponse response;
    if (!stream_->Read(&response)) response.set_sequence(-1);
    return response;
  }
  grpc::Status Close() {
    stream_->WritesDone();
    v1::TickResponse extra;
    EXPECT_FALSE(stream_->Read(&extra)) << "an answer no message asked for: " << extra.DebugString();
    return stream_->Finish();
  }
  grpc::Status Finish() { return stream_->Finish(); }

 private:
  grpc::ClientContext context_;
  std::unique_ptr<grpc::ClientReaderWriter<v1::TickRequest, v1::TickResponse>> stream_;
};

v1::TickRequest Message(std::int64_t sequence) {
  v1::TickRequest m;
  m.set_sequence(sequence);
  return m;
}

// The field paths of a TickResponse's BadRequest, and its ErrorInfo reason.
std::vector<std::string> Fields(const v1::TickResponse& r) {
  std::vector<std::string> fields;
  for (const auto& any : r.status().details()) {
    google::rpc::BadRequest bad;
    if (!any.UnpackTo(&bad)) continue;
    for (const auto& v : bad.field_violations()) fields.push_back(v.field());
  }
  return fields;
}
std::string Reason(const v1::TickResponse& r) {
  for (const auto& any : r.status().details()) {
    google::rpc::ErrorInfo info;
    if (any.UnpackTo(&info)) return info.reason();
  }
  return "";
}
bool Has(const std::vector<std::string>& fields, const std::string& field) {
  return std::find(fields.begin(), fields.end(), field) != fields.end();
}

// Ray casts along +x at the latest frame, and at tick 1.5 ignoring the
// shooter: hitting the target, the ball, the wall.
v1::QueryWorldRequest Query() {
  v1::QueryWorldRequest q;
  for (const double y : {0.0, 4.0, -4.0}) {
    v1::WorldRayCast* c = q.add_ray_casts();
    c->mutable_ray()->mutable_origin()->set_x(-1);
    c->mutable_ray()->mutable_origin()->set_y(y);
    c->mutable_ray()->mutable_origin()->set_z(1.2);
    c->mutable_ray()->mutable_direction()->set_x(1);
  }
  q.mutable_ray_casts(2)->mutable_filter()->mutable_at()->set_tick(1);
  q.mutable_ray_casts(2)->mutable_filter()->mutable_at()->set_fraction(0.5);
  q.mutable_ray_casts(2)->mutable_filter()->add_ignore_bodies(kShooter);
  return q;
}
v1::CastWorldRaysPackedRequest PackedRays() {
  v1::CastWorldRaysPackedRequest r;
  for (const double y : {1.1, 4.0, 40.0}) {
    for (double v : {-1.0, y, 1.2, 1.0, 0.0, 0.0, kInfinity}) r.add_rays(v);
  }
  r.mutable_filter()->add_ignore_bodies(kShooter);
  return r;
}
// Shots() packed (world.proto: ValidateShotsPackedRequest).
v1::ValidateShotsPackedRequest PackedShots() {
  v1::ValidateShotsPackedRequest r;
  for (const ShotRequest& s : Shots()) {
    for (double v : {s.origin.x, s.origin.y, s.origin.z, s.direction.x, s.direction.y, s.direction.z,
                     s.max_range, s.at ? s.at->fraction : 0.0, s.tolerance, 0.0}) {
      r.add_doubles(v);
    }
    r.add_shooter_ids(s.shooter);
    r.add_ticks(s.at ? s.at->tick : convert::kPackedLatestTick);
    r.add_claimed_body_ids(s.claim ? s.claim->body : -1);
    r.add_claimed_part_ids(s.claim ? s.claim->part : -1);
  }
  return r;
}

class WorldTickTest : public ::testing::Test {
 protected:
  explicit WorldTickTest(Options options = {}) : server_(std::move(options)) {
    stub_ = v1::WorldService::NewStub(server_.channel);
  }
  void Create(const std::string& id = kWorld) {
    v1::WorldInfo info;
    const grpc::Status s = stub_->CreateWorld(Ctx(id).get(), CreateRequest(id), &info);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }
  void PushFrame(const Frame& f, const std::string& id = kWorld) {
    v1::PushFrameRequest r;
    r.set_world_id(id);
    Put(f, r.mutable_frame());
    v1::PushFrameResponse response;
    ASSERT_TRUE(stub_->PushFrame(Ctx(id).get(), r, &response).ok());
  }

  TestServer server_;
  std::unique_ptr<v1::WorldService::Stub> stub_;
};

TEST_F(WorldTickTest, AnswersInOrderEqualToTheUnaryCalls) {
  Create();
  Create("twin");
  v1::TickRequest m1 = Message(7), m2 = Message(3), ping = Message(42), m4 = Message(5);
  Put(Frame1(), m1.mutable_frame());
  Put(Frame2(), m2.mutable_frame());
  *m2.mutable_query() = Query();
  *m2.mutable_shots() = ShotsRequest(Shots(), "");
  *m2.mutable_moves() = MovesRequest(Moves(), "");
  *m4.mutable_shots_packed() = PackedShots();
  *m4.mutable_rays_packed() = PackedRays();
  m4.mutable_rays_packed()->set_world_id(kWorld);  // Empty or the stream's: both fine.
  TickCall tick(*stub_);
  // All sent before any is read: answered in order all the same.
  for (const v1::TickRequest* m : {&m1, &m2, &ping, &m4}) ASSERT_TRUE(tick.Send(*m));
  std::vector<v1::TickResponse> answers;
  for (int i = 0; i < 4; ++i) answers.push_back(tick.Receive());
  EXPECT_TRUE(tick.Close().ok());
  ASSERT_EQ(answers[0].sequence(), 7);
  ASSERT_EQ(answers[1].sequence(), 3);
  ASSERT_EQ(answers[2].sequence(), 42);
  ASSERT_EQ(answers[3].sequence(), 5);
  for (const v1::TickResponse& a : answers) EXPECT_FALSE(a.has_status()) << a.status().message();

  // The same requests as unary calls on the twin world.
  const std::string twin = "twin";
  v1::PushFrameRequest push;
  push.set_world_id(twin);
  v1::PushFrameResponse pushed1, pushed2;
  *push.mutable_frame() = m1.frame();
  ASSERT_TRUE(stub_->PushFrame(Ctx(twin).get(), push, &pushed1).ok());
  *push.mutable_frame() = m2.frame();
  ASSERT_TRUE(stub_->PushFrame(Ctx(twin).get(), push, &pushed2).ok());
  v1::QueryWorldRequest query = m2.query();
  query.set_world_id(twin);
  v1::QueryWorldResponse queried;
  ASSERT_TRUE(stub_->QueryWorld(Ctx(twin).get(), query, &queried).ok());
  v1::ValidateShotsResponse shot, packed_shot;
  ASSERT_TRUE(stub_->ValidateShots(Ctx(twin).get(), ShotsRequest(Shots(), twin), &shot).ok());
  v1::ValidateMovesResponse moved;
  ASSERT_TRUE(stub_->ValidateMoves(Ctx(twin).get(), MovesRequest(Moves(), twin), &moved).ok());
  v1::ValidateShotsPackedRequest packed_shots = PackedShots();
  packed_shots.set_world_id(twin);
  ASSERT_TRUE(stub_->ValidateShotsPacked(Ctx(twin).get(), packed_shots, &packed_shot).ok());
  v1::CastWorldRaysPackedRequest packed_rays = PackedRays();
  packed_rays.set_world_id(twin);
  v1::CastWorldRaysPackedResponse rays;
  ASSERT_TRUE(stub_->CastWorldRaysPacked(Ctx(twin).get(), packed_rays, &rays).ok());

  EXPECT_TRUE(MessageDifferencer::Equals(answers[0].frame(), pushed1));
  EXPECT_TRUE(MessageDifferencer::Equals(answers[1].frame(), pushed2));
  EXPECT_TRUE(MessageDifferencer::Equals(answers[1].query(), queried)) << answers[1].query().DebugString();
  EXPECT_TRUE(MessageDifferencer::Equals(answers[1].shots(), shot)) << answers[1].shots().DebugString();
  EXPECT_TRUE(MessageDifferencer::Equals(answers[1].moves(), moved)) << answers[1].moves().DebugString();
  EXPECT_TRUE(MessageDifferencer::Equals(answers[3].shots_packed(), packed_shot));
  EXPECT_TRUE(MessageDifferencer::Equals(answers[3].rays_packed(), rays));
  // And the core's, on the verdicts (the unary tests check the rest).
  const World core = CoreWorld();
  v1::ValidateShotsResponse core_shots;
  for (const ShotVerdict& v : core.ValidateShots(Shots())) convert::ToProto(v, core_shots.add_verdicts());
  EXPECT_TRUE(MessageDifferencer::Equals(answers[1].shots(), core_shots));
  // Not vacuous: hits and each kind of verdict.
  EXPECT_FALSE(answers[2].has_frame() || answers[2].has_query() || answers[2].has_shots());
  ASSERT_EQ(answers[1].query().ray_casts_size(), 3);
  EXPECT_EQ(answers[1].query().ray_casts(0).hits(0).target().body().body_id(), kShooter);
  EXPECT_EQ(answers[1].query().ray_casts(1).hits(0).target().static_element().element_id(), kBall);
  ASSERT_EQ(answers[1].shots().verdicts_size(), 4);
  EXPECT_EQ(answers[1].shots().verdicts(0).code(), v1::SHOT_CODE_CONFIRMED);
  EXPECT_EQ(answers[1].shots().verdicts(2).code(), v1::SHOT_CODE_BLOCKED);
  ASSERT_EQ(answers[1].moves().verdicts_size(), 5);
  EXPECT_EQ(answers[1].moves().verdicts(0).code(), v1::MOVE_CODE_BLOCKED);
  EXPECT_EQ(answers[3].shots_packed().verdicts(0).code(), v1::SHOT_CODE_CONFIRMED);
  EXPECT_EQ(answers[3].rays_packed().target_id(1), kBall);
}

// Whether each sequence ran on a CallExecutor thread (the hook runs where
// the message runs).
class WorldTickWhereTest : public WorldTickTest {
 protected:
  static Options Recording(std::map<std::int64_t, bool>* on_pool, std::mutex* mu) {
    Options o;
    o.hooks.before_tick_message = [on_pool, mu](std::int64_t s) {
      std::lock_guard lock(*mu);
      (*on_pool)[s] = CallExecutor::OnPoolThread();
    };
    return o;
  }
  WorldTickWhereTest() : WorldTickTest(Recording(&on_pool_, &mu_)) {}
  std::map<std::int64_t, bool> on_pool_;
  std::mutex mu_;
};

TEST_F(WorldTickWhereTest, ASmallMessageRunsWhereItWasReadALargeOneOnTheCallThreads) {
  Create();
  Create("twin");
  PushFrame(Frame1());
  PushFrame(Frame1(), "twin");
  // Over TickStream::kMaxInlineBytes: the shots repeated.
  v1::ValidateShotsPackedRequest many;
  while (many.ByteSizeLong() <= TickStream::kMaxInlineBytes) many.MergeFrom(PackedShots());
  v1::TickRequest small = Message(1), large = Message(2);
  *small.mutable_shots_packed() = PackedShots();
  *large.mutable_shots_packed() = many;
  ASSERT_LE(small.ByteSizeLong(), TickStream::kMaxInlineBytes);
  TickCall tick(*stub_);
  ASSERT_TRUE(tick.Send(small));
  const v1::TickResponse small_answer = tick.Receive();
  ASSERT_TRUE(tick.Send(large));
  const v1::TickResponse large_answer = tick.Receive();
  EXPECT_TRUE(tick.Close().ok());
  {
    std::lock_guard lock(mu_);
    EXPECT_FALSE(on_pool_.at(1));
    EXPECT_TRUE(on_pool_.at(2));
  }
  // Both answered as the unary call answers.
  for (const v1::TickResponse* answer : {&small_answer, &large_answer}) {
    EXPECT_FALSE(answer->has_status()) << answer->status().message();
    v1::ValidateShotsPackedRequest request = answer == &small_answer ? small.shots_packed() : many;
    request.set_world_id("twin");
    v1::ValidateShotsResponse unary;
    ASSERT_TRUE(stub_->ValidateShotsPacked(Ctx("twin").get(), request, &unary).ok());
    EXPECT_EQ(answer->shots_packed().verdicts_size(), request.shooter_ids_size());
    EXPECT_TRUE(MessageDifferencer::Equals(answer->shots_packed(), unary));
  }
}

TEST_F(WorldTickTest, AnErrorAnswersItsMessageAloneAndTheStreamGoesOn) {
  Create();
  TickCall tick(*stub_);
  v1::TickRequest m = Message(1);
  Put(Frame1(), m.mutable_frame());
  ASSERT_TRUE(tick.Send(m));
  EXPECT_FALSE(tick.Receive().has_status());

  m = Message(2);  // A NaN direction and a negative range.
  *m.mutable_shots() = ShotsRequest(Shots(), "");
  m.mutable_shots()->mutable_shots(0)->mutable_direction()->set_x(std::nan(""));
  m.mutable_shots()->mutable_shots(1)->set_max_range(-1);
  m.mutable_shots()->set_all_or_nothing(true);  // per item, they would be INVALID verdicts.
  ASSERT_TRUE(tick.Send(m));
  v1::TickResponse r = tick.Receive();
  EXPECT_EQ(r.sequence(), 2);
  EXPECT_EQ(r.status().code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(Has(Fields(r), "shots.shots[0].direction.x")) << r.status().DebugString();
  EXPECT_TRUE(Has(Fields(r), "shots.shots[1].max_range")) << r.status().DebugString();
  EXPECT_FALSE(r.has_shots());

  m = Message(3);  // Tick 1 again: stale.
  Put(Frame1(), m.mutable_frame());
  ASSERT_TRUE(tick.Send(m));
  r = tick.Receive();
  EXPECT_EQ(r.sequence(), 3);
  EXPECT_EQ(r.status().code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(r.status().message().find('1'), std::string::npos) << r.status().message();

  m = Message(4);  // The frame applies; the moves after it fail.
  Put(Frame2(), m.mutable_frame());
  m.mutable_moves()->add_moves()->set_body_id(kShooter);  // elapsed 0.
  m.mutable_moves()->set_all_or_nothing(true);
  ASSERT_TRUE(tick.Send(m));
  r = tick.Receive();
  EXPECT_EQ(r.status().code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(Has(Fields(r), "moves.moves[0].elapsed")) << r.status().DebugString();
  EXPECT_TRUE(r.has_frame());
  EXPECT_FALSE(r.has_moves());

  m = Message(5);  // Another world's id in a part.
  *m.mutable_query() = Query();
  m.mutable_query()->set_world_id("other");
  m.set_budget_ms(-1);
  ASSERT_TRUE(tick.Send(m));
  r = tick.Receive();
  EXPECT_EQ(r.status().code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(Fields(r), std::vector<std::string>{"budget_ms"}) << r.status().DebugString();
  m.clear_budget_ms();
  ASSERT_TRUE(tick.Send(m));
  r = tick.Receive();
  EXPECT_EQ(Fields(r), std::vector<std::string>{"query.world_id"}) << r.status().DebugString();

  m = Message(6);  // The stream still answers, on the world with tick 2 applied.
  *m.mutable_shots() = ShotsRequest(Shots(), "");
  ASSERT_TRUE(tick.Send(m));
  r = tick.Receive();
  EXPECT_EQ(r.sequence(), 6);
  EXPECT_FALSE(r.has_status()) << r.status().message();
  v1::ValidateShotsResponse expected;
  for (const ShotVerdict& v : CoreWorld().ValidateShots(Shots()))
    convert::ToProto(v, expected.add_verdicts());
  EXPECT_TRUE(MessageDifferencer::Equals(r.shots(), expected)) << r.shots().DebugString();
  EXPECT_TRUE(tick.Close().ok());
}

TEST_F(WorldTickTest, AnUnknownWorldIsNotFoundPerMessage) {
  TickCall tick(*stub_, "later");
  ASSERT_TRUE(tick.Send(Message(1)));
  v1::TickResponse r = tick.Receive();
  EXPECT_EQ(r.status().code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(Reason(r), "WORLD_NOT_FOUND") << r.status().DebugString();
  // Created meanwhile: the same stream goes on with it.
  Create("later");
  v1::TickRequest m = Message(2);
  Put(Frame1(), m.mutable_frame());
  ASSERT_TRUE(tick.Send(m));
  r = tick.Receive();
  EXPECT_FALSE(r.has_status()) << r.status().message();
  EXPECT_TRUE(r.has_frame());
  EXPECT_TRUE(tick.Close().ok());
}

TEST_F(WorldTickTest, TheHeaderIsRequiredAndMustBeAnId) {
  Create();
  for (const std::string header : {"", "no such world"}) {
    TickCall tick(*stub_, header);
    tick.Send(Message(1));  // May fail: the stream is ending.
    EXPECT_EQ(tick.Receive().sequence(), -1) << header;
    const grpc::Status s = tick.Finish();
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << header;
    EXPECT_EQ(BadRequestFields(s), std::vector<std::string>{"collide-world"}) << header << s.error_message();
  }
}

TEST_F(WorldTickTest, BytesThatDoNotParseAreAnsweredWithSequenceZero) {
  Create();
  // The stream at the byte level, as a client with another protobuf might send.
  grpc::ClientContext context;
  context.AddMetadata("collide-world", kWorld);
  const grpc::internal::RpcMethod method("/collide.v1.WorldService/Tick",
                                         grpc::internal::RpcMethod::BIDI_STREAMING, server_.channel);
  std::unique_ptr<grpc::ClientReaderWriter<grpc::ByteBuffer, grpc::ByteBuffer>> stream(
      grpc::internal::ClientReaderWriterFactory<grpc::ByteBuffer, grpc::ByteBuffer>::Create(
          server_.channel.get(), method, &context));
  grpc::Slice garbage(std::string("\x1a\xff\xff\xff\x0f\x01", 6));  // Field 3: a 4 GB length.
  ASSERT_TRUE(stream->Write(grpc::ByteBuffer(&garbage, 1)));
  v1::TickRequest ping = Message(2);
  grpc::Slice good(ping.SerializeAsString());
  ASSERT_TRUE(stream->Write(grpc::ByteBuffer(&good, 1)));
  stream->WritesDone();
  v1::TickResponse answers[2];
  for (v1::TickResponse& r : answers) {
    grpc::ByteBuffer bytes;
    ASSERT_TRUE(stream->Read(&bytes));
    std::vector<grpc::Slice> slices;
    ASSERT_TRUE(bytes.Dump(&slices).ok());
    std::string joined;
    for (const grpc::Slice& slice : slices) joined.append(slice.begin(), slice.end());
    ASSERT_TRUE(r.ParseFromString(joined));
  }
  EXPECT_TRUE(stream->Finish().ok());
  EXPECT_EQ(answers[0].sequence(), 0);
  EXPECT_EQ(answers[0].status().code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(answers[0].status().message().find("do not parse"), std::string::npos)
      << answers[0].status().message();
  EXPECT_EQ(answers[1].sequence(), 2);
  EXPECT_FALSE(answers[1].has_status()) << answers[1].status().message();
}

// The items of every part of a message count together, as one unary call's:
// 5 ray casts and 5 packed rays are 10 items, over a limit of 8, so the
// message is RESOURCE_EXHAUSTED and nothing of it runs; 4 and 4 are served.
TEST(WorldTickItemsTest, AMessagesPartsCountTogetherAgainstTheItemLimit) {
  Options o;
  o.max_items_per_request = 8;
  o.max_items_in_flight = 8;
  TestServer server(o);
  auto stub = v1::WorldService::NewStub(server.channel);
  v1::WorldInfo info;
  ASSERT_TRUE(stub->CreateWorld(Ctx().get(), CreateRequest(), &info).ok());
  const auto message = [](std::int64_t sequence, int each) {
    v1::TickRequest m = Message(sequence);
    for (int i = 0; i < each; ++i) {
      *m.mutable_query()->add_ray_casts() = Query().ray_casts(0);
      for (int k = 0; k < 7; ++k) m.mutable_rays_packed()->add_rays(PackedRays().rays(k));
    }
    return m;
  };
  TickCall call(*stub);
  ASSERT_TRUE(call.Send(message(1, 5)));
  const v1::TickResponse over = call.Receive();
  EXPECT_EQ(over.sequence(), 1);
  EXPECT_EQ(over.status().code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(over.status().message(), "the request holds 10 items; --max_items_per_request is 8");
  EXPECT_FALSE(over.has_query());
  EXPECT_FALSE(over.has_rays_packed());
  ASSERT_TRUE(call.Send(message(2, 4)));
  const v1::TickResponse served = call.Receive();
  EXPECT_FALSE(served.has_status()) << served.status().message();
  EXPECT_EQ(served.query().ray_casts_size(), 4);
  EXPECT_TRUE(call.Close().ok());
}

// A message sent gzip-compressed is answered as a compressed unary request
// is: UNIMPLEMENTED naming gzip, with sequence 0 (it is not parsed), and the
// stream goes on (a tiny message, which gzip would not shrink, is sent as
// is and served).
TEST(WorldTickEncodingTest, AGzipMessageIsUnimplementedAndTheStreamGoesOn) {
  TestServer server;
  auto stub = v1::WorldService::NewStub(server.channel);
  v1::WorldInfo info;
  ASSERT_TRUE(stub->CreateWorld(Ctx().get(), CreateRequest(), &info).ok());
  grpc::ChannelArguments args;
  args.SetCompressionAlgorithm(GRPC_COMPRESS_GZIP);
  auto gzip = v1::WorldService::NewStub(
      grpc::CreateCustomChannel(server.server->address(), grpc::InsecureChannelCredentials(), args));
  TickCall call(*gzip);
  v1::TickRequest compressible = Message(1);
  for (int i = 0; i < 200; ++i) *compressible.mutable_query()->add_ray_casts() = Query().ray_casts(0);
  ASSERT_TRUE(call.Send(compressible));
  const v1::TickResponse refused = call.Receive();
  EXPECT_EQ(refused.sequence(), 0);
  EXPECT_EQ(refused.status().code(), grpc::StatusCode::UNIMPLEMENTED);
  EXPECT_EQ(refused.status().message(),
            "the request is compressed with gzip; this server accepts grpc-encoding identity (uncompressed) "
            "only");
  ASSERT_TRUE(call.Send(Message(2)));
  const v1::TickResponse served = call.Receive();
  EXPECT_EQ(served.sequence(), 2);
  EXPECT_FALSE(served.has_status()) << served.status().message();
  EXPECT_TRUE(call.Close().ok());
}

// Streams whose clients send and never read their answers hold at most the
// shared budget (--tick_streams_memory_bytes) plus one message and one answer
// each, not 8 messages and 8 answers each; a stream that reads its answers
// is served meanwhile, and cancelled streams give everything back.
TEST(WorldTickMemoryTest, StreamsThatDoNotReadHoldAtMostTheSharedBudget) {
  constexpr std::int64_t kBudget = std::int64_t{1} << 20;
  Options o;
  o.tick_streams_memory_bytes = kBudget;
  TestServer server(o);
  auto stub = v1::WorldService::NewStub(server.channel);
  v1::WorldInfo info;
  ASSERT_TRUE(stub->CreateWorld(Ctx().get(), CreateRequest(), &info).ok());
  // ~100 KB of packed rays; the answer about as large.
  const auto big = [](std::int64_t sequence) {
    v1::TickRequest m = Message(sequence);
    for (int i = 0; i < 1800; ++i) {
      for (double v : {-1.0, 0.01 * i - 9, 1.2, 1.0, 0.0, 0.0, kInfinity})
        m.mutable_rays_packed()->add_rays(v);
    }
    return m;
  };
  const auto message_bytes = static_cast<std::int64_t>(big(1).ByteSizeLong());
  std::int64_t answer_bytes = 0;
  {
    TickCall reader(*stub);
    ASSERT_TRUE(reader.Send(big(1)));
    const v1::TickResponse r = reader.Receive();
    ASSERT_FALSE(r.has_status()) << r.status().message();
    answer_bytes = static_cast<std::int64_t>(r.ByteSizeLong());
    EXPECT_TRUE(reader.Close().ok());
  }
  struct Stuck {
    grpc::ClientContext context;
    std::unique_ptr<grpc::ClientReaderWriter<v1::TickRequest, v1::TickResponse>> stream;
    std::thread writer;
  };
  // A client that never opens its window: no BDP probing (which grows it to
  // megabytes), a small per-stream window, so answers stay on the server.
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_HTTP2_BDP_PROBE, 0);
  args.SetInt(GRPC_ARG_HTTP2_STREAM_LOOKAHEAD_BYTES, 1024);
  auto closed = v1::WorldService::NewStub(
      grpc::CreateCustomChannel(server.server->address(), grpc::InsecureChannelCredentials(), args));
  constexpr int kStuck = 8, kMessages = 16;
  std::vector<std::unique_ptr<Stuck>> stuck;
  for (int i = 0; i < kStuck; ++i) {
    auto s = std::make_unique<Stuck>();
    s->context.AddMetadata("collide-world", kWorld);
    s->stream = closed->Tick(&s->context);
    s->writer = std::thread([&big, raw = s.get()] {
      for (int k = 1; k <= kMessages && raw->stream->Write(big(k)); ++k) {
      }
    });
    stuck.push_back(std::move(s));
  }
  WorldService& worlds = server.server->world_service();
  // Until the streams stop taking more: unchanged for half a second.
  std::int64_t last = -1;
  for (int still = 0, polls = 0; still < 5 && polls < 200; ++polls) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const std::int64_t now = worlds.tick_bytes();
    still = now == last ? still + 1 : 0;
    last = now;
  }
  const std::int64_t peak = worlds.tick_bytes_peak();
  EXPECT_GE(worlds.tick_bytes(), kBudget);  // Held: the answers wait for the clients.
  std::cout << "message " << message_bytes << " B, answer " << answer_bytes << " B; " << kStuck
            << " streams not reading hold " << worlds.tick_bytes() << " B, peak " << peak << " B (budget "
            << kBudget << ")\n";
  EXPECT_GE(peak, kBudget);  // Not vacuous: the budget was reached.
  EXPECT_LE(peak, kBudget + (kStuck + 1) * (message_bytes + answer_bytes));
  // Without the budget: 8 messages and 8 answers per stream.
  EXPECT_LT(peak, kStuck * 8 * (message_bytes + answer_bytes) / 2);

  TickCall reader(*stub);  // A client that reads is served meanwhile.
  for (std::int64_t k = 1; k <= 3; ++k) {
    ASSERT_TRUE(reader.Send(big(k)));
    const v1::TickResponse r = reader.Receive();
    EXPECT_EQ(r.sequence(), k);
    EXPECT_FALSE(r.has_status()) << r.status().message();
  }
  EXPECT_TRUE(reader.Close().ok());

  for (auto& s : stuck) s->context.TryCancel();
  for (auto& s : stuck) {
    s->writer.join();
    EXPECT_EQ(s->stream->Finish().error_code(), grpc::StatusCode::CANCELLED);
  }
  EXPECT_TRUE(::collide::testing::WaitFor([&] { return worlds.tick_bytes() == 0; })) << worlds.tick_bytes();
}

// A hook that holds the message of one sequence until released.
struct Hold {
  explicit Hold(std::int64_t sequence) : sequence(sequence) {}
  void operator()(std::int64_t s) {
    if (s != sequence) return;
    held.set_value();
    release_future.wait();
  }
  const std::int64_t sequence;
  std::promise<void> held;
  std::promise<void> release;
  std::shared_future<void> release_future = release.get_future().share();
};
// A shutdown that waits for the drain timeout takes kLongDrain; one that
// does not ends well within half of it, however slow the machine.
constexpr absl::Duration kLongDrain = absl::Seconds(60);
constexpr auto kEndedByItself = std::chrono::seconds(30);

Options Holding(const std::shared_ptr<Hold>& hold) {
  Options o;
  o.worker_threads = 2;  // Two messages of two streams can run at once.
  o.hooks.before_tick_message = [hold](std::int64_t s) { (*hold)(s); };
  return o;
}

// Message 2 is held until the stream has read message 3 (its third read),
// then 2 ms more: 3 has then waited past a 1 ms budget on any machine (a
// sleep as a lower bound only), whatever the speed of reading and running.
struct HoldTwoUntilThreeIsRead {
  std::atomic<int> reads{0};
  std::promise<void> third_read;
  std::shared_future<void> third_read_future = third_read.get_future().share();
  std::atomic<bool> read_in_time{false};
};

class WorldTickBudgetTest : public WorldTickTest {
 protected:
  static Options Holding(const std::shared_ptr<HoldTwoUntilThreeIsRead>& hold) {
    Options o;
    o.hooks.on_tick_read = [hold] {
      if (++hold->reads == 3) hold->third_read.set_value();
    };
    o.hooks.before_tick_message = [hold](std::int64_t s) {
      if (s != 2) return;
      hold->read_in_time =
          hold->third_read_future.wait_for(collide::testing::kHungAfter) == std::future_status::ready;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    };
    return o;
  }
  WorldTickBudgetTest() : WorldTickBudgetTest(std::make_shared<HoldTwoUntilThreeIsRead>()) {}
  explicit WorldTickBudgetTest(std::shared_ptr<HoldTwoUntilThreeIsRead> hold)
      : WorldTickTest(Holding(hold)), hold_(std::move(hold)) {}
  std::shared_ptr<HoldTwoUntilThreeIsRead> hold_;
};

TEST_F(WorldTickBudgetTest, AMessagePastItsBudgetAloneIsDeadlineExceeded) {
  Create();
  PushFrame(Frame1());
  // 2 runs until 3 was read and 2 ms more; 3 is stale by then (1 ms budget)
  // and not run: its frame is not applied, so 4's frame of the same tick is.
  v1::TickRequest m3 = Message(3), m4 = Message(4), m5 = Message(5);
  m3.set_budget_ms(1);
  Put(Frame2(), m3.mutable_frame());
  Put(Frame2(), m4.mutable_frame());
  m5.set_budget_ms(60000);
  *m5.mutable_shots() = ShotsRequest(Shots(), "");
  TickCall tick(*stub_);
  for (const v1::TickRequest& m : {Message(1), Message(2), m3, m4, m5}) ASSERT_TRUE(tick.Send(m));
  for (std::int64_t s = 1; s <= 5; ++s) {
    const v1::TickResponse r = tick.Receive();
    ASSERT_EQ(r.sequence(), s);
    if (s == 3) {
      EXPECT_EQ(r.status().code(), grpc::StatusCode::DEADLINE_EXCEEDED) << r.status().message();
      EXPECT_NE(r.status().message().find("budget_ms 1"), std::string::npos) << r.status().message();
      EXPECT_FALSE(r.has_frame());
    } else {
      EXPECT_FALSE(r.has_status()) << s << ": " << r.status().message();
    }
  }
  EXPECT_TRUE(hold_->read_in_time) << "message 3 was not read while 2 was held";
  EXPECT_TRUE(tick.Close().ok());
}

TEST(WorldTickAdmissionTest, MessagesCountAgainstTheServersAdmission) {
  auto hold = std::make_shared<Hold>(1);
  Options o = Holding(hold);
  o.max_concurrent_calls = 1;
  TestServer server(o);
  auto stub = v1::WorldService::NewStub(server.channel);
  v1::WorldInfo info;
  ASSERT_TRUE(stub->CreateWorld(Ctx().get(), CreateRequest(), &info).ok());
  TickCall a(*stub), b(*stub);
  ASSERT_TRUE(a.Send(Message(1)));
  hold->held.get_future().wait();
  // Message 1 is in flight: the one call admitted.
  v1::GetWorldRequest get;
  get.set_world_id(kWorld);
  const grpc::Status refused = stub->GetWorld(Ctx().get(), get, &info);
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(refused.error_message().find("--max_concurrent_calls"), std::string::npos);
  ASSERT_TRUE(b.Send(Message(9)));
  v1::TickResponse r = b.Receive();
  EXPECT_EQ(r.sequence(), 9);
  EXPECT_EQ(r.status().code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << r.status().message();
  hold->release.set_value();
  EXPECT_FALSE(a.Receive().has_status());
  ASSERT_TRUE(b.Send(Message(10)));
  EXPECT_FALSE(b.Receive().has_status());
  EXPECT_TRUE(stub->GetWorld(Ctx().get(), get, &info).ok());
  EXPECT_TRUE(a.Close().ok());
  EXPECT_TRUE(b.Close().ok());
}

TEST(WorldTickCancelTest, ACancelledStreamEndsWithoutRunningWhatIsQueued) {
  auto hold = std::make_shared<Hold>(1);
  Options o = Holding(hold);
  auto cancelled = std::make_shared<std::promise<void>>();
  o.hooks.on_tick_cancelled = [cancelled] { cancelled->set_value(); };
  o.drain_timeout = kLongDrain;
  auto server = std::make_unique<TestServer>(o);
  auto stub = v1::WorldService::NewStub(server->channel);
  v1::WorldInfo info;
  ASSERT_TRUE(stub->CreateWorld(Ctx().get(), CreateRequest(), &info).ok());
  grpc::ClientContext context;
  context.AddMetadata("collide-world", kWorld);
  auto stream = stub->Tick(&context);
  ASSERT_TRUE(stream->Write(Message(1)));
  hold->held.get_future().wait();
  v1::TickRequest queued = Message(2);  // Read while 1 runs, then dropped.
  Put(Frame1(), queued.mutable_frame());
  ASSERT_TRUE(stream->Write(queued));
  // Usually read by now, else the cancellation drops it unread: either way
  // it must not run.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  context.TryCancel();
  // Message 1 ends only once the server has seen the cancellation (OnCancel),
  // however long that takes.
  EXPECT_EQ(cancelled->get_future().wait_for(collide::testing::kHungAfter), std::future_status::ready);
  hold->release.set_value();
  EXPECT_EQ(stream->Finish().error_code(), grpc::StatusCode::CANCELLED);
  // The queued frame did not run, and the server stops at once (no stream
  // left waiting for the drain timeout).
  v1::GetWorldRequest get;
  get.set_world_id(kWorld);
  ASSERT_TRUE(stub->GetWorld(Ctx().get(), get, &info).ok());
  EXPECT_EQ(info.frames_kept(), 0);
  const auto start = std::chrono::steady_clock::now();
  server.reset();
  EXPECT_LT(std::chrono::steady_clock::now() - start, kEndedByItself);
}

TEST(WorldTickDrainTest, ShutdownAnswersWhatWasReadThenEndsUnavailable) {
  auto hold = std::make_shared<Hold>(1);
  Options o = Holding(hold);
  o.drain_timeout = kLongDrain;
  TestServer server(o);
  auto stub = v1::WorldService::NewStub(server.channel);
  v1::WorldInfo info;
  ASSERT_TRUE(stub->CreateWorld(Ctx().get(), CreateRequest(), &info).ok());
  TickCall tick(*stub);
  v1::TickRequest m = Message(1);
  Put(Frame1(), m.mutable_frame());
  ASSERT_TRUE(tick.Send(m));
  hold->held.get_future().wait();
  // Message 1 runs while the server shuts down.
  const auto start = std::chrono::steady_clock::now();
  std::thread shutdown([&] { server.server->Shutdown(); });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  hold->release.set_value();
  const v1::TickResponse r = tick.Receive();
  EXPECT_EQ(r.sequence(), 1);
  EXPECT_FALSE(r.has_status()) << r.status().message();
  EXPECT_TRUE(r.has_frame());
  EXPECT_EQ(tick.Receive().sequence(), -1);
  const grpc::Status end = tick.Finish();
  EXPECT_EQ(end.error_code(), grpc::StatusCode::UNAVAILABLE) << end.error_message();
  EXPECT_NE(end.error_message().find("shutting down"), std::string::npos) << end.error_message();
  shutdown.join();
  // Ended by the stream itself, not by the drain timeout's cancellation.
  EXPECT_LT(std::chrono::steady_clock::now() - start, kEndedByItself);
}

}  // namespace
}  // namespace collide::server::testing
