// The viewer's scene built from a recording, and the glTF export of one
// shot and one move read back with assimp.
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <assimp/Importer.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

#include "recording_scene.h"
#include "scene_gltf.h"
#include "test_recording.h"

namespace collide {
namespace {

using testing::kJudgedCall;

viewer::Scene TestScene() {
  absl::StatusOr<viewer::Scene> scene = cli::BuildScene(testing::MakeTestRecording(), "");
  EXPECT_TRUE(scene.ok()) << scene.status();
  return scene.value_or(viewer::Scene{});
}

const v1::PosedPart& Part(const v1::PosedBody& body, int id) {
  for (const v1::PosedPart& p : body.parts()) {
    if (p.id() == id) return p;
  }
  ADD_FAILURE() << "body " << body.id() << " has no part " << id;
  return v1::PosedPart::default_instance();
}

TEST(ViewerSceneTest, HoldsTheLevelEveryFrameAndEveryVerdict) {
  const viewer::Scene scene = TestScene();
  EXPECT_EQ(scene.calls(), kJudgedCall + 1);
  EXPECT_EQ(scene.stopped(), "");
  EXPECT_EQ(scene.level().positions_size(), 4 * 3);
  EXPECT_EQ(scene.level().indices_size(), 2 * 3);
  ASSERT_EQ(scene.level().shapes_size(), 1);
  EXPECT_TRUE(scene.level().shapes(0).has_aabb());
  ASSERT_EQ(scene.ticks_size(), 10);
  for (int i = 0; i < scene.ticks_size(); ++i) {
    const viewer::TickBodies& tick = scene.ticks(i);
    EXPECT_EQ(tick.tick(), i + 1);
    EXPECT_EQ(tick.call(), i);
    ASSERT_EQ(tick.bodies_size(), 3);
    // The runner (body 2) walks +y 0.2 a tick; its head is posed with it.
    const v1::PosedBody& runner = tick.bodies(1);
    EXPECT_EQ(runner.id(), 2);
    EXPECT_NEAR(Part(runner, 1).shape().sphere().center().y(), -2 + 0.2 * (i + 1), 1e-12);
  }
  ASSERT_EQ(scene.shots_size(), 3);
  EXPECT_EQ(scene.shots(0).verdict().code(), v1::SHOT_CODE_CONFIRMED);
  EXPECT_EQ(scene.shots(1).verdict().code(), v1::SHOT_CODE_MISSED);
  EXPECT_EQ(scene.shots(2).verdict().code(), v1::SHOT_CODE_BLOCKED);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(scene.shots(i).call(), kJudgedCall);
    EXPECT_EQ(scene.shots(i).item(), i);
    EXPECT_EQ(scene.shots(i).latest_tick(), 10);
  }
  ASSERT_EQ(scene.moves_size(), 2);
  EXPECT_EQ(scene.moves(0).verdict().code(), v1::MOVE_CODE_OK);
  EXPECT_EQ(scene.moves(1).verdict().code(), v1::MOVE_CODE_BLOCKED);
}

TEST(ViewerSceneTest, AShotShowsTheClaimedBodyRewoundAndNow) {
  const viewer::Scene scene = TestScene();
  const viewer::SceneShot& missed = scene.shots(1);
  // Shot at tick 8 where the head is at tick 10: the rewound head is 0.4
  // behind the latest one, which the ray passes through. The explanation
  // holds both, so the scene does not repeat them.
  const v1::ShotExplanation& explained = missed.verdict().explanation();
  ASSERT_TRUE(explained.has_claimed_rewound() && explained.has_claimed_latest());
  EXPECT_FALSE(missed.has_claimed_rewound() || missed.has_claimed_latest());
  const double rewound_y = Part(explained.claimed_rewound(), 1).shape().sphere().center().y();
  const double latest_y = Part(explained.claimed_latest(), 1).shape().sphere().center().y();
  EXPECT_NEAR(rewound_y, -2 + 0.2 * 8, 1e-12);
  EXPECT_NEAR(latest_y, -2 + 0.2 * 10, 1e-12);
  // The recording has no explanation of its shots: the replay's.
  EXPECT_TRUE(missed.explanation_replayed());
  EXPECT_FALSE(missed.replay_differs());
  EXPECT_TRUE(missed.verdict().explanation().has_ray());
  EXPECT_EQ(missed.verdict().explanation().nearest_claimed_part(), 1);
  // Nothing was hit: the ray is drawn to its range (unbounded: 100 units).
  EXPECT_FALSE(missed.verdict().has_first_hit());
  const v1::Vec3& o = missed.shot().origin();
  const v1::Vec3& e = missed.ray_end();
  EXPECT_NEAR(std::hypot(e.x() - o.x(), e.y() - o.y(), e.z() - o.z()), 100, 1e-9);
  // A blocked shot's ray stops at the wall (x = -0.5).
  EXPECT_NEAR(scene.shots(2).ray_end().x(), -0.5, 1e-9);
}

TEST(ViewerSceneTest, AMoveShowsItsSweepAndStop) {
  const viewer::Scene scene = TestScene();
  const viewer::SceneMove& blocked = scene.moves(1);
  EXPECT_EQ(blocked.from().x(), 6);
  // Recorded with its explanation: its sweeps are the judge's.
  EXPECT_FALSE(blocked.explanation_replayed());
  ASSERT_TRUE(blocked.verdict().has_explanation());
  ASSERT_EQ(blocked.sweeps_size(), blocked.verdict().explanation().sweeps_size());
  ASSERT_GE(blocked.sweeps_size(), 1);
  EXPECT_EQ(blocked.sweeps(0).to().x(), -2);
  // Stopped before the wall's face at x = 0.5 (the torso's radius 0.3 away).
  EXPECT_GT(blocked.verdict().allowed_position().x(), 0.5 + 0.3 - 0.05);
  EXPECT_LT(blocked.verdict().allowed_position().x(), 6);
}

TEST(ViewerSceneTest, TheFileReadsBackAsTheScene) {
  const std::string path = ::testing::TempDir() + "/viewer_scene_test.rec";
  ASSERT_TRUE(testing::WriteTestRecording(testing::MakeTestRecording(), path).ok());
  absl::StatusOr<viewer::Scene> read = cli::ReadScene(path, "");
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->SerializeAsString(), TestScene().SerializeAsString());
}

