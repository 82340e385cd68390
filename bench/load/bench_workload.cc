#include "bench_workload.h"

#include "support/random_shapes.h"

namespace collide::cli {

BenchWorkload MakeBenchWorkload(ShapeKind kind, int count, std::uint64_t seed) {
  BenchWorkload w{kind, {}, {}, {}, std::make_shared<testing::ShapeFactory>(seed)};
  w.pairs.reserve(count);
  for (int i = 0; i < count; ++i) {
    ShapePair& p = w.pairs.emplace_back(ShapePair{w.factory->Make(kind), w.factory->Make(kind)});
    if (PackedStride(kind) > 0) {
      AppendPacked(p.a, w.packed_a);
      AppendPacked(p.b, w.packed_b);
    }
  }
  return w;
}

std::optional<ShapeKind> ParseShapeKind(std::string_view name) {
  for (int k = 0; k < kShapeKindCount; ++k) {
    if (ShapeKindName(static_cast<ShapeKind>(k)) == name) return static_cast<ShapeKind>(k);
  }
  return std::nullopt;
}

}  // namespace collide::cli
