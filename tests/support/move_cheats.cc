#include "support/move_cheats.h"

#include <cmath>
#include <numbers>
#include <optional>
#include <random>

#include "collide/query.h"

namespace collide::testing {
namespace {

// The box's gap to the mesh (< 0: overlap depth).
double Gap(const TriangleMesh& mesh, const Aabb& box) {
  const MeshPairResult c = QueryMesh(QueryLevel::kContact, box, mesh);
  return c.found ? c.result.distance : kInfinity;
}

class CheatMaker {
 public:
  CheatMaker(const TriangleMesh& mesh, const QuakeMovementParams& params, std::span<const BotTrack> tracks,
             std::size_t commands_per_tick, std::uint64_t seed)
      : mesh_(mesh), params_(params), tracks_(tracks), cpt_(commands_per_tick), rng_(seed) {}

  std::optional<CheatTrajectory> Make(CheatKind kind) {
    const std::size_t b = rng_() % tracks_.size();
    const std::size_t ticks = TickCount(tracks_[b], cpt_);
    const std::size_t tick = 1 + rng_() % (ticks - 1);
    const QuakePlayer& p = StateAtTick(tracks_[b], cpt_, tick);
    if (!p.on_ground || p.crouched) return std::nullopt;  // cheats start from a player standing on the floor.
    switch (kind) {
      case CheatKind::kThroughWall:
        return ThroughWall(p);
      case CheatKind::kIntoSolid:
        return IntoSolid(p);
      case CheatKind::kFlying:
        return Flying(p, tracks_[b].samples[tick * cpt_ - 1].cmd.yaw);
      case CheatKind::kTripleSpeed:
        return TripleSpeed(p);
      case CheatKind::kSustainedSpeed:
        return SustainedSpeed(tracks_[b], tick);
    }
    return std::nullopt;
  }

 private:
  double TickSeconds() const { return static_cast<double>(cpt_) * kCommandSeconds; }
  Vec3 RandomDirection() {
    const double a = std::uniform_real_distribution<double>(-std::numbers::pi, std::numbers::pi)(rng_);
    return {std::cos(a), std::sin(a), 0};
  }
  Aabb Box(const Vec3& origin) const { return PlayerBox(params_, origin, false); }

  std::optional<CheatTrajectory> ThroughWall(const QuakePlayer& p) {
    const Vec3 dir = RandomDirection();
    const Vec3 center = p.origin + Vec3{0, 0, (params_.mins.z + params_.maxs.z) / 2};
    const MeshRayHit wall = RayCastClosest(mesh_, Ray{center, dir, 400.0});
    if (!wall.hit || std::abs(wall.normal.z) > 0.3) return std::nullopt;
    for (double beyond = 24; beyond <= 184; beyond += 16) {
      const Vec3 q = p.origin + dir * (wall.distance + beyond);
      if (Gap(mesh_, Box(q)) <= kTraceGap) continue;
      // Where a player could stand there: dropped onto the floor below.
      const QuakeTrace drop = TraceBox(mesh_, Box(q), q, q - Vec3{0, 0, 256});
      if (drop.fraction == 1 || drop.start_solid || drop.normal.z < params_.min_walk_normal) continue;
      if (TraceBox(mesh_, Box(p.origin), p.origin, drop.end).fraction == 1) continue;  // not behind a wall
      return CheatTrajectory{CheatKind::kThroughWall, {p.origin, drop.end}};
    }
    return std::nullopt;
  }

  std::optional<CheatTrajectory> IntoSolid(const QuakePlayer& p) {
    const Vec3 dir = RandomDirection();
    const QuakeTrace t = TraceBox(mesh_, Box(p.origin), p.origin, p.origin + dir * 64);
    if (t.fraction == 1 || t.start_solid || std::abs(t.normal.z) > 0.3 || Dot(dir, t.normal) > -0.5) {
      return std::nullopt;
    }
    // At a legal speed (0.9x run speed), straight on into the wall.
    const Vec3 to = t.end + dir * (0.9 * params_.speed * TickSeconds());
    if (Gap(mesh_, Box(to)) > -kIntoSolidDepth) return std::nullopt;
    return CheatTrajectory{CheatKind::kIntoSolid, {t.end, to}};
  }

