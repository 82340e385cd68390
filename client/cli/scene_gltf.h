// One verdict of a viewer scene (viewer/viewer_scene.proto) as a glTF 2.0 file:
// JSON with its one buffer embedded (a data: URI), a node and a mesh per
// object, named for what it is, so that any glTF reader (Blender, assimp,
// three.js) shows what the judge saw.
//   a shot: "level", "shooter" (in the frame it was judged in),
//     "claimed_rewound" (red when not confirmed, green when confirmed),
//     "claimed_latest" (blue) and "ray" (lines, origin to first hit or range);
//   a move: "level", "body_from", "body_allowed" (at the allowed position)
//     and "sweeps" (lines, each sweep the judge made).
// Objects that do not exist (no claim, a body unknown) are left out.
#ifndef COLLIDE_CLIENT_CLI_SCENE_GLTF_H_
#define COLLIDE_CLIENT_CLI_SCENE_GLTF_H_

#include <string>

#include "viewer_scene.pb.h"

namespace collide::cli {

std::string ShotGltf(const viewer::Scene& scene, const viewer::SceneShot& shot);
std::string MoveGltf(const viewer::Scene& scene, const viewer::SceneMove& move);

}  // namespace collide::cli

#endif  // COLLIDE_CLIENT_CLI_SCENE_GLTF_H_
