// Per-pair time of intersect, distance and contact queries, for collide and
// its peers FCL and Bullet side by side, on the same seeded pairs.
//
// For each pair kind (pairs.cc) and query level, one benchmark per
// implementation sweeps all kPairCount pre-generated pairs per iteration:
//   <level>/<kind>/kernel  collide's typed kernel, called directly (internal
//                          headers; registered once the kernel has landed);
//   <level>/<kind>/slot    the registry slot Query() would call: the kernel
//                          behind its variant unpacking wrapper;
//   <level>/<kind>/query   the public collide::Query (kind lookup, same-kind
//                          ordering, registry, mirrored results);
//   <level>/<kind>/gjk     collide's generic GJK/EPA fallback, called directly;
//   <level>/<kind>/fcl     FCL 0.7 (peer_fcl.cc);
//   <level>/<kind>/bullet  Bullet 3.24 double precision (peer_bullet.cc);
//   <level>/<kind>/textbook  Ericson's plain scalar kernel for the kinds whose
//                          targets are missed (textbook_kernels.h): what the
//                          computation itself costs here.
// The pair_time counter is the CPU time per pair. Every result goes through
// benchmark::DoNotOptimize. Before the first benchmark of a kind, the sanity
// check answers every pair with every library and prints the hit counts and
// disagreements, to catch a peer that was set up to answer another question.
// At the end, a table of ns per pair and FCL/collide, Bullet/collide ratios
// against the targets (intersect: FCL >= 5x, Bullet >= 3x; distance and
// contact: FCL >= 4x).
//
// The pair_time counter is CPU time, the least load-sensitive clock on a
// shared machine; --instructions=N (below) gives callgrind instruction counts
// per pair as a load-independent second figure.
//
// Usage: scripts/bench.sh (Release build, writes bench/results/<machine>/).
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "collide/query.h"
#include "counter_reporter.h"
#include "pairs.h"
#include "query/registry.h"
#include "textbook_kernels.h"
#include "valgrind/callgrind.h"

// Typed kernels, as their families land. Each include brings the
// declarations named after the kernel files (protocol: <Query><A><B>).
#if __has_include("query/kernels_round.h")
#include "query/kernels_round.h"
#define COLLIDE_BENCH_ROUND_KERNELS 1
#endif
#if __has_include("query/kernels_box.h")
#include "query/kernels_box.h"
#define COLLIDE_BENCH_BOX_KERNELS 1
#endif
#if __has_include("query/kernels_convex.h")
#include "query/kernels_convex.h"
#define COLLIDE_BENCH_CONVEX_KERNELS 1
#endif

