#include "convert/shapes.h"

#include <algorithm>
#include <cmath>
#include <variant>

#include "convert/violations.h"

namespace collide::convert {

std::span<Vec3> DecodeArena::AllocateVertices(std::size_t n) {
  while (current_ < blocks_.size() && used_ + n > blocks_[current_].capacity) {
    ++current_;
    used_ = 0;
  }
  if (current_ == blocks_.size()) {
    // Geometric growth keeps the block count logarithmic in the request size.
    const std::size_t capacity =
        std::max<std::size_t>({n, 1024, blocks_.empty() ? 0 : 2 * blocks_.back().capacity});
    blocks_.push_back({std::make_unique_for_overwrite<Vec3[]>(capacity), capacity});
    used_ = 0;
  }
  Vec3* begin = blocks_[current_].data.get() + used_;
  used_ += n;
  return {begin, n};
}

void DecodeArena::Clear() {
  current_ = 0;
  used_ = 0;
}

std::optional<QueryLevel> LevelFromProto(int level) {
  switch (level) {
    case v1::QUERY_LEVEL_INTERSECT:
      return QueryLevel::kIntersect;
    case v1::QUERY_LEVEL_DISTANCE:
      return QueryLevel::kDistance;
    case v1::QUERY_LEVEL_CONTACT:
      return QueryLevel::kContact;
    default:
      return std::nullopt;
  }
}

v1::QueryLevel ToProto(QueryLevel level) {
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

namespace {

// Wire inputs below 1e-50 in magnitude read as 0 (FlushTiny; geometry.proto).
// Results are read unchanged (FromProto).
Vec3 InputFromProto(const v1::Vec3& v) { return FlushTiny(FromProto(v)); }

// Prefixes the violations from index `before` on with the oneof member name,
// so "radius" becomes "sphere.radius".
void PrefixFrom(std::size_t before, const char* member, std::vector<Violation>& violations) {
  for (std::size_t i = before; i < violations.size(); ++i) {
    violations[i].field = JoinPath(member, violations[i].field);
  }
}

// Validates `shape`, its violations named under `member`.
template <typename T>
bool ValidateAs(const char* member, const T& shape, std::vector<Violation>& violations) {
  const std::size_t before = violations.size();
  if (Validate(shape, violations)) return true;
  PrefixFrom(before, member, violations);
  return false;
}

}  // namespace

bool ObbFromWire(const Vec3& wire_center, const Quat& wire_q, const Vec3& wire_half_extents, Shape& out,
                 std::vector<Violation>& violations) {
  const Vec3 center = FlushTiny(wire_center);
  const Quat q{FlushTiny(wire_q.w), FlushTiny(wire_q.x), FlushTiny(wire_q.y), FlushTiny(wire_q.z)};
  const Vec3 h = FlushTiny(wire_half_extents);
  // Once flushed, a number is 0 or of magnitude >= kMinMagnitude (or NaN), so
  // IsValidNumber reduces to |v| <= kMaxMagnitude, which NaN fails. The
  // checks are combined with & rather than && so that valid input (nearly
  // all of it) takes no branch per number.
  const auto fits = [](double v) { return std::fabs(v) <= kMaxMagnitude; };
  const bool numbers_ok = fits(center.x) & fits(center.y) & fits(center.z) & fits(q.w) & fits(q.x) &
                          fits(q.y) & fits(q.z) & fits(h.x) & fits(h.y) & fits(h.z);
  // ValidateRotation's |Norm(q) - 1| <= kUnitTolerance holds for certain when
  // the squared norm is within (1 +- 0.999 kUnitTolerance)^2 (the rounding of
  // the square root is 1e-16, far below the 1e-9 margin); only outside that
  // band is the square root taken, so a valid obb costs no square root at all
  // (RotationFromQuat takes none for such a q either).
  constexpr double kSafeLow = (1.0 - 0.999 * kUnitTolerance) * (1.0 - 0.999 * kUnitTolerance);
  constexpr double kSafeHigh = (1.0 + 0.999 * kUnitTolerance) * (1.0 + 0.999 * kUnitTolerance);
  const double norm2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
  if (numbers_ok & (h.x >= 0.0) & (h.y >= 0.0) & (h.z >= 0.0) &&
      ((norm2 >= kSafeLow) & (norm2 <= kSafeHigh) || std::fabs(Norm(q) - 1.0) <= kUnitTolerance)) {
    // Everything ValidateRotation and Validate(Obb) check holds: the numbers
    // and the norm above, and the rotation's orthonormality, since
    // RotationFromQuat divides a finite q by its norm, which leaves the matrix
    // orthonormal to a few ulp (<< kRotationTolerance) with determinant +1.
    // Skipping Validate's 9 dot products halves the decoding cost of an obb.
    // Constructed from the finished Obb (emplace<Obb>() with no argument
    // would zero its 120 bytes first).
    out.emplace<Obb>(Obb::FromQuat(center, q, h));
    return true;
  }
  bool ok = ValidateRotation(q, "rotation", violations);
  // RotationFromQuat normalizes, so a quaternion within the tolerance gives
  // an exact rotation; an invalid one is reported above only.
  const Obb& obb = out.emplace<Obb>(Obb::FromQuat(center, ok ? q : Quat{}, h));
  ok = Validate(obb, violations) && ok;
  return ok;
}

bool FromProto(const v1::Shape& in, Shape& out, DecodeArena& arena, std::vector<Violation>& violations) {
  switch (in.shape_case()) {
    case v1::Shape::kPoint:
      out.emplace<Point>(Point{InputFromProto(in.point().position())});
      return ValidateAs("point", std::get<Point>(out), violations);
    case v1::Shape::kSegment: {
      const v1::Segment& s = in.segment();
      out.emplace<Segment>(Segment{InputFromProto(s.a()), InputFromProto(s.b())});
      return ValidateAs("segment", std::get<Segment>(out), violations);
    }
    case v1::Shape::kSphere: {
      const v1::Sphere& s = in.sphere();
      out.emplace<Sphere>(Sphere{InputFromProto(s.center()), FlushTiny(s.radius())});
      return ValidateAs("sphere", std::get<Sphere>(out), violations);
    }
    case v1::Shape::kCapsule: {
      const v1::Capsule& s = in.capsule();
      out.emplace<Capsule>(Capsule{InputFromProto(s.a()), InputFromProto(s.b()), FlushTiny(s.radius())});
      return ValidateAs("capsule", std::get<Capsule>(out), violations);
    }
    case v1::Shape::kAabb: {
      const v1::Aabb& s = in.aabb();
      out.emplace<Aabb>(Aabb{InputFromProto(s.min()), InputFromProto(s.max())});
      return ValidateAs("aabb", std::get<Aabb>(out), violations);
    }
    case v1::Shape::kObb: {
      const v1::Obb& s = in.obb();
      // geometry.proto: an unset rotation is the identity.
      const Quat q = s.has_rotation() ? FromProto(s.rotation()) : Quat{};
      const std::size_t before = violations.size();
      if (ObbFromWire(FromProto(s.center()), q, FromProto(s.half_extents()), out, violations)) {
        return true;
      }
      PrefixFrom(before, "obb", violations);
      return false;
    }
    case v1::Shape::kTriangle: {
      const v1::Triangle& s = in.triangle();
      out.emplace<Triangle>(Triangle{InputFromProto(s.a()), InputFromProto(s.b()), InputFromProto(s.c())});
      return ValidateAs("triangle", std::get<Triangle>(out), violations);
    }
    case v1::Shape::kConvexHull: {
      const auto& vertices = in.convex_hull().vertices();
      const std::span<Vec3> storage = arena.AllocateVertices(static_cast<std::size_t>(vertices.size()));
      for (int i = 0; i < vertices.size(); ++i) storage[i] = InputFromProto(vertices[i]);
      out.emplace<ConvexHull>(ConvexHull{storage});
      return ValidateAs("convex_hull", std::get<ConvexHull>(out), violations);
    }
    case v1::Shape::kHalfspace: {
      const v1::Halfspace& s = in.halfspace();
      out.emplace<Halfspace>(Halfspace{InputFromProto(s.normal()), FlushTiny(s.offset())});
      return ValidateAs("halfspace", std::get<Halfspace>(out), violations);
    }
    case v1::Shape::SHAPE_NOT_SET:
      break;
  }
  violations.push_back({"", "shape must be set"});
  return false;
}

bool FromProto(const v1::Ray& in, Ray& out, std::vector<Violation>& violations) {
  out = Ray{InputFromProto(in.origin()), InputFromProto(in.direction()),
            in.has_max_distance() ? FlushTiny(in.max_distance()) : kInfinity};
  return Validate(out, violations);
}

void ToProto(const Vec3& in, v1::Vec3* out) {
  out->set_x(in.x);
  out->set_y(in.y);
  out->set_z(in.z);
}

namespace {

struct ShapeToProto {
  v1::Shape* out;
  void operator()(const Point& s) const { ToProto(s.position, out->mutable_point()->mutable_position()); }
  void operator()(const Segment& s) const {
    v1::Segment* m = out->mutable_segment();
    ToProto(s.a, m->mutable_a());
    ToProto(s.b, m->mutable_b());
  }
  void operator()(const Sphere& s) const {
    v1::Sphere* m = out->mutable_sphere();
    ToProto(s.center, m->mutable_center());
    m->set_radius(s.radius);
  }
  void operator()(const Capsule& s) const {
    v1::Capsule* m = out->mutable_capsule();
    ToProto(s.a, m->mutable_a());
    ToProto(s.b, m->mutable_b());
    m->set_radius(s.radius);
  }
  void operator()(const Aabb& s) const {
    v1::Aabb* m = out->mutable_aabb();
    ToProto(s.min, m->mutable_min());
    ToProto(s.max, m->mutable_max());
  }
  void operator()(const Obb& s) const {
    v1::Obb* m = out->mutable_obb();
    ToProto(s.center, m->mutable_center());
    const Quat q = QuatFromRotation(s.rotation);
    v1::Quaternion* r = m->mutable_rotation();
    r->set_w(q.w);
    r->set_x(q.x);
    r->set_y(q.y);
    r->set_z(q.z);
    ToProto(s.half_extents, m->mutable_half_extents());
  }
  void operator()(const Triangle& s) const {
    v1::Triangle* m = out->mutable_triangle();
    ToProto(s.a, m->mutable_a());
    ToProto(s.b, m->mutable_b());
    ToProto(s.c, m->mutable_c());
  }
  void operator()(const ConvexHull& s) const {
    auto* vertices = out->mutable_convex_hull()->mutable_vertices();
    vertices->Reserve(static_cast<int>(s.vertices.size()));
    for (const Vec3& v : s.vertices) ToProto(v, vertices->Add());
  }
  void operator()(const Halfspace& s) const {
    v1::Halfspace* m = out->mutable_halfspace();
    ToProto(s.normal, m->mutable_normal());
    m->set_offset(s.offset);
  }
};

}  // namespace

void ToProto(const Shape& in, v1::Shape* out) { std::visit(ShapeToProto{out}, in); }

void ToProto(const Ray& in, v1::Ray* out) {
  ToProto(in.origin, out->mutable_origin());
  ToProto(in.direction, out->mutable_direction());
  if (in.max_distance != kInfinity) {
    out->set_max_distance(in.max_distance);
  } else {
    out->clear_max_distance();
  }
}

}  // namespace collide::convert
