// World verdicts per second on one core: 64 players x 16 hitboxes with 128
// ticks of history on OpenArena's aggressor (or a synthetic terrain when the
// import library is not built), against the same work done with Bullet
// (btCollisionWorld holding the map and the players as compound hitbox
// shapes, posed at each shot's rewound time by the benchmark itself, then
// rayTest; convexSweepTest of the player capsule with the same slide loop)
// and against a brute-force scan (every hitbox placed and ray cast, the mesh
// through its BVH). Also the cost of pushing a frame of 64 bodies (poses
// only, poses and the server's memory accounting, poses and part poses), and shots
// in a world of 10,000 bodies (the same 64 players plus 9,936 bodies beside
// the map). Run: build/bench/world_bench.
#include <benchmark/benchmark.h>
#include <btBulletCollisionCommon.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bullet_mesh.h"
#include "collide/melee.h"
#include "collide/projectile.h"
#include "collide/query.h"
#include "collide/world.h"
#include "support/player_hitboxes.h"
#include "support/synthetic_meshes.h"
#ifdef COLLIDE_BENCH_MAPS
#include "collide/import/map_import.h"
#endif

namespace collide::bench {
namespace {

constexpr int kPlayers = 64;
constexpr int kTicks = 128;
constexpr int kRequests = 1024;

MeshData Level() {
#ifdef COLLIDE_BENCH_MAPS
  importer::ImportOptions options;
  options.map = "aggressor";
  auto imported = importer::ImportMap("/usr/share/games/openarena/baseoa/pak6-patch088.pk3", options);
  if (imported.ok()) return std::move(imported->mesh);
#endif
  return testing::MakeTerrain(64, 3000, 1);
}

// Quake units: eyes 46 above the feet, a skin of a quarter unit.
WorldSettings Settings() {
  WorldSettings s;
  s.history_ticks = kTicks;
  s.max_rewind_ticks = kTicks;  // projectiles launched 2 s back (shots rewind <= 30 ticks).
  s.max_origin_offset = 64;
  s.skin_width = 0.25;
  return s;
}

Quat YawQuat(double yaw) { return {std::cos(yaw / 2), 0, 0, std::sin(yaw / 2)}; }

struct Scene {
  std::shared_ptr<const TriangleMesh> mesh;
  std::unique_ptr<World> world;
  std::unique_ptr<World> big;            // + 9,936 bodies beside the map.
  std::vector<std::vector<Pose>> poses;  // the bench's own history: [tick - 1][player].
  std::vector<ShotRequest> shots;
  std::vector<MoveRequest> moves;
  std::vector<ProjectileRequest> rockets, grenades;
  std::vector<MeleeRequest> swings;

