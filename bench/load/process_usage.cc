#include "process_usage.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"

namespace collide::cli {

absl::StatusOr<ProcessUsage> ReadProcessUsage(pid_t pid) {
  const std::string dir = absl::StrCat("/proc/", pid, "/");
  std::ifstream stat(dir + "stat");
  std::string line;
  if (!stat || !std::getline(stat, line)) return absl::NotFoundError(absl::StrCat("no process ", pid));
  // The command name (field 2) may hold spaces and parentheses: fields are
  // counted from the last ')', which is followed by field 3 (the state).
  const std::size_t close = line.rfind(')');
  if (close == std::string::npos) return absl::InternalError(dir + "stat: no ')'");
  std::istringstream fields(line.substr(close + 1));
  std::string field;
  double utime = -1, stime = -1;
  for (int i = 3; i <= 15 && fields >> field; ++i) {
    if (i == 14) utime = std::stod(field);
    if (i == 15) stime = std::stod(field);
  }
  if (utime < 0 || stime < 0) return absl::InternalError(dir + "stat: too few fields");
  ProcessUsage usage;
  usage.cpu_seconds = (utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
  // The same time to the nanosecond where the kernel keeps it: each
  // thread's schedstat (field 1: ns on a CPU). stat counts 10 ms ticks, too
  // coarse for a short run's few milliseconds.
  double on_cpu_ns = 0;
  bool threads = false;
  std::error_code error;
  for (const auto& task : std::filesystem::directory_iterator(dir + "task", error)) {
    std::ifstream schedstat(task.path() / "schedstat");
    double ns = 0;
    if (schedstat >> ns) on_cpu_ns += ns, threads = true;
  }
  if (threads) usage.cpu_seconds = on_cpu_ns * 1e-9;
  std::ifstream status(dir + "status");
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) usage.rss_mb = std::stod(line.substr(6)) / 1024;  // kB.
  }
  return usage;
}

double LoadAverage() {
  std::ifstream in("/proc/loadavg");
  double load = -1;
  return in >> load ? load : -1;
}

}  // namespace collide::cli
