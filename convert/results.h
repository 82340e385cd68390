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

// The arrays of a packed response sized for n results and not initialized,
// so that a batch writes each result in place as it is computed (Put, from
// any thread, each index once): no intermediate copy and no zero fill. At
// INTERSECT only `hit` is sized and the geometry pointers are null.
struct PackedPairArrays {
  bool* hit = nullptr;
  double* distance = nullptr;
  double* point_a = nullptr;
  double* point_b = nullptr;
  double* normal = nullptr;

  void Put(std::size_t i, const PairResult& r) const {
    hit[i] = r.hit;
    if (distance == nullptr) return;
    distance[i] = r.distance;
    for (int k = 0; k < 3; ++k) {
      point_a[3 * i + k] = r.point_a[k];
      point_b[3 * i + k] = r.point_b[k];
      normal[3 * i + k] = r.normal[k];
    }
  }
};
struct PackedRayArrays {
  bool* hit = nullptr;
  double* distance = nullptr;
  double* point = nullptr;
  double* normal = nullptr;

  void Put(std::size_t i, const RayHit& h) const {
    hit[i] = h.hit;
    distance[i] = h.distance;
    for (int k = 0; k < 3; ++k) {
      point[3 * i + k] = h.point[k];
      normal[3 * i + k] = h.normal[k];
    }
  }
};
// Replaces the arrays' contents (and clears not_converged); every index in
// [0, n) must then be Put before the response is sent.
PackedPairArrays SizePacked(std::size_t n, QueryLevel level, v1::QueryPairsPackedResponse* out);
PackedRayArrays SizePacked(std::size_t n, v1::CastRaysPackedResponse* out);
// Lists in not_converged the indices whose status is kNotConverged.
void ListNotConverged(std::span<const QueryStatus> statuses, v1::QueryPairsPackedResponse* out);
void ListNotConverged(std::span<const QueryStatus> statuses, v1::CastRaysPackedResponse* out);

// The inverse, for clients expecting `n` results: false when an array's
// length does not fit n (empty geometry arrays read as zeros, as at
// INTERSECT).
bool DecodePacked(const v1::QueryPairsPackedResponse& in, std::size_t n, std::vector<PairResult>& out);
bool DecodePacked(const v1::CastRaysPackedResponse& in, std::size_t n, std::vector<RayHit>& out);

}  // namespace collide::convert

#endif  // COLLIDE_CONVERT_RESULTS_H_