  Scene() {
    mesh = std::make_shared<const TriangleMesh>(Level());
    const Aabb b = mesh->bounds();
    std::mt19937_64 rng(42);
    const auto uniform = [&](double lo, double hi) {
      return std::uniform_real_distribution<double>(lo, hi)(rng);
    };
    // Players where their capsule is free of the map.
    std::vector<Vec3> position;
    while (position.size() < kPlayers) {
      const Vec3 p{uniform(b.min.x, b.max.x), uniform(b.min.y, b.max.y), uniform(b.min.z, b.max.z)};
      const Capsule c = testing::PlayerCapsule();
      if (!QueryMesh(QueryLevel::kIntersect, Capsule{c.a + p, c.b + p, c.radius + 20}, *mesh).result.hit) {
        position.push_back(p);
      }
    }
    std::vector<Vec3> velocity(kPlayers);
    std::vector<double> yaw(kPlayers);
    const WorldSettings settings = Settings();
    world = std::make_unique<World>(settings, std::vector<StaticElement>{{1, kAllCategories, mesh}});
    WorldSettings big_settings = settings;
    big_settings.history_ticks = 32;  // 10,000 bodies x 128 ticks would take ~280 MB.
    big = std::make_unique<World>(big_settings, std::vector<StaticElement>{{1, kAllCategories, mesh}});
    for (int tick = 1; tick <= kTicks; ++tick) {
      Frame f{tick, {}, {}};
      std::vector<Pose> now;
      for (int i = 0; i < kPlayers; ++i) {
        if (tick % 16 == 1) velocity[i] = Vec3{uniform(-8, 8), uniform(-8, 8), 0};
        position[i] += velocity[i];
        yaw[i] += uniform(-0.1, 0.1);
        BodyUpdate u;
        u.id = i + 1;
        u.pose = Pose{position[i], YawQuat(yaw[i])};
        // Parts in the first frame of each world (the big one starts later).
        if (tick == 1 || tick == kTicks - 31) {
          u.parts = testing::PlayerHitboxes();
          u.movement_shape = testing::PlayerCapsule();
          u.eye = Vec3{0, 0, 46};
        }
        now.push_back(*u.pose);
        f.bodies.push_back(std::move(u));
      }
      poses.push_back(now);
      world->PushFrame(f);
      if (tick == kTicks - 31) {
        for (int k = 0; k < 9936; ++k) {
          BodyUpdate u;
          u.id = 1000 + k;
          u.pose = Pose{{b.max.x + 1000 + 100.0 * (k % 100), b.min.y + 100.0 * (k / 100), b.min.z}, Quat{}};
          u.parts = testing::PlayerHitboxes();
          f.bodies.push_back(std::move(u));
        }
      }
      if (tick > kTicks - 32) big->PushFrame(f);
    }
    for (int k = 0; k < kRequests; ++k) {
      ShotRequest s;
      s.shooter = 1 + static_cast<std::int64_t>(rng() % kPlayers);
      std::int64_t target = 1 + static_cast<std::int64_t>(rng() % kPlayers);
      if (target == s.shooter) target = target % kPlayers + 1;
      s.at = Time{kTicks - static_cast<std::int64_t>(rng() % 30) - 1, uniform(0, 1)};
      // Fired from the shooter's present eye (as a client does) at the target
      // as rewound.
      s.origin = world->BodyPoseAt(s.shooter, std::nullopt)->position + Vec3{0, 0, 46};
      s.direction = world->BodyPoseAt(target, s.at)->position + Vec3{0, 0, 37} - s.origin;
      s.max_range = 8192;
      s.claim = ShotClaim{target, 0};
      shots.push_back(s);
      MoveRequest m;
      m.body = 1 + static_cast<std::int64_t>(rng() % kPlayers);
      const double a = uniform(0, 6.283);
      m.to = poses.back()[m.body - 1].position + Vec3{std::cos(a), std::sin(a), 0} * 40.0;
      m.elapsed = 0.05;
      m.max_speed = 1000;
      m.slide = true;
      moves.push_back(m);
    }
    for (int k = 0; k < kRequests / 4; ++k) {
      // Launched 127 ticks (1.98 s at 64 Hz) before the latest frame from a
      // player's eye, upwards at 20-45 degrees in any direction; the command
      // then (the origin is checked against that eye).
      ProjectileRequest p;
      p.shooter = 1 + static_cast<std::int64_t>(rng() % kPlayers);
      p.at = Time{1, uniform(0, 1)};
      p.command_at = p.at;
      p.origin = world->BodyPoseAt(p.shooter, p.at)->position + Vec3{0, 0, 46};
      const double yaw = uniform(0, 6.283), pitch = uniform(0.35, 0.8);
      const Vec3 dir{std::cos(yaw) * std::cos(pitch), std::sin(yaw) * std::cos(pitch), std::sin(pitch)};
      p.tick_seconds = 1.0 / 64;
      p.time_limit = 2.0;
      // A rocket (900 units/s, straight, stops at the first hit) and a
      // grenade (700 units/s, g = 800, bouncing until its 2 s fuse).
      p.velocity = dir * 900.0;
      p.radius = 3;
      rockets.push_back(p);
      p.velocity = dir * 700.0;
      p.gravity = {0, 0, -800};
      p.restitution = 0.6;
      p.max_bounces = kMaxProjectileBounces;
      grenades.push_back(p);
      // A 120-degree swing of 64 units at the nearest direction of a target.
      MeleeRequest m;
      m.attacker = p.shooter;
      m.at = Time{kTicks - 1 - static_cast<std::int64_t>(rng() % 20), uniform(0, 1)};
      const std::int64_t target = m.attacker % kPlayers + 1;
      const Vec3 eye = world->BodyPoseAt(m.attacker, m.at)->position + Vec3{0, 0, 46};
      m.reach =
          MeleeArc{world->BodyPoseAt(target, m.at)->position + Vec3{0, 0, 46} - eye, {0, 0, 1}, 64, 2.094};
      m.claim = ShotClaim{target, 0};
      swings.push_back(m);
    }
  }

