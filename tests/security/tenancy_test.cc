// Tenancy of worlds under token auth: a world belongs to the tenant of the
// token that created it. Another tenant gets, on every world method and the
// Tick stream, exactly the status (code, message, details bytes; for Tick
// the whole response message) it got before the world existed,
// so it can neither use nor detect it; its list stays empty; the same world id
// is a separate world per tenant. Without token auth every caller is one
// tenant. All calls of both tokens share one channel (one connection), where
// gRPC's auth context is shared too.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "collide/v1/world.grpc.pb.h"
#include "convert/world_packed.h"
#include "server/token_auth.h"
#include "tests/server/test_server.h"

namespace collide::server::testing {
namespace {

constexpr char kWorld[] = "arena-7";
constexpr char kTokenA[] = "tenant-a-token";
constexpr char kTokenB[] = "tenant-b-token";

void Put(double x, double y, double z, v1::Vec3* out) { out->set_x(x), out->set_y(y), out->set_z(z); }

// One static sphere of `radius` at x = 10.
v1::CreateWorldRequest CreateRequest(double radius) {
  v1::CreateWorldRequest r;
  r.set_world_id(kWorld);
  v1::StaticElement* ball = r.add_statics();
  ball->set_id(100);
  Put(10, 0, 0, ball->mutable_shape()->mutable_sphere()->mutable_center());
  ball->mutable_shape()->mutable_sphere()->set_radius(radius);
  return r;
}
// Body 1 (one sphere part, radius 0.5) at (x, 0, 0).
v1::PushFrameRequest FrameRequest(std::int64_t tick, double x) {
  v1::PushFrameRequest r;
  r.set_world_id(kWorld);
  r.mutable_frame()->set_tick(tick);
  v1::BodyUpdate* body = r.mutable_frame()->add_bodies();
  body->set_id(1);
  Put(x, 0, 0, body->mutable_pose()->mutable_position());
  body->mutable_pose()->mutable_rotation()->set_w(1);
  v1::BodyPart* part = body->add_parts();
  part->set_id(0);
  part->mutable_shape()->mutable_sphere()->set_radius(0.5);
  return r;
}

struct Answer {
  grpc::StatusCode code;
  std::string message;
  std::string details;
  bool operator==(const Answer&) const = default;
};
std::ostream& operator<<(std::ostream& os, const Answer& a) {
  return os << a.code << " \"" << a.message << "\" (" << a.details.size() << " detail bytes)";
}

class Caller {
 public:
  Caller(v1::WorldService::Stub& stub, std::string token) : stub_(stub), token_(std::move(token)) {}

  std::unique_ptr<grpc::ClientContext> Ctx(const std::string& world) const {
    auto c = std::make_unique<grpc::ClientContext>();
    c->AddMetadata("collide-world", world);
    if (!token_.empty()) c->AddMetadata("authorization", "Bearer " + token_);
    return c;
  }
  template <typename Request, typename Response>
  using Method = grpc::Status (v1::WorldService::Stub::*)(grpc::ClientContext*, const Request&, Response*);
  template <typename Request, typename Response>
  Answer Call(Method<Request, Response> method, const Request& request, Response* response = nullptr) const {
    Response ignored;
    std::string world = kWorld;
    if constexpr (requires { request.world_id(); }) world = request.world_id();
    const grpc::Status s = (stub_.*method)(Ctx(world).get(), request, response ? response : &ignored);
    return {s.error_code(), s.error_message(), s.error_details()};
  }

  Answer Create(const v1::CreateWorldRequest& r, v1::WorldInfo* info = nullptr) const {
    return Call(&v1::WorldService::Stub::CreateWorld, r, info);
  }
  Answer Get(v1::WorldInfo* info = nullptr) const {
    v1::GetWorldRequest r;
    r.set_world_id(kWorld);
    return Call(&v1::WorldService::Stub::GetWorld, r, info);
  }
  Answer Push(const v1::PushFrameRequest& r) const { return Call(&v1::WorldService::Stub::PushFrame, r); }
  Answer Delete() const {
    v1::DeleteWorldRequest r;
    r.set_world_id(kWorld);
    return Call(&v1::WorldService::Stub::DeleteWorld, r);
  }
  // A Tick stream of one message: the message's status and the whole
  // response's bytes, or the stream's status when it ended otherwise.
  Answer TickOnce(const v1::TickRequest& message) const {
    const std::unique_ptr<grpc::ClientContext> context = Ctx(kWorld);
    const auto stream = stub_.Tick(context.get());
    v1::TickResponse response;
    const bool answered = stream->Write(message) && stream->Read(&response);
    stream->WritesDone();
    const grpc::Status end = stream->Finish();
    if (!answered || !end.ok()) return {end.error_code(), end.error_message(), end.error_details()};
    return {static_cast<grpc::StatusCode>(response.status().code()), response.status().message(),
            response.SerializeAsString()};
  }
  std::vector<std::string> List() const {
    v1::ListWorldsResponse list;
    EXPECT_EQ(Call(&v1::WorldService::Stub::ListWorlds, v1::ListWorldsRequest(), &list).code, grpc::OK);
    std::vector<std::string> ids;
    for (const v1::WorldInfo& w : list.worlds()) ids.push_back(w.world_id());
    return ids;
  }

