#include "support/move_bots.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include "collide/sweep.h"

namespace collide::testing {
namespace {

constexpr double kPi = std::numbers::pi;
// How high above a spawn entity's origin the player starts (g_client.c).
constexpr double kSpawnLift = 9.0;
// A bot that has not come this much closer to its waypoint in kStuckSeconds
// picks another; after kRespawnSeconds without progress it respawns.
constexpr double kProgress = 48.0;
constexpr double kStuckSeconds = 2.0;
constexpr double kRespawnSeconds = 8.0;
constexpr double kTurnRate = 2.0 * kPi;  // radians per second, a brisk mouse.

double WrapAngle(double a) {
  while (a > kPi) a -= 2 * kPi;
  while (a < -kPi) a += 2 * kPi;
  return a;
}

class Bot {
 public:
  Bot(const TriangleMesh& mesh, std::span<const Vec3> starts, std::span<const Aabb> hurt,
      const QuakeMovementParams& params, std::uint64_t seed)
      : mesh_(mesh), starts_(starts), hurt_(hurt), params_(params), rng_(seed) {
    player_.origin = starts_[Pick(starts_.size())];
    yaw_ = Uniform(-kPi, kPi);
    NewWaypoint();
  }

  const QuakePlayer& player() const { return player_; }

  BotSample Step() {
    BotSample s;
    s.cmd = Decide();
    QuakeMove(mesh_, params_, s.cmd, player_);
    if (player_.on_ground && since_visit_ >= 0.5) {
      visited_.push_back(player_.origin);
      since_visit_ = 0;
    }
    since_visit_ += kCommandSeconds;
    if (no_progress_ >= kRespawnSeconds || InHurtZone()) {
      Respawn();
      s.respawned = true;
    }
    s.after = player_;
    return s;
  }

 private:
  bool InHurtZone() const {
    const Aabb box = PlayerBox(params_, player_.origin, player_.crouched);
    return std::any_of(hurt_.begin(), hurt_.end(), [&](const Aabb& h) {
      return box.min.x <= h.max.x && h.min.x <= box.max.x && box.min.y <= h.max.y && h.min.y <= box.max.y &&
             box.min.z <= h.max.z && h.min.z <= box.max.z;
    });
  }

  // At a random spawn point, at rest; the counters run on.
  void Respawn() {
    QuakePlayer fresh;
    fresh.origin = starts_[Pick(starts_.size())];
    fresh.step_ups = player_.step_ups;
    fresh.jumps = player_.jumps;
    fresh.unstuck = player_.unstuck;
    player_ = fresh;
    no_progress_ = 0;
    NewWaypoint();
  }

  std::size_t Pick(std::size_t n) { return static_cast<std::size_t>(rng_() % n); }
  double Uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }
  bool Chance(double p) { return Uniform(0, 1) < p; }

  // Spawn points most of the time (they are spread over the map), else a
  // place this bot stood on (reachable).
  void NewWaypoint() {
    target_ =
        visited_.empty() || Chance(0.6) ? starts_[Pick(starts_.size())] : visited_[Pick(visited_.size())];
    best_distance_ = HorizontalDistance();
    since_progress_ = 0;
  }
  double HorizontalDistance() const {
    const Vec3 d = target_ - player_.origin;
    return std::hypot(d.x, d.y);
  }

