// Scale-out without containers: three collide-server replicas on loopback
// ports and one client balancing calls over all of them with round_robin.
// Under load, one replica is killed (SIGKILL, a crash rather than a drain):
// no call may fail, since every RPC is idempotent and the client retries
// UNAVAILABLE on another replica, and the survivors keep serving. Each
// replica's GetServerInfo counters show that load reached all three.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "collide/client.h"
#include "collide/query.h"
#include "support/random_shapes.h"
#include "support/server_process.h"
#include "support/wait_for.h"

namespace collide {
namespace {

using Clock = std::chrono::steady_clock;
using testing::ServerProcess;

std::int64_t RequestsServed(const std::string& target) {
  absl::StatusOr<Client> client = Client::Create(target, {.deadline = absl::Seconds(5)});
  if (!client.ok()) return -1;
  absl::StatusOr<ServerInfo> info = client->GetServerInfo();
  return info.ok() ? info->requests_served : -1;
}

TEST(ScaleOutTest, RoundRobinSpreadsLoadAndSurvivesAKilledReplica) {
  std::vector<std::unique_ptr<ServerProcess>> replicas;
  std::string target = "ipv4:";
  for (int i = 0; i < 3; ++i) {
    replicas.push_back(
        std::make_unique<ServerProcess>(COLLIDE_SERVER_BIN, std::vector<std::string>{"--worker_threads=1"}));
    ASSERT_GT(replicas.back()->port(), 0) << "replica " << i << " did not start:\n" << replicas.back()->log();
    target += (i ? "," : "") + replicas.back()->target().substr(0);
  }

  // Fixed pairs with answers from the in-process core (no rotations, so the
  // shapes cross the wire bit for bit).
  testing::ShapeFactory factory(23);
  std::vector<ShapePair> pairs;
  for (int i = 0; i < 64; ++i)
    pairs.push_back({factory.Make(ShapeKind::kCapsule), factory.Make(ShapeKind::kAabb)});
  std::vector<PairResult> expected;
  for (const ShapePair& p : pairs) expected.push_back(Contact(p.a, p.b));

  absl::StatusOr<Client> client =
      Client::Create(target, {.deadline = absl::Seconds(10), .round_robin = true, .max_attempts = 5});
  ASSERT_TRUE(client.ok()) << client.status();

  // The load runs until the phase being checked is over: phases end on
  // events (calls served), never on a call count or a fixed time that only
  // holds at one machine's speed. The deadlines are safety nets for a hung
  // run, far beyond what any phase takes (a slow sanitizer build included).
  constexpr int kThreads = 4;
  constexpr int kMinCallsPerPhase = 200;               // OK calls before the kill, and after it.
  constexpr std::int64_t kMinPerReplica = 20;          // requests each replica served before the kill.
  const auto kMinAfterKill = std::chrono::seconds(1);  // load kept on the survivors at least this long.
  const auto kPhaseDeadline = testing::kHungAfter;
  std::atomic<int> ok_calls{0}, wrong{0};
  std::atomic<bool> stop{false};
  std::mutex mu;
  std::map<absl::StatusCode, int> failures;
  std::string first_failure;
  {
    std::vector<std::jthread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&] {
        while (!stop) {
          absl::StatusOr<std::vector<PairResult>> r = client->QueryPairs(QueryLevel::kContact, pairs);
          if (!r.ok()) {
            std::lock_guard lock(mu);
            if (failures.empty()) first_failure = r.status().ToString();
            ++failures[r.status().code()];
            continue;
          }
          ++ok_calls;
          if (*r != expected) ++wrong;
        }
      });
    }
    const auto wait_for = [&](const auto& done) {
      return testing::WaitFor(done, kPhaseDeadline, std::chrono::milliseconds(20));
    };
    // Phase 1: warm up until every replica has served load, then crash one.
    std::vector<std::int64_t> before_kill(3, 0);
    const bool warmed = wait_for([&] {
      if (ok_calls < kMinCallsPerPhase) return false;
      for (int i = 0; i < 3; ++i) {
        before_kill[i] = RequestsServed(replicas[i]->target());
        if (before_kill[i] < kMinPerReplica) return false;
      }
      return true;
    });
    EXPECT_TRUE(warmed) << "the load did not reach every replica within " << kPhaseDeadline.count()
                        << " s (round_robin not spreading?): served " << before_kill[0] << ", "
                        << before_kill[1] << ", " << before_kill[2] << "; " << ok_calls << " calls OK";
    replicas[1]->Kill();
    const int ok_at_kill = ok_calls;
    const Clock::time_point killed_at = Clock::now();
    // Phase 2: the load goes on until the survivors have served enough calls
    // after the kill, for at least kMinAfterKill.
    std::vector<std::int64_t> after_kill(3, 0);
    const bool served_after = wait_for([&] {
      if (Clock::now() - killed_at < kMinAfterKill || ok_calls - ok_at_kill < kMinCallsPerPhase) return false;
      for (int i : {0, 2}) {
        after_kill[i] = RequestsServed(replicas[i]->target());
        if (after_kill[i] < before_kill[i] + kMinPerReplica) return false;
      }
      return true;
    });
    stop = true;
    threads.clear();  // join.

    EXPECT_TRUE(served_after) << "within " << kPhaseDeadline.count()
                              << " s of the kill: " << ok_calls - ok_at_kill << " calls OK after it (want "
                              << kMinCallsPerPhase << "); survivors served " << before_kill[0] << " -> "
                              << after_kill[0] << " and " << before_kill[2] << " -> " << after_kill[2];
    std::printf(
        "scale-out: %d calls OK (%d after the kill); requests served before the kill: %lld, %lld, %lld; "
        "after: %lld, -, %lld\n",
        ok_calls.load(), ok_calls.load() - ok_at_kill, static_cast<long long>(before_kill[0]),
        static_cast<long long>(before_kill[1]), static_cast<long long>(before_kill[2]),
        static_cast<long long>(after_kill[0]), static_cast<long long>(after_kill[2]));
  }
  EXPECT_EQ(wrong, 0);
  for (const auto& [code, n] : failures) {
    ADD_FAILURE() << n << " calls failed with " << absl::StatusCodeToString(code)
                  << "; the first: " << first_failure;
  }
}

}  // namespace
}  // namespace collide
