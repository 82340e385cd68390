// collide-load: the load generator against a collide server, the same as
// `collide bench` (which calls the same RunBench): pair queries (bench.cc),
// the world service (--world, bench_world.cc) or simulated matches through
// the Tick stream (--matches=M, bench_matches.cc), each with its in-process
// and loopback baselines.
//   collide-load [--encoding=packed|readable] [--kind=obb] [--batch=4096] [--concurrency=4]
//                [--duration=10s] [--level=contact] [--client_path=wire|typed]
//   collide-load --world [--map FILE[:MAP] --maps_dir DIR] [--players N] [--batch N]
//   collide-load --matches=M [--map FILE[:MAP]] [--players 64] [--tick_rate 64] [--duration=10s]
//                [--ticks N] [--server_pid PID]
// and the connection flags of `collide` (--target, --deadline, --token, --tls...).
#include <iostream>
#include <vector>

#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "commands.h"

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "load generator of the collide collision service (also `collide bench`).\n"
      "usage: collide-load [flags]             pairs/s and latency, against the in-process core\n"
      "       collide-load --world [flags]     world service: shots/s, moves/s, frames/s\n"
      "       collide-load --matches=M [flags] M simulated matches through the Tick stream\n"
      "common flags: --target (default 127.0.0.1:50051), --deadline, --round_robin,\n"
      "  --token / --token_file / $COLLIDE_TOKEN (bearer token), --tls, --tls_ca_file,\n"
      "  --tls_cert_file + --tls_key_file (mutual TLS), --tls_server_name");
  const std::vector<char*> positional = absl::ParseCommandLine(argc, argv);
  if (positional.size() > 1) {
    std::cerr << "collide-load: unexpected argument \"" << positional[1] << "\"\n"
              << absl::ProgramUsageMessage() << "\n";
    return 2;
  }
  return collide::cli::RunBench();
}
