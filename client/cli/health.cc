// `collide health`: a probe fit for a container HEALTHCHECK. Exit 0 only when
// the server answers SERVING within --timeout; 1 when it answers anything
// else (NOT_SERVING while draining) or cannot be reached.
#include <iostream>

#include "absl/flags/flag.h"
#include "absl/time/time.h"
#include "commands.h"

ABSL_FLAG(absl::Duration, timeout, absl::Seconds(1), "health: how long to wait for the answer");

namespace collide::cli {

int RunHealth() {
  absl::StatusOr<Client> client = MakeClient();
  if (!client.ok()) {
    std::cerr << DescribeStatus(client.status()) << "\n";
    return 1;
  }
  const absl::StatusOr<bool> serving = client->Health(absl::GetFlag(FLAGS_timeout));
  if (!serving.ok()) {
    std::cout << "UNREACHABLE " << client->target() << ": " << DescribeStatus(serving.status()) << "\n";
    return 1;
  }
  std::cout << (*serving ? "SERVING" : "NOT_SERVING") << "\n";
  return *serving ? 0 : 1;
}

}  // namespace collide::cli