  QuakeCommand Decide() {
    const double dt = kCommandSeconds;
    QuakeCommand cmd;
    cmd.seconds = dt;
    // Waypoint bookkeeping.
    const double distance = HorizontalDistance();
    if (distance < 40) NewWaypoint();
    if (distance < best_distance_ - kProgress) {
      best_distance_ = distance;
      since_progress_ = 0;
      no_progress_ = 0;
    }
    since_progress_ += dt;
    no_progress_ += dt;
    if (since_progress_ > kStuckSeconds) NewWaypoint();
    // Running into a wall: turn away for a while (sometimes jumping).
    const double speed = std::hypot(player_.velocity.x, player_.velocity.y);
    blocked_ = player_.on_ground && mode_ == Mode::kRun && speed < 0.3 * params_.speed ? blocked_ + dt : 0;
    if (blocked_ > 0.25) {
      mode_ = Mode::kWander;
      mode_left_ = Uniform(0.4, 1.2);
      wander_yaw_ = yaw_ + (Chance(0.5) ? 1 : -1) * Uniform(0.5 * kPi, kPi);
      jump_wanted_ = Chance(0.3);
      blocked_ = 0;
    }
    // Modes: strafe-jumping, crouching and standing still, each now and then.
    mode_left_ -= dt;
    if (mode_left_ <= 0) {
      mode_ = Mode::kRun;
      const double r = Uniform(0, 1);
      if (r < 0.0015) {
        mode_ = Mode::kStrafeJump;
        strafe_sign_ = Chance(0.5) ? 1 : -1;
        mode_left_ = Uniform(1.0, 3.0);
      } else if (r < 0.0025) {
        mode_ = Mode::kCrouch;
        mode_left_ = Uniform(0.5, 2.0);
      } else if (r < 0.0035) {
        mode_ = Mode::kStand;
        mode_left_ = Uniform(0.2, 1.0);
      } else {
        mode_left_ = 0;
      }
    }
    // Turn towards the waypoint (or the wander heading) at a bounded rate,
    // with a wobble.
    const Vec3 d = target_ - player_.origin;
    double desired = (mode_ == Mode::kWander ? wander_yaw_ : std::atan2(d.y, d.x)) + Uniform(-0.2, 0.2);
    if (mode_ == Mode::kStrafeJump) desired += strafe_sign_ * 0.7;  // forward+side at ~45 deg off the path.
    const double turn = std::clamp(WrapAngle(desired - yaw_), -kTurnRate * dt, kTurnRate * dt);
    yaw_ = WrapAngle(yaw_ + turn);
    cmd.yaw = yaw_;
    switch (mode_) {
      case Mode::kRun:
      case Mode::kWander:
        cmd.forward = 127;
        if (Chance(0.01)) side_ = Chance(0.5) ? 127 : -127;
        if (Chance(0.02)) side_ = 0;
        cmd.side = side_;
        cmd.jump = jump_wanted_ || Chance(0.005);
        break;
      case Mode::kStrafeJump:
        cmd.forward = 127;
        cmd.side = -127 * strafe_sign_;
        cmd.jump = player_.on_ground && !player_.jump_held;
        break;
      case Mode::kCrouch:
        cmd.forward = 127;
        cmd.crouch = true;
        break;
      case Mode::kStand:
        break;
    }
    // A jump is a press: release after it so that the next can happen.
    if (player_.jump_held) cmd.jump = false;
    if (cmd.jump) jump_wanted_ = false;
    return cmd;
  }

  enum class Mode { kRun, kWander, kStrafeJump, kCrouch, kStand };
  const TriangleMesh& mesh_;
  std::span<const Vec3> starts_;
  std::span<const Aabb> hurt_;
  const QuakeMovementParams& params_;
  std::mt19937_64 rng_;
  QuakePlayer player_;
  double yaw_ = 0;
  Vec3 target_;
  double best_distance_ = 0, since_progress_ = 0, no_progress_ = 0, since_visit_ = 0;
  std::vector<Vec3> visited_;
  Mode mode_ = Mode::kRun;
  double mode_left_ = 0;
  double strafe_sign_ = 1, side_ = 0, blocked_ = 0, wander_yaw_ = 0;
  bool jump_wanted_ = false;
};

}  // namespace

std::vector<BotTrack> RunBots(const TriangleMesh& mesh, std::span<const Vec3> spawns,
                              std::span<const Aabb> hurt, const QuakeMovementParams& params,
                              const BotRunOptions& options) {
  std::vector<Vec3> starts;
  for (const Vec3& s : spawns) {
    const Vec3 origin = s + Vec3{0, 0, kSpawnLift};
    if (!ShapeCast(PlayerBox(params, origin, false), Vec3{}, mesh).sweep.hit) starts.push_back(origin);
  }
  std::vector<BotTrack> tracks;
  if (starts.empty()) return tracks;
  const auto commands = static_cast<std::size_t>(std::llround(options.seconds / kCommandSeconds));
  for (int b = 0; b < options.bots; ++b) {
    Bot bot(mesh, starts, hurt, params, options.seed * 1000003 + static_cast<std::uint64_t>(b));
    BotTrack& t = tracks.emplace_back();
    t.start = bot.player();
    t.samples.reserve(commands);
    for (std::size_t c = 0; c < commands; ++c) t.samples.push_back(bot.Step());
  }
  return tracks;
}

const QuakePlayer& StateAtTick(const BotTrack& track, std::size_t commands_per_tick, std::size_t tick) {
  return tick == 0 ? track.start : track.samples[tick * commands_per_tick - 1].after;
}

std::size_t TickCount(const BotTrack& track, std::size_t commands_per_tick) {
  return track.samples.size() / commands_per_tick + 1;
}

bool RespawnedBefore(const BotTrack& track, std::size_t commands_per_tick, std::size_t tick) {
  for (std::size_t c = (tick - 1) * commands_per_tick; c < tick * commands_per_tick; ++c) {
    if (track.samples[c].respawned) return true;
  }
  return false;
}

}  // namespace collide::testing
