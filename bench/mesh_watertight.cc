// Watertight ray casts on real maps, at scale (issue 16): a million rays per
// OpenArena map (tests/support/watertight_rays.h: through the maps' own
// vertices and edge points, sight lines grazing them, eye-to-eye sight
// lines and incoherent rays), each answered by collide (RayCastClosest, and
// RayBlocked for the sight lines), Embree 3 (default scene, float:
// rtcIntersect1 / rtcOccluded1) and Bullet (rayTest), and judged against the
// exact answer (rational arithmetic wherever a double sign is not certain).
// Not a test: too slow for CI's main stage (core_mesh_map_test runs the same
// checks on 20,000 rays); run by scripts/mesh-watertight.sh.
//
// Usage: mesh_watertight [--rays=N per map, default 1000000] [map...]
// Exit status 1 when collide misses a hit or reports a phantom one.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "collide/import/map_import.h"
#include "collide/mesh.h"
#include "mesh_peers.h"
#include "support/watertight_rays.h"

namespace collide::bench {
namespace {

using testing::JudgeBlocked;
using testing::JudgeClosest;
using testing::MeshRayReference;
using testing::Verdict;
using testing::WatertightRay;
using testing::WatertightRayKind;

constexpr double kCollideTolerance = 1e-9;  // double answers.
constexpr double kPeerTolerance = 1e-3;     // float answers (as mesh_bench's agreement lines).

struct Tally {
  long long rays = 0, judged = 0, missed = 0, phantom = 0, uncertain = 0;
  double worst_short = 0.0;  // largest distance a phantom hit lies before the exact one.
  void Add(Verdict v, const MeshRayReference::Answer& ref, double distance) {
    ++rays;
    judged += v != Verdict::kUncertain;
    missed += v == Verdict::kMissed;
    phantom += v == Verdict::kPhantom;
    uncertain += v == Verdict::kUncertain;
    if (v == Verdict::kPhantom && ref.hit && distance >= 0)
      worst_short = std::max(worst_short, ref.distance - distance);
  }
};

struct KindReport {
  long long rays = 0, ref_hits = 0, at_origin = 0;
  Tally collide, collide_triangle, embree, bullet;        // closest hits.
  Tally collide_blocked, embree_blocked, bullet_blocked;  // sight lines.
};

void Print(const char* map, const char* kind, const KindReport& r) {
  auto t = [](const Tally& x) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%lld judged: %lld missed, %lld phantom", x.judged, x.missed, x.phantom);
    std::string s = buf;
    if (x.worst_short > 0) {
      std::snprintf(buf, sizeof buf, " (up to %.3g units short)", x.worst_short);
      s += buf;
    }
    return s;
  };
  std::printf("%-15s %-12s %8lld rays, %8lld exact hits (%lld at the origin: not judged for the peers)\n",
              map, kind, r.rays, r.ref_hits, r.at_origin);
  std::printf("%-15s %-12s   closest: collide %s; its triangle %lld not hit; embree %s; bullet %s\n", map,
              kind, t(r.collide).c_str(), r.collide_triangle.phantom, t(r.embree).c_str(),
              t(r.bullet).c_str());
  if (r.collide_blocked.rays > 0) {
    std::printf("%-15s %-12s   blocked: collide %s; embree %s; bullet %s\n", map, kind,
                t(r.collide_blocked).c_str(), t(r.embree_blocked).c_str(), t(r.bullet_blocked).c_str());
  }
}

// Returns collide's failures on the map.
long long RunMap(const std::string& map, int count) {
  importer::ImportOptions options;
  options.map = map;
  auto imported = importer::ImportMap("/usr/share/games/openarena/baseoa/pak6-patch088.pk3", options);
  if (!imported.ok()) {
    std::fprintf(stderr, "mesh_watertight: %s\n", std::string(imported.status().message()).c_str());
    std::exit(2);
  }
  const MeshData& data = imported->mesh;
  const auto start = std::chrono::steady_clock::now();
  const TriangleMesh mesh(data);
  const MeshRayReference reference(data);
  const std::unique_ptr<MeshPeer> embree = MakeEmbree(data), bullet = MakeBullet(data);
  const std::vector<WatertightRay> rays = testing::MakeWatertightRays(data, count, 16);
  KindReport reports[testing::kWatertightRayKinds];
  for (const WatertightRay& wr : rays) {
    const Ray& ray = wr.ray;
    KindReport& r = reports[static_cast<int>(wr.kind)];
    ++r.rays;
    const MeshRayReference::Answer ref = reference.Closest(testing::ExtendedForJudging(ray));
    const bool in_range = ref.certain && ref.hit && ref.distance <= ray.max_distance;
    r.ref_hits += in_range;
    const MeshRayHit c = RayCastClosest(mesh, ray);
    r.collide.Add(JudgeClosest(ref, ray, kCollideTolerance, c.hit, c.distance), ref, c.distance);
    if (c.hit) {
      // The triangle collide names is hit, exactly, at its distance.
      const MeshRayReference::Answer own = reference.Single(ray, c.triangle);
      const bool ok = !own.certain || (own.hit && std::fabs(own.distance - c.distance) <=
                                                      kCollideTolerance * (1 + c.distance));
      r.collide_triangle.Add(ok ? Verdict::kAgree : Verdict::kPhantom, own, c.distance);
    }
    const bool sight = wr.kind == WatertightRayKind::kSight || wr.kind == WatertightRayKind::kSightGraze;
    if (sight)
      r.collide_blocked.Add(JudgeBlocked(ref, ray, kCollideTolerance, RayBlocked(mesh, ray)), ref, -1);
    // The peers look past a surface the ray starts on (mesh_bench): not judged.
    if (in_range && ref.distance == 0.0) {
      ++r.at_origin;
      continue;
    }
    const double e = embree->Closest(ray), b = bullet->Closest(ray);
    r.embree.Add(JudgeClosest(ref, ray, kPeerTolerance, e >= 0, e), ref, e);
    r.bullet.Add(JudgeClosest(ref, ray, kPeerTolerance, b >= 0, b), ref, b);
    if (sight) {
      r.embree_blocked.Add(JudgeBlocked(ref, ray, kPeerTolerance, embree->Occluded(ray)), ref, -1);
      r.bullet_blocked.Add(JudgeBlocked(ref, ray, kPeerTolerance, bullet->Occluded(ray)), ref, -1);
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  long long failures = 0;
  for (int k = 0; k < testing::kWatertightRayKinds; ++k) {
    const KindReport& r = reports[k];
    Print(map.c_str(), std::string(testing::WatertightRayKindName(static_cast<WatertightRayKind>(k))).c_str(),
          r);
    failures += r.collide.missed + r.collide.phantom + r.collide_triangle.phantom + r.collide_blocked.missed +
                r.collide_blocked.phantom;
  }
  std::printf(
      "%-15s %zu triangles (%zu zero-area), %d rays in %.1f s; reference: %llu candidate triangles tested, "
      "%llu "
      "of them in rational arithmetic; collide failures: %lld\n\n",
      map.c_str(), data.triangles.size(), reference.degenerate_count(), count, seconds,
      static_cast<unsigned long long>(reference.candidate_tests()),
      static_cast<unsigned long long>(reference.exact_evaluations()), failures);
  std::fflush(stdout);
  return failures;
}

}  // namespace
}  // namespace collide::bench

int main(int argc, char** argv) {
  int count = 1000000;
  std::vector<std::string> maps;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--rays=", 0) == 0) {
      count = std::atoi(a.c_str() + 7);
    } else {
      maps.push_back(a);
    }
  }
  if (maps.empty()) maps = {"aggressor", "oa_ctf2", "am_underworks2"};  // mesh_bench's maps.
  std::printf(
      "Rays judged against the exact answer (tolerance on distances: collide 1e-9, the float peers 1e-3, "
      "relative to 1 + distance). missed: no hit, or a hit past the exact nearest one (through a wall); "
      "phantom: a hit where there is none, or before the nearest one. Sight lines are also judged as "
      "blocked / clear. Hits within the tolerance of a bounded ray's end are not judged.\n\n");
  long long failures = 0;
  for (const std::string& m : maps) failures += collide::bench::RunMap(m, count);
  std::printf("collide failures in all: %lld\n", failures);
  return failures == 0 ? 0 : 1;
}
