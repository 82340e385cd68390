// Environment overrides for command-line flags, for containers:
// COLLIDE_<FLAG_NAME_UPPERCASE>=value sets --<flag_name>=value, and an
// explicit command-line flag still wins.
#ifndef COLLIDE_SERVER_FLAGS_ENV_H_
#define COLLIDE_SERVER_FLAGS_ENV_H_

#include <span>
#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace collide::server {

// "COLLIDE_" + the flag name in upper case: "max_items_per_request" ->
// "COLLIDE_MAX_ITEMS_PER_REQUEST".
std::string EnvVarForFlag(std::string_view flag_name);

// For each named (registered) flag whose environment variable is set, parses
// the variable's value into the flag. Call it before absl::ParseCommandLine,
// which then overrides these values with any explicit command-line flags.
// Fails naming the variable when a value does not parse.
absl::Status ApplyEnvironmentOverrides(std::span<const std::string_view> flag_names);

}  // namespace collide::server

#endif  // COLLIDE_SERVER_FLAGS_ENV_H_
