// End to end for worlds: the real collide-server binary with --maps_dir
// holding a small OBJ level (a floor and a wall); a world created from that
// map file; a Tick stream pushing one message per tick (a frame of four
// moving players, shots between them, their moves and one into the wall),
// every answer equal bit for bit to a core World built from the same file
// and frames; then SIGTERM with the stream open and a message in flight:
// every message the server read is answered, in order, and the stream ends
// with the drain's UNAVAILABLE status, not a reset; the server exits 0.
//
// The client sends a tick once the previous one is answered (a game server
// waiting for its verdicts), not ticks ahead of the answers: gRPC 1.51
// closes the connection as soon as the drained stream has ended, and a
// client still sending then may meet the reset before it has read the
// status, which its gRPC then reports in the status's place ("Broken pipe",
// seen under TSan with a CPU hog: 2 runs in 30). Waiting for the client to
// read it first (HTTP/2 PING) costs an idle client's 5 s poll at every
// shutdown (measured: exits 5-10 s after SIGTERM instead of 0.2 s).
#include <grpcpp/grpcpp.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <thread>

#include "collide/import/map_import.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "support/server_process.h"
#include "support/wait_for.h"
#include "tests/server/world_fixtures.h"

namespace collide {
namespace {

using google::protobuf::util::MessageDifferencer;
using server::testing::Hitboxes;
using server::testing::kHead;
using server::testing::Put;
using ::testing::HasSubstr;
using testing::ServerProcess;

constexpr std::int64_t kLevel = 100;
constexpr int kPlayers = 4;
constexpr double kTickSeconds = 1.0 / 60;

// Player b at tick t: strafing along x (at most 9 units/s, under the
// default speed limit), in rows 3 apart.
Vec3 PlayerAt(int b, std::int64_t t) {
  return {-5 + 3 * std::sin(0.05 * static_cast<double>(t) + b), 3.0 * b - 4.5, 0};
}

Frame FrameAt(std::int64_t t) {
  Frame f{t, {}, {}};
  for (int b = 0; b < kPlayers; ++b) {
    BodyUpdate u{b + 1, Pose{PlayerAt(b, t), {}}, {}, {}, {}, {}, false};
    if (t == 1) {
      u.parts = Hitboxes();
      u.movement_shape = Shape{Capsule{{0, 0, 0.5}, {0, 0, 1.5}, 0.4}};
    }
    f.bodies.push_back(std::move(u));
  }
  return f;
}
// Player 1 shoots at player 2's head now and half a tick back; player 3 at
// player 1's head through nothing.
std::vector<ShotRequest> ShotsAt(std::int64_t t) {
  std::vector<ShotRequest> shots;
  const auto aim = [&](int from, int to, std::optional<Time> at) {
    const Vec3 origin = PlayerAt(from, t) + Vec3{0, 0, 1.6};
    const Vec3 head = PlayerAt(to, t) + Vec3{0, 0, 1.7};
    shots.push_back({from + 1, origin, head - origin, kInfinity, at, ShotClaim{to + 1, kHead}, 0.05});
  };
  aim(0, 1, std::nullopt);
  if (t > 1) aim(0, 1, Time{t - 1, 0.5});
  aim(2, 0, std::nullopt);
  return shots;
}
// Every player's step since the last tick, and player 1 into the wall.
std::vector<MoveRequest> MovesAt(std::int64_t t) {
  std::vector<MoveRequest> moves;
  for (int b = 0; b < kPlayers; ++b) {
    moves.push_back({b + 1, std::nullopt, PlayerAt(b, t), kTickSeconds, std::nullopt, false, kAllCategories});
  }
  moves.push_back({1, Vec3{8, -4.5, 0}, {12, -4.5, 0}, 0.5, std::nullopt, true, kAllCategories});
  return moves;
}

v1::TickRequest MessageAt(std::int64_t t) {
  v1::TickRequest m;
  m.set_sequence(t);
  Put(FrameAt(t), m.mutable_frame());
  *m.mutable_shots() = server::testing::ShotsRequest(ShotsAt(t), "");
  *m.mutable_moves() = server::testing::MovesRequest(MovesAt(t), "");
  return m;
}

TEST(WorldE2eTest, TickStreamFromAMapFileDrainsOnSigterm) {
  const std::string maps = ::testing::TempDir() + "/world_e2e_maps_" + std::to_string(getpid());
  std::filesystem::create_directories(maps);
  // A 40 x 40 floor at z = 0 and a wall at x = 10, 4 high.
  std::ofstream(maps + "/arena.obj") << "v -20 -20 0\nv 20 -20 0\nv 20 20 0\nv -20 20 0\n"
                                        "v 10 -20 0\nv 10 20 0\nv 10 20 4\nv 10 -20 4\n"
                                        "f 1 2 3\nf 1 3 4\nf 5 6 7\nf 5 7 8\n";
  ServerProcess server(COLLIDE_SERVER_BIN,
                       {"--worker_threads=2", "--drain_timeout=10s", "--maps_dir=" + maps});
  ASSERT_GT(server.port(), 0) << "collide-server did not start:\n" << server.log();
  auto channel = grpc::CreateChannel(server.target(), grpc::InsecureChannelCredentials());
  auto stub = v1::WorldService::NewStub(channel);

  v1::CreateWorldRequest create;
  create.set_world_id("arena-1");
  create.add_statics()->set_id(kLevel);
  create.mutable_statics(0)->mutable_map_file()->set_name("arena.obj");
  v1::WorldInfo info;
  grpc::ClientContext create_context;
  create_context.AddMetadata("collide-world", "arena-1");
  const grpc::Status created = stub->CreateWorld(&create_context, create, &info);
  ASSERT_TRUE(created.ok()) << created.error_message();
  EXPECT_EQ(info.triangles(), 4);

  // The reference: the same file through the import library, in the core.
  absl::StatusOr<importer::ImportedMesh> level = importer::ImportMap(maps + "/arena.obj", {});
  ASSERT_TRUE(level.ok()) << level.status();
  World core(WorldSettings{}, {{kLevel, kAllCategories, std::make_shared<const TriangleMesh>(level->mesh)}});

  grpc::ClientContext context;
  context.AddMetadata("collide-world", "arena-1");
  auto stream = stub->Tick(&context);
  // The writer sends the next tick once the last one is answered, until the
  // stream ends; the reader checks each answer against the core as it comes.
  std::atomic<std::int64_t> sent{0}, answered{0};
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    const auto give_up = std::chrono::steady_clock::now() + testing::kHungAfter;
    while (!stop && std::chrono::steady_clock::now() < give_up) {
      if (answered < sent) {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        continue;
      }
      if (!stream->Write(MessageAt(sent + 1))) return;
      ++sent;
    }
  });
  int wrong = 0, failed = 0, out_of_order = 0, blocked = 0, confirmed = 0;
  std::thread reader([&] {
    v1::TickResponse r;
    while (stream->Read(&r)) {
      const std::int64_t t = answered + 1;
      out_of_order += r.sequence() != t;
      if (r.has_status()) {
        if (failed++ == 0) ADD_FAILURE() << "message " << r.sequence() << ": " << r.status().DebugString();
      }
      EXPECT_TRUE(core.PushFrame(FrameAt(t)).ok());
      v1::ValidateShotsResponse shots;
      for (const ShotVerdict& v : core.ValidateShots(ShotsAt(t))) convert::ToProto(v, shots.add_verdicts());
      v1::ValidateMovesResponse moves;
      for (const MoveVerdict& v : core.ValidateMoves(MovesAt(t))) convert::ToProto(v, moves.add_verdicts());
      if (!MessageDifferencer::Equals(r.shots(), shots) || !MessageDifferencer::Equals(r.moves(), moves)) {
        if (wrong++ == 0) ADD_FAILURE() << "tick " << t << ": " << r.DebugString();
      }
      confirmed += r.shots().verdicts_size() > 0 && r.shots().verdicts(0).code() == v1::SHOT_CODE_CONFIRMED;
      blocked += r.moves().verdicts_size() == kPlayers + 1 &&
                 r.moves().verdicts(kPlayers).code() == v1::MOVE_CODE_BLOCKED;
      ++answered;
    }
  });
  // Not ASSERT: the threads must be joined whatever happens.
  EXPECT_TRUE(testing::WaitFor([&] { return answered >= 30; })) << answered << " answered\n" << server.log();
  server.Terminate();  // SIGTERM with the stream open and messages in flight.
  reader.join();
  stop = true;
  writer.join();
  const grpc::Status end = stream->Finish();
  // The server's graceful shutdown (GOAWAY) waits for this client to answer
  // its PING; a synchronous gRPC client with no call open reads its
  // connection only every 5 s, so the channel is polled until the exit.
  std::optional<int> exit_code;
  testing::WaitFor([&] {
    channel->WaitForStateChange(channel->GetState(false),
                                std::chrono::system_clock::now() + std::chrono::milliseconds(20));
    exit_code = server.Wait(std::chrono::milliseconds(0));
    return exit_code.has_value();
  });

  std::cout << "ticks sent: " << sent << ", answered: " << answered << "; the stream ended "
            << end.error_code() << " \"" << end.error_message() << "\"\n";
  EXPECT_EQ(end.error_code(), grpc::StatusCode::UNAVAILABLE) << end.error_message();
  EXPECT_THAT(end.error_message(), HasSubstr("shutting down"));
  EXPECT_EQ(out_of_order, 0);
  EXPECT_EQ(failed, 0);
  EXPECT_EQ(wrong, 0);
  EXPECT_LE(answered, sent);
  // Not vacuous: the claims were confirmed and the wall blocked.
  EXPECT_EQ(confirmed, answered);
  EXPECT_EQ(blocked, answered);
  ASSERT_TRUE(exit_code.has_value()) << "collide-server did not exit after SIGTERM";
  EXPECT_EQ(*exit_code, 0) << server.log();
  EXPECT_THAT(server.log(), HasSubstr("draining 1 open Tick stream"));
  std::filesystem::remove_all(maps);
}

}  // namespace
}  // namespace collide
