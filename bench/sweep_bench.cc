// Shape casts per pair of kinds: nanoseconds per ShapeCast, and Bullet's
// btGjkConvexCast (its GJK ray cast, van den Bergen 2004) on the same sweeps
// where Bullet has both shapes (not points, segments or halfspaces). Each
// pair kind sweeps kSweepCount seeded cases generated once: A and B from
// ShapeFactory::MakePair (about half overlap in place), A moved back along a
// random direction by 20-100% of a translation of 0.5-4 sizes (and 0.05
// sideways) and swept forward through that place: hits in flight, starts overlapping and misses.
// Printed per kind: the hit rate, the share of hits at t = 0, and the
// agreement of the two libraries' hit flags (sanity, untimed: the rounded
// pairs agree on 86-95% of the sweeps; the box, triangle and hull pairs, to
// which the peer gives margin 0 as in pair_bench, on only 39-65%: Bullet
// misses real hits, see bench/README.md, "Shape casts"). Time per sweep
// is 1 / items_per_second (CPU time). Segment, capsule and box against a
// triangle also time the GJK ray cast (sweep/<kinds>/gjk, internal::GjkSweep):
// the path segment and capsule take, and box-triangle took before its
// separating-axis cast (issue 31).
#include <BulletCollision/NarrowPhaseCollision/btGjkConvexCast.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>
#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bullet_shapes.h"
#include "collide/sweep.h"
#include "query/sweep/sweep_internal.h"
#include "support/random_shapes.h"

namespace collide::bench {
namespace {

constexpr int kSweepCount = 4096;

struct SweepSet {
  std::vector<Shape> a, b;
  std::vector<Vec3> v;
  std::unique_ptr<testing::ShapeFactory> factory;  // owns the hulls' vertices.
};

SweepSet MakeSweepSet(ShapeKind ka, ShapeKind kb) {
  SweepSet s;
  s.factory = std::make_unique<testing::ShapeFactory>(0x53eeb0u + static_cast<unsigned>(ka) * 16 +
                                                      static_cast<unsigned>(kb));
  testing::ShapeFactory& f = *s.factory;
  for (int i = 0; i < kSweepCount; ++i) {
    auto [a, b] = f.MakePair(ka, kb, testing::PairSet::kGeneric);
    const Vec3 v = f.UnitVector() * f.Uniform(0.5, 4.0);
    // Plus a small random offset: MakePair puts 40% of the pairs without a
    // solid exactly in touch (a point on a triangle's vertex), and a path
    // through that very point would time the exact-arithmetic fallback of
    // the watertight triangle test rather than a typical sweep.
    s.a.push_back(f.Translated(a, v * -f.Uniform(0.2, 1.0) + f.UnitVector() * 0.05));
    s.b.push_back(b);
    s.v.push_back(v);
  }
  return s;
}

bool BulletHas(ShapeKind k) {
  return k != ShapeKind::kPoint && k != ShapeKind::kSegment && k != ShapeKind::kHalfspace;
}

// Bullet's sweep of A by v against B: btGjkConvexCast between the start and
// end transforms of A, B fixed.
struct BulletSweeps {
  std::vector<BulletShape> a, b;
  std::vector<btVector3> v;
  explicit BulletSweeps(const SweepSet& s) {
    for (int i = 0; i < kSweepCount; ++i) {
      a.push_back(MakeShape(s.a[i]));
      b.push_back(MakeShape(s.b[i]));
      v.push_back(ToBullet(s.v[i]));
    }
  }
  bool Run(int i, double& t) const {
    btVoronoiSimplexSolver simplex;
    btGjkConvexCast cast(a[i].shape.get(), b[i].shape.get(), &simplex);
    btConvexCast::CastResult result;
    btTransform to = a[i].transform;
    to.setOrigin(to.getOrigin() + v[i]);
    const bool hit = cast.calcTimeOfImpact(a[i].transform, to, b[i].transform, b[i].transform, result);
    t = result.m_fraction;
    return hit;
  }
};

void BM_Collide(benchmark::State& state, const SweepSet* s) {
  int hits = 0;
  for (auto _ : state) {
    for (int i = 0; i < kSweepCount; ++i) {
      const SweepResult r = ShapeCast(s->a[i], s->v[i], s->b[i]);
      benchmark::DoNotOptimize(r);
      hits += r.hit;
    }
  }
  state.SetItemsProcessed(state.iterations() * kSweepCount);
  benchmark::DoNotOptimize(hits);
}

// The GJK ray cast on the same sweeps, as ShapeCast dispatched these pairs
// before their closed form (it finds a start in contact itself).
void BM_Gjk(benchmark::State& state, const SweepSet* s) {
  int hits = 0;
  for (auto _ : state) {
    for (int i = 0; i < kSweepCount; ++i) {
      const SweepResult r = internal::GjkSweep(s->a[i], s->v[i], s->b[i]);
      benchmark::DoNotOptimize(r);
      hits += r.hit;
    }
  }
  state.SetItemsProcessed(state.iterations() * kSweepCount);
  benchmark::DoNotOptimize(hits);
}

void BM_Bullet(benchmark::State& state, const BulletSweeps* s) {
  int hits = 0;
  for (auto _ : state) {
    for (int i = 0; i < kSweepCount; ++i) {
      double t;
      hits += s->Run(i, t);
      benchmark::DoNotOptimize(t);
    }
  }
  state.SetItemsProcessed(state.iterations() * kSweepCount);
  benchmark::DoNotOptimize(hits);
}

}  // namespace
}  // namespace collide::bench