namespace collide::bench {
namespace {

constexpr QueryLevel kLevels[] = {QueryLevel::kIntersect, QueryLevel::kDistance, QueryLevel::kContact};

// ---------------------------------------------------------------------------
// The pair set of one kind with its peer copies and sanity report. Only the
// kind being benchmarked is kept in memory (benchmarks are registered
// kind-major), since each holds a few hundred MB of shapes across libraries.

struct Context {
  int kind_index = -1;
  PairSet set;
  std::unique_ptr<Peer> fcl;
  std::unique_ptr<Peer> bullet;
  std::unique_ptr<Peer> bullet_world;
  bool collide_supported = false;
};

std::vector<std::string>& SanityLines() {
  static std::vector<std::string> lines;
  return lines;
}

void Note(const char* format, auto... args) {
  char line[512];
  std::snprintf(line, sizeof(line), format, args...);
  std::fprintf(stderr, "%s\n", line);
  SanityLines().push_back(line);
}

std::vector<Answer> CollideAnswers(const PairSet& set, QueryLevel level) {
  std::vector<Answer> out(set.a.size());
  for (size_t i = 0; i < set.a.size(); ++i) {
    const PairResult r = Query(level, set.a[i], set.b[i]);
    out[i] = {r.hit, r.distance};
  }
  return out;
}

// Compares a peer's answers with the reference's at every level: hits, then
// the distance of pairs both call separated, then the signed distance of
// pairs both call overlapping (where both report one).
void Compare(const char* kind, const char* ref_name, const char* peer_name,
             const std::vector<Answer> (&ref)[3], const std::vector<Answer> (&peer)[3]) {
  const int n = static_cast<int>(ref[0].size());
  int hits_ref = 0, hits_peer = 0, hit_mismatches = 0;
  for (int i = 0; i < n; ++i) {
    hits_ref += ref[0][i].hit;
    hits_peer += peer[0][i].hit;
    hit_mismatches += ref[0][i].hit != peer[0][i].hit;
  }
  // Differences beyond kTolerance are counted: a few are iterative-solver
  // noise (EPA), many mean the libraries answer different questions.
  constexpr double kTolerance = 1e-6;
  double max_distance_error = 0.0, max_depth_error = 0.0;
  int distance_pairs = 0, depth_pairs = 0, distance_off = 0, depth_off = 0;
  for (int i = 0; i < n; ++i) {
    if (!ref[1][i].hit && !peer[1][i].hit) {
      const double error = std::fabs(ref[1][i].distance - peer[1][i].distance);
      ++distance_pairs;
      distance_off += error > kTolerance;
      max_distance_error = std::max(max_distance_error, error);
    }
    if (ref[2][i].hit && peer[2][i].hit && std::isfinite(ref[2][i].distance) &&
        std::isfinite(peer[2][i].distance)) {
      const double error = std::fabs(ref[2][i].distance - peer[2][i].distance);
      ++depth_pairs;
      depth_off += error > kTolerance;
      max_depth_error = std::max(max_depth_error, error);
    }
  }
  Note(
      "sanity %-24s %s=%d %s=%d hits of %d (%d differ); distance: %d of %d differ > 1e-6, max %.2g; "
      "depth: %d of %d differ > 1e-6, max %.2g",
      kind, ref_name, hits_ref, peer_name, hits_peer, n, hit_mismatches, distance_off, distance_pairs,
      max_distance_error, depth_off, depth_pairs, max_depth_error);
}

Context& GetContext(int kind_index, int count, bool sanity) {
  static std::unique_ptr<Context> context;
  if (context && context->kind_index == kind_index && static_cast<int>(context->set.a.size()) == count) {
    return *context;
  }
  context.reset();  // free the previous kind first.
  const PairKind& kind = PairKinds()[kind_index];
  context = std::make_unique<Context>(
      Context{kind_index, MakePairSet(kind, count), nullptr, nullptr, nullptr, false});
  Context& c = *context;
  c.fcl = MakeFclPeer(c.set);
  c.bullet = MakeBulletPeer(c.set);
  c.bullet_world = MakeBulletWorldPeer(c.set);
  c.collide_supported =
      Query(QueryLevel::kIntersect, c.set.a[0], c.set.b[0]).status != QueryStatus::kUnsupported;

  if (!sanity) return c;
  std::vector<Answer> fcl[3], bullet[3], bullet_world[3], mine[3];
  for (int l = 0; l < 3; ++l) {
    c.fcl->Answers(kLevels[l], fcl[l]);
    c.bullet->Answers(kLevels[l], bullet[l]);
    c.bullet_world->Answers(kLevels[l], bullet_world[l]);
    if (c.collide_supported) mine[l] = CollideAnswers(c.set, kLevels[l]);
  }
  if (c.collide_supported) {
    Compare(kind.name, "collide", "fcl", mine, fcl);
    Compare(kind.name, "collide", "bullet", mine, bullet);
    Compare(kind.name, "collide", "bt_world", mine, bullet_world);
  } else {
    Note("sanity %-24s collide: kUnsupported (kernel not landed); peers compared with each other", kind.name);
    Compare(kind.name, "fcl", "bullet", fcl, bullet);
    Compare(kind.name, "fcl", "bt_world", fcl, bullet_world);
  }
  return c;
}

// ---------------------------------------------------------------------------
// Sweeps: answer every pair of a context once, return the hit count. The
// sweep is what is timed (and what callgrind counts in --instructions mode).

using Sweeper = std::function<int()>;

[[maybe_unused]] bool Hit(bool hit) { return hit; }
[[maybe_unused]] bool Hit(const PairResult& r) { return r.hit; }

// collide::Query on the variant shapes.
Sweeper QuerySweeper(const Context& c, QueryLevel level) {
  if (!c.collide_supported) return nullptr;
  return [&c, level] {
    int hits = 0;
    for (size_t i = 0; i < c.set.a.size(); ++i) {
      const PairResult r = Query(level, c.set.a[i], c.set.b[i]);
      benchmark::DoNotOptimize(r);
      hits += r.hit;
    }
    return hits;
  };
}

// The generic GJK/EPA fallback on the same pairs: what each specialized
// kernel is measured against (and the kernel of pairs that have none).
Sweeper FallbackSweeper(const Context& c, QueryLevel level) {
  if (!c.collide_supported) return nullptr;
  return [&c, level] {
    int hits = 0;
    for (size_t i = 0; i < c.set.a.size(); ++i) {
      const PairResult r = internal::QueryConvexFallback(level, c.set.a[i], c.set.b[i]);
      benchmark::DoNotOptimize(r);
      hits += r.hit;
    }
    return hits;
  };
}

// The registry slot Query() looks up: the kernel behind its variant wrapper.
Sweeper SlotSweeper(const Context& c, QueryLevel level) {
  const internal::PairFn fn = internal::GlobalRegistry().PairKernel(level, c.set.kind.a, c.set.kind.b);
  if (fn == nullptr) return nullptr;
  return [&c, fn] {
    int hits = 0;
    for (size_t i = 0; i < c.set.a.size(); ++i) {
      const PairResult r = fn(c.set.a[i], c.set.b[i]);
      benchmark::DoNotOptimize(r);
      hits += r.hit;
    }
    return hits;
  };
}

// `Kernel` is a typed kernel, bool or PairResult (const A&, const B&), called
// directly on arrays of A and B (no variant).
template <auto Kernel>
Sweeper KernelSweeper(const Context& c, QueryLevel) {
  using Traits = internal::KernelTraits<decltype(Kernel)>;
  using A = typename Traits::ShapeA;
  using B = typename Traits::ShapeB;
  auto a = std::make_shared<std::vector<A>>();
  auto b = std::make_shared<std::vector<B>>();
  for (size_t i = 0; i < c.set.a.size(); ++i) {
    a->push_back(std::get<A>(c.set.a[i]));
    b->push_back(std::get<B>(c.set.b[i]));
  }
  return [a, b] {
    int hits = 0;
    for (size_t i = 0; i < a->size(); ++i) {
      const auto r = Kernel((*a)[i], (*b)[i]);
      benchmark::DoNotOptimize(r);
      hits += Hit(r);
    }
    return hits;
  };
}

using SweeperFactory = Sweeper (*)(const Context&, QueryLevel);

enum class Impl { kKernel, kSlot, kQuery, kGjk, kFcl, kBullet, kBulletWorld, kTextbook };
constexpr Impl kImpls[] = {Impl::kKernel, Impl::kSlot,   Impl::kQuery,       Impl::kGjk,
                           Impl::kFcl,    Impl::kBullet, Impl::kBulletWorld, Impl::kTextbook};
constexpr int kImplCount = std::size(kImpls);
const char* ImplName(Impl impl) {
  constexpr const char* kNames[] = {"kernel", "slot",   "query",    "gjk",
                                    "fcl",    "bullet", "bt_world", "textbook"};
  return kNames[static_cast<int>(impl)];
}

using KernelTable = std::map<std::pair<std::string, QueryLevel>, SweeperFactory>;

// The kernels by (kind name, level) that Impl::kKernel (collide's typed
// kernels) and Impl::kTextbook (textbook_kernels.h) sweep, filled by
// AddTypedKernels; null for the other impls.
KernelTable* KernelsOf(Impl impl) {
  static KernelTable typed, textbook;
  return impl == Impl::kKernel ? &typed : impl == Impl::kTextbook ? &textbook : nullptr;
}

template <auto Intersect, auto Distance, auto Contact>
void AddKernels(const char* kind, Impl impl = Impl::kKernel) {
  KernelTable& into = *KernelsOf(impl);
  into[{kind, QueryLevel::kIntersect}] = &KernelSweeper<Intersect>;
  into[{kind, QueryLevel::kDistance}] = &KernelSweeper<Distance>;
  into[{kind, QueryLevel::kContact}] = &KernelSweeper<Contact>;
}

void AddTypedKernels() {
  using namespace internal;  // the kernels' namespace.
#if COLLIDE_BENCH_ROUND_KERNELS
  AddKernels<&IntersectSphereSphere, &DistanceSphereSphere, &ContactSphereSphere>("sphere_sphere");
  AddKernels<&IntersectSphereCapsule, &DistanceSphereCapsule, &ContactSphereCapsule>("sphere_capsule");
  AddKernels<&IntersectCapsuleCapsule, &DistanceCapsuleCapsule, &ContactCapsuleCapsule>("capsule_capsule");
#endif
#if COLLIDE_BENCH_BOX_KERNELS
  AddKernels<&IntersectSphereAabb, &DistanceSphereAabb, &ContactSphereAabb>("sphere_aabb");
  AddKernels<&IntersectSphereObb, &DistanceSphereObb, &ContactSphereObb>("sphere_obb");
  AddKernels<&IntersectCapsuleObb, &DistanceCapsuleObb, &ContactCapsuleObb>("capsule_obb");
  AddKernels<&IntersectObbObb, &DistanceObbObb, &ContactObbObb>("obb_obb");
  AddKernels<&IntersectAabbTriangle, &DistanceAabbTriangle, &ContactAabbTriangle>("aabb_triangle");
  AddKernels<&IntersectObbTriangle, &DistanceObbTriangle, &ContactObbTriangle>("obb_triangle");
#endif
#if COLLIDE_BENCH_CONVEX_KERNELS
  AddKernels<&IntersectSphereTriangle, &DistanceSphereTriangle, &ContactSphereTriangle>("sphere_triangle");
  AddKernels<&IntersectCapsuleTriangle, &DistanceCapsuleTriangle, &ContactCapsuleTriangle>(
      "capsule_triangle");
#endif
  AddKernels<&TextbookIntersectSphereTriangle, &TextbookDistanceSphereTriangle,
             &TextbookContactSphereTriangle>("sphere_triangle", Impl::kTextbook);
  AddKernels<&TextbookIntersectCapsuleCapsule, &TextbookDistanceCapsuleCapsule,
             &TextbookContactCapsuleCapsule>("capsule_capsule", Impl::kTextbook);
}

// The sweep of `impl`, or null when collide has nothing to measure there.
Sweeper MakeSweeper(Context& c, QueryLevel level, Impl impl) {
  switch (impl) {
    case Impl::kKernel:
    case Impl::kTextbook: {
      const KernelTable& kernels = *KernelsOf(impl);
      const auto it = kernels.find({c.set.kind.name, level});
      return it == kernels.end() ? nullptr : it->second(c, level);
    }
    case Impl::kSlot:
      return SlotSweeper(c, level);
    case Impl::kQuery:
      return QuerySweeper(c, level);
    case Impl::kGjk:
      return FallbackSweeper(c, level);
    case Impl::kFcl:
      return [&c, level] { return c.fcl->Sweep(level); };
    case Impl::kBullet:
      return [&c, level] { return c.bullet->Sweep(level); };
    case Impl::kBulletWorld:
      return [&c, level] { return c.bullet_world->Sweep(level); };
  }
  return nullptr;
}

std::string BenchmarkName(const PairKind& kind, QueryLevel level, Impl impl) {
  return std::string(QueryLevelName(level)) + "/" + kind.name + "/" + ImplName(impl);
}

void RunBenchmark(benchmark::State& state, int kind_index, QueryLevel level, Impl impl) {
  Context& c = GetContext(kind_index, kPairCount, /*sanity=*/true);
  const Sweeper sweep = MakeSweeper(c, level, impl);
  if (!sweep) return state.SkipWithError("collide: no kernel registered for this pair (yet)");
  int hits = 0;
  for (auto _ : state) hits = sweep();
  // CPU seconds per pair (an inverted rate over the pairs of one iteration).
  state.counters["pair_time"] =
      benchmark::Counter(static_cast<double>(c.set.a.size()),
                         benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["hit_rate"] = static_cast<double>(hits) / static_cast<double>(c.set.a.size());
}

// ---------------------------------------------------------------------------
// Registration and the summary.

void RegisterAll() {
  AddTypedKernels();
  const auto& kinds = PairKinds();
  for (int k = 0; k < static_cast<int>(kinds.size()); ++k) {
    for (const QueryLevel level : kLevels) {
      for (const Impl impl : kImpls) {
        const KernelTable* kernels = KernelsOf(impl);
        if (kernels != nullptr && !kernels->count({kinds[k].name, level})) continue;
        benchmark::RegisterBenchmark(BenchmarkName(kinds[k], level, impl).c_str(), RunBenchmark, k, level,
                                     impl);
      }
    }
  }
}

// Console output as usual, and the ns per pair of every run kept for the
// summary (the median when repetitions are aggregated).
class SummaryReporter : public CounterReporter {
 public:
  explicit SummaryReporter(OutputOptions options) : CounterReporter(options, "pair_time") {}

  std::optional<double> Ns(const std::string& name) const {
    const std::optional<double> seconds = Value(name);
    return seconds ? std::optional<double>(*seconds * 1e9) : std::nullopt;
  }

  void PrintSummary() const {
    std::FILE* out = stdout;
    std::fflush(stdout);
    std::fprintf(out, "\n");
    for (const std::string& line : SanityLines()) std::fprintf(out, "%s\n", line.c_str());
    std::fprintf(
        out,
        "\nns per pair (CPU time; the median when run with repetitions). kernel: collide's typed kernel;\n"
        "slot: the kernel behind the registry's variant wrapper; query: collide::Query; gjk: collide's\n"
        "generic GJK/EPA fallback; bullet: btGjkPairDetector; bt_world: btCollisionWorld::contactPairTest;\n"
        "textbook: Ericson's plain scalar kernel (textbook_kernels.h), where a target is missed.\n"
        "Ratios are peer time / collide time against the kernel and Query; bt = Bullet's faster API.\n"
        "Targets (specialized kernels): intersect FCL/kernel >= 5 and Bullet/kernel >= 3; distance and\n"
        "contact FCL/kernel >= 4. '-' = not measured (no specialized kernel).\n\n");
    std::fprintf(out, "%-10s %-24s", "level", "kind");
    for (const Impl impl : kImpls) std::fprintf(out, " %8s", ImplName(impl));
    std::fprintf(out, " %8s %8s %8s %8s  %s\n", "fcl/kern", "bt/kern", "fcl/qry", "bt/qry", "target");
    auto cell = [](std::optional<double> v) {
      char s[32];
      if (v) {
        std::snprintf(s, sizeof(s), " %8.1f", *v);
      } else {
        std::snprintf(s, sizeof(s), " %8s", "-");
      }
      return std::string(s);
    };
    auto ratio = [](std::optional<double> peer, std::optional<double> mine) -> std::optional<double> {
      if (!peer || !mine || *mine <= 0.0) return std::nullopt;
      return *peer / *mine;
    };
    for (const PairKind& kind : PairKinds()) {
      for (const QueryLevel level : kLevels) {
        std::optional<double> t[kImplCount];
        for (int i = 0; i < kImplCount; ++i) t[i] = Ns(BenchmarkName(kind, level, kImpls[i]));
        const auto& kernel = t[static_cast<int>(Impl::kKernel)];
        const auto& query = t[static_cast<int>(Impl::kQuery)];
        const auto& fcl = t[static_cast<int>(Impl::kFcl)];
        // Bullet's faster API for this pair (GJK detector or world dispatch).
        const auto& bt_gjk = t[static_cast<int>(Impl::kBullet)];
        const auto& bt_world = t[static_cast<int>(Impl::kBulletWorld)];
        const std::optional<double> bullet =
            bt_gjk && bt_world ? std::optional(std::min(*bt_gjk, *bt_world)) : (bt_gjk ? bt_gjk : bt_world);
        const auto fcl_kernel = ratio(fcl, kernel);
        const auto bullet_kernel = ratio(bullet, kernel);
        std::string verdict = "-";
        if (fcl_kernel) {
          const bool fcl_ok = *fcl_kernel >= (level == QueryLevel::kIntersect ? 5.0 : 4.0);
          const bool bullet_ok = level != QueryLevel::kIntersect || (bullet_kernel && *bullet_kernel >= 3.0);
          verdict = fcl_ok && bullet_ok ? "ok" : "MISS";
        }
        std::string row;
        for (const auto& v : t) row += cell(v);
        row += cell(fcl_kernel) + cell(bullet_kernel) + cell(ratio(fcl, query)) + cell(ratio(bullet, query));
        std::fprintf(out, "%-10s %-24s%s  %s\n", std::string(QueryLevelName(level)).c_str(), kind.name,
                     row.c_str(), verdict.c_str());
      }
    }
    std::fflush(out);
  }
};

// --instructions=N mode, run under `valgrind --tool=callgrind
// --collect-atstart=no`: one sweep of the first N pairs per benchmark, each
// collected alone and dumped under the benchmark's name, so that callgrind's
// instruction counts (independent of machine load) divide into
// instructions per pair. scripts/bench.sh parses the dumps.
int CountInstructions(int pairs, const std::regex& filter) {
  if (!RUNNING_ON_VALGRIND) std::fprintf(stderr, "--instructions: not under callgrind, nothing is counted\n");
  AddTypedKernels();
  const auto& kinds = PairKinds();
  for (int k = 0; k < static_cast<int>(kinds.size()); ++k) {
    for (const QueryLevel level : kLevels) {
      for (const Impl impl : kImpls) {
        const std::string name = BenchmarkName(kinds[k], level, impl);
        if (!std::regex_search(name, filter)) continue;
        Context& c = GetContext(k, pairs, /*sanity=*/false);
        const Sweeper sweep = MakeSweeper(c, level, impl);
        if (!sweep) continue;
        CALLGRIND_TOGGLE_COLLECT;
        const int hits = sweep();
        CALLGRIND_TOGGLE_COLLECT;
        CALLGRIND_DUMP_STATS_AT(name.c_str());
        std::printf("%s pairs=%d hits=%d\n", name.c_str(), pairs, hits);
      }
    }
  }
  return 0;
}

}  // namespace
}  // namespace collide::bench

int main(int argc, char** argv) {
  // Our own flags first; the rest are Google Benchmark's.
  int instruction_pairs = 0;
  std::string instruction_filter = ".";
  int kept = 1;
  // Google Benchmark applies --benchmark_color to its own default reporter
  // only: honour it (and colour only a terminal) for ours.
  bool color = isatty(fileno(stdout));
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--benchmark_color=false" || arg == "--benchmark_color=no") color = false;
    if (arg.starts_with("--instructions=")) {
      instruction_pairs = std::atoi(argv[i] + std::strlen("--instructions="));
    } else if (arg.starts_with("--instructions_filter=")) {
      instruction_filter = argv[i] + std::strlen("--instructions_filter=");
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  if (instruction_pairs > 0) {
    return collide::bench::CountInstructions(std::min(instruction_pairs, collide::bench::kPairCount),
                                             std::regex(instruction_filter));
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  collide::bench::RegisterAll();
  collide::bench::SummaryReporter reporter(color ? benchmark::ConsoleReporter::OO_ColorTabular
                                                 : benchmark::ConsoleReporter::OO_Tabular);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.PrintSummary();
  benchmark::Shutdown();
  return 0;
}
