// `collide`: command-line client of the collide.v1 CollisionService.
//
//   collide health [--target=HOST:PORT] [--timeout=1s]
//   collide info   [--target=HOST:PORT]
//   collide query FILE.json [--format=text|json] [--target=HOST:PORT]
//   collide bench  [--encoding=packed|readable] [--kind=obb] [--batch=4096]
//                  [--concurrency=4] [--duration=10s] [--level=contact]
//                  [--client_path=wire|typed]
//   collide mesh info FILE [--map NAME] [--scale S] [--up as_stored|y|z] [--categories LIST]
//                          [--clip_brushes]
//   collide mesh maps FILE.pk3
//   collide world create ID [--map FILE[:MAP] | DESCRIPTION.json | --arena]
//   collide world info ID | list | delete ID
//   collide world demo [--map FILE[:MAP]] [--players N] [--seconds S] [--ticks N] [--tick_rate HZ]
//   collide bench --world [--map FILE[:MAP] --maps_dir DIR] [--players N] [--batch N]
//   collide bench --matches=M [--map FILE[:MAP]] [--players 64] [--tick_rate 64] [--duration=10s]
//                 [--ticks N] [--server_pid PID]
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "commands.h"

ABSL_FLAG(std::string, target, "127.0.0.1:50051",
          "gRPC target: HOST:PORT, dns:///HOST:PORT, or a comma-separated list of IPv4 HOST:PORT");
ABSL_FLAG(absl::Duration, deadline, absl::Seconds(30), "deadline of each call (retries included)");
ABSL_FLAG(bool, round_robin, false, "spread calls over every address of --target");
ABSL_FLAG(
    std::string, token, "",
    "bearer token sent as 'authorization: Bearer <token>' (default: --token_file, then $COLLIDE_TOKEN); "
    "prefer --token_file or COLLIDE_TOKEN: command lines are visible to other users");
ABSL_FLAG(std::string, token_file, "", "file whose first line is the bearer token");
ABSL_FLAG(bool, tls, false, "connect with TLS (implied by any --tls_* flag); system CA roots by default");
ABSL_FLAG(std::string, tls_ca_file, "", "PEM CA bundle the server certificate must chain to");
ABSL_FLAG(std::string, tls_cert_file, "", "PEM client certificate chain, for servers requiring mutual TLS");
ABSL_FLAG(std::string, tls_key_file, "", "PEM private key of --tls_cert_file");
ABSL_FLAG(std::string, tls_server_name, "",
          "name the server certificate must carry, when it differs from the --target host");

namespace collide::cli {

absl::StatusOr<Client> MakeClient() {
  ClientOptions options;
  options.deadline = absl::GetFlag(FLAGS_deadline);
  options.round_robin = absl::GetFlag(FLAGS_round_robin);
  options.token = absl::GetFlag(FLAGS_token);
  if (options.token.empty() && !absl::GetFlag(FLAGS_token_file).empty()) {
    std::ifstream in(absl::GetFlag(FLAGS_token_file));
    if (!in || !std::getline(in, options.token)) {
      return absl::InvalidArgumentError(
          absl::StrCat("cannot read --token_file ", absl::GetFlag(FLAGS_token_file)));
    }
    options.token = std::string(absl::StripAsciiWhitespace(options.token));
  }
  if (options.token.empty()) {
    if (const char* env = std::getenv("COLLIDE_TOKEN")) options.token = env;
  }
  options.tls = absl::GetFlag(FLAGS_tls);
  options.tls_ca_file = absl::GetFlag(FLAGS_tls_ca_file);
  options.tls_cert_file = absl::GetFlag(FLAGS_tls_cert_file);
  options.tls_key_file = absl::GetFlag(FLAGS_tls_key_file);
  options.tls_server_name = absl::GetFlag(FLAGS_tls_server_name);
  return Client::Create(absl::GetFlag(FLAGS_target), options);
}

}  // namespace collide::cli

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "command-line client of the collide collision service.\n"
      "usage: collide <command> [flags]\n"
      "  health          exit 0 when the server is SERVING, 1 otherwise (--timeout)\n"
      "  info            print the server's version, limits and counters\n"
      "  query FILE.json run the pairs and casts of FILE.json (see docs/clients.md) (--format)\n"
      "  bench           load generator: pairs/s and latency, against the in-process core\n"
      "  mesh info FILE  import a map (.bsp .pk3 .gltf .glb .obj): triangles, bounds per category\n"
      "                  (--map, --categories)\n"
      "  mesh maps FILE  the maps in a .pk3\n"
      "  world demo      a simulated match: bots moving and shooting, verdicts per second\n"
      "                  (--seconds, or --ticks N: stop after N ticks, --seconds then a cap)\n"
      "  world create ID [--map FILE[:MAP] | FILE.json | --arena], world info ID, world list,\n"
      "  world delete ID worlds on the server\n"
      "  bench --world   world service: shots/s, moves/s, frames/s, unary and stream, against the core\n"
      "  bench --matches=M  M simulated matches through the Tick stream: tick latency, server CPU/memory\n"
      "                  (--duration, or --ticks N: each match stops after N ticks, --duration a cap)\n"
      "common flags: --target (default 127.0.0.1:50051), --deadline, --round_robin,\n"
      "  --token / --token_file / $COLLIDE_TOKEN (bearer token), --tls, --tls_ca_file,\n"
      "  --tls_cert_file + --tls_key_file (mutual TLS), --tls_server_name");
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
  if (command == "mesh") return collide::cli::RunMesh(args);
  if (command == "world") return collide::cli::RunWorld(args);
  std::cerr << "collide: unknown command \"" << command << "\"\n" << absl::ProgramUsageMessage() << "\n";
  return 2;
}
