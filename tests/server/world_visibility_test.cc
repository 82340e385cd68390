// GetVisibility and the Tick part `visibility` on a map file: a BSP with a
// solid wall and a glass one, uploaded with geometry [OCCLUDER] under the
// policy's occluder bit; WorldInfo reports the grid; a bad request is
// INVALID_ARGUMENT naming its fields.
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

constexpr std::int32_t kSolidContents = 0x1, kTranslucent = 0x20000000;

// A floor, a solid wall at x 100..132 and a glass wall at y 200..216.
std::string Level() {
  collide::testing::SyntheticBsp bsp;
  const std::int32_t wall = bsp.Shader("textures/base/wall", 0, kSolidContents);
  const std::int32_t glass = bsp.Shader("textures/base/glass", 0, kSolidContents | kTranslucent);
  bsp.BoxBrush({-256, -256, -16}, {512, 512, 0}, wall);
  bsp.BoxBrush({100, -256, 0}, {132, 180, 128}, wall);
  bsp.BoxBrush({-256, 200, 0}, {90, 216, 128}, glass);
  return bsp.Bytes();
}

// Level() written to a fresh maps directory.
std::string LevelDir(const std::string& name) {
  const std::string dir = ::testing::TempDir() + "/" + name + "_" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/level.bsp", std::ios::binary) << Level();
  return dir;
}

Options MapsIn(const std::string& dir) {
  Options o;
  o.maps_dir = dir;
  return o;
}

// A server reading Level() from its own maps directory, removed at the end.
struct LevelServer {
  explicit LevelServer(const std::string& name)
      : dir(LevelDir(name)), server(MapsIn(dir)), stub(v1::WorldService::NewStub(server.channel)) {}
  ~LevelServer() { std::filesystem::remove_all(dir); }
  std::string dir;
  TestServer server;
  std::unique_ptr<v1::WorldService::Stub> stub;
};

// A world of the level's occluders under category bit 4, named in the policy.
v1::CreateWorldRequest OccluderWorld() {
  v1::CreateWorldRequest request;
  request.set_world_id(kWorld);
  v1::StaticElement* occluders = request.add_statics();
  occluders->set_id(1);
  occluders->set_category(4);
  occluders->mutable_map_file()->set_name("level.bsp");
  occluders->mutable_map_file()->add_geometry(v1::MAP_GEOMETRY_OCCLUDER);
  request.mutable_policy()->mutable_visibility()->set_occluder_category_mask(4);
  return request;
}

Frame Players() {
  Frame frame{1, {}, {}};
  for (const auto& [id, x, y] :
       {std::tuple{1, 0.0, 0.0}, std::tuple{2, 250.0, -100.0}, std::tuple{3, 0.0, 300.0}}) {
    BodyUpdate u;
    u.id = id;
    u.pose = Pose{{x, y, 0}, {}};
    u.parts = {BodyPart{0, Aabb{{-16, -16, 0}, {16, 16, 56}}, Pose{}}};
    u.eye = Vec3{0, 0, 50};
    frame.bodies.push_back(std::move(u));
  }
  return frame;
}

