#include "world_floor.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "absl/strings/str_cat.h"

namespace collide::cli {
namespace {

constexpr int kGrid = 64;
constexpr std::size_t kBatch = 1024;  // queries per call.

// Rays straight down from height `top` over a kGrid x kGrid grid of the
// rectangle [lo, hi] (cell centres).
std::vector<Ray> DownGrid(const Vec3& lo, const Vec3& hi, double top, double length) {
  std::vector<Ray> rays;
  rays.reserve(kGrid * kGrid);
  for (int i = 0; i < kGrid; ++i) {
    for (int j = 0; j < kGrid; ++j) {
      const double x = lo.x + (hi.x - lo.x) * (i + 0.5) / kGrid;
      const double y = lo.y + (hi.y - lo.y) * (j + 0.5) / kGrid;
      rays.push_back({{x, y, top}, {0, 0, -1}, length});
    }
  }
  return rays;
}

}  // namespace

absl::StatusOr<std::vector<Vec3>> FindFloorPoints(WorldClient& client, const std::string& world_id,
                                                  const BotScale& scale, std::size_t max_points,
                                                  std::uint64_t seed) {
  const double h = scale.height;
  // 1. Extent and top of the geometry.
  const double reach = 200 * h;
  absl::StatusOr<std::vector<RayQueryResult>> coarse =
      client.CastRaysPacked(world_id, DownGrid({-reach, -reach, 0}, {reach, reach, 0}, reach, 2 * reach));
  if (!coarse.ok()) return coarse.status();
  Vec3 lo{kInfinity, kInfinity, kInfinity}, hi{-kInfinity, -kInfinity, -kInfinity};
  for (const RayQueryResult& r : *coarse) {
    for (const WorldRayHit& hit : r.hits) {
      for (int k = 0; k < 3; ++k) {
        lo[k] = std::min(lo[k], hit.point[k]);
        hi[k] = std::max(hi[k], hit.point[k]);
      }
    }
  }
  if (!(lo.x <= hi.x)) {
    return absl::NotFoundError(absl::StrCat("world ", world_id, ": no geometry within ", reach,
                                            " units of the origin under z = ", reach));
  }
  const double cell = 2 * reach / kGrid;
  lo = lo - Vec3{cell, cell, 0};
  hi = hi + Vec3{cell, cell, 0};
  const double top = hi.z + h;

  // 2. Walkable hits with a player's height of room above.
  std::vector<RayQuery> down;
  for (const Ray& ray : DownGrid(lo, hi, top, kInfinity)) {
    down.push_back({ray, std::nullopt, {}, RayMode::kAll, 32});
  }
  std::vector<Vec3> candidates;
  for (std::size_t first = 0; first < down.size(); first += kBatch) {
    SceneQueries batch;
    batch.rays.assign(down.begin() + first, down.begin() + std::min(down.size(), first + kBatch));
    absl::StatusOr<SceneAnswers> answers = client.Query(world_id, batch);
    if (!answers.ok()) return answers.status();
    for (const RayQueryResult& r : answers->rays) {
      for (std::size_t k = 1; k < r.hits.size(); ++k) {
        const WorldRayHit& hit = r.hits[k];
        if (std::abs(hit.normal.z) >= std::sqrt(0.5) && hit.distance - r.hits[k - 1].distance >= 1.05 * h) {
          candidates.push_back(hit.point);
        }
      }
    }
  }

  // 3. Room to stand: the movement capsule there overlaps nothing.
  const Capsule body = scale.MovementCapsule();
  std::vector<Vec3> out;
  for (std::size_t first = 0; first < candidates.size(); first += kBatch) {
    SceneQueries batch;
    const std::size_t end = std::min(candidates.size(), first + kBatch);
    for (std::size_t i = first; i < end; ++i) {
      const Vec3& p = candidates[i];
      batch.overlaps.push_back(
          {Capsule{p + body.a, p + body.b, body.radius}, std::nullopt, {}, QueryLevel::kIntersect, 1});
    }
    absl::StatusOr<SceneAnswers> answers = client.Query(world_id, batch);
    if (!answers.ok()) return answers.status();
    for (std::size_t i = first; i < end; ++i) {
      if (answers->overlaps[i - first].total_hits == 0) out.push_back(candidates[i]);
    }
  }
  std::mt19937_64 rng(seed);
  std::shuffle(out.begin(), out.end(), rng);
  if (out.size() > max_points) out.resize(max_points);
  return out;
}

}  // namespace collide::cli
