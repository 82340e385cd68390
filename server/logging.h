// spdlog setup for the server binary: level and text or JSON lines on stderr.
#ifndef COLLIDE_SERVER_LOGGING_H_
#define COLLIDE_SERVER_LOGGING_H_

#include <string_view>

#include "absl/status/status.h"

namespace collide::server {

// level: trace, debug, info, warn or error. format: "text" (human-readable
// lines) or "json" (one object per line: time, level, msg).
absl::Status ConfigureLogging(std::string_view level, std::string_view format);

}  // namespace collide::server

#endif  // COLLIDE_SERVER_LOGGING_H_
