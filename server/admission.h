// Admission (load shedding), shared by every service of a server: a call
// (or a Tick message) arriving while max_calls are in flight, or whose items
// would take the items in flight past max_items, is refused at once with
// RESOURCE_EXHAUSTED (RefusedStatus), rather than queued: the client may
// retry here or elsewhere. One Admission per server, so that the query and
// world services share one budget (docs/operations.md, "Memory").
#ifndef COLLIDE_SERVER_ADMISSION_H_
#define COLLIDE_SERVER_ADMISSION_H_

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "grpcpp/support/status.h"
#include "server/status_mapping.h"

namespace collide::server {

class Admission {
 public:
  // 0: no limit.
  Admission(int max_calls, std::int64_t max_items) : max_calls_(max_calls), max_items_(max_items) {}

  // Counts a call of `items` items in flight, unless that takes either count
  // past its limit (then counts nothing and returns false).
  bool Admit(std::size_t items);
  // Ends an admitted call of `items` items.
  void Release(std::size_t items);
  // Why Admit refused a call, naming both limits; RefusedStatus maps it.
  RequestError Refusal() const;
  grpc::Status RefusedStatus() const { return ToGrpcStatus(Refusal()); }

  // Admitted calls not released yet (the metrics' in-flight gauge).
  int calls_in_flight() const { return calls_.load(std::memory_order_relaxed); }

 private:
  const int max_calls_;
  const std::int64_t max_items_;
  std::atomic<int> calls_{0};
  std::atomic<std::int64_t> items_{0};
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_ADMISSION_H_
