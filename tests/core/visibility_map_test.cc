// Visibility sets on three OpenArena maps (Quake units) against a dense
// line-of-sight reference: a target is visible when one of the segments from
// the observer's eye region (its centre, and its 8 corners when it has
// volume) to a 9 x 9 grid of points on each face of the target's region
// meets no triangle of the drawn and solid geometry. No pair the world calls
// hidden may be visible to the reference; the share of truly hidden pairs
// culled is printed per map (docs/visibility.md publishes it).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>

#include "collide/import/map_import.h"
#include "collide/mesh.h"
#include "collide/world.h"
#include "support/case_count.h"
#include "support/open_floor.h"

namespace collide {
namespace {

using testing::CaseCount;
using testing::kPlayerEyeHeight;
using testing::kPlayerHalfWidth;
using testing::kPlayerHeight;
using testing::OpenFloorPoints;

constexpr const char* kPak = "/usr/share/games/openarena/baseoa/pak6-patch088.pk3";
constexpr CategoryMask kOccluderBit = 1, kReferenceBit = 2;

std::shared_ptr<const TriangleMesh> Import(const std::string& map, importer::CategoryMask categories) {
  importer::ImportOptions options;
  options.map = map;
  options.categories = categories;
  auto imported = importer::ImportMap(kPak, options);
  EXPECT_TRUE(imported.ok()) << imported.status();
  return std::make_shared<const TriangleMesh>(std::move(imported->mesh));
}

// Whether the segment p -> q meets no reference triangle.
bool Clear(const TriangleMesh& mesh, const Vec3& p, const Vec3& q) {
  const double length = Length(q - p);
  if (length == 0.0) return true;
  return !RayBlocked(mesh, Ray{p, (q - p) / length, length});
}

// The reference: some segment from a sample of `eye` to a sample of the
// surface of `target` is clear.
bool ReferenceVisible(const TriangleMesh& mesh, const Aabb& eye, const Aabb& target) {
  std::vector<Vec3> from{(eye.min + eye.max) * 0.5};
  if (eye.min != eye.max) {
    for (int c = 0; c < 8; ++c) {
      from.push_back(
          {c & 1 ? eye.max.x : eye.min.x, c & 2 ? eye.max.y : eye.min.y, c & 4 ? eye.max.z : eye.min.z});
    }
  }
  constexpr int kGrid = 9;
  for (const Vec3& p : from) {
    for (int axis = 0; axis < 3; ++axis) {
      for (int side = 0; side < 2; ++side) {
        for (int i = 0; i < kGrid; ++i) {
          for (int j = 0; j < kGrid; ++j) {
            Vec3 q;
            q[axis] = side == 0 ? target.min[axis] : target.max[axis];
            const int u = (axis + 1) % 3, v = (axis + 2) % 3;
            q[u] = target.min[u] + (target.max[u] - target.min[u]) * i / (kGrid - 1);
            q[v] = target.min[v] + (target.max[v] - target.min[v]) * j / (kGrid - 1);
            if (Clear(mesh, p, q)) return true;
          }
        }
      }
    }
  }
  return false;
}

struct MapCase {
  const char* map;
  int frames;  // of 64 bodies: 4032 pairs each
};

class VisibilityMapTest : public ::testing::TestWithParam<MapCase> {};

TEST_P(VisibilityMapTest, HiddenPairsAreHiddenFromEveryRay) {
  const MapCase& c = GetParam();
  const auto occluders = Import(c.map, importer::MaskOf(importer::Category::kOccluder));
  const auto reference = Import(
      c.map, importer::MaskOf(importer::Category::kRender) | importer::MaskOf(importer::Category::kSolid));
  WorldSettings settings;
  settings.visibility.occluder_mask = kOccluderBit;
  const auto start = std::chrono::steady_clock::now();
  World world(settings, {{1, kOccluderBit, occluders}, {2, kReferenceBit, reference}});
  const double build = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const VisibilityGridInfo& info = world.visibility_info();
  ASSERT_TRUE(info.built);
  std::printf(
      "%s: %zu occluder triangles, grid %lldx%lldx%lld of %g, %lld solid, %lld undecided, %.1f MB, %.2f s\n",
      c.map, occluders->triangle_count(), static_cast<long long>(info.nx), static_cast<long long>(info.ny),
      static_cast<long long>(info.nz), info.voxel_size, static_cast<long long>(info.solid_voxels),
      static_cast<long long>(info.undecided_voxels), info.memory_bytes / 1e6, build);

  std::mt19937_64 rng(37);
  const auto uniform = [&](double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
  };
  std::int64_t pairs = 0, hidden = 0, truly_hidden = 0, false_hidden = 0, reported_hidden = 0;
  std::int64_t tick = 0;
  const int frames = CaseCount(c.frames);
  for (int f = 0; f < frames; ++f) {
    // Every other frame with a look-ahead: bodies moving up to 320 units/s
    // (Quake's run speed) at 20 ticks/s, a 100 ms margin and 8 units more.
    const bool ahead = f % 2 == 1;
    const std::vector<Vec3> feet = OpenFloorPoints(*reference, occluders.get(), rng, 64);
    std::vector<Vec3> step(64);
    for (Vec3& s : step) s = ahead ? Vec3{uniform(-16, 16), uniform(-16, 16), 0} : Vec3{};
    for (int k = 0; k < 2; ++k) {
      Frame frame{++tick, {}, {}};
      for (int b = 0; b < 64; ++b) {
        BodyUpdate u;
        u.id = b + 1;
        u.pose = Pose{feet[b] + step[b] * (k - 1), Quat{1, 0, 0, 0}};
        u.parts = {BodyPart{0,
                            Aabb{{-kPlayerHalfWidth, -kPlayerHalfWidth, 0},
                                 {kPlayerHalfWidth, kPlayerHalfWidth, kPlayerHeight}},
                            Pose{}}};
        u.eye = Vec3{0, 0, kPlayerEyeHeight};
        frame.bodies.push_back(std::move(u));
      }
      ASSERT_TRUE(world.PushFrame(frame).ok());
    }
    VisibilityRequest request;
    request.tick_seconds = 0.05;
    request.latency = ahead ? 0.1 : 0.0;
    request.margin = ahead ? 8.0 : 0.0;
    const VisibilityResult r = world.VisibleSets(request);
    ASSERT_TRUE(r.valid);
    ASSERT_EQ(r.sets.size(), 64u);
    // The regions the reference checks: as the core defines them.
    const Vec3 grow{request.margin, request.margin, request.margin};
    const auto swept = [&](Aabb box, const Vec3& d) {
      return Aabb{Min(box.min, box.min + d) - grow, Max(box.max, box.max + d) + grow};
    };
    for (const VisibilitySet& set : r.sets) {
      const int o = static_cast<int>(set.observer - 1);
      const Vec3 d_o = step[o] * (request.latency / request.tick_seconds);
      const Vec3 eye = feet[o] + Vec3{0, 0, kPlayerEyeHeight};
      const Aabb eye_region = swept({eye, eye}, d_o);
      for (int t = 0; t < 64; ++t) {
        if (t == o) continue;
        ++pairs;
        const Vec3 d_t = step[t] * (request.latency / request.tick_seconds);
        const Aabb target = swept({feet[t] - Vec3{kPlayerHalfWidth, kPlayerHalfWidth, 0},
                                   feet[t] + Vec3{kPlayerHalfWidth, kPlayerHalfWidth, kPlayerHeight}},
                                  d_t);
        const bool judged_hidden = !std::binary_search(set.visible.begin(), set.visible.end(), t + 1);
        const bool visible = ReferenceVisible(*reference, eye_region, target);
        hidden += judged_hidden;
        truly_hidden += !visible;
        if (judged_hidden && visible) {
          ++false_hidden;
          ADD_FAILURE() << c.map << ": observer at " << feet[o].x << " " << feet[o].y << " " << feet[o].z
                        << " target at " << feet[t].x << " " << feet[t].y << " " << feet[t].z
                        << " judged hidden, a clear ray exists";
        }
      }
    }
    EXPECT_EQ(r.pairs, 64 * 63);
    reported_hidden += r.hidden;
  }
  std::printf("%s: %lld pairs, %lld truly hidden (%.1f%%), %lld culled (%.1f%% of the hidden), %lld false\n",
              c.map, static_cast<long long>(pairs), static_cast<long long>(truly_hidden),
              100.0 * truly_hidden / pairs, static_cast<long long>(hidden),
              truly_hidden > 0 ? 100.0 * hidden / truly_hidden : 0.0, static_cast<long long>(false_hidden));
  EXPECT_EQ(false_hidden, 0);
  EXPECT_EQ(reported_hidden, hidden);
  // A cull that finds nothing is no test of the rule: the maps have walls.
  EXPECT_GT(hidden, truly_hidden / 10) << "almost nothing culled";
}

INSTANTIATE_TEST_SUITE_P(OpenArena, VisibilityMapTest,
                         ::testing::Values(MapCase{"aggressor", 9}, MapCase{"oa_ctf2", 9},
                                           MapCase{"czest1dm", 9}),
                         [](const auto& info) { return std::string(info.param.map); });

}  // namespace
}  // namespace collide
