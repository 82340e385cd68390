#include "convert/results.h"

#include <cstring>

#include "convert/shapes.h"

namespace collide::convert {
namespace {

using google::protobuf::RepeatedField;

bool AllBitsZero(const Vec3& v) {
  static constexpr Vec3 kZero{};
  return std::memcmp(&v, &kZero, sizeof(Vec3)) == 0;
}

QueryStatus StatusFromProto(v1::ResultStatus status) {
  return status == v1::RESULT_STATUS_NOT_CONVERGED ? QueryStatus::kNotConverged : QueryStatus::kOk;
}

// Replaces the contents of `field` by n uninitialized elements and returns
// their storage (the caller writes every one).
template <typename T>
T* Sized(RepeatedField<T>* field, std::size_t n) {
  field->Clear();
  field->Reserve(static_cast<int>(n));
  return field->AddNAlreadyReserved(static_cast<int>(n));
}

Vec3 Get(const RepeatedField<double>& a, std::size_t i) {
  return a.empty() ? Vec3{} : Vec3{a[3 * i], a[3 * i + 1], a[3 * i + 2]};
}

bool FitsVectors(const RepeatedField<double>& a, std::size_t n) {
  return a.empty() || static_cast<std::size_t>(a.size()) == 3 * n;
}

}  // namespace

v1::ResultStatus ToProto(QueryStatus status) {
  return status == QueryStatus::kNotConverged ? v1::RESULT_STATUS_NOT_CONVERGED : v1::RESULT_STATUS_OK;
}

void ToProto(const PairResult& in, v1::PairResult* out) {
  out->set_hit(in.hit);
  out->set_distance(in.distance);
  if (!AllBitsZero(in.point_a)) ToProto(in.point_a, out->mutable_point_a());
  if (!AllBitsZero(in.point_b)) ToProto(in.point_b, out->mutable_point_b());
  if (!AllBitsZero(in.normal)) ToProto(in.normal, out->mutable_normal());
  out->set_status(ToProto(in.status));
}

void ToProto(const RayHit& in, v1::RayHit* out) {
  out->set_status(ToProto(in.status));
  if (!in.hit) return;
  out->set_hit(true);
  out->set_distance(in.distance);
  ToProto(in.point, out->mutable_point());
  ToProto(in.normal, out->mutable_normal());
}

PairResult FromProto(const v1::PairResult& in) {
  return {
      StatusFromProto(in.status()), in.hit(), in.distance(), FromProto(in.point_a()), FromProto(in.point_b()),
      FromProto(in.normal())};
}

RayHit FromProto(const v1::RayHit& in) {
  return {StatusFromProto(in.status()), in.hit(), in.distance(), FromProto(in.point()),
          FromProto(in.normal())};
}

void Encode(std::span<const PairResult> results, v1::QueryPairsResponse* out) {
  auto* messages = out->mutable_results();
  messages->Reserve(messages->size() + static_cast<int>(results.size()));
  for (const PairResult& r : results) ToProto(r, messages->Add());
}

void Encode(std::span<const RayHit> hits, v1::CastRaysResponse* out) {
  auto* messages = out->mutable_hits();
  messages->Reserve(messages->size() + static_cast<int>(hits.size()));
  for (const RayHit& h : hits) ToProto(h, messages->Add());
}

PackedPairArrays SizePacked(std::size_t n, QueryLevel level, v1::QueryPairsPackedResponse* out) {
  out->clear_not_converged();
  PackedPairArrays arrays;
  arrays.hit = Sized(out->mutable_hit(), n);
  if (level == QueryLevel::kIntersect) {
    out->clear_distance();
    out->clear_point_a();
    out->clear_point_b();
    out->clear_normal();
  } else {
    arrays.distance = Sized(out->mutable_distance(), n);
    arrays.point_a = Sized(out->mutable_point_a(), 3 * n);
    arrays.point_b = Sized(out->mutable_point_b(), 3 * n);
    arrays.normal = Sized(out->mutable_normal(), 3 * n);
  }
  return arrays;
}

PackedRayArrays SizePacked(std::size_t n, v1::CastRaysPackedResponse* out) {
  out->clear_not_converged();
  return {Sized(out->mutable_hit(), n), Sized(out->mutable_distance(), n), Sized(out->mutable_point(), 3 * n),
          Sized(out->mutable_normal(), 3 * n)};
}

namespace {

template <typename Response>
void ListNotConvergedIn(std::span<const QueryStatus> statuses, Response* out) {
  for (std::size_t i = 0; i < statuses.size(); ++i) {
    if (statuses[i] == QueryStatus::kNotConverged) out->add_not_converged(static_cast<int>(i));
  }
}

}  // namespace

void ListNotConverged(std::span<const QueryStatus> statuses, v1::QueryPairsPackedResponse* out) {
  ListNotConvergedIn(statuses, out);
}
void ListNotConverged(std::span<const QueryStatus> statuses, v1::CastRaysPackedResponse* out) {
  ListNotConvergedIn(statuses, out);
}

void EncodePacked(std::span<const PairResult> results, QueryLevel level, v1::QueryPairsPackedResponse* out) {
  const PackedPairArrays arrays = SizePacked(results.size(), level, out);
  for (std::size_t i = 0; i < results.size(); ++i) {
    arrays.Put(i, results[i]);
    if (results[i].status == QueryStatus::kNotConverged) out->add_not_converged(static_cast<int>(i));
  }
}

void EncodePacked(std::span<const RayHit> hits, v1::CastRaysPackedResponse* out) {
  const PackedRayArrays arrays = SizePacked(hits.size(), out);
  for (std::size_t i = 0; i < hits.size(); ++i) {
    arrays.Put(i, hits[i]);
    if (hits[i].status == QueryStatus::kNotConverged) out->add_not_converged(static_cast<int>(i));
  }
}

bool DecodePacked(const v1::QueryPairsPackedResponse& in, std::size_t n, std::vector<PairResult>& out) {
  if (static_cast<std::size_t>(in.hit_size()) != n) return false;
  if (!in.distance().empty() && static_cast<std::size_t>(in.distance_size()) != n) return false;
  if (!FitsVectors(in.point_a(), n) || !FitsVectors(in.point_b(), n) || !FitsVectors(in.normal(), n))
    return false;
  // Appended rather than resized and assigned: no zero fill of what is
  // overwritten at once.
  out.clear();
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back({QueryStatus::kOk, in.hit(i), in.distance().empty() ? 0.0 : in.distance(i),
                   Get(in.point_a(), i), Get(in.point_b(), i), Get(in.normal(), i)});
  }
  for (int i : in.not_converged()) {
    if (i < 0 || static_cast<std::size_t>(i) >= n) return false;
    out[i].status = QueryStatus::kNotConverged;
  }
  return true;
}

bool DecodePacked(const v1::CastRaysPackedResponse& in, std::size_t n, std::vector<RayHit>& out) {
  if (static_cast<std::size_t>(in.hit_size()) != n) return false;
  if (!in.distance().empty() && static_cast<std::size_t>(in.distance_size()) != n) return false;
  if (!FitsVectors(in.point(), n) || !FitsVectors(in.normal(), n)) return false;
  out.clear();
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back({QueryStatus::kOk, in.hit(i), in.distance().empty() ? 0.0 : in.distance(i),
                   Get(in.point(), i), Get(in.normal(), i)});
  }
  for (int i : in.not_converged()) {
    if (i < 0 || static_cast<std::size_t>(i) >= n) return false;
    out[i].status = QueryStatus::kNotConverged;
  }
  return true;
}

}  // namespace collide::convert
