// WorldClient against an in-process server on a free loopback port: every
// world call and the Tick stream, answers equal bit for bit to a core World built from the same
// core values; the re-creation of a world the server lost (deleted behind
// the client's back, or the server restarted) with the loss reported; and
// the server's errors passed through with their codes and field paths.
#include "collide/world_client.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "server/server.h"
#include "tests/server/world_fixtures.h"

namespace collide {
namespace {

// The world of the service tests (tests/server/world_fixtures.h): a wall and
// a ball, a shooter and a target over two frames.
using server::testing::At;
using server::testing::Frame1;
using server::testing::Frame2;
using server::testing::Hitboxes;
using server::testing::kBall;
using server::testing::kChest;
using server::testing::kHead;
using server::testing::kShooter;
using server::testing::kTarget;
using server::testing::kWall;
using server::testing::kWorld;
using server::testing::Wall;
Shape Ball() { return std::get<Shape>(server::testing::Ball().geometry); }

WorldSpec Spec(const std::string& id = kWorld) {
  WorldSpec spec{.id = id, .history_ticks = 16};
  spec.statics.push_back({kWall, kAllCategories, Wall()});
  spec.statics.push_back({kBall, kAllCategories, Ball()});
  spec.policy.max_rewind_ticks = 8;
  return spec;
}
World CoreWorld() {
  WorldSettings settings;
  settings.history_ticks = 16;
  settings.max_rewind_ticks = 8;
  World w(settings, {{kWall, kAllCategories, std::make_shared<const TriangleMesh>(Wall())},
                     {kBall, kAllCategories, Ball()}});
  EXPECT_TRUE(w.PushFrame(Frame1()).ok());
  EXPECT_TRUE(w.PushFrame(Frame2()).ok());
  return w;
}

// Shots from the shooter at the target's head and chest, at both ticks,
// through the ball and into the wall, plus rejections.
std::vector<ShotRequest> Shots() {
  std::vector<ShotRequest> shots;
  const Vec3 eye{0, 0, 1.6};
  for (std::int64_t tick : {1, 2}) {
    for (const Vec3& aim :
         {Vec3{5, 0, 1.7}, Vec3{5, 2, 1.7}, Vec3{5, 2, 1.0}, Vec3{5, 4, 1}, Vec3{10, -3, 2}}) {
      for (std::int32_t part : {kHead, kChest}) {
        shots.push_back(
            {kShooter, eye, aim - eye, kInfinity, Time{tick, 0.0}, ShotClaim{kTarget, part}, 0.05});
      }
    }
  }
  shots.push_back({kShooter, eye, {1, 0, 0}, 3.0, std::nullopt, std::nullopt, 0});  // short range: missed.
  shots.push_back(
      {kShooter, eye, Vec3{5, 4, 1} - eye, kInfinity, std::nullopt, std::nullopt, 0});          // the ball.
  shots.push_back({kShooter, {0, 0, 9}, {1, 0, 0}, kInfinity, std::nullopt, std::nullopt, 0});  // origin.
  shots.push_back({kShooter, eye, {1, 0, 0}, kInfinity, Time{9, 0}, std::nullopt, 0});          // future.
  shots.push_back({77, eye, {1, 0, 0}, kInfinity, std::nullopt, std::nullopt, 0});              // shooter.
  shots.push_back({kShooter, eye, {1, 0, 0}, kInfinity, std::nullopt, ShotClaim{78, 0}, 0});    // target.
  return shots;
}

std::vector<MoveRequest> Moves() {
  return {{kShooter, Vec3{0, 0, 0}, {0.5, 0, 0}, 0.1, std::nullopt, false, kAllCategories},
          {kShooter, Vec3{0, 0, 0}, {5, 0, 0}, 0.1, std::nullopt, false, kAllCategories},
          {kShooter, Vec3{8, 0, 0}, {12, 0, 0}, 1.0, 20.0, false, kAllCategories},
          {kShooter, Vec3{8, 0, 0}, {12, 1, 0}, 1.0, 20.0, true, kAllCategories},
          {kShooter, Vec3{5, 4, 0}, {5, 4.5, 0}, 1.0, std::nullopt, false, kAllCategories},
          {kShooter, std::nullopt, {0.2, 0, 0}, 0.1, std::nullopt, false, kAllCategories},
          {99, Vec3{0, 0, 0}, {0.1, 0, 0}, 0.1, std::nullopt, false, kAllCategories}};
}

void ExpectSame(const RayQueryResult& got, const RayQueryResult& want) {
  EXPECT_TRUE(want.valid);
  EXPECT_EQ(got.time, want.time);
  EXPECT_EQ(got.hits, want.hits);
  EXPECT_EQ(got.total_hits, want.total_hits);
}
void ExpectSame(const ShotVerdict& got, const ShotVerdict& want) {
  EXPECT_EQ(got.code, want.code) << ShotCodeName(got.code) << " vs " << ShotCodeName(want.code);
  EXPECT_EQ(got.time, want.time);
  EXPECT_EQ(got.first_hit, want.first_hit);
  EXPECT_EQ(got.claim_miss_distance, want.claim_miss_distance);
  EXPECT_EQ(got.origin_offset, want.origin_offset);
}
void ExpectSame(const MoveVerdict& got, const MoveVerdict& want) {
  EXPECT_EQ(got.code, want.code) << MoveCodeName(got.code) << " vs " << MoveCodeName(want.code);
  EXPECT_EQ(got.speed, want.speed);
  EXPECT_EQ(got.allowed_position, want.allowed_position);
  EXPECT_EQ(got.slid_position, want.slid_position);
  EXPECT_EQ(got.t, want.t);
  EXPECT_EQ(got.normal, want.normal);
  EXPECT_EQ(got.depth, want.depth);
  if (want.code == MoveCode::kBlocked || want.code == MoveCode::kStartPenetrating)
    EXPECT_EQ(got.target, want.target);
}

std::vector<std::string> Fields(const absl::Status& status) {
  std::vector<std::string> out;
  for (const Violation& v : FieldViolations(status)) out.push_back(v.field);
  return out;
}

class WorldClientTest : public ::testing::Test {
 protected:
  void SetUp() override { Start(0); }
  void Start(int port) {
    server::Options options;
    options.host = "127.0.0.1";
    options.port = port;
    absl::StatusOr<std::unique_ptr<server::Server>> started = server::Server::Start(options);
    ASSERT_TRUE(started.ok()) << started.status();
    server_ = std::move(*started);
  }
  WorldClient NewClient(WorldClientOptions options = {}) {
    absl::StatusOr<WorldClient> client = WorldClient::Create(server_->address(), {}, std::move(options));
    EXPECT_TRUE(client.ok()) << client.status();
    return std::move(*client);
  }
  // A client with the world created and both frames pushed.
  WorldClient Populated(WorldClientOptions options = {}) {
    WorldClient client = NewClient(std::move(options));
    EXPECT_TRUE(client.CreateWorld(Spec()).ok());
    EXPECT_TRUE(client.PushFrame(kWorld, Frame1()).ok());
    EXPECT_TRUE(client.PushFrame(kWorld, Frame2()).ok());
    return client;
  }

