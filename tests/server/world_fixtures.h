// The world the world service tests share: a wall mesh and a ball, two
// bodies with hitboxes over two frames; its requests encoded from core
// values (the tests' own encoding; the service decodes with convert/), the
// same world built in the core, and helpers for contexts and error details.
#ifndef COLLIDE_TESTS_SERVER_WORLD_FIXTURES_H_
#define COLLIDE_TESTS_SERVER_WORLD_FIXTURES_H_

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "collide/v1/world.grpc.pb.h"
#include "collide/world.h"
#include "convert/shapes.h"
#include "convert/world_results.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "grpcpp/client_context.h"

namespace collide::server::testing {

inline constexpr char kWorld[] = "match-1";
enum : std::int64_t { kWall = 10, kBall = 11, kShooter = 1, kTarget = 2 };
enum : std::int32_t { kHead = 0, kChest = 1 };

// A wall at x = 10 over |y| <= 5, 0 <= z <= 4: two triangles.
inline MeshData Wall() {
  return {{{10, -5, 0}, {10, 5, 0}, {10, 5, 4}, {10, -5, 4}}, {{0, 1, 2}, {0, 2, 3}}};
}
inline StaticElement Ball() { return {kBall, kAllCategories, Shape{Sphere{{5, 4, 1}, 1.0}}}; }

inline std::vector<BodyPart> Hitboxes() {
  return {{kHead, Sphere{{0, 0, 0}, 0.3}, {{0, 0, 1.7}, {}}},
          {kChest, Capsule{{0, 0, 0.5}, {0, 0, 1.3}, 0.4}, {}}};
}
inline Pose At(double x, double y) { return {{x, y, 0}, {}}; }
// Tick 1: the shooter at the origin, the target at x = 5; tick 2: the target
// has moved to y = 2 and turned 90 degrees about z.
inline Frame Frame1() {
  Frame f{1, {}, {}};
  f.bodies.push_back(
      {kShooter, At(0, 0), Hitboxes(), {}, Shape{Capsule{{0, 0, 0.4}, {0, 0, 1.4}, 0.4}}, 1, false});
  f.bodies.push_back({kTarget, At(5, 0), Hitboxes(), {}, std::nullopt, 2, false});
  return f;
}
inline Frame Frame2() {
  Frame f{2, {}, {}};
  const double h = std::sqrt(0.5);
  f.bodies.push_back(
      {kTarget, Pose{{5, 2, 0}, {h, 0, 0, h}}, {}, {{kHead, {{0.1, 0, 1.7}, {}}}}, {}, {}, false});
  return f;
}

// Core -> request encoding, the test's own (the service decodes with convert).
inline void Put(const Vec3& v, v1::Vec3* out) { convert::ToProto(v, out); }
inline void Put(const Pose& p, v1::Pose* out) {
  Put(p.position, out->mutable_position());
  v1::Quaternion* q = out->mutable_rotation();
  q->set_w(p.rotation.w), q->set_x(p.rotation.x), q->set_y(p.rotation.y), q->set_z(p.rotation.z);
}
inline void Put(const Frame& f, v1::Frame* out) {
  out->set_tick(f.tick);
  for (const BodyUpdate& u : f.bodies) {
    v1::BodyUpdate* b = out->add_bodies();
    b->set_id(u.id);
    if (u.pose) Put(*u.pose, b->mutable_pose());
    for (const BodyPart& p : u.parts) {
      v1::BodyPart* part = b->add_parts();
      part->set_id(p.id);
      convert::ToProto(p.shape, part->mutable_shape());
      Put(p.local, part->mutable_local());
    }
    for (const PartPose& p : u.part_poses) {
      v1::PartPose* pp = b->add_part_poses();
      pp->set_part(p.part);
      Put(p.local, pp->mutable_local());
    }
    if (u.movement_shape) convert::ToProto(*u.movement_shape, b->mutable_movement_shape());
    if (u.category) b->set_category(*u.category);
    b->set_teleport(u.teleport);
  }
  for (std::int64_t id : f.removals) out->add_removals(id);
}
inline v1::CreateWorldRequest CreateRequest(const std::string& id = kWorld) {
  v1::CreateWorldRequest r;
  r.set_world_id(id);
  v1::StaticElement* wall = r.add_statics();
  wall->set_id(kWall);
  for (const Vec3& v : Wall().vertices) {
    for (double c : {v.x, v.y, v.z}) wall->mutable_mesh()->add_vertices(c);
  }
  for (const TriangleIndices& t : Wall().triangles) {
    for (std::uint32_t i : t) wall->mutable_mesh()->add_indices(i);
  }
  v1::StaticElement* ball = r.add_statics();
  ball->set_id(kBall);
  convert::ToProto(std::get<Shape>(Ball().geometry), ball->mutable_shape());
  r.set_history_ticks(16);
  return r;
}
// Shots and moves over Frame1 and Frame2: each verdict code the world gives
// (confirmed, blocked, an implausible origin; blocked with and without
// slide, OK, too fast, unknown body).
inline std::vector<ShotRequest> Shots() {
  return {{kShooter, {0, 0, 1.6}, {1, 0, 0.02}, kInfinity, Time{1, 0}, ShotClaim{kTarget, kHead}, 0.0},
          {kShooter, {0, 0, 1.6}, {1, 0, 0.02}, 50.0, std::nullopt, ShotClaim{kTarget, kHead}, 0.1},
          {kShooter, {0, -1.5, 1}, {1, 0, 0}, kInfinity, std::nullopt, std::nullopt, 0.0},
          {kShooter, {0, 30, 1.6}, {1, 0, 0}, kInfinity, std::nullopt, ShotClaim{kTarget, kChest}, 0.0}};
}
inline std::vector<MoveRequest> Moves() {
  return {{kShooter, Vec3{8, 0, 0}, {12, 1, 0}, 0.5, std::nullopt, false, kAllCategories},
          {kShooter, Vec3{8, 0, 0}, {12, 1, 0}, 0.5, std::nullopt, true, kAllCategories},
          {kShooter, std::nullopt, {0.1, 0, 0}, 0.05, std::nullopt, false, kAllCategories},
          {kShooter, std::nullopt, {9, 0, 0}, 0.05, 5.0, false, kAllCategories},
          {99, std::nullopt, {1, 0, 0}, 0.05, std::nullopt, false, kAllCategories}};
}
inline v1::ValidateShotsRequest ShotsRequest(const std::vector<ShotRequest>& shots,
                                             const std::string& id = kWorld) {
  v1::ValidateShotsRequest r;
  r.set_world_id(id);
  for (const ShotRequest& s : shots) {
    v1::Shot* p = r.add_shots();
    p->set_shooter_id(s.shooter);
    Put(s.origin, p->mutable_origin());
    Put(s.direction, p->mutable_direction());
    if (std::isfinite(s.max_range)) p->set_max_range(s.max_range);
    if (s.at) p->mutable_at()->set_tick(s.at->tick), p->mutable_at()->set_fraction(s.at->fraction);
    if (s.claim)
      p->mutable_claimed()->set_body_id(s.claim->body), p->mutable_claimed()->set_part_id(s.claim->part);
    p->set_tolerance(s.tolerance);
  }
  return r;
}
inline v1::ValidateMovesRequest MovesRequest(const std::vector<MoveRequest>& moves,
                                             const std::string& id = kWorld) {
  v1::ValidateMovesRequest r;
  r.set_world_id(id);
  for (const MoveRequest& m : moves) {
    v1::Move* p = r.add_moves();
    p->set_body_id(m.body);
    if (m.from) Put(*m.from, p->mutable_from());
    Put(m.to, p->mutable_to());
    p->set_elapsed(m.elapsed);
    if (m.max_speed) p->set_max_speed(*m.max_speed);
    p->set_slide(m.slide);
  }
  return r;
}

inline World CoreWorld() {
  WorldSettings settings;
  settings.history_ticks = 16;
  World w(settings, {{kWall, kAllCategories, std::make_shared<const TriangleMesh>(Wall())}, Ball()});
  EXPECT_TRUE(w.PushFrame(Frame1()).ok());
  EXPECT_TRUE(w.PushFrame(Frame2()).ok());
  return w;
}

inline std::unique_ptr<grpc::ClientContext> Ctx(const std::string& header = kWorld) {
  auto c = std::make_unique<grpc::ClientContext>();
  if (!header.empty()) c->AddMetadata("collide-world", header);
  return c;
}

// The ErrorInfo reason in `status`'s details ("" when none).
inline std::string ErrorReason(const grpc::Status& status) {
  google::rpc::Status details;
  if (!details.ParseFromString(status.error_details())) return "";
  for (const auto& any : details.details()) {
    google::rpc::ErrorInfo info;
    if (any.UnpackTo(&info)) return info.reason();
  }
  return "";
}

}  // namespace collide::server::testing

#endif  // COLLIDE_TESTS_SERVER_WORLD_FIXTURES_H_