  // The bench's own rewind: the players' poses at `at` (nlerp, as the world).
  std::vector<Pose> PosesAt(const Time& at) const {
    const auto& p0 = poses[at.tick - 1];
    const auto& p1 = poses[std::min<std::size_t>(at.tick, kTicks - 1)];
    std::vector<Pose> out(kPlayers);
    for (int i = 0; i < kPlayers; ++i) out[i] = Interpolate(p0[i], p1[i], at.fraction);
    return out;
  }
};

const Scene& TheScene() {
  static const Scene* scene = new Scene();
  return *scene;
}

void Report(benchmark::State& state, std::size_t per_iteration) {
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * per_iteration));
}

// The share of each verdict code among the requests, as counters.
template <typename Verdict, typename Name>
void CountCodes(benchmark::State& state, const std::vector<Verdict>& verdicts, Name name) {
  for (const Verdict& v : verdicts) state.counters[std::string(name(v.code))] += 1.0 / verdicts.size();
}

void BM_ShotCollide(benchmark::State& state) {
  const Scene& s = TheScene();
  for (auto _ : state) benchmark::DoNotOptimize(s.world->ValidateShots(s.shots));
  Report(state, s.shots.size());
  CountCodes(state, s.world->ValidateShots(s.shots), ShotCodeName);
}
BENCHMARK(BM_ShotCollide);

void BM_ShotCollide10kBodies(benchmark::State& state) {
  const Scene& s = TheScene();
  for (auto _ : state) benchmark::DoNotOptimize(s.big->ValidateShots(s.shots));
  Report(state, s.shots.size());
  CountCodes(state, s.big->ValidateShots(s.shots), ShotCodeName);
}
BENCHMARK(BM_ShotCollide10kBodies);

void BM_MoveCollide(benchmark::State& state) {
  const Scene& s = TheScene();
  for (auto _ : state) benchmark::DoNotOptimize(s.world->ValidateMoves(s.moves));
  Report(state, s.moves.size());
  CountCodes(state, s.world->ValidateMoves(s.moves), MoveCodeName);
}
BENCHMARK(BM_MoveCollide);

// The same moves judged by the Quake movement model (docs/moves.md): ground
// probes, steps and the airborne arc on top of the sweep.
void BM_MoveModelCollide(benchmark::State& state) {
  const Scene& s = TheScene();
  std::vector<MoveRequest> moves = s.moves;
  for (MoveRequest& m : moves) {
    m.movement = MovementModel::Quake();
    m.elapsed = 0.125;  // 40 units at 320 units/s
  }
  for (auto _ : state) benchmark::DoNotOptimize(s.world->ValidateMoves(moves));
  Report(state, moves.size());
  CountCodes(state, s.world->ValidateMoves(moves), MoveCodeName);
}
BENCHMARK(BM_MoveModelCollide);

// Projectile verdicts (docs/projectiles.md), per projectile: a 2 s flight
// at 64 Hz (chords of one tick: 127 of them with the body casts, fewer when
// it hits first).
void BM_ProjectileRocket(benchmark::State& state) {
  const Scene& s = TheScene();
  for (auto _ : state) benchmark::DoNotOptimize(s.world->ValidateProjectiles(s.rockets));
  Report(state, s.rockets.size());
  CountCodes(state, s.world->ValidateProjectiles(s.rockets), ProjectileCodeName);
}
BENCHMARK(BM_ProjectileRocket);

