#include "convert/packed.h"

#include <cstring>
#include <variant>

#include "convert/shapes.h"

namespace collide::convert {
namespace {

// Field names of each double of a packed shape, in stride order (collide.proto
// PackedShapeKind), matching the paths the core's Validate reports.
constexpr std::string_view kPointFields[] = {"position.x", "position.y", "position.z"};
constexpr std::string_view kSegmentFields[] = {"a.x", "a.y", "a.z", "b.x", "b.y", "b.z"};
constexpr std::string_view kSphereFields[] = {"center.x", "center.y", "center.z", "radius"};
constexpr std::string_view kCapsuleFields[] = {"a.x", "a.y", "a.z", "b.x", "b.y", "b.z", "radius"};
constexpr std::string_view kAabbFields[] = {"min.x", "min.y", "min.z", "max.x", "max.y", "max.z"};
constexpr std::string_view kObbFields[] = {"center.x",       "center.y",      "center.z",   "rotation.w",
                                           "rotation.x",     "rotation.y",    "rotation.z", "half_extents.x",
                                           "half_extents.y", "half_extents.z"};
constexpr std::string_view kTriangleFields[] = {"a.x", "a.y", "a.z", "b.x", "b.y",
                                                "b.z", "c.x", "c.y", "c.z"};
constexpr std::string_view kHalfspaceFields[] = {"normal.x", "normal.y", "normal.z", "offset"};
constexpr std::string_view kRayFields[] = {"origin.x",    "origin.y",    "origin.z",    "direction.x",
                                           "direction.y", "direction.z", "max_distance"};

std::span<const std::string_view> FieldsOf(ShapeKind kind) {
  switch (kind) {
    case ShapeKind::kPoint:
      return kPointFields;
    case ShapeKind::kSegment:
      return kSegmentFields;
    case ShapeKind::kSphere:
      return kSphereFields;
    case ShapeKind::kCapsule:
      return kCapsuleFields;
    case ShapeKind::kAabb:
      return kAabbFields;
    case ShapeKind::kObb:
      return kObbFields;
    case ShapeKind::kTriangle:
      return kTriangleFields;
    case ShapeKind::kConvexHull:
      return {};
    case ShapeKind::kHalfspace:
      return kHalfspaceFields;
  }
  return {};
}

// Exact name first, then the first field of a group ("rotation" ->
// "rotation.w").
int FieldOffset(std::span<const std::string_view> fields, std::string_view field) {
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (fields[i] == field) return static_cast<int>(i);
  }
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].size() > field.size() && fields[i].substr(0, field.size()) == field &&
        fields[i][field.size()] == '.') {
      return static_cast<int>(i);
    }
  }
  return 0;
}

// Wire numbers below 1e-50 in magnitude read as 0 (FlushTiny; collide.proto).
Vec3 V(const double* d) { return FlushTiny(Vec3{d[0], d[1], d[2]}); }

void Put(const Vec3& v, double* out) {
  out[0] = v.x;
  out[1] = v.y;
  out[2] = v.z;
}

}  // namespace

std::optional<ShapeKind> PackedKindFromProto(int kind) {
  switch (kind) {
    case v1::PACKED_SHAPE_KIND_POINT:
      return ShapeKind::kPoint;
    case v1::PACKED_SHAPE_KIND_SEGMENT:
      return ShapeKind::kSegment;
    case v1::PACKED_SHAPE_KIND_SPHERE:
      return ShapeKind::kSphere;
    case v1::PACKED_SHAPE_KIND_CAPSULE:
      return ShapeKind::kCapsule;
    case v1::PACKED_SHAPE_KIND_AABB:
      return ShapeKind::kAabb;
    case v1::PACKED_SHAPE_KIND_OBB:
      return ShapeKind::kObb;
    case v1::PACKED_SHAPE_KIND_TRIANGLE:
      return ShapeKind::kTriangle;
    case v1::PACKED_SHAPE_KIND_HALFSPACE:
      return ShapeKind::kHalfspace;
    default:
      return std::nullopt;
  }
}

std::optional<v1::PackedShapeKind> PackedKindOf(ShapeKind kind) {
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
      return std::nullopt;
    case ShapeKind::kHalfspace:
      return v1::PACKED_SHAPE_KIND_HALFSPACE;
  }
  return std::nullopt;
}

int PackedStride(ShapeKind kind) { return static_cast<int>(FieldsOf(kind).size()); }

int PackedFieldOffset(ShapeKind kind, std::string_view field) { return FieldOffset(FieldsOf(kind), field); }