  // Every world-bound method once with a request that succeeds on a world
  // made by CreateRequest and FrameRequest(1, 0): its answer by method.
  std::map<std::string, Answer> EveryMethod() const {
    std::map<std::string, Answer> answers;
    answers["GetWorld"] = Get();
    answers["PushFrame"] = Push(FrameRequest(1000, 0));
    v1::QueryWorldRequest query;
    query.set_world_id(kWorld);
    v1::Ray* ray = query.add_ray_casts()->mutable_ray();
    Put(-5, 0, 0, ray->mutable_origin());
    Put(1, 0, 0, ray->mutable_direction());
    answers["QueryWorld"] = Call(&v1::WorldService::Stub::QueryWorld, query);
    v1::CastWorldRaysPackedRequest rays;
    rays.set_world_id(kWorld);
    for (double d : {-5.0, 0.0, 0.0, 1.0, 0.0, 0.0, 100.0}) rays.add_rays(d);
    answers["CastWorldRaysPacked"] = Call(&v1::WorldService::Stub::CastWorldRaysPacked, rays);
    v1::ValidateShotsRequest shots;
    shots.set_world_id(kWorld);
    v1::Shot* shot = shots.add_shots();
    shot->set_shooter_id(1);
    Put(0, 0, 0, shot->mutable_origin());
    Put(1, 0, 0, shot->mutable_direction());
    answers["ValidateShots"] = Call(&v1::WorldService::Stub::ValidateShots, shots);
    v1::ValidateShotsPackedRequest packed;
    packed.set_world_id(kWorld);
    for (double d : {0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 100.0, 0.0, 0.0, 0.0}) packed.add_doubles(d);
    packed.add_shooter_ids(1), packed.add_ticks(convert::kPackedLatestTick), packed.add_claimed_body_ids(-1);
    packed.add_claimed_part_ids(-1);
    answers["ValidateShotsPacked"] = Call(&v1::WorldService::Stub::ValidateShotsPacked, packed);
    v1::ValidateMovesRequest moves;
    moves.set_world_id(kWorld);
    v1::Move* move = moves.add_moves();
    move->set_body_id(1);
    Put(1, 0, 0, move->mutable_to());
    move->set_elapsed(1);
    move->set_max_speed(10);
    answers["ValidateMoves"] = Call(&v1::WorldService::Stub::ValidateMoves, moves);
    v1::GetBodiesRequest bodies;
    bodies.set_world_id(kWorld);
    answers["GetBodies"] = Call(&v1::WorldService::Stub::GetBodies, bodies);
    // The stream: one message with a frame and every batch kind.
    v1::TickRequest tick;
    tick.set_sequence(1);
    *tick.mutable_frame() = FrameRequest(2000, 0).frame();
    *tick.mutable_query() = query;
    *tick.mutable_rays_packed() = rays;
    *tick.mutable_shots() = shots;
    *tick.mutable_shots_packed() = packed;
    *tick.mutable_moves() = moves;
    *tick.mutable_bodies() = bodies;
    answers["Tick"] = TickOnce(tick);
    answers["CreateWorld (exists?)"] = Create(CreateRequest(1.0));
    answers["DeleteWorld"] = Delete();
    return answers;
  }