  std::unique_ptr<server::Server> server_;
};

TEST_F(WorldClientTest, ManagementCalls) {
  WorldClient client = NewClient();
  absl::StatusOr<WorldInfo> created = client.CreateWorld(Spec());
  ASSERT_TRUE(created.ok()) << DescribeStatus(created.status());
  EXPECT_EQ(created->id, kWorld);
  EXPECT_EQ(created->static_elements, 2);
  EXPECT_EQ(created->triangles, 2);
  EXPECT_EQ(created->frames_kept, 0);
  EXPECT_EQ(created->settings.history_ticks, 16);
  EXPECT_EQ(created->settings.max_rewind_ticks, 8);
  EXPECT_EQ(created->settings.skin_width, WorldSettings{}.skin_width);
  EXPECT_FALSE(created->replica.empty());

  absl::StatusOr<std::int64_t> oldest = client.PushFrame(kWorld, Frame1());
  ASSERT_TRUE(oldest.ok()) << DescribeStatus(oldest.status());
  EXPECT_EQ(*oldest, 1);
  ASSERT_TRUE(client.PushFrame(kWorld, Frame2()).ok());

  absl::StatusOr<WorldInfo> info = client.GetWorld(kWorld);
  ASSERT_TRUE(info.ok()) << DescribeStatus(info.status());
  EXPECT_EQ(info->bodies, 2);
  EXPECT_EQ(info->frames_kept, 2);
  EXPECT_EQ(info->oldest_tick, 1);
  EXPECT_EQ(info->latest_tick, 2);
  EXPECT_GT(info->memory_bytes, 0);

  ASSERT_TRUE(client.CreateWorld(Spec("match-2")).ok());
  absl::StatusOr<std::vector<WorldInfo>> list = client.ListWorlds();
  ASSERT_TRUE(list.ok()) << DescribeStatus(list.status());
  std::vector<std::string> ids;
  for (const WorldInfo& w : *list) ids.push_back(w.id);
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(ids, (std::vector<std::string>{"match-1", "match-2"}));

  EXPECT_EQ(client.CreateWorld(Spec()).status().code(), absl::StatusCode::kAlreadyExists);
  ASSERT_TRUE(client.DeleteWorld("match-2").ok());
  // Deleted by this client: forgotten, so not re-created.
  const absl::Status gone = client.GetWorld("match-2").status();
  EXPECT_TRUE(IsWorldNotFound(gone)) << gone;
  EXPECT_EQ(client.history_losses(), 0);
  EXPECT_TRUE(IsWorldNotFound(client.DeleteWorld("match-2")));
}

TEST_F(WorldClientTest, SceneQueriesEqualTheCore) {
  WorldClient client = Populated();
  const World core = CoreWorld();
  SceneQueries q;
  for (std::int64_t tick : {1, 2}) {
    for (RayMode mode : {RayMode::kClosest, RayMode::kAll}) {
      for (double y : {0.0, 2.0, 4.0}) {
        q.rays.push_back({{{0, y, 1.2}, {1, 0, 0}, kInfinity}, Time{tick, 0.5}, {}, mode, 8});
      }
    }
  }
  q.rays.push_back(
      {{{0, 0, 1.2}, {1, 0, 0}, kInfinity}, std::nullopt, {kAllCategories, {kTarget}}, RayMode::kAny, 8});
  q.rays.push_back({{{0, 0, 1.2}, {1, 0, 0}, kInfinity}, Time{-5, 0}, {}, RayMode::kClosest, 8});  // clamped.
  q.shape_casts.push_back({Sphere{{0, 0, 1}, 0.5}, {12, 0, 0}, Time{1, 0}, {}});
  q.shape_casts.push_back({Sphere{{0, 4, 1}, 0.5}, {12, 0, 0}, std::nullopt, {2, {}}});
  q.shape_casts.push_back({Sphere{{0, -4, 3}, 0.2}, {0, 0, 1}, std::nullopt, {}});  // miss.
  q.overlaps.push_back({Sphere{{5, 2, 1}, 1.5}, Time{2, 0}, {}, QueryLevel::kContact, 256});
  q.overlaps.push_back({Sphere{{5, 0, 1}, 2.0}, Time{1, 0}, {}, QueryLevel::kIntersect, 1});

  absl::StatusOr<SceneAnswers> got = client.Query(kWorld, q);
  ASSERT_TRUE(got.ok()) << DescribeStatus(got.status());
  const std::vector<RayQueryResult> rays = core.RayCasts(q.rays);
  const std::vector<ShapeCastResult> casts = core.ShapeCasts(q.shape_casts);
  const std::vector<OverlapQueryResult> overlaps = core.Overlaps(q.overlaps);
  ASSERT_EQ(got->rays.size(), rays.size());
  int hits = 0;
  for (std::size_t i = 0; i < rays.size(); ++i) {
    SCOPED_TRACE(i);
    ExpectSame(got->rays[i], rays[i]);
    hits += !rays[i].hits.empty();
  }
  EXPECT_GT(hits, 6);
  EXPECT_TRUE(got->rays.back().time.clamped);
  ASSERT_EQ(got->shape_casts.size(), casts.size());
  for (std::size_t i = 0; i < casts.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(got->shape_casts[i].hit, casts[i].hit);
    EXPECT_EQ(got->shape_casts[i].time, casts[i].time);
    EXPECT_EQ(got->shape_casts[i].t, casts[i].t);
    EXPECT_EQ(got->shape_casts[i].point, casts[i].point);
    EXPECT_EQ(got->shape_casts[i].normal, casts[i].normal);
    EXPECT_EQ(got->shape_casts[i].depth, casts[i].depth);
    if (casts[i].hit) EXPECT_EQ(got->shape_casts[i].target, casts[i].target);
  }
  EXPECT_TRUE(casts[0].hit && casts[1].hit && !casts[2].hit);
  ASSERT_EQ(got->overlaps.size(), overlaps.size());
  for (std::size_t i = 0; i < overlaps.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(got->overlaps[i].time, overlaps[i].time);
    EXPECT_EQ(got->overlaps[i].total_hits, overlaps[i].total_hits);
    ASSERT_EQ(got->overlaps[i].hits.size(), overlaps[i].hits.size());
    for (std::size_t j = 0; j < overlaps[i].hits.size(); ++j) {
      EXPECT_EQ(got->overlaps[i].hits[j].target, overlaps[i].hits[j].target);
      EXPECT_EQ(got->overlaps[i].hits[j].result, overlaps[i].hits[j].result);
    }
  }
  EXPECT_GE(overlaps[0].hits.size(), 2u);
  EXPECT_EQ(overlaps[1].hits.size(), 1u);
  EXPECT_GT(overlaps[1].total_hits, 1u);

  // Packed closest-hit rays: the same answers as the readable closest ones.
  std::vector<Ray> packed;
  std::vector<RayQuery> closest;
  for (double y : {-3.0, 0.0, 2.0, 4.0, 9.0}) {
    packed.push_back({{0, y, 1.2}, {1, 0, 0}, kInfinity});
    closest.push_back({packed.back(), Time{1, 0.5}, {kAllCategories, {kShooter}}, RayMode::kClosest, 64});
  }
  absl::StatusOr<std::vector<RayQueryResult>> got_packed =
      client.CastRaysPacked(kWorld, packed, {kAllCategories, {kShooter}}, Time{1, 0.5});
  ASSERT_TRUE(got_packed.ok()) << DescribeStatus(got_packed.status());
  const std::vector<RayQueryResult> want_packed = core.RayCasts(closest);
  ASSERT_EQ(got_packed->size(), want_packed.size());
  for (std::size_t i = 0; i < want_packed.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ((*got_packed)[i].time, want_packed[i].time);
    EXPECT_EQ((*got_packed)[i].hits, want_packed[i].hits);
  }
  EXPECT_TRUE(want_packed[4].hits.empty() && !want_packed[1].hits.empty());
}

TEST_F(WorldClientTest, VerdictsEqualTheCore) {
  WorldClient client = Populated();
  const World core = CoreWorld();
  const std::vector<ShotRequest> shots = Shots();
  const std::vector<ShotVerdict> want = core.ValidateShots(shots);
  absl::StatusOr<std::vector<ShotVerdict>> readable = client.ValidateShots(kWorld, shots);
  absl::StatusOr<std::vector<ShotVerdict>> packed = client.ValidateShotsPacked(kWorld, shots);
  ASSERT_TRUE(readable.ok()) << DescribeStatus(readable.status());
  ASSERT_TRUE(packed.ok()) << DescribeStatus(packed.status());
  ASSERT_EQ(readable->size(), want.size());
  ASSERT_EQ(packed->size(), want.size());
  std::set<ShotCode> codes;
  for (std::size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE(i);
    ExpectSame((*readable)[i], want[i]);
    ExpectSame((*packed)[i], want[i]);
    codes.insert(want[i].code);
  }
  // The set covers the verdicts a match produces, rejections included.
  for (ShotCode c : {ShotCode::kConfirmed, ShotCode::kHitOtherPart, ShotCode::kBlocked, ShotCode::kMissed,
                     ShotCode::kOriginImplausible, ShotCode::kInTheFuture, ShotCode::kUnknownShooter,
                     ShotCode::kUnknownTarget}) {
    EXPECT_TRUE(codes.contains(c)) << ShotCodeName(c);
  }

  const std::vector<MoveRequest> moves = Moves();
  const std::vector<MoveVerdict> want_moves = core.ValidateMoves(moves);
  absl::StatusOr<std::vector<MoveVerdict>> got_moves = client.ValidateMoves(kWorld, moves);
  ASSERT_TRUE(got_moves.ok()) << DescribeStatus(got_moves.status());
  ASSERT_EQ(got_moves->size(), want_moves.size());
  std::set<MoveCode> move_codes;
  for (std::size_t i = 0; i < want_moves.size(); ++i) {
    SCOPED_TRACE(i);
    ExpectSame((*got_moves)[i], want_moves[i]);
    move_codes.insert(want_moves[i].code);
  }
  for (MoveCode c : {MoveCode::kOk, MoveCode::kTooFast, MoveCode::kBlocked, MoveCode::kStartPenetrating,
                     MoveCode::kUnknownBody}) {
    EXPECT_TRUE(move_codes.contains(c)) << MoveCodeName(c);
  }
}

// explain through both shot forms and moves, and GetBodies: the core's
// explanations and posed bodies after a trip through the wire.
TEST_F(WorldClientTest, ExplanationsAndBodiesEqualTheCore) {
  WorldClient client = Populated();
  const World core = CoreWorld();
  std::vector<ShotRequest> shots = Shots();
  for (ShotRequest& s : shots) s.explain = true;
  const std::vector<ShotVerdict> want = core.ValidateShots(shots);
  for (const auto& got : {client.ValidateShots(kWorld, shots), client.ValidateShotsPacked(kWorld, shots)}) {
    ASSERT_TRUE(got.ok()) << DescribeStatus(got.status());
    ASSERT_EQ(got->size(), want.size());
    int explained = 0;
    for (std::size_t i = 0; i < want.size(); ++i) {
      SCOPED_TRACE(i);
      const ShotVerdict& g = (*got)[i];
      ASSERT_EQ(g.explanation != nullptr, want[i].explanation != nullptr);
      if (!g.explanation) continue;
      const ShotExplanation &a = *g.explanation, &b = *want[i].explanation;
      EXPECT_EQ(a.command_at, b.command_at);
      EXPECT_EQ(a.shooter, b.shooter);
      EXPECT_EQ(a.ray, b.ray);
      EXPECT_EQ(a.claimed_rewound, b.claimed_rewound);
      EXPECT_EQ(a.claimed_latest, b.claimed_latest);
      EXPECT_EQ(a.nearest_claimed_part, b.nearest_claimed_part);
      EXPECT_EQ(a.nearest_claimed_distance, b.nearest_claimed_distance);
      ++explained;
    }
    EXPECT_GT(explained, 3);
  }
  std::vector<MoveRequest> moves = Moves();
  for (MoveRequest& m : moves) m.explain = true;
  const std::vector<MoveVerdict> want_moves = core.ValidateMoves(moves);
  absl::StatusOr<std::vector<MoveVerdict>> got_moves = client.ValidateMoves(kWorld, moves);
  ASSERT_TRUE(got_moves.ok()) << DescribeStatus(got_moves.status());
  for (std::size_t i = 0; i < want_moves.size(); ++i) {
    SCOPED_TRACE(i);
    ASSERT_EQ((*got_moves)[i].explanation != nullptr, want_moves[i].explanation != nullptr);
    if (!want_moves[i].explanation) continue;
    const MoveExplanation &a = *(*got_moves)[i].explanation, &b = *want_moves[i].explanation;
    EXPECT_EQ(a.from, b.from);
    EXPECT_EQ(a.shape, b.shape);
    EXPECT_EQ(a.reason, b.reason);
    ASSERT_EQ(a.sweeps.size(), b.sweeps.size());
    for (std::size_t k = 0; k < a.sweeps.size(); ++k) {
      EXPECT_EQ(a.sweeps[k].purpose, b.sweeps[k].purpose);
      EXPECT_EQ(a.sweeps[k].to, b.sweeps[k].to);
    }
    ASSERT_EQ(a.contacts.size(), b.contacts.size());
    for (std::size_t k = 0; k < a.contacts.size(); ++k) {
      EXPECT_EQ(a.contacts[k].position, b.contacts[k].position);
      EXPECT_EQ(a.contacts[k].target, b.contacts[k].target);
    }
  }
  const std::vector<std::int64_t> ids = {kTarget, 77};
  const BodiesResult want_bodies = core.Bodies(Time{1, 0.25}, ids);
  absl::StatusOr<BodiesResult> bodies = client.GetBodies(kWorld, Time{1, 0.25}, ids);
  ASSERT_TRUE(bodies.ok()) << DescribeStatus(bodies.status());
  EXPECT_EQ(bodies->time, want_bodies.time);
  EXPECT_EQ(bodies->bodies, want_bodies.bodies);
  EXPECT_EQ(bodies->missing, std::vector<std::int64_t>{77});
  absl::StatusOr<BodiesResult> all = client.GetBodies(kWorld);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->bodies, core.Bodies(std::nullopt, {}).bodies);
  EXPECT_EQ(Fields(client.GetBodies(kWorld, Time{1, 2.0}).status()), std::vector<std::string>{"at.fraction"});
}

TEST_F(WorldClientTest, VisibilityEqualsTheCore) {
  WorldClient client = NewClient();
  WorldSpec spec = Spec("seen");
  // The ball (radius 1) holds whole voxels of 0.25.
  spec.policy.visibility = VisibilitySettings{.occluder_mask = kAllCategories, .voxel_size = 0.25};
  ASSERT_TRUE(client.CreateWorld(spec).ok());
  ASSERT_TRUE(client.PushFrame("seen", Frame1()).ok());
  ASSERT_TRUE(client.PushFrame("seen", Frame2()).ok());
  WorldSettings settings;
  settings.history_ticks = 16;
  settings.max_rewind_ticks = 8;
  settings.visibility = *spec.policy.visibility;
  World core(settings, {{kWall, kAllCategories, std::make_shared<const TriangleMesh>(Wall())},
                        {kBall, kAllCategories, Ball()}});
  ASSERT_TRUE(core.PushFrame(Frame1()).ok());
  ASSERT_TRUE(core.PushFrame(Frame2()).ok());
  VisibilityRequest request;
  request.tick_seconds = 0.05;
  request.latency = 0.1;
  request.margin = 0.5;
  const VisibilityResult want = core.VisibleSets(request);
  absl::StatusOr<VisibilityResult> got = client.GetVisibility("seen", request);
  ASSERT_TRUE(got.ok()) << DescribeStatus(got.status());
  ASSERT_EQ(got->sets.size(), want.sets.size());
  for (std::size_t i = 0; i < want.sets.size(); ++i) {
    EXPECT_EQ(got->sets[i].observer, want.sets[i].observer);
    EXPECT_EQ(got->sets[i].found, want.sets[i].found);
    EXPECT_EQ(got->sets[i].visible, want.sets[i].visible);
  }
  EXPECT_EQ(got->pairs, want.pairs);
  EXPECT_EQ(got->hidden, want.hidden);
  EXPECT_EQ(got->time, want.time);
  request.latency = -1;
  const absl::StatusOr<VisibilityResult> bad = client.GetVisibility("seen", request);
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Fields(bad.status()), std::vector<std::string>{"latency"});
}