int PackedRayFieldOffset(std::string_view field) { return FieldOffset(kRayFields, field); }

bool UnpackShape(ShapeKind kind, const double* d, Shape& out, std::vector<Violation>& violations) {
  switch (kind) {
    case ShapeKind::kPoint:
      return Validate(out.emplace<Point>(Point{V(d)}), violations);
    case ShapeKind::kSegment:
      return Validate(out.emplace<Segment>(Segment{V(d), V(d + 3)}), violations);
    case ShapeKind::kSphere:
      return Validate(out.emplace<Sphere>(Sphere{V(d), FlushTiny(d[3])}), violations);
    case ShapeKind::kCapsule:
      return Validate(out.emplace<Capsule>(Capsule{V(d), V(d + 3), FlushTiny(d[6])}), violations);
    case ShapeKind::kAabb:
      return Validate(out.emplace<Aabb>(Aabb{V(d), V(d + 3)}), violations);
    case ShapeKind::kObb: {
      // No "unset" rotation in packed form: the quaternion must be unit.
      return ObbFromWire({d[0], d[1], d[2]}, {d[3], d[4], d[5], d[6]}, {d[7], d[8], d[9]}, out, violations);
    }
    case ShapeKind::kTriangle:
      return Validate(out.emplace<Triangle>(Triangle{V(d), V(d + 3), V(d + 6)}), violations);
    case ShapeKind::kConvexHull:
      break;
    case ShapeKind::kHalfspace:
      return Validate(out.emplace<Halfspace>(Halfspace{V(d), FlushTiny(d[3])}), violations);
  }
  violations.push_back({"", "convex_hull has no packed form"});
  return false;
}

namespace {

struct ShapePacker {
  double* out;
  void operator()(const Point& s) const { Put(s.position, out); }
  void operator()(const Segment& s) const {
    Put(s.a, out);
    Put(s.b, out + 3);
  }
  void operator()(const Sphere& s) const {
    Put(s.center, out);
    out[3] = s.radius;
  }
  void operator()(const Capsule& s) const {
    Put(s.a, out);
    Put(s.b, out + 3);
    out[6] = s.radius;
  }
  void operator()(const Aabb& s) const {
    Put(s.min, out);
    Put(s.max, out + 3);
  }
  void operator()(const Obb& s) const {
    Put(s.center, out);
    const Quat q = QuatFromRotation(s.rotation);
    out[3] = q.w;
    out[4] = q.x;
    out[5] = q.y;
    out[6] = q.z;
    Put(s.half_extents, out + 7);
  }
  void operator()(const Triangle& s) const {
    Put(s.a, out);
    Put(s.b, out + 3);
    Put(s.c, out + 6);
  }
  void operator()(const ConvexHull&) const {}
  void operator()(const Halfspace& s) const {
    Put(s.normal, out);
    out[3] = s.offset;
  }
};

}  // namespace

void PackShape(const Shape& shape, double* out) { std::visit(ShapePacker{out}, shape); }

bool UnpackRay(const double* d, Ray& out, std::vector<Violation>& violations) {
  out = Ray{V(d), V(d + 3), FlushTiny(d[6])};
  return Validate(out, violations);
}

void PackRay(const Ray& ray, double* out) {
  Put(ray.origin, out);
  Put(ray.direction, out + 3);
  out[6] = ray.max_distance;
}

bool PackShapes(std::span<const Shape> shapes, v1::PackedShapes* out) {
  if (shapes.empty()) {
    out->Clear();
    return true;
  }
  const ShapeKind kind = KindOf(shapes.front());
  const std::optional<v1::PackedShapeKind> packed = PackedKindOf(kind);
  if (!packed) return false;
  for (const Shape& s : shapes) {
    if (KindOf(s) != kind) return false;
  }
  const int stride = PackedStride(kind);
  out->set_kind(*packed);
  google::protobuf::RepeatedField<double>* data = out->mutable_data();
  data->Resize(static_cast<int>(shapes.size()) * stride, 0.0);
  double* p = data->mutable_data();
  for (const Shape& s : shapes) {
    PackShape(s, p);
    p += stride;
  }
  return true;
}

void PackRays(std::span<const Ray> rays, google::protobuf::RepeatedField<double>* out) {
  out->Resize(static_cast<int>(rays.size()) * kPackedRayStride, 0.0);
  double* p = out->mutable_data();
  for (const Ray& r : rays) {
    PackRay(r, p);
    p += kPackedRayStride;
  }
}

}  // namespace collide::convert
