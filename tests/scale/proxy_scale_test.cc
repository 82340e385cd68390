// The shared pool through the real proxy: HAProxy running
// deploy/haproxy/haproxy.cfg (only its addresses rewritten to loopback ports)
// in front of three collide-server replicas, a fourth slot reserved for the
// replica added later. 300 worlds (a floor and two moving players each) are
// created through the proxy by the C++ WorldClient, which sets the
// `collide-world` header the proxy hashes on.
//
// Checked: every world lives on exactly one replica (each replica listed
// directly, not through the proxy), every call of a world reaches it
// (GetWorld names the replica; a call reaching any other replica would be
// NOT_FOUND and show as a re-creation), and the worlds spread over all three;
// every answer equals the core's on the same world (a local collide::World fed
// the same frames); pair queries without the header are balanced round-robin
// and answered right. A replica SIGKILLed under load costs the worlds on the
// survivors nothing (no error, no re-creation, their full history kept); the
// client library re-creates each world of the dead one on its new owner, once,
// within a stated time; every error a client saw is one docs/operations.md documents.
// A replica added later takes a share of the worlds (re-created there, the
// loss reported) and no other world moves.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "collide/client.h"
#include "collide/query.h"
#include "collide/v1/collide.grpc.pb.h"
#include "collide/world.h"
#include "collide/world_client.h"
#include "grpcpp/grpcpp.h"
#include "support/proxy_process.h"
#include "support/random_shapes.h"
#include "support/server_process.h"
#include "support/wait_for.h"

namespace collide {
namespace {

using Clock = std::chrono::steady_clock;
using testing::ProxyProcess;
using testing::ServerProcess;
using States = std::map<std::string, std::string>;

constexpr int kWorlds = 300;
constexpr int kHistory = 16;  // frames each world keeps; the load pushes more.
constexpr int kNoReplica = -1;

std::string WorldId(int k) { return "match-" + std::to_string(k); }

const Aabb kFloor{{-50, -50, -1}, {50, 50, 0}};

WorldSpec SpecOf(int k) {
  WorldSpec spec{.id = WorldId(k), .history_ticks = kHistory};
  spec.statics.push_back({.id = 1, .geometry = Shape{kFloor}});
  return spec;
}

// Two players per world, moving every tick; the first frame brings their parts.
Frame FrameOf(int k, std::int64_t tick) {
  const double t = static_cast<double>(tick);
  Frame frame{.tick = tick};
  const Vec3 p1{10 * std::sin(0.1 * t + k), 2.0, 1.0}, p2{-3.0, 10 * std::cos(0.07 * t + k), 1.0};
  for (const auto& [id, p] : {std::pair{1, p1}, std::pair{2, p2}}) {
    BodyUpdate body{.id = id, .pose = Pose{p, Quat{}}};
    if (tick == 1) body.parts = {BodyPart{.id = 0, .shape = Sphere{{0, 0, 0}, 0.5}}};
    frame.bodies.push_back(body);
  }
  return frame;
}

// Rays from above toward each player's place at `tick`, and one along the floor.
std::vector<RayQuery> RaysOf(int k, std::int64_t tick) {
  std::vector<RayQuery> rays;
  const Vec3 from{0, 0, 20};
  for (const BodyUpdate& b : FrameOf(k, tick).bodies) {
    const Vec3 d = b.pose->position - from;
    rays.push_back({.ray = Ray{from, d * (1.0 / Length(d)), 100.0}});
  }
  rays.push_back({.ray = Ray{{-40, 2.0, 1.0}, {1, 0, 0}, 100.0}});
  return rays;
}

bool SameAnswers(const std::vector<RayQueryResult>& a, const std::vector<RayQueryResult>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].valid != b[i].valid || !(a[i].time == b[i].time) || a[i].hits != b[i].hits ||
        a[i].total_hits != b[i].total_hits)
      return false;
  }
  return true;
}

// A world of the test: the client's view and the core's copy fed the same frames.
struct Match {
  explicit Match(int k)
      : k(k),
        local(WorldSettings{.history_ticks = kHistory}, {StaticElement{.id = 1, .geometry = Shape{kFloor}}}) {
  }
  int k;
  World local;
  std::int64_t tick = 0;
};

// One step of a match: the next frame, then a scene query at the latest tick,
// compared with the core's answer. OK, wrong (an answer that differs), or the
// client's error.
struct Step {
  absl::Status status;
  bool wrong = false;
};