// The world deleted behind the client's back (as a replica restart or a ring
// change would lose it): the next call re-creates it from the kept request
// and latest state, answers as the core does at the latest frame, and
// reports the loss once.
TEST_F(WorldClientTest, RecreatesALostWorldAndReportsTheLoss) {
  std::vector<HistoryLoss> losses;
  WorldClient client = Populated({.on_history_lost = [&](const HistoryLoss& l) { losses.push_back(l); }});
  ASSERT_TRUE(NewClient().DeleteWorld(kWorld).ok());

  const World core = CoreWorld();
  std::vector<ShotRequest> latest = Shots();
  for (ShotRequest& s : latest) s.at.reset();
  absl::StatusOr<std::vector<ShotVerdict>> verdicts = client.ValidateShots(kWorld, latest);
  ASSERT_TRUE(verdicts.ok()) << DescribeStatus(verdicts.status());
  ASSERT_EQ(losses.size(), 1u);
  EXPECT_EQ(losses[0].world_id, kWorld);
  EXPECT_TRUE(IsWorldNotFound(losses[0].cause));
  EXPECT_EQ(losses[0].restored_tick, 2);
  EXPECT_EQ(losses[0].restored_bodies, 2);
  EXPECT_EQ(client.history_losses(), 1);
  const std::vector<ShotVerdict> want = core.ValidateShots(latest);
  for (std::size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE(i);
    ExpectSame((*verdicts)[i], want[i]);
  }

  // The history is gone: one frame kept, a rewind to tick 1 is clamped to 2.
  absl::StatusOr<WorldInfo> info = client.GetWorld(kWorld);
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->frames_kept, 1);
  EXPECT_EQ(info->latest_tick, 2);
  EXPECT_EQ(info->bodies, 2);
  EXPECT_EQ(info->settings.history_ticks, 16);
  absl::StatusOr<SceneAnswers> rewound = client.Query(
      kWorld, {.rays = {{{{0, 0, 1.2}, {1, 0, 0}, kInfinity}, Time{1, 0}, {}, RayMode::kClosest, 8}}});
  ASSERT_TRUE(rewound.ok());
  EXPECT_TRUE(rewound->rays[0].time.clamped);
  EXPECT_EQ(rewound->rays[0].time.used, (Time{2, 0}));

  // A frame pushed to a lost world lands after the restored state.
  ASSERT_TRUE(NewClient().DeleteWorld(kWorld).ok());
  Frame f3{3, {{kShooter, At(1, 0), {}, {}, {}, {}, false}}, {kTarget}};
  ASSERT_TRUE(client.PushFrame(kWorld, f3).ok());
  EXPECT_EQ(losses.size(), 2u);
  info = client.GetWorld(kWorld);
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->frames_kept, 2);
  EXPECT_EQ(info->latest_tick, 3);
  EXPECT_EQ(info->bodies, 1);
}