  std::optional<CheatTrajectory> Flying(const QuakePlayer& start, double yaw) {
    QuakePlayer p = start;
    QuakeCommand cmd;
    cmd.forward = 127;
    cmd.yaw = yaw;
    cmd.seconds = kCommandSeconds;
    cmd.jump = true;
    // A real jump for two ticks, then hover: no gravity, no vertical speed.
    for (std::size_t c = 0; c < 2 * cpt_; ++c) {
      QuakeMove(mesh_, params_, cmd, p);
      cmd.jump = false;
    }
    // Off the ground and above where it jumped from (a ceiling can hold a
    // jump down: hovering there is walking).
    if (p.on_ground || p.origin.z < start.origin.z + 2) return std::nullopt;
    QuakeMovementParams hover = params_;
    hover.gravity = 0;
    p.velocity.z = 0;
    CheatTrajectory out{CheatKind::kFlying, {p.origin}};
    const auto ticks = static_cast<std::size_t>(std::ceil(0.5 / TickSeconds() - 1e-9));
    for (std::size_t k = 0; k < ticks; ++k) {
      for (std::size_t c = 0; c < cpt_; ++c) {
        QuakeMove(mesh_, hover, cmd, p);
        if (p.on_ground || p.velocity.z != 0) return std::nullopt;  // touched down or was pushed.
      }
      out.positions.push_back(p.origin);
    }
    return out;
  }

  std::optional<CheatTrajectory> TripleSpeed(const QuakePlayer& p) {
    const Vec3 h{p.velocity.x, p.velocity.y, 0};
    if (Length(h) < 100) return std::nullopt;  // a direction of travel
    const Vec3 to = p.origin + h / Length(h) * (3 * params_.speed * TickSeconds());
    if (TraceBox(mesh_, Box(p.origin), p.origin, to).fraction < 1) return std::nullopt;
    return CheatTrajectory{CheatKind::kTripleSpeed, {p.origin, to}};
  }

  // The bot's own next second of commands, each run for 1.5x its time.
  std::optional<CheatTrajectory> SustainedSpeed(const BotTrack& track, std::size_t tick) {
    const auto ticks = static_cast<std::size_t>(std::ceil(1.0 / TickSeconds() - 1e-9));
    if ((tick + ticks) * cpt_ > track.samples.size()) return std::nullopt;
    QuakePlayer p = StateAtTick(track, cpt_, tick);
    CheatTrajectory out{CheatKind::kSustainedSpeed, {p.origin}};
    double path = 0;
    for (std::size_t k = 0; k < ticks; ++k) {
      for (std::size_t c = 0; c < cpt_; ++c) {
        const BotSample& s = track.samples[(tick + k) * cpt_ + c];
        if (s.respawned) return std::nullopt;
        QuakeCommand cmd = s.cmd;
        cmd.seconds *= 1.5;
        QuakeMove(mesh_, params_, cmd, p);
      }
      const Vec3 d = p.origin - out.positions.back();
      path += std::hypot(d.x, d.y);
      out.positions.push_back(p.origin);
    }
    // Only a second of running counts: at least 1.4x run speed on average.
    if (path < 1.4 * params_.speed * static_cast<double>(ticks) * TickSeconds()) return std::nullopt;
    return out;
  }

  const TriangleMesh& mesh_;
  const QuakeMovementParams& params_;
  std::span<const BotTrack> tracks_;
  std::size_t cpt_;
  std::mt19937_64 rng_;
};

}  // namespace

std::string_view CheatName(CheatKind kind) {
  switch (kind) {
    case CheatKind::kThroughWall:
      return "through-wall teleport";
    case CheatKind::kIntoSolid:
      return "move into solid";
    case CheatKind::kFlying:
      return "flying >= 0.5 s";
    case CheatKind::kTripleSpeed:
      return "single tick at 3x";
    case CheatKind::kSustainedSpeed:
      return "1.5x for 1 s";
  }
  return "?";
}

std::vector<CheatTrajectory> MakeCheats(const TriangleMesh& mesh, const QuakeMovementParams& params,
                                        std::span<const BotTrack> tracks, std::size_t commands_per_tick,
                                        int per_kind, std::uint64_t seed) {
  std::vector<CheatTrajectory> out;
  if (tracks.empty()) return out;
  CheatMaker maker(mesh, params, tracks, commands_per_tick, seed);
  for (int k = 0; k < kCheatKinds; ++k) {
    int made = 0;
    for (int attempt = 0; attempt < 200 * per_kind && made < per_kind; ++attempt) {
      if (auto c = maker.Make(static_cast<CheatKind>(k))) {
        out.push_back(std::move(*c));
        ++made;
      }
    }
  }
  return out;
}

}  // namespace collide::testing