void BM_ProjectileGrenade2s(benchmark::State& state) {
  const Scene& s = TheScene();
  for (auto _ : state) benchmark::DoNotOptimize(s.world->ValidateProjectiles(s.grenades));
  Report(state, s.grenades.size());
  CountCodes(state, s.world->ValidateProjectiles(s.grenades), ProjectileCodeName);
  double bounces = 0, seconds = 0;
  for (const ProjectileVerdict& v : s.world->ValidateProjectiles(s.grenades)) {
    bounces += static_cast<double>(v.bounces.size());
    seconds += v.seconds;
  }
  state.counters["bounces"] = bounces / s.grenades.size();
  state.counters["flight_s"] = seconds / s.grenades.size();
}
BENCHMARK(BM_ProjectileGrenade2s);

void BM_MeleeArc(benchmark::State& state) {
  const Scene& s = TheScene();
  for (auto _ : state) benchmark::DoNotOptimize(s.world->ValidateMelee(s.swings));
  Report(state, s.swings.size());
  CountCodes(state, s.world->ValidateMelee(s.swings), ShotCodeName);
}
BENCHMARK(BM_MeleeArc);

// Every hitbox placed at the rewound time and ray cast; the mesh by its BVH.
void BM_ShotBruteForce(benchmark::State& state) {
  const Scene& s = TheScene();
  const std::vector<BodyPart> parts = testing::PlayerHitboxes();
  for (auto _ : state) {
    for (const ShotRequest& shot : s.shots) {
      const Ray ray{shot.origin, shot.direction, shot.max_range};
      double best = RayCastClosest(*s.mesh, ray).distance;
      const std::vector<Pose> poses = s.PosesAt(*shot.at);
      for (int i = 0; i < kPlayers; ++i) {
        if (i + 1 == shot.shooter) continue;
        for (const BodyPart& p : parts) {
          const RayHit h = RayCast(ray, PlaceShape(p.shape, poses[i]));
          if (h.hit && h.distance < best) best = h.distance;
        }
      }
      benchmark::DoNotOptimize(best);
    }
  }
  Report(state, s.shots.size());
}
BENCHMARK(BM_ShotBruteForce);

btVector3 Bt(const Vec3& v) { return {v.x, v.y, v.z}; }
btQuaternion Bt(const Quat& q) { return {q.x, q.y, q.z, q.w}; }

// A Bullet shape for a hitbox and its transform in the body frame.
std::pair<std::unique_ptr<btCollisionShape>, btTransform> BulletPart(const Shape& shape) {
  if (const auto* s = std::get_if<Sphere>(&shape)) {
    return {std::make_unique<btSphereShape>(s->radius),
            btTransform(btQuaternion::getIdentity(), Bt(s->center))};
  }
  if (const auto* a = std::get_if<Aabb>(&shape)) {
    return {std::make_unique<btBoxShape>(Bt((a->max - a->min) * 0.5)),
            btTransform(btQuaternion::getIdentity(), Bt((a->max + a->min) * 0.5))};
  }
  if (const auto* o = std::get_if<Obb>(&shape)) {
    return {std::make_unique<btBoxShape>(Bt(o->half_extents)),
            btTransform(Bt(QuatFromRotation(o->rotation)), Bt(o->center))};
  }
  const auto& c = std::get<Capsule>(shape);
  const Vec3 axis = c.b - c.a;
  const double length = Length(axis);
  // The rotation taking +z to the capsule's axis (shortest arc).
  const btQuaternion q = shortestArcQuat(btVector3(0, 0, 1), Bt(axis / length));
  return {std::make_unique<btCapsuleShapeZ>(c.radius, length), btTransform(q, Bt((c.a + c.b) * 0.5))};
}

struct BulletWorld {
  btDefaultCollisionConfiguration config;
  btCollisionDispatcher dispatcher{&config};
  btDbvtBroadphase broadphase;
  btCollisionWorld world{&dispatcher, &broadphase, &config};
  BulletTriangleMesh map_mesh;
  btCollisionObject map;
  std::vector<std::unique_ptr<btCollisionShape>> part_shapes;
  std::vector<std::unique_ptr<btCompoundShape>> bodies_shapes;
  std::vector<std::unique_ptr<btCollisionObject>> bodies;

