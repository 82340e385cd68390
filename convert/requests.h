// Whole collide.v1 requests -> core batches, validated with full paths:
// "pairs[3].b.capsule.radius", "pairs[0].a" (no shape set), "a.data[41]",
// "a.data" (wrong length), "level". A request is either wholly valid or
// rejected with every violation (bounded by ViolationList).
//
// The batches are meant to be reused: decoding into a batch from a previous
// request reuses its vectors and hull storage, so a steady stream of requests
// allocates nothing per item.
#ifndef COLLIDE_CONVERT_REQUESTS_H_
#define COLLIDE_CONVERT_REQUESTS_H_

#include <cstddef>
#include <vector>

#include "collide/result.h"
#include "collide/shapes.h"
#include "collide/v1/collide.pb.h"
#include "convert/shapes.h"
#include "convert/violations.h"

namespace collide::convert {

// Pair i is (a[i], b[i]). Hull spans point into `arena`.
struct PairBatch {
  QueryLevel level = QueryLevel::kIntersect;
  std::vector<Shape> a;
  std::vector<Shape> b;
  DecodeArena arena;
  std::vector<Violation> scratch;  // Per-shape violations before prefixing.

  std::size_t size() const { return a.size(); }
};

// Cast i is rays[i] against shapes[i].
struct RayBatch {
  std::vector<Ray> rays;
  std::vector<Shape> shapes;
  DecodeArena arena;
  std::vector<Violation> scratch;

  std::size_t size() const { return rays.size(); }
};

// The number of items a request asks for, without decoding it (for limit
// checks before any work): pairs or casts; for packed requests the larger of
// the two arrays' shape counts (0 for an array of unknown kind).
std::size_t ItemCount(const v1::QueryPairsRequest& request);
std::size_t ItemCount(const v1::QueryPairsPackedRequest& request);
std::size_t ItemCount(const v1::CastRaysRequest& request);
std::size_t ItemCount(const v1::CastRaysPackedRequest& request);

// Each returns true when the request is valid and `out` holds it; otherwise
// false with `violations` listing the problems (`out` is then unspecified).
// An empty batch is a violation.
bool Decode(const v1::QueryPairsRequest& request, PairBatch& out, ViolationList& violations);
bool Decode(const v1::QueryPairsPackedRequest& request, PairBatch& out, ViolationList& violations);
bool Decode(const v1::CastRaysRequest& request, RayBatch& out, ViolationList& violations);
bool Decode(const v1::CastRaysPackedRequest& request, RayBatch& out, ViolationList& violations);

}  // namespace collide::convert

#endif  // COLLIDE_CONVERT_REQUESTS_H_
