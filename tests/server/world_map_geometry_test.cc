// Map files by geometry category (world.proto MapFile.geometry): a BSP
// uploaded twice, its player-collision set under one category bit and its
// solid set under another, with the policy sending moves to the first and
// shots to the second. Meshes of different categories are not shared.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "collide/import/map_import.h"
#include "collide/v1/world.grpc.pb.h"
#include "import/synthetic_bsp.h"
#include "tests/server/test_server.h"
#include "tests/server/world_fixtures.h"

namespace collide::server::testing {
namespace {

constexpr std::int32_t kSolidContents = 0x1, kPlayerClipContents = 0x10000, kNoDraw = 0x80;
constexpr std::uint64_t kMoveBit = 1, kShotBit = 2;

// A floor, a player-clip wall at x 100..116 and a solid wall at x 200..216.
std::string Level() {
  collide::testing::SyntheticBsp bsp;
  const std::int32_t floor = bsp.Shader("textures/base/floor", 0, kSolidContents);
  const std::int32_t clip = bsp.Shader("textures/common/clip", kNoDraw, kPlayerClipContents);
  bsp.BoxBrush({0, 0, -16}, {256, 256, 0}, floor);
  bsp.PolygonFace({{0, 0, 0}, {256, 0, 0}, {256, 256, 0}, {0, 256, 0}}, floor);
  bsp.BoxBrush({100, 0, 0}, {116, 256, 128}, clip);
  bsp.BoxBrush({200, 0, 0}, {216, 256, 128}, floor);
  return bsp.Bytes();
}

std::uint64_t Triangles(importer::CategoryMask categories) {
  auto m = importer::ImportBspBytes(Level(), "level", {.categories = categories});
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? m->mesh.triangles.size() : 0;
}

TEST(WorldMapGeometryTest, MovesAndShotsSeeTheirOwnCategories) {
  const std::string dir = ::testing::TempDir() + "/world_geometry_" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/level.bsp", std::ios::binary) << Level();
  Options o;
  o.maps_dir = dir;
  TestServer server(o);
  auto stub = v1::WorldService::NewStub(server.channel);

  v1::CreateWorldRequest request;
  request.set_world_id(kWorld);
  v1::StaticElement* moves = request.add_statics();
  moves->set_id(1);
  moves->set_category(kMoveBit);
  moves->mutable_map_file()->set_name("level.bsp");
  moves->mutable_map_file()->add_geometry(v1::MAP_GEOMETRY_SOLID);
  moves->mutable_map_file()->add_geometry(v1::MAP_GEOMETRY_PLAYER_CLIP);
  v1::StaticElement* shots = request.add_statics();
  shots->set_id(2);
  shots->set_category(kShotBit);
  shots->mutable_map_file()->set_name("level.bsp");
  shots->mutable_map_file()->add_geometry(v1::MAP_GEOMETRY_SOLID);
  request.mutable_policy()->set_move_category_mask(kMoveBit);
  request.mutable_policy()->set_shot_category_mask(kShotBit);
  v1::WorldInfo info;
  const grpc::Status created = stub->CreateWorld(Ctx().get(), request, &info);
  ASSERT_TRUE(created.ok()) << created.error_message();
  const std::uint64_t player = Triangles(importer::kPlayerCollision);
  const std::uint64_t solid = Triangles(importer::kShotCollision);
  ASSERT_GT(player, solid);  // the clip brush's 12 triangles
  // Two meshes: a cache keyed without the categories would give one twice.
  EXPECT_EQ(info.triangles(), static_cast<std::int64_t>(player + solid));
  request.set_world_id("render");
  request.clear_policy();
  request.mutable_statics()->DeleteSubrange(1, 1);
  request.mutable_statics(0)->mutable_map_file()->clear_geometry();  // RENDER
  ASSERT_TRUE(stub->CreateWorld(Ctx("render").get(), request, &info).ok());
  EXPECT_EQ(info.triangles(), static_cast<std::int64_t>(Triangles(importer::MaskOf(importer::Category::kRender))));
  request.mutable_statics(0)->mutable_map_file()->add_geometry(static_cast<v1::MapGeometry>(9));
  request.set_world_id("bad");
  const grpc::Status bad = stub->CreateWorld(Ctx("bad").get(), request, &info);
  EXPECT_EQ(BadRequestFields(bad), std::vector<std::string>{"statics[0].map_file.geometry[0]"});

  // A player at (50, 128, 40), a sphere of radius 10.
  v1::PushFrameRequest push;
  push.set_world_id(kWorld);
  Frame frame{1, {{7, Pose{{50, 128, 40}, {}}, {{0, Shape{Sphere{{0, 0, 0}, 10}}, {}}}, {},
                   Shape{Sphere{{0, 0, 0}, 10}}}}, {}};
  Put(frame, push.mutable_frame());
  v1::PushFrameResponse pushed;
  ASSERT_TRUE(stub->PushFrame(Ctx().get(), push, &pushed).ok());
  // The move meets the clip wall (the move set), category_mask 0.
  v1::ValidateMovesRequest move = MovesRequest({{7, Vec3{50, 128, 40}, {150, 128, 40}, 0.1, 10000.0}});
  v1::ValidateMovesResponse moved;
  ASSERT_TRUE(stub->ValidateMoves(Ctx().get(), move, &moved).ok());
  EXPECT_EQ(moved.verdicts(0).code(), v1::MOVE_CODE_BLOCKED);
  EXPECT_EQ(moved.verdicts(0).target().static_element().element_id(), 1);
  // The shot passes the clip wall and stops at the solid one (the shot set).
  v1::ValidateShotsRequest shot = ShotsRequest({{7, {50, 128, 40}, {1, 0, 0}}});
  v1::ValidateShotsResponse shot_verdicts;
  ASSERT_TRUE(stub->ValidateShots(Ctx().get(), shot, &shot_verdicts).ok());
  EXPECT_EQ(shot_verdicts.verdicts(0).code(), v1::SHOT_CODE_BLOCKED);
  EXPECT_EQ(shot_verdicts.verdicts(0).first_hit().target().static_element().element_id(), 2);
  EXPECT_DOUBLE_EQ(shot_verdicts.verdicts(0).first_hit().distance(), 150.0);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace collide::server::testing