  BulletWorld(const TriangleMesh& mesh, bool with_players) : map_mesh(mesh.vertices(), mesh.triangles()) {
    map.setCollisionShape(map_mesh.shape());
    world.addCollisionObject(&map);
    if (!with_players) return;
    for (int i = 0; i < kPlayers; ++i) {
      auto compound = std::make_unique<btCompoundShape>();
      for (const BodyPart& p : testing::PlayerHitboxes()) {
        auto [shape, local] = BulletPart(p.shape);
        compound->addChildShape(local, shape.get());
        part_shapes.push_back(std::move(shape));
      }
      auto object = std::make_unique<btCollisionObject>();
      object->setCollisionShape(compound.get());
      object->setUserIndex(i + 1);
      world.addCollisionObject(object.get());
      bodies_shapes.push_back(std::move(compound));
      bodies.push_back(std::move(object));
    }
  }
  ~BulletWorld() {
    for (auto& b : bodies) world.removeCollisionObject(b.get());
    world.removeCollisionObject(&map);
  }
};

void BM_ShotBullet(benchmark::State& state) {
  const Scene& s = TheScene();
  BulletWorld bw(*s.mesh, true);
  struct SkipShooter : btCollisionWorld::ClosestRayResultCallback {
    using ClosestRayResultCallback::ClosestRayResultCallback;
    int shooter = 0;
    bool needsCollision(btBroadphaseProxy* proxy) const override {
      const auto* o = static_cast<const btCollisionObject*>(proxy->m_clientObject);
      return o->getUserIndex() != shooter && ClosestRayResultCallback::needsCollision(proxy);
    }
  };
  for (auto _ : state) {
    for (const ShotRequest& shot : s.shots) {
      const std::vector<Pose> poses = s.PosesAt(*shot.at);
      for (int i = 0; i < kPlayers; ++i) {
        bw.bodies[i]->setWorldTransform(btTransform(Bt(poses[i].rotation), Bt(poses[i].position)));
      }
      bw.world.updateAabbs();
      const btVector3 from = Bt(shot.origin);
      const btVector3 to = from + Bt(NormalizedOr(shot.direction, {1, 0, 0}) * shot.max_range);
      SkipShooter cb(from, to);
      cb.shooter = static_cast<int>(shot.shooter);
      bw.world.rayTest(from, to, cb);
      benchmark::DoNotOptimize(cb.m_closestHitFraction);
    }
  }
  Report(state, s.shots.size());
}
BENCHMARK(BM_ShotBullet);

// convexSweepTest of the capsule with the slide loop of move.cc (3 slides).
void BM_MoveBullet(benchmark::State& state) {
  const Scene& s = TheScene();
  BulletWorld bw(*s.mesh, false);
  const Capsule c = testing::PlayerCapsule();
  btCapsuleShapeZ capsule(c.radius, Length(c.b - c.a));
  const Vec3 centre = (c.a + c.b) * 0.5;
  for (auto _ : state) {
    for (const MoveRequest& m : s.moves) {
      Vec3 p = s.poses.back()[m.body - 1].position + centre;
      Vec3 rest = m.to - s.poses.back()[m.body - 1].position;
      for (int k = 0; k < 4 && LengthSquared(rest) > 0; ++k) {
        btCollisionWorld::ClosestConvexResultCallback cb(Bt(p), Bt(p + rest));
        bw.world.convexSweepTest(&capsule, btTransform(btQuaternion::getIdentity(), Bt(p)),
                                 btTransform(btQuaternion::getIdentity(), Bt(p + rest)), cb);
        if (!cb.hasHit()) {
          p += rest;
          break;
        }
        const Vec3 n{-cb.m_hitNormalWorld.x(), -cb.m_hitNormalWorld.y(), -cb.m_hitNormalWorld.z()};
        const double t = std::max(0.0, cb.m_closestHitFraction - 0.01 / Length(rest));
        p += rest * t;
        rest = rest * (1 - t);
        if (Dot(rest, n) > 0) rest -= n * Dot(rest, n);
      }
      benchmark::DoNotOptimize(p);
    }
  }
  Report(state, s.moves.size());
}
BENCHMARK(BM_MoveBullet);

