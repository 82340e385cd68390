// consumer TARGET: judges two shots in an in-process collide::World, then the
// same shots in a world on the collide-server at TARGET (host:port) through
// the C++ client, and checks that both give the expected verdicts and that
// the server is this package's version. Exit status 0 only when all hold.
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "collide/client.h"
#include "collide/version.h"
#include "collide/world.h"
#include "collide/world_client.h"

namespace {

// A wall (an AABB) stands between the shooter (body 1, at the origin) and
// body 3 (on +y); body 2 (on +x) is in the open.
const collide::Aabb kWall{{-2, 4, -2}, {2, 5, 2}};

collide::Frame FirstFrame() {
  collide::Frame frame{.tick = 1};
  const auto body = [](std::int64_t id, collide::Vec3 at, double radius) {
    return collide::BodyUpdate{.id = id,
                               .pose = collide::Pose{at, {}},
                               .parts = {{.id = 0, .shape = collide::Sphere{{0, 0, 0}, radius}, .local = {}}}};
  };
  frame.bodies = {body(1, {0, 0, 0}, 0.5), body(2, {10, 0, 0}, 1), body(3, {0, 10, 0}, 1)};
  return frame;
}

std::vector<collide::ShotRequest> Shots() {
  const auto shot = [](collide::Vec3 direction, std::int64_t claimed) {
    return collide::ShotRequest{.shooter = 1,
                                .origin = {0, 0, 0},
                                .direction = direction,
                                .at = collide::Time{1, 0},
                                .claim = collide::ShotClaim{claimed, 0}};
  };
  return {shot({1, 0, 0}, 2), shot({0, 1, 0}, 3)};
}

bool Expect(std::string_view where, const std::vector<collide::ShotVerdict>& verdicts) {
  const collide::ShotCode want[] = {collide::ShotCode::kConfirmed, collide::ShotCode::kBlocked};
  bool ok = verdicts.size() == 2;
  for (std::size_t i = 0; ok && i < 2; ++i) ok = verdicts[i].code == want[i];
  std::cout << where << ":";
  for (const collide::ShotVerdict& v : verdicts) std::cout << " " << collide::ShotCodeName(v.code);
  std::cout << (ok ? "" : "  (want CONFIRMED BLOCKED)") << "\n";
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: consumer HOST:PORT\n";
    return 2;
  }
  std::cout << "collide " << collide::kVersion << "\n";
  bool ok = true;

  // In process: the core library alone.
  collide::World world(collide::WorldSettings{}, {collide::StaticElement{.id = 1, .geometry = kWall}});
  if (const collide::FrameError error = world.PushFrame(FirstFrame()); !error.ok()) {
    std::cerr << "in-process PushFrame: " << error.message << "\n";
    return 1;
  }
  const std::vector<collide::ShotRequest> shots = Shots();
  ok &= Expect("in-process", world.ValidateShots(shots));

  // Through the service.
  absl::StatusOr<collide::Client> client = collide::Client::Create(argv[1]);
  if (!client.ok()) {
    std::cerr << "Client::Create: " << client.status() << "\n";
    return 1;
  }
  absl::StatusOr<collide::ServerInfo> info = client->GetServerInfo();
  if (!info.ok()) {
    std::cerr << "GetServerInfo: " << collide::DescribeStatus(info.status()) << "\n";
    return 1;
  }
  std::cout << "server " << info->version << "\n";
  ok &= info->version == COLLIDE_VERSION;

  collide::WorldClient worlds(*client);
  collide::WorldSpec spec{.id = "consumer-1", .history_ticks = 8};
  spec.statics.push_back({.id = 1, .geometry = collide::Shape{kWall}});
  if (auto created = worlds.CreateWorld(spec); !created.ok()) {
    std::cerr << "CreateWorld: " << collide::DescribeStatus(created.status()) << "\n";
    return 1;
  }
  if (auto pushed = worlds.PushFrame(spec.id, FirstFrame()); !pushed.ok()) {
    std::cerr << "PushFrame: " << collide::DescribeStatus(pushed.status()) << "\n";
    return 1;
  }
  absl::StatusOr<std::vector<collide::ShotVerdict>> verdicts = worlds.ValidateShots(spec.id, shots);
  if (!verdicts.ok()) {
    std::cerr << "ValidateShots: " << collide::DescribeStatus(verdicts.status()) << "\n";
    return 1;
  }
  ok &= Expect("service", *verdicts);
  if (absl::Status deleted = worlds.DeleteWorld(spec.id); !deleted.ok()) {
    std::cerr << "DeleteWorld: " << deleted << "\n";
    ok = false;
  }
  std::cout << (ok ? "consumer: OK" : "consumer: FAILED") << "\n";
  return ok ? 0 : 1;
}
