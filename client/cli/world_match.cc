#include "world_match.h"

#include <algorithm>
#include <cmath>

namespace collide::cli {
namespace {
constexpr std::size_t kRemembered = 5;  // ticks of positions kept for lagged shots.
constexpr int kWaypointTries = 32;
}  // namespace

Match::Match(std::vector<Vec3> floor, int players, BotScale scale, double tick_seconds, std::uint64_t seed)
    : floor_(std::move(floor)), scale_(scale), tick_seconds_(tick_seconds), rng_(seed) {
  bots_.resize(static_cast<std::size_t>(players));
  for (std::size_t i = 0; i < bots_.size(); ++i) {
    bots_[i].position = floor_[i % floor_.size()];
    bots_[i].waypoint = PickWaypoint(bots_[i].position);
  }
}

// A floor point at about the same height (the bots walk level).
Vec3 Match::PickWaypoint(const Vec3& from) {
  std::uniform_int_distribution<std::size_t> pick(0, floor_.size() - 1);
  Vec3 p = floor_[pick(rng_)];
  for (int i = 0; i < kWaypointTries && std::abs(p.z - from.z) > 0.2 * scale_.height; ++i) {
    p = floor_[pick(rng_)];
  }
  return {p.x, p.y, from.z};
}

void Match::Remember(std::int64_t tick) {
  if (first_tick_ == 0) first_tick_ = tick;
  for (Bot& b : bots_) {
    b.past.push_front(b.position);
    if (b.past.size() > kRemembered) b.past.pop_back();
  }
}

Frame Match::SpawnFrame(std::int64_t tick) {
  Frame f{tick, {}, {}};
  const std::vector<BodyPart> parts = scale_.Hitboxes();
  for (std::size_t i = 0; i < bots_.size(); ++i) {
    f.bodies.push_back({static_cast<std::int64_t>(i + 1),
                        Pose{bots_[i].position, {}},
                        parts,
                        {},
                        Shape{scale_.MovementCapsule()},
                        std::nullopt,
                        false,
                        Vec3{0, 0, scale_.eye}});
  }
  Remember(tick);
  return f;
}

std::vector<MoveRequest> Match::ProposeMoves() const {
  std::vector<MoveRequest> moves;
  moves.reserve(bots_.size());
  const double step = scale_.speed * tick_seconds_;
  for (std::size_t i = 0; i < bots_.size(); ++i) {
    const Bot& b = bots_[i];
    const Vec3 to_go = b.waypoint - b.position;
    const double left = Length(to_go);
    const Vec3 to = left <= step ? b.waypoint : b.position + to_go * (step / left);
    moves.push_back({static_cast<std::int64_t>(i + 1), b.position, to, tick_seconds_, std::nullopt, true,
                     kAllCategories});
  }
  return moves;
}

Frame Match::ApplyMoves(std::int64_t tick, const std::vector<MoveVerdict>& verdicts) {
  Frame f{tick, {}, {}};
  for (std::size_t i = 0; i < bots_.size() && i < verdicts.size(); ++i) {
    Bot& b = bots_[i];
    const MoveVerdict& v = verdicts[i];
    bool repath = true;
    if (v.code == MoveCode::kOk) {
      b.position = v.allowed_position;
      repath = Length(b.waypoint - b.position) < 1e-9;
    } else if (v.code == MoveCode::kBlocked) {
      b.position = v.slid_position;
    }
    if (repath) b.waypoint = PickWaypoint(b.position);
    f.bodies.push_back(
        {static_cast<std::int64_t>(i + 1), Pose{b.position, {}}, {}, {}, std::nullopt, std::nullopt, false});
  }
  Remember(tick);
  return f;
}

std::vector<ShotRequest> Match::Shots(std::int64_t tick, int shots_per_bot) {
  std::vector<ShotRequest> shots;
  if (bots_.size() < 2) return shots;
  shots.reserve(bots_.size() * static_cast<std::size_t>(shots_per_bot));
  std::uniform_int_distribution<std::size_t> other(0, bots_.size() - 2);
  const std::int64_t max_lag = std::min<std::int64_t>(tick - first_tick_, kRemembered - 1);
  std::uniform_int_distribution<std::int64_t> lag(0, std::max<std::int64_t>(max_lag, 0));
  std::normal_distribution<double> noise(0.0, 0.02);  // about 1 degree of aim error.
  for (std::size_t i = 0; i < bots_.size(); ++i) {
    for (int k = 0; k < shots_per_bot; ++k) {
      std::size_t target = other(rng_);
      if (target >= i) ++target;
      const std::int64_t l = lag(rng_);
      // A client fires from where it is now (its eye, as the spawn frame
      // told the world), at the others as it showed them l ticks ago.
      const Vec3 eye = bots_[i].position + Vec3{0, 0, scale_.eye};
      const Vec3 head = bots_[target].past[l] + Vec3{0, 0, 0.88 * scale_.height};
      const Vec3 aim = head - eye;
      const double d = Length(aim);
      // Two bots on one spot (more bots than floor points) shoot along x.
      const Vec3 direction = d > 0 ? aim + Vec3{noise(rng_), noise(rng_), noise(rng_)} * d : Vec3{1, 0, 0};
      shots.push_back({static_cast<std::int64_t>(i + 1), eye, direction, kInfinity, Time{tick - l, 0.0},
                       ShotClaim{static_cast<std::int64_t>(target + 1), kBotHead}, 0.02 * scale_.height});
    }
  }
  return shots;
}

}  // namespace collide::cli
