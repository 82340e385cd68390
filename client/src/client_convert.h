// The conversions the client needs and the server does not: core shapes and
// rays to proto, proto results (readable and packed) back to core. The
// server's directions (proto shapes in, core results out) live in convert/.
#ifndef COLLIDE_CLIENT_SRC_CLIENT_CONVERT_H_
#define COLLIDE_CLIENT_SRC_CLIENT_CONVERT_H_

#include <cstddef>
#include <vector>

#include "absl/status/statusor.h"
#include "collide/result.h"
#include "collide/shapes.h"
#include "collide/v1/collide.pb.h"

namespace collide {

v1::QueryLevel ToProtoLevel(QueryLevel level);
// PACKED_SHAPE_KIND_UNSPECIFIED for ConvexHull (no packed form).
v1::PackedShapeKind ToProtoPackedKind(ShapeKind kind);

void ToProtoShape(const Shape& shape, v1::Shape& out);
void ToProtoRay(const Ray& ray, v1::Ray& out);

PairResult FromProtoPairResult(const v1::PairResult& r);
RayHit FromProtoRayHit(const v1::RayHit& h);

// The parallel arrays of a packed response as `count` results; INTERNAL when
// their sizes are not those the proto promises for `count` pairs at `level`.
absl::StatusOr<std::vector<PairResult>> FromProtoPackedResults(const v1::QueryPairsPackedResponse& r,
                                                               std::size_t count, QueryLevel level);
absl::StatusOr<std::vector<RayHit>> FromProtoPackedHits(const v1::CastRaysPackedResponse& r,
                                                        std::size_t count);

}  // namespace collide

#endif  // COLLIDE_CLIENT_SRC_CLIENT_CONVERT_H_
