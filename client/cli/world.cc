// `collide world create|info|list|delete|demo|replay|audit`: worlds on the server, and their files.
//
//   collide world create ID [--map FILE[:MAP] | DESCRIPTION.json | --arena]
//   collide world info ID
//   collide world list
//   collide world delete ID
//   collide world demo [--map FILE[:MAP]] [--players N] [--seconds S] [--ticks N] [--record FILE]
//                                                                                   (world_demo.cc)
//   collide world replay FILE [--maps_dir DIR] [--target ADDR]                      (world_replay.cc)
//   collide world audit FILE.audit.bin...                                           (world_audit.cc)
//   collide world view FILE [--port N] [--maps_dir DIR]                             (world_view.cc)
//   collide world export FILE --call N (--shot I | --move I) OUT.gltf               (world_export.cc)
//
// A description file is CreateWorldRequest in the proto's JSON mapping
// (proto/collide/v1/world.proto): {"statics": [{"id": 1, "mesh":
// {"vertices": [...], "indices": [...]}}, {"id": 2, "shape": {"sphere": ...}},
// {"id": 3, "mapFile": {"name": "level.glb"}}], "historyTicks": 64,
// "policy": {...}}; its world_id, if any, must equal ID. --map names a map
// file in the server's --maps_dir (FILE:MAP picks a map inside a .pk3).
#include <google/protobuf/util/json_util.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_format.h"
#include "collide/world_client_proto.h"
#include "commands.h"
#include "world_arena.h"

ABSL_DECLARE_FLAG(std::string, map);
ABSL_FLAG(bool, arena, false, "world create: the built-in arena of `world demo` (no map files needed)");

namespace collide::cli {
namespace {

int Fail(const absl::Status& status) {
  std::cerr << DescribeStatus(status) << "\n";
  return 1;
}

void Print(const WorldInfo& w) {
  std::cout << absl::StrFormat(
      "world %s  replica %s\n  statics %d  triangles %d (degenerate %d)  memory %d bytes\n"
      "  bodies %d  frames kept %d of %d",
      w.id, w.replica, w.static_elements, w.triangles, w.degenerate_triangles, w.memory_bytes, w.bodies,
      w.frames_kept, w.settings.history_ticks);
  if (w.frames_kept > 0) std::cout << absl::StrFormat("  ticks %d..%d", w.oldest_tick, w.latest_tick);
  const WorldSettings& s = w.settings;
  std::cout << absl::StrFormat(
      "\n  policy: max_rewind_ticks %d  max_origin_offset %g  default_max_speed %g  skin_width %g  "
      "slide_iterations %d\n",
      s.max_rewind_ticks, s.max_origin_offset, s.default_max_speed, s.skin_width, s.slide_iterations);
}

absl::StatusOr<v1::CreateWorldRequest> ReadDescription(const std::string& id, const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  if (!in || !(text << in.rdbuf())) return absl::InvalidArgumentError("cannot read " + path);
  v1::CreateWorldRequest request;
  const auto parsed = google::protobuf::util::JsonStringToMessage(text.str(), &request);
  if (!parsed.ok()) return absl::InvalidArgumentError(path + ": " + std::string(parsed.message()));
  if (!request.world_id().empty() && request.world_id() != id) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s names world \"%s\", not \"%s\"", path, request.world_id(), id));
  }
  request.set_world_id(id);
  return request;
}

int RunCreate(WorldClient& client, const std::vector<std::string>& args) {
  const std::string& id = args[0];
  const std::string map = absl::GetFlag(FLAGS_map);
  const bool arena = absl::GetFlag(FLAGS_arena);
  if ((args.size() > 1) + !map.empty() + arena != 1) {
    std::cerr << "world create ID needs one of --map FILE[:MAP], DESCRIPTION.json, --arena\n";
    return 2;
  }
  v1::CreateWorldRequest request;
  if (args.size() > 1) {
    absl::StatusOr<v1::CreateWorldRequest> read = ReadDescription(id, args[1]);
    if (!read.ok()) return Fail(read.status());
    request = *std::move(read);
  } else {
    BuildCreateWorldRequest(MatchSpec(id, map, BotScale::ForMap(map)), request);
  }
  absl::StatusOr<WorldInfo> info = CreateWorld(client, request);
  if (!info.ok()) return Fail(info.status());
  Print(*info);
  return 0;
}

}  // namespace

int RunWorld(const std::vector<std::string>& args) {
  static constexpr char kUsage[] =
      "usage: collide world create ID [--map FILE[:MAP] | DESCRIPTION.json | --arena]\n"
      "       collide world info ID | list | delete ID\n"
      "       collide world demo [--map FILE[:MAP]] [--players N] [--seconds S] [--ticks N]\n"
      "                          [--tick_rate HZ] [--record FILE]\n"
      "       collide world replay FILE [--maps_dir DIR] [--target ADDR]\n"
      "       collide world audit FILE.audit.bin...\n"
      "       collide world view FILE [--port N] [--maps_dir DIR]\n"
      "       collide world export FILE --call N (--shot I | --move I) OUT.gltf [--maps_dir DIR]\n";
  const std::string command = args.empty() ? "" : args[0];
  const std::vector<std::string> rest(args.begin() + (args.empty() ? 0 : 1), args.end());
  if (command == "demo") return RunWorldDemo(rest);
  if (command == "replay") return RunWorldReplay(rest);
  if (command == "audit") return RunWorldAudit(rest);
  if (command == "view") return RunWorldView(rest);
  if (command == "export") return RunWorldExport(rest);
  const bool needs_id = command == "create" || command == "info" || command == "delete";
  if ((!needs_id && command != "list") || (needs_id && rest.empty())) {
    std::cerr << kUsage;
    return 2;
  }
  absl::StatusOr<Client> channel = MakeClient();
  if (!channel.ok()) return Fail(channel.status());
  // A one-shot command keeps nothing to re-create a world from.
  WorldClient client(*channel, {.recreate_lost_worlds = false});
  if (command == "create") return RunCreate(client, rest);
  if (command == "info") {
    absl::StatusOr<WorldInfo> info = client.GetWorld(rest[0]);
    if (!info.ok()) return Fail(info.status());
    Print(*info);
    return 0;
  }
  if (command == "delete") {
    if (absl::Status s = client.DeleteWorld(rest[0]); !s.ok()) return Fail(s);
    std::cout << "world " << rest[0] << " deleted\n";
    return 0;
  }
  absl::StatusOr<std::vector<WorldInfo>> worlds = client.ListWorlds();
  if (!worlds.ok()) return Fail(worlds.status());
  for (const WorldInfo& w : *worlds) {
    std::cout << absl::StrFormat("%-24s bodies %5d  triangles %9d  frames %4d  latest tick %d  memory %d\n",
                                 w.id, w.bodies, w.triangles, w.frames_kept, w.latest_tick, w.memory_bytes);
  }
  if (worlds->empty()) std::cout << "no worlds\n";
  return 0;
}

}  // namespace collide::cli
