#include "client_convert.h"

#include <type_traits>
#include <variant>

#include "absl/strings/str_cat.h"
#include "collide/client.h"

namespace collide {
namespace {

void ToProtoVec(const Vec3& v, v1::Vec3& out) {
  out.set_x(v.x);
  out.set_y(v.y);
  out.set_z(v.z);
}

Vec3 FromProtoVec(const v1::Vec3& v) { return {v.x(), v.y(), v.z()}; }

// Element i of a packed vector array (3 doubles per element).
Vec3 PackedVec(const google::protobuf::RepeatedField<double>& a, std::size_t i) {
  const int k = static_cast<int>(3 * i);
  return {a.Get(k), a.Get(k + 1), a.Get(k + 2)};
}

}  // namespace

int PackedStride(ShapeKind kind) {
  // The strides of the proto's PackedShapeKind comments.
  switch (kind) {
    case ShapeKind::kPoint:
      return 3;
    case ShapeKind::kSegment:
      return 6;
    case ShapeKind::kSphere:
      return 4;
    case ShapeKind::kCapsule:
      return 7;
    case ShapeKind::kAabb:
      return 6;
    case ShapeKind::kObb:
      return 10;
    case ShapeKind::kTriangle:
      return 9;
    case ShapeKind::kConvexHull:
      return 0;
    case ShapeKind::kHalfspace:
      return 4;
  }
  return 0;
}

bool AppendPacked(const Shape& shape, std::vector<double>& out) {
  const auto vec = [&out](const Vec3& v) { out.insert(out.end(), {v.x, v.y, v.z}); };
  return std::visit(
      [&](const auto& s) {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, Point>) {
          vec(s.position);
        } else if constexpr (std::is_same_v<T, Segment>) {
          vec(s.a), vec(s.b);
        } else if constexpr (std::is_same_v<T, Sphere>) {
          vec(s.center), out.push_back(s.radius);
        } else if constexpr (std::is_same_v<T, Capsule>) {
          vec(s.a), vec(s.b), out.push_back(s.radius);
        } else if constexpr (std::is_same_v<T, Aabb>) {
          vec(s.min), vec(s.max);
        } else if constexpr (std::is_same_v<T, Obb>) {
          const Quat q = QuatFromRotation(s.rotation);
          vec(s.center), out.insert(out.end(), {q.w, q.x, q.y, q.z}), vec(s.half_extents);
        } else if constexpr (std::is_same_v<T, Triangle>) {
          vec(s.a), vec(s.b), vec(s.c);
        } else if constexpr (std::is_same_v<T, ConvexHull>) {
          return false;
        } else {
          static_assert(std::is_same_v<T, Halfspace>);
          vec(s.normal), out.push_back(s.offset);
        }
        return true;
      },
      shape);
}

v1::QueryLevel ToProtoLevel(QueryLevel level) {
  switch (level) {
    case QueryLevel::kIntersect:
      return v1::QUERY_LEVEL_INTERSECT;
    case QueryLevel::kDistance:
      return v1::QUERY_LEVEL_DISTANCE;
    case QueryLevel::kContact:
      return v1::QUERY_LEVEL_CONTACT;
  }
  return v1::QUERY_LEVEL_UNSPECIFIED;
}

v1::PackedShapeKind ToProtoPackedKind(ShapeKind kind) {
  switch (kind) {
    case ShapeKind::kPoint:
      return v1::PACKED_SHAPE_KIND_POINT;
    case ShapeKind::kSegment:
      return v1::PACKED_SHAPE_KIND_SEGMENT;
    case ShapeKind::kSphere:
      return v1::PACKED_SHAPE_KIND_SPHERE;
    case ShapeKind::kCapsule:
      return v1::PACKED_SHAPE_KIND_CAPSULE;
    case ShapeKind::kAabb:
      return v1::PACKED_SHAPE_KIND_AABB;
    case ShapeKind::kObb:
      return v1::PACKED_SHAPE_KIND_OBB;
    case ShapeKind::kTriangle:
      return v1::PACKED_SHAPE_KIND_TRIANGLE;
    case ShapeKind::kConvexHull:
      return v1::PACKED_SHAPE_KIND_UNSPECIFIED;
    case ShapeKind::kHalfspace:
      return v1::PACKED_SHAPE_KIND_HALFSPACE;
  }
  return v1::PACKED_SHAPE_KIND_UNSPECIFIED;
}

