#include "server/flags_env.h"

#include <cctype>
#include <cstdlib>

#include "absl/flags/reflection.h"
#include "absl/strings/str_cat.h"

namespace collide::server {

std::string EnvVarForFlag(std::string_view flag_name) {
  std::string name = "COLLIDE_";
  for (char c : flag_name) name += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

absl::Status ApplyEnvironmentOverrides(std::span<const std::string_view> flag_names) {
  for (std::string_view flag_name : flag_names) {
    const std::string var = EnvVarForFlag(flag_name);
    const char* value = std::getenv(var.c_str());
    if (value == nullptr) continue;
    absl::CommandLineFlag* flag =
        absl::FindCommandLineFlag(absl::string_view(flag_name.data(), flag_name.size()));
    if (flag == nullptr) return absl::InternalError(absl::StrCat("no flag named ", std::string(flag_name)));
    std::string error;
    if (!flag->ParseFrom(value, &error)) {
      return absl::InvalidArgumentError(absl::StrCat(var, "=\"", value, "\": ", error));
    }
  }
  return absl::OkStatus();
}

}  // namespace collide::server
