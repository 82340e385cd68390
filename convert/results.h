// Core results <-> collide.v1 result messages, readable and packed.
#ifndef COLLIDE_CONVERT_RESULTS_H_
#define COLLIDE_CONVERT_RESULTS_H_

#include <cstddef>
#include <span>
#include <vector>

#include "collide/result.h"
#include "collide/v1/collide.pb.h"

namespace collide::convert {

// kNotConverged -> RESULT_STATUS_NOT_CONVERGED, everything else OK (the
// server rejects kUnsupported pairs before running them).
v1::ResultStatus ToProto(QueryStatus status);

// Vectors that are exactly zero (all bits) are left unset, which reads back
// as zero; -0.0 is kept.
void ToProto(const PairResult& in, v1::PairResult* out);
// On a miss only status is set (collide.proto).
void ToProto(const RayHit& in, v1::RayHit* out);
PairResult FromProto(const v1::PairResult& in);
RayHit FromProto(const v1::RayHit& in);

// Appends one message per result, in order.
void Encode(std::span<const PairResult> results, v1::QueryPairsResponse* out);
void Encode(std::span<const RayHit> hits, v1::CastRaysResponse* out);

// Fills the parallel arrays (replacing their contents): INTERSECT fills only
// `hit`, DISTANCE and CONTACT every array; not_converged lists the indices
// whose status is kNotConverged.
void EncodePacked(std::span<const PairResult> results, QueryLevel level, v1::QueryPairsPackedResponse* out);
void EncodePacked(std::span<const RayHit> hits, v1::CastRaysPackedResponse* out);

// The inverse, for clients expecting `n` results: false when an array's
// length does not fit n (empty geometry arrays read as zeros, as at
// INTERSECT).
bool DecodePacked(const v1::QueryPairsPackedResponse& in, std::size_t n, std::vector<PairResult>& out);
bool DecodePacked(const v1::CastRaysPackedResponse& in, std::size_t n, std::vector<RayHit>& out);

}  // namespace collide::convert

#endif  // COLLIDE_CONVERT_RESULTS_H_