TEST_F(WorldClientTest, RecreatesAfterAServerRestart) {
  WorldClient client = Populated();
  const int port = server_->port();
  server_.reset();
  Start(port);
  absl::StatusOr<std::vector<MoveVerdict>> moves = client.ValidateMoves(kWorld, Moves());
  ASSERT_TRUE(moves.ok()) << DescribeStatus(moves.status());
  EXPECT_EQ(client.history_losses(), 1);
  EXPECT_EQ((*moves)[0].code, MoveCode::kOk);
  EXPECT_EQ(moves->back().code, MoveCode::kUnknownBody);
}

TEST_F(WorldClientTest, WithoutRecreationTheLossComesBack) {
  WorldClient client = Populated({.recreate_lost_worlds = false});
  ASSERT_TRUE(NewClient().DeleteWorld(kWorld).ok());
  const absl::Status status = client.ValidateShots(kWorld, Shots()).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(IsWorldNotFound(status)) << status;
  EXPECT_EQ(client.history_losses(), 0);
  // A world this client never created is not re-created either.
  WorldClient other = NewClient();
  EXPECT_TRUE(IsWorldNotFound(other.GetWorld(kWorld).status()));
  EXPECT_EQ(other.history_losses(), 0);
}

TEST_F(WorldClientTest, ErrorsComeBackWithFieldPaths) {
  WorldClient client = Populated();
  Frame bad{3, {{kShooter, Pose{{0, 0, 0}, {2, 0, 0, 0}}, {}, {}, {}, {}, false}}, {}};
  absl::Status s = client.PushFrame(kWorld, bad).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_EQ(Fields(s), std::vector<std::string>{"frame.bodies[0].pose.rotation"}) << DescribeStatus(s);

  s = client.PushFrame(kWorld, Frame2()).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;

  std::vector<ShotRequest> shots = Shots();
  shots[3].direction = {0, 0, 0};
  shots[5].at = Time{1, 1.5};
  // Per item by default: the bad shots are INVALID verdicts naming their
  // fields, in both forms.
  for (const bool packed : {false, true}) {
    const auto verdicts =
        packed ? client.ValidateShotsPacked(kWorld, shots) : client.ValidateShots(kWorld, shots);
    ASSERT_TRUE(verdicts.ok()) << verdicts.status();
    ASSERT_EQ(verdicts->size(), shots.size());
    EXPECT_EQ((*verdicts)[3].code, ShotCode::kInvalid);
    EXPECT_TRUE((*verdicts)[3].problems.at(0).field.starts_with("direction"))
        << (*verdicts)[3].problems[0].field;
    EXPECT_EQ((*verdicts)[5].code, ShotCode::kInvalid);
    EXPECT_EQ((*verdicts)[5].problems.at(0).field, "at.fraction");
    EXPECT_NE((*verdicts)[0].code, ShotCode::kInvalid);
  }
  s = client.ValidateShots(kWorld, shots, WorldClient::Batch::kAllOrNothing).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  const std::vector<std::string> fields = Fields(s);
  ASSERT_EQ(fields.size(), 2u) << DescribeStatus(s);
  EXPECT_TRUE(fields[0].starts_with("shots[3].direction")) << fields[0];
  EXPECT_TRUE(fields[1].starts_with("shots[5].at.fraction")) << fields[1];
  s = client.ValidateShotsPacked(kWorld, shots, WorldClient::Batch::kAllOrNothing).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Fields(s).size(), 2u) << DescribeStatus(s);

  s = client.CreateWorld(Spec("bad world")).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Fields(s), std::vector<std::string>{"world_id"}) << DescribeStatus(s);
  WorldSpec spec = Spec("bad-world");
  std::get<MeshData>(spec.statics[0].geometry).triangles[1][2] = 7;
  s = client.CreateWorld(spec).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  // Mesh paths count triangles, not doubles (docs/worlds.md, "The service").
  EXPECT_EQ(Fields(s), std::vector<std::string>{"statics[0].mesh.triangles[1][2]"}) << DescribeStatus(s);
  // Not created, so nothing kept: a later NOT_FOUND is not re-created.
  EXPECT_TRUE(IsWorldNotFound(client.GetWorld("bad-world").status()));
  EXPECT_EQ(client.history_losses(), 0);
}