TEST(WorldVisibilityService, SolidWallsHideGlassDoesNot) {
  LevelServer level("world_visibility");
  auto& stub = level.stub;

  v1::CreateWorldRequest request = OccluderWorld();
  v1::WorldInfo info;
  const grpc::Status created = stub->CreateWorld(Ctx().get(), request, &info);
  ASSERT_TRUE(created.ok()) << created.error_message();
  EXPECT_EQ(info.triangles(), 24);  // the floor and the solid wall
  EXPECT_TRUE(info.visibility().built());
  EXPECT_EQ(info.visibility().voxel_size(), 8.0);
  EXPECT_GT(info.visibility().solid_voxels(), 0);
  EXPECT_GT(info.visibility().memory_bytes(), 0);
  EXPECT_EQ(info.policy().visibility().occluder_category_mask(), 4u);

  v1::PushFrameRequest push;
  push.set_world_id(kWorld);
  Put(Players(), push.mutable_frame());
  v1::PushFrameResponse pushed;
  ASSERT_TRUE(stub->PushFrame(Ctx().get(), push, &pushed).ok());

  v1::GetVisibilityRequest see;
  see.set_world_id(kWorld);
  v1::GetVisibilityResponse sets;
  const grpc::Status ok = stub->GetVisibility(Ctx().get(), see, &sets);
  ASSERT_TRUE(ok.ok()) << ok.error_message();
  ASSERT_EQ(sets.sets_size(), 3);
  // 1 sees 3 through the glass, not 2 behind the wall; 2 sees neither.
  EXPECT_EQ(std::vector<std::int64_t>(sets.sets(0).visible().begin(), sets.sets(0).visible().end()),
            (std::vector<std::int64_t>{3}));
  EXPECT_EQ(sets.sets(1).visible_size(), 0);
  EXPECT_EQ(sets.pairs(), 6);
  EXPECT_EQ(sets.hidden(), 4);
  EXPECT_EQ(sets.time().at().tick(), 1);

  // The Tick part: after the frame (tick 2, player 2 gone), the sets at it.
  {
    grpc::ClientContext context;
    context.AddMetadata("collide-world", kWorld);
    auto stream = stub->Tick(&context);
    v1::TickRequest message;
    message.set_sequence(1);
    message.mutable_frame()->set_tick(2);
    message.mutable_frame()->add_removals(2);
    message.mutable_visibility();
    ASSERT_TRUE(stream->Write(message));
    v1::TickResponse answer;
    ASSERT_TRUE(stream->Read(&answer));
    EXPECT_FALSE(answer.has_status()) << answer.status().message();
    ASSERT_EQ(answer.visibility().sets_size(), 2);
    EXPECT_EQ(answer.visibility().sets(0).visible_size(), 1);  // 1 sees 3
    EXPECT_EQ(answer.visibility().time().at().tick(), 2);
    stream->WritesDone();
    EXPECT_TRUE(stream->Finish().ok());
  }

  see.set_latency(-1);
  see.add_observers(2);
  const grpc::Status bad = stub->GetVisibility(Ctx().get(), see, &sets);
  EXPECT_EQ(bad.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(BadRequestFields(bad), std::vector<std::string>{"latency"});
}

// policy.visibility.reuse_ticks: echoed in WorldInfo; the sets over ticks
// equal the core's with the same policy and calls; out of range, the world
// is not created and the error names the field.
TEST(WorldVisibilityService, ReuseTicksIsAPolicyTheCoreAnswersWith) {
  LevelServer level("world_visibility_reuse");
  auto& stub = level.stub;

  v1::CreateWorldRequest request = OccluderWorld();
  request.mutable_policy()->mutable_visibility()->set_reuse_ticks(65);
  v1::WorldInfo info;
  const grpc::Status bad = stub->CreateWorld(Ctx().get(), request, &info);
  EXPECT_EQ(bad.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(BadRequestFields(bad), std::vector<std::string>{"policy.visibility.reuse_ticks"});

  request.mutable_policy()->mutable_visibility()->set_reuse_ticks(4);
  const grpc::Status created = stub->CreateWorld(Ctx().get(), request, &info);
  ASSERT_TRUE(created.ok()) << created.error_message();
  EXPECT_EQ(info.policy().visibility().reuse_ticks(), 4);

  // The core with the same occluders and policy, the same frames and calls.
  WorldSettings settings;
  settings.visibility.occluder_mask = 4;
  settings.visibility.reuse_ticks = 4;
  importer::ImportOptions import;
  import.categories = importer::MaskOf(importer::Category::kOccluder);
  auto imported = importer::ImportMap(level.dir + "/level.bsp", import);
  ASSERT_TRUE(imported.ok()) << imported.status();
  World core(settings, {{1, 4, std::make_shared<const TriangleMesh>(std::move(imported->mesh))}});
  std::int64_t reused = 0;
  for (std::int64_t tick = 1; tick <= 12; ++tick) {
    Frame frame = Players();
    frame.tick = tick;
    // Player 2 walks +y out from behind the wall's end (y 180).
    frame.bodies[1].pose->position.y = -100.0 + 30.0 * static_cast<double>(tick);
    v1::PushFrameRequest push;
    push.set_world_id(kWorld);
    Put(frame, push.mutable_frame());
    v1::PushFrameResponse pushed;
    ASSERT_TRUE(stub->PushFrame(Ctx().get(), push, &pushed).ok());
    ASSERT_TRUE(core.PushFrame(frame).ok());
    v1::GetVisibilityRequest see;
    see.set_world_id(kWorld);
    v1::GetVisibilityResponse sets;
    ASSERT_TRUE(stub->GetVisibility(Ctx().get(), see, &sets).ok());
    const VisibilityResult want = core.VisibleSets({});
    ASSERT_EQ(sets.sets_size(), static_cast<int>(want.sets.size()));
    for (int i = 0; i < sets.sets_size(); ++i) {
      EXPECT_EQ(std::vector<std::int64_t>(sets.sets(i).visible().begin(), sets.sets(i).visible().end()),
                want.sets[i].visible)
          << "tick " << tick << " observer " << want.sets[i].observer;
    }
    EXPECT_EQ(sets.hidden(), want.hidden);
    EXPECT_EQ(sets.reused(), want.reused);
    reused += want.reused;
  }
  EXPECT_GT(reused, 0);  // 1 and 3 see each other through the glass, standing still
}

}  // namespace
}  // namespace collide::server::testing
