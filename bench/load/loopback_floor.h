// The floor under any RPC's latency on this machine: a one-byte ping-pong
// between two threads over a loopback TCP connection, where each side blocks
// in recv() until the other's byte arrives. Every gRPC call pays at least one
// such wake-up each way, so `collide bench` prints this beside the bare gRPC
// round trip: on a virtual machine whose idle vCPUs halt, a blocked thread's
// wake-up alone can take hundreds of microseconds.
#ifndef COLLIDE_BENCH_LOAD_LOOPBACK_FLOOR_H_
#define COLLIDE_BENCH_LOAD_LOOPBACK_FLOOR_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace collide::cli {

// Round-trip times in microseconds of ping-pongs over 127.0.0.1, for
// `duration` (at most 200,000 round trips). An error if the loopback
// connection cannot be set up.
absl::StatusOr<std::vector<double>> MeasureLoopbackPingPong(absl::Duration duration);

}  // namespace collide::cli

#endif  // COLLIDE_BENCH_LOAD_LOOPBACK_FLOOR_H_
