// `collide world export FILE --call N (--shot I | --move I) OUT.gltf`: one
// verdict of a match recording as a glTF 2.0 file (scene_gltf.h says what it
// holds).
#include <fstream>
#include <iostream>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_format.h"
#include "commands.h"
#include "recording_scene.h"
#include "scene_gltf.h"

ABSL_DECLARE_FLAG(std::string, maps_dir);
ABSL_FLAG(int, call, -1, "world export: the recording's call (index in the file) that holds the verdict");
ABSL_FLAG(int, shot, -1, "world export: the shot's index in that call");
ABSL_FLAG(int, move, -1, "world export: the move's index in that call");

namespace collide::cli {

int RunWorldExport(const std::vector<std::string>& args) {
  const int call = absl::GetFlag(FLAGS_call);
  const int shot = absl::GetFlag(FLAGS_shot);
  const int move = absl::GetFlag(FLAGS_move);
  if (args.size() != 2 || call < 0 || (shot >= 0) == (move >= 0)) {
    std::cerr
        << "usage: collide world export FILE --call N (--shot I | --move I) OUT.gltf [--maps_dir DIR]\n";
    return 2;
  }
  absl::StatusOr<viewer::Scene> scene = ReadScene(args[0], absl::GetFlag(FLAGS_maps_dir));
  if (!scene.ok()) {
    std::cerr << "world export: " << scene.status().message() << "\n";
    return 1;
  }
  std::string gltf;
  if (shot >= 0) {
    for (const viewer::SceneShot& s : scene->shots()) {
      if (s.call() == call && s.item() == shot) gltf = ShotGltf(*scene, s);
    }
  } else {
    for (const viewer::SceneMove& m : scene->moves()) {
      if (m.call() == call && m.item() == move) gltf = MoveGltf(*scene, m);
    }
  }
  if (gltf.empty()) {
    std::cerr << absl::StrFormat("world export: call %d of %s has no %s %d\n", call, args[0],
                                 shot >= 0 ? "shot" : "move", shot >= 0 ? shot : move);
    return 1;
  }
  std::ofstream out(args[1], std::ios::binary);
  if (!(out << gltf) || !out.flush()) {
    std::cerr << "world export: cannot write " << args[1] << "\n";
    return 1;
  }
  std::cout << "wrote " << args[1] << "\n";
  return 0;
}

}  // namespace collide::cli