int main(int argc, char** argv) {
  using namespace collide;
  using namespace collide::bench;
  benchmark::Initialize(&argc, argv);
  std::vector<std::unique_ptr<SweepSet>> sets;
  std::vector<std::unique_ptr<BulletSweeps>> peers;
  for (int ka = 0; ka < kShapeKindCount - 1; ++ka) {
    for (int kb = ka; kb < kShapeKindCount; ++kb) {
      const auto a = static_cast<ShapeKind>(ka), b = static_cast<ShapeKind>(kb);
      const std::string name = std::string(ShapeKindName(a)) + "_" + std::string(ShapeKindName(b));
      sets.push_back(std::make_unique<SweepSet>(MakeSweepSet(a, b)));
      const SweepSet* s = sets.back().get();
      int hits = 0, starts = 0, agree = 0;
      const bool bullet = BulletHas(a) && BulletHas(b);
      if (bullet) peers.push_back(std::make_unique<BulletSweeps>(*s));
      for (int i = 0; i < kSweepCount; ++i) {
        const SweepResult r = ShapeCast(s->a[i], s->v[i], s->b[i]);
        hits += r.hit;
        starts += r.hit && r.t == 0.0;
        double t;
        if (bullet) agree += peers.back()->Run(i, t) == r.hit;
      }
      std::printf("sanity %-24s hits %5.1f%%  at t=0 %5.1f%%", name.c_str(), 100.0 * hits / kSweepCount,
                  100.0 * starts / kSweepCount);
      if (bullet) std::printf("  bullet agrees on hit %5.1f%%", 100.0 * agree / kSweepCount);
      std::printf("\n");
      benchmark::RegisterBenchmark(("sweep/" + name + "/collide").c_str(), BM_Collide, s);
      if ((a == ShapeKind::kSegment || a == ShapeKind::kCapsule || a == ShapeKind::kAabb ||
           a == ShapeKind::kObb) &&
          b == ShapeKind::kTriangle) {
        benchmark::RegisterBenchmark(("sweep/" + name + "/gjk").c_str(), BM_Gjk, s);
      }
      if (bullet)
        benchmark::RegisterBenchmark(("sweep/" + name + "/bullet").c_str(), BM_Bullet, peers.back().get());
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
