// CPU time and resident memory of a process on this machine, read from
// /proc (Linux): what `collide bench --matches` reports of the server it
// loads (--server_pid) and of itself.
#ifndef COLLIDE_BENCH_LOAD_PROCESS_USAGE_H_
#define COLLIDE_BENCH_LOAD_PROCESS_USAGE_H_

#include <sys/types.h>

#include "absl/status/statusor.h"

namespace collide::cli {

struct ProcessUsage {
  double cpu_seconds = 0;  // user + system, all threads, since the process started.
  double rss_mb = 0;       // resident set (VmRSS), MiB.
};

// /proc/<pid>/stat (utime + stime, fields 14 and 15, in clock ticks) and
// /proc/<pid>/status (VmRSS); NOT_FOUND when the process is gone.
absl::StatusOr<ProcessUsage> ReadProcessUsage(pid_t pid);

// The 1-minute load average (/proc/loadavg), -1 when unreadable: how busy
// the shared machine was during a run.
double LoadAverage();

}  // namespace collide::cli

#endif  // COLLIDE_BENCH_LOAD_PROCESS_USAGE_H_