// The Tick stream: every part of a message answered as the unary calls and
// the core answer, messages pipelined and answered in order, a message's own
// error leaving the stream open.
TEST_F(WorldClientTest, TickStreamAnswersAsTheCore) {
  WorldClient client = NewClient();
  ASSERT_TRUE(client.CreateWorld(Spec()).ok());
  absl::StatusOr<std::unique_ptr<TickStream>> stream = client.OpenTickStream(kWorld);
  ASSERT_TRUE(stream.ok()) << stream.status();
  absl::StatusOr<TickReply> first = (*stream)->Send({.frame = Frame1()});
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_TRUE(first->status.ok()) << DescribeStatus(first->status);
  EXPECT_EQ(first->sequence, 1);
  EXPECT_EQ(first->oldest_tick, 1);

  const World core = CoreWorld();
  TickMessage m{.frame = Frame2(), .shots = Shots(), .moves = Moves()};
  m.query.rays.push_back({{{0, 0, 1.2}, {1, 0, 0}, kInfinity}, Time{1, 0}, {}, RayMode::kAll, 8});
  m.query.overlaps.push_back({Sphere{{5, 2, 1}, 1.5}, std::nullopt, {}, QueryLevel::kContact, 256});
  m.rays = {{{0, 0, 1.2}, {1, 0, 0}, kInfinity}, {{0, 4, 1.2}, {1, 0, 0}, kInfinity}};
  m.rays_filter.ignored_bodies = {kShooter};
  const TickMessage sent = m;
  absl::StatusOr<TickReply> reply = (*stream)->Send(std::move(m));
  ASSERT_TRUE(reply.ok()) << reply.status();
  ASSERT_TRUE(reply->status.ok()) << DescribeStatus(reply->status);
  EXPECT_EQ(reply->sequence, 2);
  EXPECT_EQ(reply->oldest_tick, 1);
  const std::vector<ShotVerdict> shots = core.ValidateShots(sent.shots);
  ASSERT_EQ(reply->shots.size(), shots.size());
  for (std::size_t i = 0; i < shots.size(); ++i) ExpectSame(reply->shots[i], shots[i]);
  const std::vector<MoveVerdict> moves = core.ValidateMoves(sent.moves);
  ASSERT_EQ(reply->moves.size(), moves.size());
  for (std::size_t i = 0; i < moves.size(); ++i) ExpectSame(reply->moves[i], moves[i]);
  ASSERT_EQ(reply->query.rays.size(), 1u);
  ExpectSame(reply->query.rays[0], core.RayCasts(sent.query.rays)[0]);
  EXPECT_GE(reply->query.rays[0].hits.size(), 2u);
  ASSERT_EQ(reply->query.overlaps.size(), 1u);
  const OverlapQueryResult overlap = core.Overlaps(sent.query.overlaps)[0];
  ASSERT_EQ(reply->query.overlaps[0].hits.size(), overlap.hits.size());
  for (std::size_t i = 0; i < overlap.hits.size(); ++i) {
    EXPECT_EQ(reply->query.overlaps[0].hits[i].target, overlap.hits[i].target);
    EXPECT_EQ(reply->query.overlaps[0].hits[i].result, overlap.hits[i].result);
  }
  std::vector<RayQuery> closest;
  for (const Ray& r : sent.rays)
    closest.push_back({r, std::nullopt, sent.rays_filter, RayMode::kClosest, 64});
  const std::vector<RayQueryResult> rays = core.RayCasts(closest);
  ASSERT_EQ(reply->rays.size(), rays.size());
  for (std::size_t i = 0; i < rays.size(); ++i) EXPECT_EQ(reply->rays[i].hits, rays[i].hits);

  // Pipelined: three messages in flight, answered in order; the bad frame
  // is its message's error alone.
  Frame bad{3, {{kShooter, Pose{{0, 0, 0}, {2, 0, 0, 0}}, {}, {}, {}, {}, false}}, {}};
  Frame good{4, {{kShooter, At(1, 0), {}, {}, {}, {}, false}}, {}};
  ASSERT_TRUE((*stream)->Write({.frame = bad}).ok());
  ASSERT_TRUE((*stream)->Write({.frame = good, .shots = {Shots()[0]}}).ok());
  ASSERT_TRUE((*stream)->Write({}).ok());  // a ping.
  absl::StatusOr<TickReply> r3 = (*stream)->Read();
  absl::StatusOr<TickReply> r4 = (*stream)->Read();
  absl::StatusOr<TickReply> r5 = (*stream)->Read();
  ASSERT_TRUE(r3.ok() && r4.ok() && r5.ok());
  EXPECT_EQ(r3->sequence, 3);
  EXPECT_EQ(r3->status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Fields(r3->status), std::vector<std::string>{"frame.bodies[0].pose.rotation"})
      << DescribeStatus(r3->status);
  EXPECT_FALSE(r3->oldest_tick.has_value());
  EXPECT_EQ(r4->sequence, 4);
  EXPECT_TRUE(r4->status.ok()) << DescribeStatus(r4->status);
  EXPECT_EQ(r4->shots.size(), 1u);
  EXPECT_EQ(r5->sequence, 5);
  EXPECT_TRUE(r5->status.ok());
  EXPECT_EQ((*stream)->Read().status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE((*stream)->Finish().ok());
  EXPECT_EQ(client.GetWorld(kWorld)->latest_tick, 4);
}

// A world lost while its stream is open: the first message that finds it
// missing re-creates it (from the frames the stream and the unary calls
// pushed) and goes again; messages pipelined behind it go again too, and the
// loss is reported once.
TEST_F(WorldClientTest, TickStreamRecreatesALostWorld) {
  std::vector<HistoryLoss> losses;
  WorldClient client = NewClient({.on_history_lost = [&](const HistoryLoss& l) { losses.push_back(l); }});
  ASSERT_TRUE(client.CreateWorld(Spec()).ok());
  absl::StatusOr<std::unique_ptr<TickStream>> stream = client.OpenTickStream(kWorld);
  ASSERT_TRUE(stream.ok());
  ASSERT_TRUE((*stream)->Send({.frame = Frame1()}).ok());
  ASSERT_TRUE((*stream)->Send({.frame = Frame2()}).ok());
  ASSERT_TRUE(NewClient().DeleteWorld(kWorld).ok());

  std::vector<ShotRequest> latest = Shots();
  for (ShotRequest& s : latest) s.at.reset();
  const std::vector<ShotVerdict> want = CoreWorld().ValidateShots(latest);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE((*stream)->Write({.shots = latest}).ok());
  for (int i = 0; i < 3; ++i) {
    absl::StatusOr<TickReply> reply = (*stream)->Read();
    ASSERT_TRUE(reply.ok()) << reply.status();
    EXPECT_EQ(reply->sequence, 3 + i);
    ASSERT_TRUE(reply->status.ok()) << DescribeStatus(reply->status);
    ASSERT_EQ(reply->shots.size(), want.size());
    for (std::size_t k = 0; k < want.size(); ++k) ExpectSame(reply->shots[k], want[k]);
  }
  ASSERT_EQ(losses.size(), 1u);
  EXPECT_EQ(losses[0].restored_tick, 2);
  EXPECT_EQ(losses[0].restored_bodies, 2);
  EXPECT_EQ(client.history_losses(), 1);
  EXPECT_TRUE((*stream)->Finish().ok());
}

// The server shutting down ends an open stream with UNAVAILABLE (its drain),
// which Send and Finish report.
TEST_F(WorldClientTest, TickStreamEndsWithTheServersShutdown) {
  WorldClient client = Populated();
  absl::StatusOr<std::unique_ptr<TickStream>> stream = client.OpenTickStream(kWorld);
  ASSERT_TRUE(stream.ok());
  absl::StatusOr<TickReply> ping = (*stream)->Send({});
  ASSERT_TRUE(ping.ok() && ping->status.ok()) << ping.status();
  server_->Shutdown();
  const absl::Status ended = (*stream)->Send({}).status();
  EXPECT_EQ(ended.code(), absl::StatusCode::kUnavailable) << ended;
  EXPECT_EQ((*stream)->Finish().code(), absl::StatusCode::kUnavailable);
}

// Projectile and melee verdicts, unary and as Tick parts: the core's answers
// (docs/projectiles.md).
TEST_F(WorldClientTest, ProjectilesAndMeleeEqualTheCore) {
  WorldClient client = Populated();
  std::vector<ProjectileRequest> projectiles(2);
  for (ProjectileRequest& p : projectiles) {
    p.shooter = kShooter;
    p.at = Time{1, 0};
    p.origin = {0, 0, 1.75};
    p.gravity = {0, 0, -9.81};
    p.time_limit = 1;
    p.tick_seconds = 1;
    p.claim = ShotClaim{kTarget, kHead};
  }
  projectiles[0].velocity = {50, 0, 0.5};
  projectiles[1].velocity = {40, -8, 3};
  projectiles[1].max_bounces = 1;
  projectiles[1].restitution = 0.5;
  projectiles[1].command_at = Time{2, 0};
  std::vector<MeleeRequest> melee(1);
  melee[0].attacker = kShooter;
  melee[0].at = Time{1, 0};
  melee[0].reach = MeleeArc{{1, 0, 0.2}, {0, 1, 0}, 5.5, 1.5};
  melee[0].claim = ShotClaim{kTarget, kChest};
  const World core = CoreWorld();
  const std::vector<ProjectileVerdict> want = core.ValidateProjectiles(projectiles);
  const std::vector<MeleeVerdict> want_melee = core.ValidateMelee(melee);
  const auto expect_same = [&](const std::vector<ProjectileVerdict>& got,
                               const std::vector<MeleeVerdict>& swings) {
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
      EXPECT_EQ(got[i].code, want[i].code) << i;
      EXPECT_EQ(got[i].hit, want[i].hit) << i;
      EXPECT_EQ(got[i].bounces, want[i].bounces) << i;
      EXPECT_EQ(got[i].position, want[i].position) << i;
      EXPECT_EQ(got[i].origin_offset, want[i].origin_offset) << i;
      EXPECT_EQ(got[i].origin_allowance, want[i].origin_allowance) << i;
    }
    ASSERT_EQ(swings.size(), want_melee.size());
    EXPECT_EQ(swings[0].code, want_melee[0].code);
    EXPECT_EQ(swings[0].hits, want_melee[0].hits);
  };
  absl::StatusOr<std::vector<ProjectileVerdict>> got = client.ValidateProjectiles(kWorld, projectiles);
  ASSERT_TRUE(got.ok()) << got.status();
  absl::StatusOr<std::vector<MeleeVerdict>> swings = client.ValidateMelee(kWorld, melee);
  ASSERT_TRUE(swings.ok()) << swings.status();
  expect_same(*got, *swings);
  EXPECT_EQ((*got)[0].code, ProjectileCode::kConfirmed);
  EXPECT_EQ((*swings)[0].code, ShotCode::kConfirmed);

  absl::StatusOr<std::unique_ptr<TickStream>> stream = client.OpenTickStream(kWorld);
  ASSERT_TRUE(stream.ok()) << stream.status();
  absl::StatusOr<TickReply> reply = (*stream)->Send({.projectiles = projectiles, .melee = melee});
  ASSERT_TRUE(reply.ok()) << reply.status();
  ASSERT_TRUE(reply->status.ok()) << DescribeStatus(reply->status);
  expect_same(reply->projectiles, reply->melee);
}

}  // namespace
}  // namespace collide
