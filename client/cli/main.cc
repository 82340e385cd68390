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
//   collide world audit FILE.audit.bin...
//   collide world view FILE [--port N] [--maps_dir DIR]
//   collide world export FILE --call N (--shot I | --move I) OUT.gltf [--maps_dir DIR]
//   collide bench --world [--map FILE[:MAP] --maps_dir DIR] [--players N] [--batch N]
//   collide bench --matches=M [--map FILE[:MAP]] [--players 64] [--tick_rate 64] [--duration=10s]
//                 [--ticks N] [--server_pid PID]
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "collide/version.h"
#include "commands.h"

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "command-line client of the collide collision service.\n"
      "usage: collide <command> [flags]\n"
      "  health          exit 0 when the server is SERVING, 1 otherwise (--timeout)\n"
      "  info            print the server's version, limits and counters\n"
      "  query FILE.json run the pairs and casts of FILE.json (see docs/clients.md) (--format)\n"
      "  bench           load generator (bench/load/, also the collide-load binary): pairs/s and\n"
      "                  latency, against the in-process core\n"
      "  mesh info FILE  import a map (.bsp .pk3 .gltf .glb .obj): triangles, bounds per category\n"
      "                  (--map, --categories)\n"
      "  mesh maps FILE  the maps in a .pk3\n"
      "  world demo      a simulated match: bots moving and shooting, verdicts per second\n"
      "                  (--seconds, or --ticks N: stop after N ticks, --seconds then a cap)\n"
      "  world create ID [--map FILE[:MAP] | FILE.json | --arena], world info ID, world list,\n"
      "  world delete ID worlds on the server\n"
      "  world audit FILE.audit.bin...  a binary audit trail (its rotated files in order) as JSON Lines\n"
      "  world view FILE a match recording in the browser, on 127.0.0.1 (--port, --maps_dir)\n"
      "  world export FILE --call N --shot I OUT.gltf  one verdict's scene as glTF (or --move I)\n"
      "  bench --world   world service: shots/s, moves/s, frames/s, unary and stream, against the core\n"
      "  bench --matches=M  M simulated matches through the Tick stream: tick latency, server CPU/memory\n"
      "                  (--duration, or --ticks N: each match stops after N ticks, --duration a cap)\n"
      "common flags: --target (default 127.0.0.1:50051), --deadline, --round_robin,\n"
      "  --token / --token_file / $COLLIDE_TOKEN (bearer token), --tls, --tls_ca_file,\n"
      "  --tls_cert_file + --tls_key_file (mutual TLS), --tls_server_name\n"
      "collide --version prints this client's version");
  // --version: this client's version (collide/version.h; `collide info` prints the server's).
  absl::FlagsUsageConfig usage_config;
  usage_config.version_string = [] { return std::string("collide " COLLIDE_VERSION "\n"); };
  absl::SetFlagsUsageConfig(usage_config);
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