void ToProtoShape(const Shape& shape, v1::Shape& out) {
  std::visit(
      [&out](const auto& s) {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, Point>) {
          ToProtoVec(s.position, *out.mutable_point()->mutable_position());
        } else if constexpr (std::is_same_v<T, Segment>) {
          ToProtoVec(s.a, *out.mutable_segment()->mutable_a());
          ToProtoVec(s.b, *out.mutable_segment()->mutable_b());
        } else if constexpr (std::is_same_v<T, Sphere>) {
          ToProtoVec(s.center, *out.mutable_sphere()->mutable_center());
          out.mutable_sphere()->set_radius(s.radius);
        } else if constexpr (std::is_same_v<T, Capsule>) {
          ToProtoVec(s.a, *out.mutable_capsule()->mutable_a());
          ToProtoVec(s.b, *out.mutable_capsule()->mutable_b());
          out.mutable_capsule()->set_radius(s.radius);
        } else if constexpr (std::is_same_v<T, Aabb>) {
          ToProtoVec(s.min, *out.mutable_aabb()->mutable_min());
          ToProtoVec(s.max, *out.mutable_aabb()->mutable_max());
        } else if constexpr (std::is_same_v<T, Obb>) {
          // The wire carries a quaternion; the server rebuilds the matrix with
          // RotationFromQuat, which matches s.rotation to ~1e-16.
          v1::Obb& obb = *out.mutable_obb();
          ToProtoVec(s.center, *obb.mutable_center());
          const Quat q = QuatFromRotation(s.rotation);
          obb.mutable_rotation()->set_w(q.w);
          obb.mutable_rotation()->set_x(q.x);
          obb.mutable_rotation()->set_y(q.y);
          obb.mutable_rotation()->set_z(q.z);
          ToProtoVec(s.half_extents, *obb.mutable_half_extents());
        } else if constexpr (std::is_same_v<T, Triangle>) {
          ToProtoVec(s.a, *out.mutable_triangle()->mutable_a());
          ToProtoVec(s.b, *out.mutable_triangle()->mutable_b());
          ToProtoVec(s.c, *out.mutable_triangle()->mutable_c());
        } else if constexpr (std::is_same_v<T, ConvexHull>) {
          v1::ConvexHull& hull = *out.mutable_convex_hull();
          hull.mutable_vertices()->Reserve(static_cast<int>(s.vertices.size()));
          for (const Vec3& v : s.vertices) ToProtoVec(v, *hull.add_vertices());
        } else {
          static_assert(std::is_same_v<T, Halfspace>);
          ToProtoVec(s.normal, *out.mutable_halfspace()->mutable_normal());
          out.mutable_halfspace()->set_offset(s.offset);
        }
      },
      shape);
}

void ToProtoRay(const Ray& ray, v1::Ray& out) {
  ToProtoVec(ray.origin, *out.mutable_origin());
  ToProtoVec(ray.direction, *out.mutable_direction());
  // Unset means unbounded; an explicit +Infinity is allowed too, but leaving
  // it out keeps the JSON form of requests free of "Infinity".
  if (ray.max_distance != kInfinity) out.set_max_distance(ray.max_distance);
}

namespace {

QueryStatus FromProtoStatus(v1::ResultStatus s) {
  return s == v1::RESULT_STATUS_NOT_CONVERGED ? QueryStatus::kNotConverged : QueryStatus::kOk;
}

}  // namespace

PairResult FromProtoPairResult(const v1::PairResult& r) {
  return {FromProtoStatus(r.status()),
          r.hit(),
          r.distance(),
          FromProtoVec(r.point_a()),
          FromProtoVec(r.point_b()),
          FromProtoVec(r.normal())};
}

RayHit FromProtoRayHit(const v1::RayHit& h) {
  return {FromProtoStatus(h.status()), h.hit(), h.distance(), FromProtoVec(h.point()),
          FromProtoVec(h.normal())};
}

absl::StatusOr<std::vector<PairResult>> FromProtoPackedResults(const v1::QueryPairsPackedResponse& r,
                                                               std::size_t count, QueryLevel level) {
  const auto n = static_cast<int>(count);
  const bool geometry = level != QueryLevel::kIntersect;
  const int scalars = geometry ? n : 0;
  if (r.hit_size() != n || r.distance_size() != scalars || r.point_a_size() != 3 * scalars ||
      r.point_b_size() != 3 * scalars || r.normal_size() != 3 * scalars) {
    return absl::InternalError(absl::StrCat("client: malformed packed response for ", count, " pairs (",
                                            r.hit_size(), " hits, ", r.distance_size(), " distances)"));
  }
  std::vector<PairResult> out(count);
  for (std::size_t i = 0; i < count; ++i) {
    PairResult& p = out[i];
    p.hit = r.hit(static_cast<int>(i));
    if (geometry) {
      p.distance = r.distance(static_cast<int>(i));
      p.point_a = PackedVec(r.point_a(), i);
      p.point_b = PackedVec(r.point_b(), i);
      p.normal = PackedVec(r.normal(), i);
    }
  }
  for (const int i : r.not_converged()) {
    if (i < 0 || i >= n)
      return absl::InternalError(absl::StrCat("client: not_converged index ", i, " out of range"));
    out[i].status = QueryStatus::kNotConverged;
  }
  return out;
}

absl::StatusOr<std::vector<RayHit>> FromProtoPackedHits(const v1::CastRaysPackedResponse& r,
                                                        std::size_t count) {
  const auto n = static_cast<int>(count);
  if (r.hit_size() != n || r.distance_size() != n || r.point_size() != 3 * n || r.normal_size() != 3 * n) {
    return absl::InternalError(absl::StrCat("client: malformed packed response for ", count, " rays"));
  }
  std::vector<RayHit> out(count);
  for (std::size_t i = 0; i < count; ++i) {
    out[i] = {QueryStatus::kOk, r.hit(static_cast<int>(i)), r.distance(static_cast<int>(i)),
              PackedVec(r.point(), i), PackedVec(r.normal(), i)};
  }
  for (const int i : r.not_converged()) {
    if (i < 0 || i >= n)
      return absl::InternalError(absl::StrCat("client: not_converged index ", i, " out of range"));
    out[i].status = QueryStatus::kNotConverged;
  }
  return out;
}

}  // namespace collide
