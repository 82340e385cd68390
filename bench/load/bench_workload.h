// The pairs `collide bench` sends: seeded random shapes of one kind, in both
// encodings, kept alive for the whole run.
#ifndef COLLIDE_BENCH_LOAD_BENCH_WORKLOAD_H_
#define COLLIDE_BENCH_LOAD_BENCH_WORKLOAD_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "collide/client.h"
#include "collide/shapes.h"

namespace collide::testing {
class ShapeFactory;
}

namespace collide::cli {

struct BenchWorkload {
  ShapeKind kind;
  std::vector<ShapePair> pairs;
  // Packed encodings of the a and b sides (empty for convex_hull).
  std::vector<double> packed_a;
  std::vector<double> packed_b;
  // Owns the vertices of hull shapes.
  std::shared_ptr<testing::ShapeFactory> factory;
};

// `count` pairs of `kind` vs `kind`, centres uniform in a cube of side 4 and
// sizes in [0.1, 1]: a mix of hits and misses (the hit rate is reported).
BenchWorkload MakeBenchWorkload(ShapeKind kind, int count, std::uint64_t seed);

// The kind named `name` ("obb", "convex_hull", ...), as ShapeKindName spells it.
std::optional<ShapeKind> ParseShapeKind(std::string_view name);

}  // namespace collide::cli

#endif  // COLLIDE_BENCH_LOAD_BENCH_WORKLOAD_H_
