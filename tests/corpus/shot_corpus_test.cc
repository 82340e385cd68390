// Issue 32 item 6: shots as real clients fire them, and cheats, judged by
// World::ValidateShots on three OpenArena maps (docs/lag-compensation.md has
// the table). The shooters are the move corpus's Quake-style bots (running,
// strafe-jumping, crouching, falling), 20 server ticks per second (48 ms,
// Quake 3's sv_fps). Each tick every bot fires at the nearest other bot its
// client shows in sight: from its present eye (where it is at some command of
// the tick), at the target as interpolated 50-150 ms in the past (its own
// interpolation delay), with the server expecting that view time from a
// latency estimate off by up to 25 ms. Cheats: a backtrack (a view time
// 3-8 ticks older than the client's own), a shot through a wall at a player
// out of sight, and a shot from an origin 64-200 units from the shooter's
// eye. Targets: no legitimate shot rejected in at least 10,000; at least 99 %
// of each cheat kind caught (any verdict but CONFIRMED).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <random>
#include <string>

#include "support/case_count.h"
#include "support/move_corpus.h"

namespace collide::testing {
namespace {

constexpr std::size_t kCommandsPerTick = 3;  // 48 ms server ticks.
constexpr double kTickSeconds = kCommandSeconds * kCommandsPerTick;
constexpr double kStandEye = 26, kCrouchEye = 12;  // the game's view heights.
constexpr std::int32_t kHead = 0, kBody = 1;
constexpr double kMaxSkewTicks = 1.0;

// The hitboxes of a stance: a head sphere under the top of the box, and the
// box itself.
std::vector<BodyPart> Hitboxes(const QuakeMovementParams& p, bool crouched) {
  const double top = crouched ? p.crouch_maxs_z : p.maxs.z;
  return {{kHead, Sphere{{0, 0, top - 8}, 8}, Pose{}}, {kBody, Aabb{p.mins, {p.maxs.x, p.maxs.y, top}}, Pose{}}};
}
Vec3 Eye(bool crouched) { return {0, 0, crouched ? kCrouchEye : kStandEye}; }

struct Tally {
  // old_rule: honest shots the previous origin rule (the shooter's body
  // origin at the rewound time, within 32 units) would have rejected.
  std::int64_t legit = 0, rejected = 0, old_rule = 0, backtrack = 0, backtrack_caught = 0, wall = 0, wall_caught = 0,
               origin = 0, origin_caught = 0;
  std::map<std::string, std::int64_t> rejected_by;
};

// The time `interp` seconds before tick k, as a world time.
Time Before(std::size_t k, double interp) {
  const double t = static_cast<double>(k) - interp / kTickSeconds;
  const double tick = std::floor(t);
  return {static_cast<std::int64_t>(tick), t - tick};
}

// The first body part or static the ray from `eye` to `aim` meets at `at`,
// ignoring the shooter: the client's own hit test on what it shows.
std::optional<WorldRayHit> FirstHit(const World& world, std::int64_t shooter, const Vec3& eye, const Vec3& aim,
                                    const Time& at) {
  RayQuery q;
  q.ray = Ray{eye, aim - eye, kInfinity};
  q.at = at;
  q.filter.ignored_bodies = {shooter};
  const RayQueryResult r = world.RayCasts({&q, 1})[0];
  if (r.hits.empty()) return std::nullopt;
  return r.hits.front();
}

Tally RunMap(const char* map) {
  BotRunOptions options;
  options.bots = 12;
  options.seconds = kSanitized ? 8.0 : 60.0;
  options.seed = 11;
  std::string error;
  const MapCorpus corpus = MakeMapCorpus(map, options, error);
  EXPECT_NE(corpus.mesh, nullptr) << error;
  Tally t;
  if (corpus.mesh == nullptr) return t;
  WorldSettings settings;
  settings.history_ticks = 16;
  settings.max_rewind_ticks = 10;
  settings.max_origin_offset = 8;
  settings.max_tick_distance = 128;  // beyond any run or fall in 48 ms; respawns are flagged anyway.
  World world(settings, {{1, kAllCategories, corpus.mesh}});
  std::mt19937_64 rng(29);
  std::uniform_real_distribution<double> uniform(0, 1);
  const std::size_t bots = corpus.tracks.size();
  std::vector<double> interp(bots);
  for (double& d : interp) d = 0.05 + 0.1 * uniform(rng);
  std::size_t ticks = std::numeric_limits<std::size_t>::max();
  for (const BotTrack& track : corpus.tracks) ticks = std::min(ticks, TickCount(track, kCommandsPerTick));
  std::vector<bool> crouched(bots);
  for (std::size_t k = 0; k < ticks; ++k) {
    Frame f{static_cast<std::int64_t>(k), {}, {}};
    for (std::size_t b = 0; b < bots; ++b) {
      const QuakePlayer& p = StateAtTick(corpus.tracks[b], kCommandsPerTick, k);
      BodyUpdate u;
      u.id = static_cast<std::int64_t>(b + 1);
      u.pose = Pose{p.origin, Quat{}};
      if (k == 0 || p.crouched != crouched[b]) {
        u.parts = Hitboxes(corpus.params, p.crouched);
        u.eye = Eye(p.crouched);
        crouched[b] = p.crouched;
      }
      u.teleport = k > 0 && RespawnedBefore(corpus.tracks[b], kCommandsPerTick, k);
      f.bodies.push_back(std::move(u));
    }
    EXPECT_TRUE(world.PushFrame(f).ok());
    if (k < 12) continue;  // a full rewind window of history first.
    for (std::size_t b = 0; b < bots; ++b) {
      const BotTrack& track = corpus.tracks[b];
      if (RespawnedBefore(track, kCommandsPerTick, k)) continue;
      const std::int64_t shooter = static_cast<std::int64_t>(b + 1);
      // Fired at one of the tick's commands: the client is there.
      const std::size_t command = (k - 1) * kCommandsPerTick + 1 + rng() % kCommandsPerTick;
      const QuakePlayer& me = command == 0 ? track.start : track.samples[command - 1].after;
      const Vec3 eye = me.origin + Eye(me.crouched);
      const Time seen = Before(k, interp[b]);
      // The nearest other player the client shows in sight (a ray to its
      // head meets it first: the part met is the one claimed), and the
      // nearest it shows behind a wall.
      struct Aim {
        std::int64_t body;
        std::int32_t part;
        Vec3 point;
      };
      std::optional<Aim> visible, hidden;
      double best_visible = kInfinity, best_hidden = kInfinity;
      for (std::size_t o = 0; o < bots; ++o) {
        const std::int64_t other = static_cast<std::int64_t>(o + 1);
        if (other == shooter) continue;
        const auto parts = world.BodyPartsAt(other, seen);
        if (parts.empty()) continue;
        const Vec3 head = std::get<Sphere>(parts[0].second).center;
        const double d = Length(head - eye);
        const std::optional<WorldRayHit> hit = FirstHit(world, shooter, eye, head, seen);
        if (!hit) continue;
        const bool on_target = hit->target.kind == HitTarget::Kind::kBody && hit->target.id == other;
        if (on_target && d < best_visible) best_visible = d, visible = Aim{other, hit->target.part, head};
        if (hit->target.kind == HitTarget::Kind::kStatic && hit->distance < d && d < best_hidden) {
          best_hidden = d, hidden = Aim{other, kHead, head};
        }
      }
      ShotRequest shot;
      shot.shooter = shooter;
      shot.origin = eye;
      shot.command_at = Time{static_cast<std::int64_t>(k), 0.0};
      shot.at = seen;
      const double estimate_error = (uniform(rng) - 0.5) * 0.05 / kTickSeconds;  // +-25 ms
      const Time expected = Before(k, interp[b] + estimate_error * kTickSeconds);
      shot.expected_at = expected;
      shot.max_skew_ticks = kMaxSkewTicks;
      if (visible) {
        ShotRequest honest = shot;
        honest.direction = visible->point - eye;
        honest.claim = ShotClaim{visible->body, visible->part};
        const ShotVerdict v = world.ValidateShots({&honest, 1})[0];
        ++t.legit;
        t.old_rule += Length(eye - world.BodyPoseAt(shooter, seen)->position) > 32;
        if (v.code != ShotCode::kConfirmed) {
          ++t.rejected;
          ++t.rejected_by[std::string(ShotCodeName(v.code))];
        }
        // The same shot claiming a view time 3-8 ticks older than its own.
        ShotRequest back = honest;
        const double older = 3 + 5 * uniform(rng);
        back.at = Before(k, interp[b] + older * kTickSeconds);
        const auto past = world.BodyPartsAt(visible->body, back.at);
        if (!past.empty()) {
          back.direction = std::get<Sphere>(past[0].second).center - eye;
          ++t.backtrack;
          t.backtrack_caught += world.ValidateShots({&back, 1})[0].code != ShotCode::kConfirmed;
        }
        // From 64-200 units off the eye (a fall covers 52 in a tick), in a
        // random direction.
        ShotRequest moved = honest;
        Vec3 away{uniform(rng) - 0.5, uniform(rng) - 0.5, uniform(rng) - 0.5};
        moved.origin = eye + NormalizedOr(away, Vec3{1, 0, 0}) * (64 + 136 * uniform(rng));
        moved.direction = visible->point - moved.origin;
        ++t.origin;
        t.origin_caught += world.ValidateShots({&moved, 1})[0].code != ShotCode::kConfirmed;
      }
      if (hidden) {
        ShotRequest wall = shot;
        wall.direction = hidden->point - eye;
        wall.claim = ShotClaim{hidden->body, hidden->part};
        ++t.wall;
        t.wall_caught += world.ValidateShots({&wall, 1})[0].code != ShotCode::kConfirmed;
      }
    }
  }
  return t;
}

double Share(std::int64_t caught, std::int64_t cases) {
  return cases ? static_cast<double>(caught) / static_cast<double>(cases) : 1.0;
}

TEST(ShotCorpusTest, HonestShotsPassAndCheatsAreCaught) {
  Tally all;
  for (const char* map : {"aggressor", "oa_ctf2", "am_underworks2"}) {
    const Tally t = RunMap(map);
    std::printf("%-15s legit %6lld rejected %lld (old rule %lld) | backtrack %5lld caught %.4f | wall %5lld caught %.4f | "
                "origin %5lld caught %.4f\n",
                map, static_cast<long long>(t.legit), static_cast<long long>(t.rejected),
                static_cast<long long>(t.old_rule),
                static_cast<long long>(t.backtrack), Share(t.backtrack_caught, t.backtrack),
                static_cast<long long>(t.wall), Share(t.wall_caught, t.wall), static_cast<long long>(t.origin),
                Share(t.origin_caught, t.origin));
    for (const auto& [code, n] : t.rejected_by) std::printf("  rejected as %s: %lld\n", code.c_str(), static_cast<long long>(n));
    all.legit += t.legit, all.rejected += t.rejected;
    all.backtrack += t.backtrack, all.backtrack_caught += t.backtrack_caught;
    all.wall += t.wall, all.wall_caught += t.wall_caught;
    all.origin += t.origin, all.origin_caught += t.origin_caught;
  }
  EXPECT_EQ(all.rejected, 0) << "of " << all.legit << " legitimate shots";
  EXPECT_GE(Share(all.backtrack_caught, all.backtrack), 0.99);
  EXPECT_GE(Share(all.wall_caught, all.wall), 0.99);
  EXPECT_GE(Share(all.origin_caught, all.origin), 0.99);
  if (!kSanitized) {
    EXPECT_GE(all.legit, 10000);
    EXPECT_GE(all.backtrack, 1000);
    EXPECT_GE(all.wall, 1000);
    EXPECT_GE(all.origin, 1000);
  }
}

}  // namespace
}  // namespace collide::testing
