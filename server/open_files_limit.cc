#include "server/open_files_limit.h"

#include <sys/resource.h>

#include "absl/strings/str_cat.h"

namespace collide::server {

std::string OpenFilesLimit::Describe() const {
  const auto text = [](std::uint64_t n) {
    return n == RLIM_INFINITY ? std::string("unlimited") : absl::StrCat(n);
  };
  return before == after ? text(after) : absl::StrCat(text(after), " (raised from ", text(before), ")");
}

OpenFilesLimit RaiseOpenFilesLimit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return {};
  OpenFilesLimit result{limit.rlim_cur, limit.rlim_cur};
  if (limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &limit) == 0) result.after = limit.rlim_max;
  }
  return result;
}

}  // namespace collide::server
