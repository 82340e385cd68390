// The subcommands of the `collide` CLI, one file each; main.cc dispatches.
// Each returns the process exit code. The load generator (`collide bench`,
// also the collide-load binary) lives in bench/load/.
#ifndef COLLIDE_CLIENT_CLI_COMMANDS_H_
#define COLLIDE_CLIENT_CLI_COMMANDS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "collide/client.h"
#include "collide/world_client.h"

namespace collide::cli {

// A Client for --target with --deadline and --round_robin (connect.cc).
absl::StatusOr<Client> MakeClient();

// Exit 0 when the server answers SERVING within --timeout, 1 otherwise.
int RunHealth();
// Prints GetServerInfo.
int RunInfo();
// Runs the queries of the JSON file args[0]; prints them as --format says.
int RunQuery(const std::vector<std::string>& args);
// The load generator (bench/load/bench.cc): pairs, or --world, or --matches.
int RunBench();
// `mesh info FILE` and `mesh maps FILE.pk3`: map import, offline.
int RunMesh(const std::vector<std::string>& args);
// `world create|info|list|delete|demo` (world.cc, world_demo.cc).
int RunWorld(const std::vector<std::string>& args);
int RunWorldDemo(const std::vector<std::string>& args);
// `collide world replay FILE`: world_replay.cc.
int RunWorldReplay(const std::vector<std::string>& args);
// `collide world audit FILE...`: a binary audit trail as JSON Lines
// (world_audit.cc). Offline.
int RunWorldAudit(const std::vector<std::string>& args);
// `world view FILE`: a match recording's viewer on 127.0.0.1 (world_view.cc);
// `world export FILE`: one verdict of it as glTF (world_export.cc). Offline.
int RunWorldView(const std::vector<std::string>& args);
int RunWorldExport(const std::vector<std::string>& args);
// `bench --world`: the world service against the in-process core
// (bench/load/bench_world.cc).
int RunWorldBench();
// `bench --matches=M`: M simulated matches through the Tick stream
// (bench/load/bench_matches.cc).
int RunMatchesBench();

}  // namespace collide::cli

#endif  // COLLIDE_CLIENT_CLI_COMMANDS_H_