// Frames of the 64 players (16 hitboxes each) into a full history of 128
// ticks: the steady state drops the oldest frame per push. `animated`: each
// body also sends its 16 part-local poses (a walk cycle's sway); `charged`:
// history_bytes() read before and after each push, as the server does to
// charge the world's memory budget.
void PushFrames64(benchmark::State& state, bool animated, bool charged) {
  const Scene& s = TheScene();
  World world(Settings(), {{1, kAllCategories, s.mesh}});
  std::int64_t tick = 0;
  const std::vector<BodyPart> hitboxes = testing::PlayerHitboxes();
  std::vector<Frame> frames;
  for (int t = 0; t < kTicks; ++t) {
    Frame f{0, {}, {}};
    for (int i = 0; i < kPlayers; ++i) {
      BodyUpdate u;
      u.id = i + 1;
      u.pose = s.poses[t][i];
      if (t == 0) {
        u.parts = hitboxes;
        u.movement_shape = testing::PlayerCapsule();
      } else if (animated) {
        const double sway = 0.5 * std::sin(0.3 * t + i);
        for (const BodyPart& p : hitboxes)
          u.part_poses.push_back({p.id, {p.local.position + Vec3{0, sway, 0}, p.local.rotation}});
      }
      f.bodies.push_back(std::move(u));
    }
    frames.push_back(std::move(f));
  }
  for (int t = 0; t < kTicks; ++t) {
    frames[t].tick = ++tick;
    world.PushFrame(frames[t]);
  }
  std::size_t bytes = 0;
  for (auto _ : state) {
    Frame& f = frames[1 + tick % (kTicks - 1)];
    f.tick = ++tick;
    if (charged) bytes += world.history_bytes();
    benchmark::DoNotOptimize(world.PushFrame(f));
    if (charged) bytes -= world.history_bytes();
  }
  benchmark::DoNotOptimize(bytes);
  state.counters["history_bytes"] = static_cast<double>(world.history_bytes());
  state.counters["bytes_per_body_tick"] = static_cast<double>(world.history_bytes()) / (kPlayers * kTicks);
  Report(state, 1);
}
void BM_PushFrame64(benchmark::State& state) { PushFrames64(state, false, false); }
BENCHMARK(BM_PushFrame64);
void BM_PushFrame64Charged(benchmark::State& state) { PushFrames64(state, false, true); }
BENCHMARK(BM_PushFrame64Charged);
void BM_PushFrame64Animated(benchmark::State& state) { PushFrames64(state, true, false); }
BENCHMARK(BM_PushFrame64Animated);

// A frame moving the 64 players of a world of 10,000 bodies (32 ticks kept):
// the copy of every body's state and the two tree builds dominate.
void BM_PushFrame10k(benchmark::State& state) {
  const Scene& s = TheScene();
  WorldSettings settings = Settings();
  settings.history_ticks = 32;
  World world(settings, {{1, kAllCategories, s.mesh}});
  Frame first{1, {}, {}};
  for (int k = 0; k < 10000; ++k) {
    BodyUpdate u;
    u.id = k + 1;
    u.pose = Pose{{100.0 * (k % 100), 100.0 * (k / 100), 0}, Quat{}};
    u.parts = testing::PlayerHitboxes();
    first.bodies.push_back(std::move(u));
  }
  world.PushFrame(first);
  std::int64_t tick = 1;
  for (auto _ : state) {
    Frame f{++tick, {}, {}};
    for (int i = 0; i < kPlayers; ++i)
      f.bodies.push_back({i + 1, s.poses[tick % kTicks][i], {}, {}, {}, {}, false});
    benchmark::DoNotOptimize(world.PushFrame(f));
  }
  state.counters["history_bytes"] = static_cast<double>(world.history_bytes());
  Report(state, 1);
}
BENCHMARK(BM_PushFrame10k);

}  // namespace
}  // namespace collide::bench

BENCHMARK_MAIN();