Step Advance(Match& m, WorldClient& client) {
  const Frame frame = FrameOf(m.k, ++m.tick);
  if (!m.local.PushFrame(frame).ok()) return {absl::InternalError("the core refused the frame"), true};
  if (absl::StatusOr<std::int64_t> pushed = client.PushFrame(WorldId(m.k), frame); !pushed.ok())
    return {pushed.status()};
  const std::vector<RayQuery> rays = RaysOf(m.k, m.tick);
  absl::StatusOr<SceneAnswers> answers = client.Query(WorldId(m.k), {.rays = rays});
  if (!answers.ok()) return {answers.status()};
  return {absl::OkStatus(), !SameAnswers(answers->rays, m.local.RayCasts(rays))};
}

class Pool {
 public:
  explicit Pool(const std::string& proxy_target)
      : stub_(v1::CollisionService::NewStub(
            grpc::CreateChannel(proxy_target, grpc::InsecureChannelCredentials()))) {}

  void Add(std::unique_ptr<ServerProcess> replica) { replicas_.push_back(std::move(replica)); }
  ServerProcess& replica(int i) { return *replicas_[i]; }
  int size() const { return static_cast<int>(replicas_.size()); }

  // "<hostname>:<pid>" -> the index of the replica with that pid.
  int ReplicaOf(const std::string& id) const {
    const pid_t pid = std::stoi(id.substr(id.rfind(':') + 1));
    for (int i = 0; i < size(); ++i)
      if (replicas_[i]->pid() == pid) return i;
    return kNoReplica;
  }

  // The replica that answers a stateless call (no header) through the proxy.
  int StatelessCall() {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    v1::ServerInfo info;
    if (!stub_->GetServerInfo(&context, v1::GetServerInfoRequest(), &info).ok()) return kNoReplica;
    return ReplicaOf(info.replica());
  }

  // Which live replicas hold each world, asked of every replica directly.
  std::map<std::string, std::vector<int>> Holders(const std::set<int>& live) {
    std::map<std::string, std::vector<int>> holders;
    for (int r : live) {
      absl::StatusOr<WorldClient> direct = WorldClient::Create(replica(r).target());
      EXPECT_TRUE(direct.ok()) << direct.status();
      if (!direct.ok()) continue;
      absl::StatusOr<std::vector<WorldInfo>> worlds = direct->ListWorlds();
      EXPECT_TRUE(worlds.ok()) << "replica " << r << ": " << worlds.status();
      if (!worlds.ok()) continue;
      for (const WorldInfo& w : *worlds) holders[w.id].push_back(r);
    }
    return holders;
  }

 private:
  std::unique_ptr<v1::CollisionService::Stub> stub_;
  std::vector<std::unique_ptr<ServerProcess>> replicas_;
};

std::unique_ptr<ServerProcess> StartReplica(int port) {
  return std::make_unique<ServerProcess>(
      COLLIDE_SERVER_BIN,
      std::vector<std::string>{"--worker_threads=1", "--max_worlds=" + std::to_string(kWorlds),
                               "--port=" + std::to_string(port)});
}

bool SlotIs(const States& states, int slot, const std::string& prefix) {
  const auto it = states.find("collide-" + std::to_string(slot));
  return it != states.end() && it->second.rfind(prefix, 0) == 0;
}

// The codes a client of the shared pool may see while a replica dies
// (docs/operations.md, "Failure model"): UNAVAILABLE, what gRPC makes of the proxy's 502
// and 503 answers and of a connection reset mid-call. A world's NOT_FOUND on
// its new owner never reaches the caller: the client re-creates the world.
const std::set<absl::StatusCode> kDocumentedFailoverCodes = {absl::StatusCode::kUnavailable};

// Re-creations reported by the client, per world.
class Losses {
 public:
  void Add(const HistoryLoss& loss) {
    std::lock_guard lock(mu_);
    ++count_[loss.world_id];
    if (!IsWorldNotFound(loss.cause)) ++wrong_cause_;
  }
  int Of(int k) const {
    std::lock_guard lock(mu_);
    const auto it = count_.find(WorldId(k));
    return it == count_.end() ? 0 : it->second;
  }
  int wrong_cause() const {
    std::lock_guard lock(mu_);
    return wrong_cause_;
  }

 private:
  mutable std::mutex mu_;
  std::map<std::string, int> count_;
  int wrong_cause_ = 0;
};

