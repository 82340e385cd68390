// `collide`: command-line client of the collide.v1 CollisionService.
//
//   collide health [--target=HOST:PORT] [--timeout=1s]
//   collide info   [--target=HOST:PORT]
//   collide query FILE.json [--format=text|json] [--target=HOST:PORT]
//   collide bench  [--encoding=packed|readable] [--kind=obb] [--batch=4096]
//                  [--concurrency=4] [--duration=10s] [--level=contact]
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "commands.h"

ABSL_FLAG(std::string, target, "127.0.0.1:50051",
          "gRPC target: HOST:PORT, dns:///HOST:PORT, or a comma-separated list of IPv4 HOST:PORT");
ABSL_FLAG(absl::Duration, deadline, absl::Seconds(30), "deadline of each call (retries included)");
ABSL_FLAG(bool, round_robin, false, "spread calls over every address of --target");

namespace collide::cli {

absl::StatusOr<Client> MakeClient() {
  ClientOptions options;
  options.deadline = absl::GetFlag(FLAGS_deadline);
  options.round_robin = absl::GetFlag(FLAGS_round_robin);
  return Client::Create(absl::GetFlag(FLAGS_target), options);
}

}  // namespace collide::cli

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "command-line client of the collide collision service.\n"
      "usage: collide <command> [flags]\n"
      "  health          exit 0 when the server is SERVING, 1 otherwise (--timeout)\n"
      "  info            print the server's version, limits and counters\n"
      "  query FILE.json run the pairs and casts of FILE.json (see README: CLI) (--format)\n"
      "  bench           load generator: pairs/s and latency, against the in-process core\n"
      "common flags: --target (default 127.0.0.1:50051), --deadline, --round_robin");
  std::vector<char*> positional = absl::ParseCommandLine(argc, argv);
  if (positional.size() < 2) {
    std::cerr << absl::ProgramUsageMessage() << "\n";
    return 2;
  }
  const std::string command = positional[1];
  const std::vector<std::string> args(positional.begin() + 2, positional.end());
  if (command == "health") return collide::cli::RunHealth();
  if (command == "info") return collide::cli::RunInfo();
  if (command == "query") return collide::cli::RunQuery(args);
  if (command == "bench") return collide::cli::RunBench();
  std::cerr << "collide: unknown command \"" << command << "\"\n" << absl::ProgramUsageMessage() << "\n";
  return 2;
}
