// The seeded pair sets the pair benchmark times, and the interface each peer
// library (FCL, Bullet) implements over them. Every library answers the very
// same pairs, generated once outside the timed loops.
#ifndef COLLIDE_BENCH_PAIRS_H_
#define COLLIDE_BENCH_PAIRS_H_

#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "collide/result.h"
#include "collide/shapes.h"
#include "support/random_shapes.h"

namespace collide::bench {

// Pairs per pair kind: large enough that the branch predictor cannot learn
// the hit/miss sequence and the data does not sit in L1/L2 (it mostly fits
// the 32 MiB L3 of the reference machine, as a broadphase's output would).
inline constexpr int kPairCount = 100000;

// One benchmarked pair of shape kinds, A before B in ShapeKind order (the
// order of the kernel file names).
struct PairKind {
  const char* name;  // "sphere_obb": the kernel's file-name suffix.
  ShapeKind a;
  ShapeKind b;
  // Half-size of the cube the shape centers are drawn from. Tuned per kind so
  // that about half the pairs hit (the hit rate is printed with the sanity
  // counts): all-miss sets would only time early-outs.
  double extent;
};

// The pair kinds measured, in report order.
const std::vector<PairKind>& PairKinds();

// `count` pairs (a[i], b[i]) of one kind, from a seed derived from the kind;
// a smaller count gives a prefix of the same sequence.
struct PairSet {
  PairKind kind;
  std::vector<Shape> a;
  std::vector<Shape> b;
  // Owns the vertices the hulls in a and b point to.
  std::unique_ptr<testing::ShapeFactory> factory;
};

PairSet MakePairSet(const PairKind& kind, int count = kPairCount);

// One library's answer for one pair, for the sanity check that every library
// was set up to answer the same question (not timed).
struct Answer {
  bool hit = false;
  // kDistance: the separation when apart (ignored when hit).
  // kContact: the signed distance (negative: penetration depth) when the
  //   library computes it; NaN when it does not (FCL reports no geometry for
  //   separated pairs at its contact level).
  double distance = 0.0;
};

// A peer library's copy of a pair set, converted to its own shape types and
// transforms before any timing.
class Peer {
 public:
  virtual ~Peer() = default;
  // Answers every pair at `level` and returns the number of hits. This is the
  // timed loop: results go through benchmark::DoNotOptimize.
  virtual int Sweep(QueryLevel level) = 0;
  virtual int size() const = 0;
  // Answers every pair at `level` into `out` (untimed sanity check).
  virtual void Answers(QueryLevel level, std::vector<Answer>& out) = 0;
};

// Sweep and Answers over a peer's own `Answer Run(QueryLevel, int i)` and
// `int size() const`, called statically so that the timed loop has no
// virtual call per pair (Derived must be final and befriend this class).
template <typename Derived>
class IndexedPeer : public Peer {
 public:
  int Sweep(QueryLevel level) final {
    Derived& self = static_cast<Derived&>(*this);
    int hits = 0;
    for (int i = 0; i < self.size(); ++i) {
      const Answer answer = self.Run(level, i);
      benchmark::DoNotOptimize(answer);
      hits += answer.hit;
    }
    return hits;
  }

  void Answers(QueryLevel level, std::vector<Answer>& out) final {
    Derived& self = static_cast<Derived&>(*this);
    out.resize(self.size());
    for (int i = 0; i < self.size(); ++i) out[i] = self.Run(level, i);
  }
};

// FCL 0.7 (fcl::collide / fcl::distance on CollisionObjects).
std::unique_ptr<Peer> MakeFclPeer(const PairSet& set);
// Bullet 3.24, double precision: btGjkPairDetector + EPA ...
std::unique_ptr<Peer> MakeBulletPeer(const PairSet& set);
// ... and btCollisionWorld::contactPairTest (Bullet's specialized algorithms).
std::unique_ptr<Peer> MakeBulletWorldPeer(const PairSet& set);

}  // namespace collide::bench

#endif  // COLLIDE_BENCH_PAIRS_H_