TEST(ProxyScaleTest, WorldsStayWithTheirOwnerSurviveAKilledReplicaAndMoveLittleWhenTheRingGrows) {
  // Slots 0-2 get replicas now, slot 3 a port its replica takes later.
  std::vector<int> ports;
  std::vector<std::unique_ptr<ServerProcess>> started;
  for (int i = 0; i < 3; ++i) {
    started.push_back(StartReplica(0));
    ASSERT_GT(started.back()->port(), 0) << "replica " << i << " did not start:\n" << started.back()->log();
    ports.push_back(started.back()->port());
  }
  testing::PortReservation slot3;  // held until its replica listens.
  ASSERT_GT(slot3.port(), 0);
  ports.push_back(slot3.port());
  ProxyProcess proxy(COLLIDE_HAPROXY_BIN, COLLIDE_PROXY_CONFIG, ports);
  ASSERT_GT(proxy.port(), 0) << "haproxy did not start:\n" << proxy.log();
  Pool pool(proxy.target());
  for (auto& r : started) pool.Add(std::move(r));

  const auto kStateTimeout = std::chrono::seconds(20);  // safety net; health checks take ~2 s.
  ASSERT_TRUE(proxy.WaitForStates(
      [](const States& s) {
        return SlotIs(s, 0, "UP") && SlotIs(s, 1, "UP") && SlotIs(s, 2, "UP") && SlotIs(s, 3, "DOWN");
      },
      kStateTimeout))
      << "proxy never saw replicas 0-2 up and slot 3 down: " << testing::Describe(proxy.ServerStates())
      << "\n"
      << proxy.log();

  Losses losses;
  absl::StatusOr<WorldClient> client =
      WorldClient::Create(proxy.target(), {.deadline = absl::Seconds(10)},
                          {.on_history_lost = [&](const HistoryLoss& loss) { losses.Add(loss); }});
  ASSERT_TRUE(client.ok()) << client.status();

  // 1. Worlds created through the proxy; each lives on one replica, every call
  // of it reaches that replica, and they spread over all three.
  std::vector<std::unique_ptr<Match>> matches;
  std::vector<int> owner(kWorlds, kNoReplica);
  std::vector<int> worlds_of(4, 0);
  for (int k = 0; k < kWorlds; ++k) {
    matches.push_back(std::make_unique<Match>(k));
    absl::StatusOr<WorldInfo> created = client->CreateWorld(SpecOf(k));
    ASSERT_TRUE(created.ok()) << WorldId(k) << ": " << created.status();
    owner[k] = pool.ReplicaOf(created->replica);
    ASSERT_NE(owner[k], kNoReplica) << created->replica;
    for (int step = 0; step < 3; ++step) {
      const Step s = Advance(*matches[k], *client);
      ASSERT_TRUE(s.status.ok()) << WorldId(k) << ": " << s.status;
      ASSERT_FALSE(s.wrong) << WorldId(k) << ": an answer differs from the core's";
      absl::StatusOr<WorldInfo> info = client->GetWorld(WorldId(k));
      ASSERT_TRUE(info.ok()) << info.status();
      ASSERT_EQ(pool.ReplicaOf(info->replica), owner[k]) << WorldId(k) << " reached two replicas";
      ASSERT_EQ(info->latest_tick, matches[k]->tick);
    }
    ++worlds_of[owner[k]];
  }
  for (int r = 0; r < 3; ++r)
    EXPECT_GT(worlds_of[r], kWorlds / 10) << "replica " << r << " owns too few worlds";
  std::printf("ring of 3: worlds per replica %d, %d, %d\n", worlds_of[0], worlds_of[1], worlds_of[2]);
  {
    const auto holders = pool.Holders({0, 1, 2});
    ASSERT_EQ(holders.size(), static_cast<std::size_t>(kWorlds));
    for (int k = 0; k < kWorlds; ++k)
      EXPECT_EQ(holders.at(WorldId(k)), std::vector<int>{owner[k]}) << WorldId(k) << " is held elsewhere";
  }
  EXPECT_EQ(client->history_losses(), 0);

  // Stateless calls (no header) are balanced round-robin and answered right.
  {
    std::set<int> reached;
    for (int i = 0; i < 30; ++i) reached.insert(pool.StatelessCall());
    EXPECT_EQ(reached, (std::set<int>{0, 1, 2}));
    absl::StatusOr<Client> pairs_client = Client::Create(proxy.target(), {.deadline = absl::Seconds(10)});
    ASSERT_TRUE(pairs_client.ok()) << pairs_client.status();
    testing::ShapeFactory factory(29);
    std::vector<ShapePair> pairs;
    std::vector<PairResult> expected;
    for (int i = 0; i < 64; ++i) {
      pairs.push_back({factory.Make(ShapeKind::kCapsule), factory.Make(ShapeKind::kAabb)});
      expected.push_back(Contact(pairs.back().a, pairs.back().b));
    }
    for (int i = 0; i < 6; ++i) {
      absl::StatusOr<std::vector<PairResult>> r = pairs_client->QueryPairs(QueryLevel::kContact, pairs);
      ASSERT_TRUE(r.ok()) << r.status();
      EXPECT_EQ(*r, expected);
    }
  }

  // 2. SIGKILL a replica under load. Each thread plays its share of the
  // matches over and over (frames of one world from one thread); the phase
  // ends on events: every world of the dead replica answered again (re-created
  // on its new owner), the proxy marking it down, and then two more full
  // passes over every world (a safety deadline only for a hung run).
  const int victim = 1;
  constexpr int kThreads = 4;
  std::mutex mu;
  std::map<absl::StatusCode, int> errors;
  std::string first_error;
  int survivor_errors = 0, wrong_answers = 0;
  std::vector<bool> answered_after_kill(kWorlds, false);
  // Per world of the dead replica: the time its calls after the kill took
  // until one succeeded. A thread reaches a world once per pass over its
  // share, so the time from the kill also counts waits for its turn, which
  // grow with the machine's slowness (sanitizers, load), not with the
  // failover; the outage itself shows in the errors' times.
  std::vector<Clock::duration> recovered_after(kWorlds, Clock::duration::zero());
  std::vector<Clock::duration> answered_after(kWorlds, Clock::duration::zero());
  std::atomic<bool> killed{false}, stop{false};
  Clock::time_point killed_at;
  Clock::time_point last_error_at;
  std::vector<std::atomic<int>> passes(kThreads);
  {
    std::vector<std::jthread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        while (!stop) {
          for (int k = t; k < kWorlds && !stop; k += kThreads) {
            const bool after_kill = killed;
            const Clock::time_point started = Clock::now();
            const Step s = Advance(*matches[k], *client);
            std::lock_guard lock(mu);
            if (after_kill && owner[k] == victim && !answered_after_kill[k])
              recovered_after[k] += Clock::now() - started;
            wrong_answers += s.wrong;
            if (!s.status.ok()) {
              if (errors.empty()) first_error = WorldId(k) + ": " + s.status.ToString();
              ++errors[s.status.code()];
              last_error_at = std::max(last_error_at, started);  // when the failed call was made.
              if (owner[k] != victim) ++survivor_errors;
              continue;
            }
            if (after_kill && owner[k] == victim && !answered_after_kill[k]) {
              answered_after_kill[k] = true;
              answered_after[k] = Clock::now() - killed_at;
            }
          }
          ++passes[t];
        }
      });
    }
    const auto passes_done = [&] {
      std::vector<int> p;
      for (auto& n : passes) p.push_back(n);
      return p;
    };
    EXPECT_TRUE(testing::WaitFor([&] { return std::ranges::min(passes_done()) >= 1; }))
        << "no load before the kill";
    {
      std::lock_guard lock(mu);
      killed_at = Clock::now();
    }
    pool.replica(victim).Kill();
    killed = true;
    const bool recovered = testing::WaitFor([&] {
      std::lock_guard lock(mu);
      for (int k = 0; k < kWorlds; ++k)
        if (owner[k] == victim && !answered_after_kill[k]) return false;
      return true;
    });
    EXPECT_TRUE(recovered) << "some worlds of the dead replica never answered again";
    EXPECT_TRUE(
        proxy.WaitForStates([&](const States& s) { return SlotIs(s, victim, "DOWN"); }, kStateTimeout));
    const std::vector<int> at_down = passes_done();
    EXPECT_TRUE(testing::WaitFor([&] {
      const std::vector<int> now = passes_done();
      for (int t = 0; t < kThreads; ++t)
        if (now[t] < at_down[t] + 2) return false;
      return true;
    }));
    stop = true;
  }
  Clock::duration slowest = Clock::duration::zero(), last_answered = Clock::duration::zero();
  for (int k = 0; k < kWorlds; ++k) {
    slowest = std::max(slowest, recovered_after[k]);
    last_answered = std::max(last_answered, answered_after[k]);
  }
  const auto ms = [](Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); };
  int error_count = 0;
  for (const auto& [code, n] : errors) error_count += n;
  std::printf(
      "failover: %d worlds of the killed replica re-created on a new owner, each after at most %.0f ms of "
      "calls (the last %.0f ms after the kill); the last failed call made %.0f ms after it; %d errors (%s)\n",
      worlds_of[victim], ms(slowest), ms(last_answered), error_count ? ms(last_error_at - killed_at) : 0.0,
      error_count, first_error.c_str());
  EXPECT_EQ(wrong_answers, 0) << "answers differed from the core's";
  EXPECT_EQ(survivor_errors, 0) << "a world on a surviving replica saw an error: " << first_error;
  EXPECT_EQ(losses.wrong_cause(), 0) << "a re-creation not caused by WORLD_NOT_FOUND";
  for (int k = 0; k < kWorlds; ++k) {
    // One re-creation per world of the dead replica (a second would mean it
    // moved twice), none elsewhere (a call reaching a non-owner would be one).
    EXPECT_EQ(losses.Of(k), owner[k] == victim ? 1 : 0) << WorldId(k) << " (owner " << owner[k] << ")";
  }
  // The stated recovery bound (docs/operations.md, "Failure model"): calls made for a
  // dead replica's worlds fail for at most 3 s after the kill (2 failed health
  // checks, 1 s apart, plus a margin), and each world answers on its new
  // owner after at most 3 s of calls; in practice the proxy's redispatch
  // serves them at once and the client's re-creation costs one round trip.
  if (error_count > 0) {
    EXPECT_LT(ms(last_error_at - killed_at), 3000.0);
  }
  EXPECT_LT(ms(slowest), 3000.0);
  for (const auto& [code, n] : errors) {
    EXPECT_TRUE(kDocumentedFailoverCodes.contains(code))
        << n << " calls failed with undocumented code " << code << "; the first: " << first_error;
  }
  // Survivors kept their whole history; every world is on one live replica.
  std::vector<int> before(kWorlds, kNoReplica);
  {
    const auto holders = pool.Holders({0, 2});
    for (int k = 0; k < kWorlds; ++k) {
      const auto it = holders.find(WorldId(k));
      ASSERT_TRUE(it != holders.end() && it->second.size() == 1)
          << WorldId(k) << " not on exactly one replica";
      before[k] = it->second[0];
      if (owner[k] != victim) EXPECT_EQ(before[k], owner[k]) << WorldId(k) << " moved";
      absl::StatusOr<WorldInfo> info = client->GetWorld(WorldId(k));
      ASSERT_TRUE(info.ok()) << info.status();
      EXPECT_EQ(info->latest_tick, matches[k]->tick) << WorldId(k);
      if (owner[k] != victim) {
        EXPECT_EQ(info->frames_kept, std::min<std::int64_t>(matches[k]->tick, kHistory))
            << WorldId(k) << " lost history";
      }
    }
  }

  // 3. The ring grows: a replica comes up in slot 3. Only the worlds it now
  // owns move, all of them to it, each re-created there once (the copy left
  // on the old owner is evicted after its idle TTL).
  pool.Add(StartReplica(ports[3]));
  ASSERT_EQ(pool.replica(3).port(), ports[3]) << pool.replica(3).log();
  slot3.Release();
  ASSERT_TRUE(proxy.WaitForStates([](const States& s) { return SlotIs(s, 3, "UP"); }, kStateTimeout));
  int moved = 0, moved_elsewhere = 0;
  for (int k = 0; k < kWorlds; ++k) {
    const int losses_before = losses.Of(k);
    const Step s = Advance(*matches[k], *client);
    ASSERT_TRUE(s.status.ok()) << WorldId(k) << ": " << s.status;
    EXPECT_FALSE(s.wrong) << WorldId(k) << ": an answer differs from the core's";
    absl::StatusOr<WorldInfo> info = client->GetWorld(WorldId(k));
    ASSERT_TRUE(info.ok()) << info.status();
    const int now = pool.ReplicaOf(info->replica);
    if (now != before[k]) {
      ++moved;
      moved_elsewhere += now != 3;
    }
    EXPECT_EQ(losses.Of(k) - losses_before, now != before[k] ? 1 : 0) << WorldId(k);
  }
  std::printf("ring grows 2 -> 3 live replicas: %d of %d worlds moved (%.0f%%), all to the new replica\n",
              moved, kWorlds, 100.0 * moved / kWorlds);
  EXPECT_EQ(moved_elsewhere, 0) << "worlds moved between replicas that were already up";
  EXPECT_GT(moved, kWorlds / 10) << "the new replica took almost no worlds";
  EXPECT_LT(moved, kWorlds / 2) << "consistent hashing should move about a third of the worlds";
}

}  // namespace
}  // namespace collide