 private:
  v1::WorldService::Stub& stub_;
  std::string token_;
};

Options WithTokens() {
  Options options;
  options.auth_tokens = {kTokenA, kTokenB};
  return options;
}

class TenancyTest : public ::testing::Test {
 protected:
  explicit TenancyTest(Options options = WithTokens())
      : server_(std::move(options)), stub_(v1::WorldService::NewStub(server_.channel)) {}
  TestServer server_;
  std::unique_ptr<v1::WorldService::Stub> stub_;
  Caller a_{*stub_, kTokenA};
  Caller b_{*stub_, kTokenB};
};

TEST_F(TenancyTest, AnotherTenantsWorldIsIndistinguishableFromNone) {
  // What B gets for the id while no world has it (its own Create/Delete
  // cycle inside EveryMethod leaves nothing behind).
  const std::map<std::string, Answer> before = b_.EveryMethod();
  EXPECT_EQ(before.at("GetWorld").code, grpc::NOT_FOUND) << before.at("GetWorld");
  EXPECT_EQ(before.at("Tick").code, grpc::NOT_FOUND) << before.at("Tick");
  EXPECT_EQ(before.at("CreateWorld (exists?)").code, grpc::OK);
  EXPECT_EQ(before.at("DeleteWorld").code, grpc::OK);
  ASSERT_EQ(b_.List(), std::vector<std::string>{});

  ASSERT_EQ(a_.Create(CreateRequest(1.0)), (Answer{grpc::OK, "", ""}));
  ASSERT_EQ(a_.Push(FrameRequest(1, 0)), (Answer{grpc::OK, "", ""}));
  // B, on the same connection: every answer byte for byte as before; its
  // CreateWorld succeeds in its own namespace (ALREADY_EXISTS would betray A)
  // and its DeleteWorld removes only that.
  const std::map<std::string, Answer> after = b_.EveryMethod();
  for (const auto& [method, answer] : before) EXPECT_EQ(after.at(method), answer) << method;
  EXPECT_EQ(b_.List(), std::vector<std::string>{});

  // A's world is intact and answers everything (its CreateWorld: exists).
  v1::WorldInfo info;
  ASSERT_EQ(a_.Get(&info).code, grpc::OK);
  EXPECT_EQ(info.latest_tick(), 1);
  EXPECT_EQ(info.bodies(), 1);
  EXPECT_EQ(a_.List(), std::vector<std::string>{kWorld});
  const std::map<std::string, Answer> mine = a_.EveryMethod();
  for (const auto& [method, answer] : mine) {
    if (method == "CreateWorld (exists?)") {
      EXPECT_EQ(answer.code, grpc::ALREADY_EXISTS) << answer;
    } else {
      EXPECT_EQ(answer.code, grpc::OK) << method << ": " << answer;
    }
  }
  EXPECT_EQ(a_.List(), std::vector<std::string>{});  // EveryMethod deleted it last.
}

TEST_F(TenancyTest, SameIdIsOneWorldPerTenant) {
  ASSERT_EQ(a_.Create(CreateRequest(1.0)).code, grpc::OK);
  ASSERT_EQ(b_.Create(CreateRequest(2.0)).code, grpc::OK);
  ASSERT_EQ(a_.Push(FrameRequest(5, 0)).code, grpc::OK);
  // B's tick 1 would be FAILED_PRECONDITION in A's world (latest 5).
  ASSERT_EQ(b_.Push(FrameRequest(1, 0)).code, grpc::OK);
  v1::WorldInfo info_a, info_b;
  ASSERT_EQ(a_.Get(&info_a).code, grpc::OK);
  ASSERT_EQ(b_.Get(&info_b).code, grpc::OK);
  EXPECT_EQ(info_a.latest_tick(), 5);
  EXPECT_EQ(info_b.latest_tick(), 1);
  // Each sees its own sphere: a ray from x = 20 along -x meets the sphere
  // of radius r at (10, 0, 0) after 10 - r (A: r = 1, B: r = 2).
  for (const auto& [caller, distance] : {std::pair{&a_, 9.0}, std::pair{&b_, 8.0}}) {
    v1::QueryWorldRequest query;
    query.set_world_id(kWorld);
    v1::Ray* ray = query.add_ray_casts()->mutable_ray();
    Put(20, 0, 0, ray->mutable_origin());
    Put(-1, 0, 0, ray->mutable_direction());
    v1::QueryWorldResponse answer;
    ASSERT_EQ(caller->Call(&v1::WorldService::Stub::QueryWorld, query, &answer).code, grpc::OK);
    ASSERT_EQ(answer.ray_casts_size(), 1);
    ASSERT_EQ(answer.ray_casts(0).hits_size(), 1);
    EXPECT_EQ(answer.ray_casts(0).hits(0).target().static_element().element_id(), 100);
    EXPECT_DOUBLE_EQ(answer.ray_casts(0).hits(0).distance(), distance);
  }
  ASSERT_EQ(a_.Delete().code, grpc::OK);
  EXPECT_EQ(a_.Get().code, grpc::NOT_FOUND);
  EXPECT_EQ(b_.Get().code, grpc::OK);
  EXPECT_EQ(b_.List(), std::vector<std::string>{kWorld});
}

// Map meshes are cached per tenant: B's creation from a file A holds loads
// its own mesh (as long as A's took), so its latency cannot tell that some
// tenant plays that map; A's second world on the file shares A's mesh.
TEST(TenantMapCacheTest, TenantsNeverShareAMapsMesh) {
  const std::string dir = ::testing::TempDir() + "/tenant_maps_" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/wall.obj") << "v 10 -5 0\nv 10 5 0\nv 10 5 4\nv 10 -5 4\nf 1 2 3\nf 1 3 4\n";
  Options options = WithTokens();
  options.maps_dir = dir;
  TestServer server(options);
  auto stub = v1::WorldService::NewStub(server.channel);
  const auto create = [&](const std::string& token, const std::string& world) {
    v1::CreateWorldRequest request;
    request.set_world_id(world);
    v1::StaticElement* e = request.add_statics();
    e->set_id(1);
    e->mutable_map_file()->set_name("wall.obj");
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer " + token);
    context.AddMetadata("collide-world", world);
    v1::WorldInfo info;
    return stub->CreateWorld(&context, request, &info).error_code();
  };
  const MapCache& maps = server.server->world_service().maps();
  ASSERT_EQ(create(kTokenA, "a-1"), grpc::OK);
  EXPECT_EQ(maps.live(), 1u);
  ASSERT_EQ(create(kTokenB, "b-1"), grpc::OK);
  EXPECT_EQ(maps.live(), 2u);  // B's own mesh.
  ASSERT_EQ(create(kTokenA, "a-2"), grpc::OK);
  EXPECT_EQ(maps.live(), 2u);  // A's, shared.
  std::filesystem::remove_all(dir);
}

TEST_F(TenancyTest, TwoAuthorizationHeadersAreRefused) {
  grpc::ClientContext context;
  context.AddMetadata("collide-world", kWorld);
  context.AddMetadata("authorization", std::string("Bearer ") + kTokenA);
  context.AddMetadata("authorization", std::string("Bearer ") + kTokenB);
  v1::WorldInfo info;
  const grpc::Status s = stub_->CreateWorld(&context, CreateRequest(1.0), &info);
  EXPECT_EQ(s.error_code(), grpc::UNAUTHENTICATED) << s.error_message();
  EXPECT_EQ(a_.List(), std::vector<std::string>{});
  EXPECT_EQ(b_.List(), std::vector<std::string>{});
}

Options OneWorldPerTenant() {
  Options options = WithTokens();
  options.world_limits.max_worlds_per_tenant = 1;
  return options;
}
class TenantCapTest : public TenancyTest {
 protected:
  TenantCapTest() : TenancyTest(OneWorldPerTenant()) {}
};

TEST_F(TenantCapTest, CapsEachTenantAlone) {
  v1::CreateWorldRequest other = CreateRequest(1.0);
  other.set_world_id("arena-8");
  ASSERT_EQ(a_.Create(CreateRequest(1.0)).code, grpc::OK);
  const Answer full = a_.Create(other);
  EXPECT_EQ(full.code, grpc::RESOURCE_EXHAUSTED) << full;
  EXPECT_NE(full.message.find("--max_worlds_per_tenant is 1"), std::string::npos) << full;
  EXPECT_EQ(b_.Create(other).code, grpc::OK);  // B's own one.
  ASSERT_EQ(a_.Delete().code, grpc::OK);
  // A failed creation (a negative radius, found after the reservation)
  // returns its reservation: the next one fits.
  v1::CreateWorldRequest bad = other;
  bad.mutable_statics(0)->mutable_shape()->mutable_sphere()->set_radius(-1);
  EXPECT_EQ(a_.Create(bad).code, grpc::INVALID_ARGUMENT);
  EXPECT_EQ(a_.Create(other).code, grpc::OK);
}

class NoAuthTenancyTest : public TenancyTest {
 protected:
  NoAuthTenancyTest() : TenancyTest(Options{}) {}
};

TEST_F(NoAuthTenancyTest, EveryCallerIsOneTenant) {
  // Without token auth a stray token names no tenant.
  ASSERT_EQ(a_.Create(CreateRequest(1.0)).code, grpc::OK);
  EXPECT_EQ(b_.Get().code, grpc::OK);
  EXPECT_EQ(b_.Create(CreateRequest(1.0)).code, grpc::ALREADY_EXISTS);
  EXPECT_EQ(Caller(*stub_, "").List(), std::vector<std::string>{kWorld});
  EXPECT_EQ(b_.Delete().code, grpc::OK);
  EXPECT_EQ(a_.Get().code, grpc::NOT_FOUND);
}

TEST(TokenPrincipalTest, IsTheTokensSha256) {
  // printf %s tenant-a-token | sha256sum
  EXPECT_EQ(TokenPrincipal("tenant-a-token"),
            "sha256:0abd0bed626543f48ed86bfeec88d632cbfe73ada770b3f9692f4d4afc9aa48f");
  EXPECT_NE(TokenPrincipal("a"), TokenPrincipal("b"));
  EXPECT_EQ(BearerToken("Bearer  tok "), "tok");
  EXPECT_EQ(BearerToken("bEaReR tok"), "tok");
  EXPECT_EQ(BearerToken("Basic tok"), std::nullopt);
  EXPECT_EQ(BearerToken("Bearer"), std::nullopt);
}

}  // namespace
}  // namespace collide::server::testing
