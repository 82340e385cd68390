// Mesh queries: collide against Embree 3 (rays), Bullet (rays, capsule
// contacts and sweeps) and FCL (capsule collide and distance), in the same
// run on the same inputs (mesh_scenes.h): incoherent closest-hit rays,
// line-of-sight rays at eye height, player capsules standing on floors (and
// swept from 20 units above them), and BVH builds.
// After the runs: sanity lines (how often each library agrees with collide)
// and a summary table of rates and ratios against the targets.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>

#include "collide/mesh.h"
#include "counter_reporter.h"
#include "mesh_peers.h"
#include "mesh_scenes.h"

namespace collide::bench {
namespace {

// Everything built for one scene, on first use (not timed).
struct Built {
  std::unique_ptr<TriangleMesh> mesh;
  std::unique_ptr<MeshPeer> embree, embree_sse2, bullet, fcl;
};
Built& BuiltFor(const MeshScene& s) {
  static std::map<std::string, Built> built;
  Built& b = built[s.name];
  if (!b.mesh) {
    b.mesh = std::make_unique<TriangleMesh>(s.data);
    b.embree = MakeEmbree(s.data);
    b.embree_sse2 = MakeEmbreeSse2(s.data);
    b.bullet = MakeBullet(s.data);
    b.fcl = MakeFcl(s.data);
  }
  return b;
}

void SetRate(benchmark::State& state) {
  state.counters["query_time"] = benchmark::Counter(
      static_cast<double>(state.iterations()), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

template <typename F>
void Loop(benchmark::State& state, std::size_t n, F&& f) {
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(f(i));
    if (++i == n) i = 0;
  }
  SetRate(state);
}

// Capsule sweeps: capsule i raised 20 units off its floor, then moved by a
// seeded translation: down and sideways (a fall or a jump's landing), or
// level (a walk into walls), 64 units long in x, y.
Capsule SweepStart(const Capsule& c) { return {c.a + Vec3{0, 0, 20}, c.b + Vec3{0, 0, 20}, c.radius}; }
Vec3 SweepTranslation(std::size_t i) {
  const double angle = 2.399963 * static_cast<double>(i);  // golden angle: directions spread evenly.
  return {64 * std::cos(angle), 64 * std::sin(angle), i % 2 == 0 ? -60.0 : 0.0};
}

void RegisterScene(const MeshScene& s) {
  const std::string n = s.name;
  auto reg = [](const std::string& name, std::function<void(benchmark::State&)> f) {
    return benchmark::RegisterBenchmark(name.c_str(), [f](benchmark::State& st) { f(st); });
  };
  // Closest-hit rays.
  reg("rays/" + n + "/collide", [&s](benchmark::State& st) {
    const TriangleMesh& m = *BuiltFor(s).mesh;
    Loop(st, s.rays.size(), [&](std::size_t i) { return RayCastClosest(m, s.rays[i]).distance; });
  });
  reg("rays/" + n + "/embree", [&s](benchmark::State& st) {
    MeshPeer& p = *BuiltFor(s).embree;
    Loop(st, s.rays.size(), [&](std::size_t i) { return p.Closest(s.rays[i]); });
  });
  reg("rays/" + n + "/embree_sse2", [&s](benchmark::State& st) {
    MeshPeer& p = *BuiltFor(s).embree_sse2;
    Loop(st, s.rays.size(), [&](std::size_t i) { return p.Closest(s.rays[i]); });
  });
  reg("rays/" + n + "/bullet", [&s](benchmark::State& st) {
    MeshPeer& p = *BuiltFor(s).bullet;
    Loop(st, s.rays.size(), [&](std::size_t i) { return p.Closest(s.rays[i]); });
  });
  // Line of sight.
  reg("sight/" + n + "/collide", [&s](benchmark::State& st) {
    const TriangleMesh& m = *BuiltFor(s).mesh;
    Loop(st, s.sight.size(), [&](std::size_t i) { return RayBlocked(m, s.sight[i]); });
  });
  reg("sight/" + n + "/embree", [&s](benchmark::State& st) {
    MeshPeer& p = *BuiltFor(s).embree;
    Loop(st, s.sight.size(), [&](std::size_t i) { return p.Occluded(s.sight[i]); });
  });
  reg("sight/" + n + "/embree_sse2", [&s](benchmark::State& st) {
    MeshPeer& p = *BuiltFor(s).embree_sse2;
    Loop(st, s.sight.size(), [&](std::size_t i) { return p.Occluded(s.sight[i]); });
  });
  reg("sight/" + n + "/bullet", [&s](benchmark::State& st) {
    MeshPeer& p = *BuiltFor(s).bullet;
    Loop(st, s.sight.size(), [&](std::size_t i) { return p.Occluded(s.sight[i]); });
  });
  // Capsule overlaps: every triangle (collide) or contact (Bullet).
  reg("capsule_overlap/" + n + "/collide", [&s](benchmark::State& st) {
    const TriangleMesh& m = *BuiltFor(s).mesh;
    std::vector<std::uint32_t> ids;
    Loop(st, s.capsules.size(), [&](std::size_t i) { return OverlapTriangles(m, s.capsules[i], 64, ids); });
  });
  reg("capsule_overlap/" + n + "/bullet", [&s](benchmark::State& st) {
    MeshPeer& p = *BuiltFor(s).bullet;
    Loop(st, s.capsules.size(), [&](std::size_t i) { return p.CapsuleOverlap(s.capsules[i]); });
  });
  reg("capsule_sweep/" + n + "/collide", [&s](benchmark::State& st) {
    const TriangleMesh& m = *BuiltFor(s).mesh;
    Loop(st, s.capsules.size(),
         [&](std::size_t i) { return ShapeCast(SweepStart(s.capsules[i]), SweepTranslation(i), m).sweep.t; });
  });
  reg("capsule_sweep/" + n + "/bullet", [&s](benchmark::State& st) {
    MeshPeer& p = *BuiltFor(s).bullet;
    Loop(st, s.capsules.size(),
         [&](std::size_t i) { return p.CapsuleSweep(SweepStart(s.capsules[i]), SweepTranslation(i)); });
  });
  // Capsule collide (boolean) and distance against FCL.
  reg("capsule_collide/" + n + "/collide", [&s](benchmark::State& st) {
    const TriangleMesh& m = *BuiltFor(s).mesh;
    Loop(st, s.capsules.size(),
         [&](std::size_t i) { return QueryMesh(QueryLevel::kIntersect, s.capsules[i], m).result.hit; });
  });
  reg("capsule_collide/" + n + "/fcl", [&s](benchmark::State& st) {
    MeshPeer& p = *BuiltFor(s).fcl;
    Loop(st, s.capsules.size(), [&](std::size_t i) { return p.CapsuleOverlap(s.capsules[i]); });
  });
  // Distance from capsules raised 20 units off their floors.
  reg("capsule_distance/" + n + "/collide", [&s](benchmark::State& st) {
    const TriangleMesh& m = *BuiltFor(s).mesh;
    Loop(st, s.capsules.size(), [&](std::size_t i) {
      Capsule c = s.capsules[i];
      c.a.z += 20, c.b.z += 20;
      return QueryMesh(QueryLevel::kDistance, c, m).result.distance;
    });
  });
  reg("capsule_distance/" + n + "/fcl", [&s](benchmark::State& st) {
    MeshPeer& p = *BuiltFor(s).fcl;
    Loop(st, s.capsules.size(), [&](std::size_t i) {
      Capsule c = s.capsules[i];
      c.a.z += 20, c.b.z += 20;
      return p.CapsuleDistance(c);
    });
  });
  // Builds (one structure per iteration).
  auto build = [&](const char* impl, std::function<std::size_t()> f) {
    reg("build/" + n + "/" + impl, [f](benchmark::State& st) {
      for (auto _ : st) benchmark::DoNotOptimize(f());
      SetRate(st);
    })->Unit(benchmark::kMillisecond);
  };
  build("collide", [&s] { return TriangleMesh(s.data).memory_bytes(); });
  build("embree", [&s] { return MakeEmbree(s.data)->memory_bytes(); });
  build("bullet", [&s] { return MakeBullet(s.data) != nullptr ? 1 : 0; });
  build("fcl", [&s] { return MakeFcl(s.data) != nullptr ? 1 : 0; });
}

// Agreement of each library with collide on the scene's queries.
void PrintSanity(const MeshScene& s) {
  Built& b = BuiltFor(s);
  const TriangleMesh& m = *b.mesh;
  int hits[3] = {}, differ[3] = {}, missed[3] = {}, phantom[3] = {}, at_zero = 0, differ_at_zero[3] = {};
  MeshPeer* peers[3] = {nullptr, b.embree.get(), b.bullet.get()};
  for (const Ray& r : s.rays) {
    const MeshRayHit c = RayCastClosest(m, r);
    hits[0] += c.hit;
    // Rays starting on a surface (an eye point 48 units above a floor can lie
    // on a ledge): collide hits at 0 (result.h), the peers look past it.
    const bool zero = c.hit && c.distance == 0.0;
    at_zero += zero;
    for (int k = 1; k < 3; ++k) {
      const double d = peers[k]->Closest(r);
      hits[k] += d >= 0;
      const bool off = c.hit && d >= 0 && std::fabs(d - c.distance) > 1e-3 * (1 + c.distance);
      if (zero) {
        differ_at_zero[k] += (d < 0) || off;
      } else if ((d >= 0) != c.hit) {
        (c.hit ? missed : phantom)[k]++;
      } else if (off) {
        differ[k]++;
      }
    }
  }
  std::printf(
      "%-14s rays: %zu triangles (%zu zero-area); collide hits %d, %d of them at distance 0 (the origin on a "
      "surface: embree answers otherwise on %d, bullet on %d); on the other rays embree hits %d (misses %d, "
      "extra %d, distance off by > 1e-3 (1 + d) %d), bullet %d (misses %d, extra %d, distance off %d)\n",
      s.name.c_str(), m.triangle_count(), m.degenerate_count(), hits[0], at_zero, differ_at_zero[1],
      differ_at_zero[2], hits[1], missed[1], phantom[1], differ[1], hits[2], missed[2], phantom[2],
      differ[2]);
  // Rays at the mesh's own vertices (brush corners and edges on the maps):
  // from an eye point through a random vertex, on to twice the distance.
  {
    std::mt19937_64 rng(99);
    int c_hits = 0, peer_missed[3] = {}, peer_short[3] = {};
    for (std::size_t i = 0; i < s.rays.size(); ++i) {
      const Vec3 target = s.data.vertices[rng() % s.data.vertices.size()];
      const Vec3 o = s.rays[i].origin;
      const double len = Length(target - o);
      if (len == 0) continue;
      const Ray r{o, (target - o) / len, 2 * len};
      const MeshRayHit c = RayCastClosest(m, r);
      if (!c.hit || c.distance == 0.0) continue;
      ++c_hits;
      for (int k = 1; k < 3; ++k) {
        const double d = peers[k]->Closest(r);
        if (d < 0) {
          ++peer_missed[k];
        } else if (d < c.distance - 1e-3 * (1 + c.distance)) {
          ++peer_short[k];
        }
      }
    }
    std::printf(
        "%-14s rays through vertices: collide hits %d; of those, embree misses %d and stops short of "
        "collide's hit on %d, bullet misses %d and stops short on %d\n",
        s.name.c_str(), c_hits, peer_missed[1], peer_short[1], peer_missed[2], peer_short[2]);
  }
  int blocked[3] = {}, disagree[3] = {};
  for (const Ray& r : s.sight) {
    const bool c = RayBlocked(m, r);
    blocked[0] += c;
    for (int k = 1; k < 3; ++k) {
      const bool p = peers[k]->Occluded(r);
      blocked[k] += p;
      disagree[k] += p != c;
    }
  }
  int overlap_c = 0, overlap_b = 0, overlap_f = 0, overlap_disagree_b = 0, overlap_disagree_f = 0;
  double worst_distance = 0;
  std::vector<std::uint32_t> ids;
  for (const Capsule& cap : s.capsules) {
    const bool c = OverlapTriangles(m, cap, 64, ids) > 0;
    const bool bt = b.bullet->CapsuleOverlap(cap) > 0, f = b.fcl->CapsuleOverlap(cap) > 0;
    overlap_c += c, overlap_b += bt, overlap_f += f;
    overlap_disagree_b += bt != c, overlap_disagree_f += f != c;
    Capsule up = cap;
    up.a.z += 20, up.b.z += 20;
    worst_distance = std::max(
        worst_distance,
        std::fabs(QueryMesh(QueryLevel::kDistance, up, m).result.distance - b.fcl->CapsuleDistance(up)));
  }
  std::printf(
      "%-14s sight: blocked collide %d, embree %d (disagree %d), bullet %d (disagree %d); capsules "
      "overlapping collide %d, bullet %d (disagree %d), fcl %d (disagree %d); raised capsule distance "
      "max |collide - fcl| %.3g\n",
      s.name.c_str(), blocked[0], blocked[1], disagree[1], blocked[2], disagree[2], overlap_c, overlap_b,
      overlap_disagree_b, overlap_f, overlap_disagree_f, worst_distance);
  int sweep_c = 0, sweep_b = 0, sweep_disagree = 0, sweep_later = 0, sweep_at_zero = 0,
      sweep_disagree_zero = 0;
  double sweep_worst = 0;
  for (std::size_t i = 0; i < s.capsules.size(); ++i) {
    const Capsule cap = SweepStart(s.capsules[i]);
    const Vec3 v = SweepTranslation(i);
    const SweepResult c = ShapeCast(cap, v, m).sweep;
    const double bt = b.bullet->CapsuleSweep(cap, v);
    sweep_c += c.hit, sweep_b += bt >= 0;
    // A capsule already touching something at t = 0: collide hits at 0
    // (sweep.h), Bullet's sweep ignores what it starts in.
    if (c.hit && c.t == 0.0) {
      ++sweep_at_zero;
      sweep_disagree_zero += bt != 0.0;
      continue;
    }
    sweep_disagree += c.hit != (bt >= 0);
    if (c.hit && bt >= 0) {
      sweep_worst = std::max(sweep_worst, std::fabs(c.t - bt) * Length(v));
      sweep_later += bt > c.t + 1e-6;  // Bullet's contact past collide's first one.
    }
  }
  std::printf(
      "%-14s capsule sweeps: collide hits %d, %d of them at t = 0 (bullet answers otherwise on %d); on the "
      "others bullet hits %d (disagree %d), both hitting: max |t - t_bullet| * |v| %.3g units, bullet later "
      "than collide on %d\n",
      s.name.c_str(), sweep_c, sweep_at_zero, sweep_disagree_zero, sweep_b, sweep_disagree, sweep_worst,
      sweep_later);
  std::printf(
      "%-14s memory: collide %.1f bytes/triangle (mesh + BVH), embree %.1f (BVH, its vertex and index "
      "copies)\n",
      s.name.c_str(), static_cast<double>(m.memory_bytes()) / m.triangle_count(),
      static_cast<double>(b.embree->memory_bytes()) / m.triangle_count());
}

void PrintSummary(const CounterReporter& r, const std::vector<const MeshScene*>& scenes) {
  std::printf(
      "\nRates in queries per second (CPU time; the median with repetitions). Ratios: collide's rate / the\n"
      "peer's. Targets: rays and sight >= 0.5x Embree and >= 5x Bullet; capsule overlaps >= 2x Bullet's\n"
      "contactTest; capsule sweeps >= 3x Bullet's convexSweepTest; build of 1M triangles <= 0.5 s. embree: "
      "the ISA Embree picks (AVX-512 here);\n"
      "sse2: Embree pinned to SSE2, collide's instruction set.\n\n");
  std::printf("%-14s %-16s %10s %10s %10s %10s %10s %8s %8s %8s %8s\n", "scene", "query", "collide", "embree",
              "sse2", "bullet", "fcl", "/embree", "/sse2", "/bullet", "/fcl");
  for (const MeshScene* s : scenes) {
    for (const char* q : {"rays", "sight", "capsule_overlap", "capsule_sweep", "capsule_collide",
                          "capsule_distance", "build"}) {
      const std::string base = std::string(q) + "/" + s->name + "/";
      const auto c = r.Value(base + "collide");
      if (!c) continue;
      std::printf("%-14s %-16s", s->name.c_str(), q);
      const bool build = std::strcmp(q, "build") == 0;
      auto cell = [&](std::optional<double> sec) {
        if (!sec) return std::printf(" %10s", "-");
        return build ? std::printf(" %8.1fms", *sec * 1e3) : std::printf(" %10.0f", 1.0 / *sec);
      };
      cell(c);
      const char* peers[4] = {"embree", "embree_sse2", "bullet", "fcl"};
      std::optional<double> p[4];
      for (int k = 0; k < 4; ++k) cell(p[k] = r.Value(base + peers[k]));
      for (int k = 0; k < 4; ++k) {
        if (p[k])
          std::printf(" %7.2fx", *p[k] / *c);
        else
          std::printf(" %8s", "-");
      }
      std::printf("\n");
    }
  }
}

}  // namespace
}  // namespace collide::bench

int main(int argc, char** argv) {
  using namespace collide::bench;
  bool color = isatty(fileno(stdout));
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--benchmark_color=false" || a == "--benchmark_color=no") color = false;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  std::vector<const MeshScene*> scenes;
  for (const MeshScene& s : MapScenes()) scenes.push_back(&s);
  for (const MeshScene& s : SyntheticScenes()) scenes.push_back(&s);
  for (const MeshScene* s : scenes) RegisterScene(*s);
  CounterReporter reporter(
      color ? benchmark::ConsoleReporter::OO_ColorTabular : benchmark::ConsoleReporter::OO_Tabular,
      "query_time");
  benchmark::RunSpecifiedBenchmarks(&reporter);
  std::printf("\n");
  for (const MeshScene* s : scenes) PrintSanity(*s);
  PrintSummary(reporter, scenes);
  benchmark::Shutdown();
  return 0;
}
