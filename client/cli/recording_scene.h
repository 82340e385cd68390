// A match recording -> the viewer's scene (client/viewer/viewer_scene.proto):
// the level's triangles, every body's parts after each frame, and each shot
// and move judged with what explains it, all in the world frame. The calls
// are replayed (record::Replayer) so that bodies are posed exactly as the
// server posed them, with `explain` on: the verdicts shown are the recorded
// ones, their explanations the replay's when the recording has none.
#ifndef COLLIDE_CLIENT_CLI_RECORDING_SCENE_H_
#define COLLIDE_CLIENT_CLI_RECORDING_SCENE_H_

#include <string>

#include "absl/status/statusor.h"
#include "record/recording_file.h"
#include "viewer_scene.pb.h"

namespace collide::cli {

// Map files the header names are read from `maps_dir`.
absl::StatusOr<viewer::Scene> BuildScene(const record::Recording& recording, const std::string& maps_dir);
// The recording file at `path` read and built.
absl::StatusOr<viewer::Scene> ReadScene(const std::string& path, const std::string& maps_dir);

}  // namespace collide::cli

#endif  // COLLIDE_CLIENT_CLI_RECORDING_SCENE_H_