// The file's meshes by node name, as assimp reads them.
std::map<std::string, const aiMesh*> ReadGltf(Assimp::Importer& importer, const std::string& gltf) {
  const std::string path = ::testing::TempDir() + "/viewer_scene_test.gltf";
  std::ofstream(path) << gltf;
  const aiScene* scene = importer.ReadFile(path, 0);
  EXPECT_NE(scene, nullptr) << importer.GetErrorString();
  std::map<std::string, const aiMesh*> out;
  if (scene == nullptr) return out;
  for (unsigned i = 0; i < scene->mRootNode->mNumChildren; ++i) {
    const aiNode* node = scene->mRootNode->mChildren[i];
    EXPECT_EQ(node->mNumMeshes, 1u) << node->mName.C_Str();
    if (node->mNumMeshes == 1) out[node->mName.C_Str()] = scene->mMeshes[node->mMeshes[0]];
  }
  EXPECT_EQ(scene->mNumMeshes, out.size());
  return out;
}

TEST(ViewerGltfTest, AShotExportsItsFiveObjects) {
  const viewer::Scene scene = TestScene();
  Assimp::Importer importer;
  const auto meshes = ReadGltf(importer, cli::ShotGltf(scene, scene.shots(1)));
  std::set<std::string> names;
  for (const auto& [name, mesh] : meshes) names.insert(name);
  EXPECT_EQ(names, (std::set<std::string>{"level", "shooter", "claimed_rewound", "claimed_latest", "ray"}));
  // The floor's 2 triangles and the wall's 12; the ray one line.
  EXPECT_EQ(meshes.at("level")->mNumFaces, 2u + 12u);
  EXPECT_EQ(meshes.at("ray")->mPrimitiveTypes, aiPrimitiveType_LINE);
  EXPECT_EQ(meshes.at("ray")->mNumFaces, 1u);
  // The rewound head's top is at z = 1.6 + 0.25; the latest body reaches y = 0.3.
  float rewound_top = 0, latest_y = -10;
  for (unsigned i = 0; i < meshes.at("claimed_rewound")->mNumVertices; ++i) {
    rewound_top = std::max(rewound_top, meshes.at("claimed_rewound")->mVertices[i].z);
  }
  for (unsigned i = 0; i < meshes.at("claimed_latest")->mNumVertices; ++i) {
    latest_y = std::max(latest_y, meshes.at("claimed_latest")->mVertices[i].y);
  }
  EXPECT_NEAR(rewound_top, 1.85, 1e-5);
  EXPECT_NEAR(latest_y, 0 + 0.3, 1e-5);  // the torso's radius past the body's y = 0 at tick 10
}

TEST(ViewerGltfTest, AMoveExportsItsBodyAtBothEndsAndItsSweep) {
  const viewer::Scene scene = TestScene();
  Assimp::Importer importer;
  const auto meshes = ReadGltf(importer, cli::MoveGltf(scene, scene.moves(1)));
  ASSERT_EQ(meshes.size(), 4u);
  ASSERT_TRUE(meshes.contains("body_from") && meshes.contains("body_allowed") && meshes.contains("sweeps"));
  float allowed_min_x = 100;
  for (unsigned i = 0; i < meshes.at("body_allowed")->mNumVertices; ++i) {
    allowed_min_x = std::min(allowed_min_x, meshes.at("body_allowed")->mVertices[i].x);
  }
  // Its torso stops at the wall's face, skin width away.
  EXPECT_NEAR(allowed_min_x, 0.5, 0.02);
  EXPECT_EQ(meshes.at("sweeps")->mPrimitiveTypes, aiPrimitiveType_LINE);
}

}  // namespace
}  // namespace collide
