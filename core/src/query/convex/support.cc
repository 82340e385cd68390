#include "query/convex/support.h"

#include <variant>

namespace collide::internal {

ConvexCore::ConvexCore(const Point& s, const Vec3& shift) : count_(1) { v_[0] = s.position - shift; }

ConvexCore::ConvexCore(const Segment& s, const Vec3& shift) : count_(2) {
  v_[0] = s.a - shift;
  v_[1] = s.b - shift;
}

ConvexCore::ConvexCore(const Sphere& s, const Vec3& shift) : radius_(s.radius), count_(1) {
  v_[0] = s.center - shift;
}

ConvexCore::ConvexCore(const Capsule& s, const Vec3& shift) : radius_(s.radius), count_(2) {
  v_[0] = s.a - shift;
  v_[1] = s.b - shift;
}

ConvexCore::ConvexCore(const Aabb& s, const Vec3& shift) : type_(Type::kAabb) {
  v_[0] = s.min - shift;
  v_[1] = s.max - shift;
}

ConvexCore::ConvexCore(const Obb& s, const Vec3& shift) : type_(Type::kObb) {
  v_[0] = s.center - shift;
  for (int i = 0; i < 3; ++i) v_[i + 1] = s.rotation.col[i] * s.half_extents[i];
}

ConvexCore::ConvexCore(const Triangle& s, const Vec3& shift) : count_(3) {
  v_[0] = s.a - shift;
  v_[1] = s.b - shift;
  v_[2] = s.c - shift;
}

ConvexCore::ConvexCore(const ConvexHull& s, const Vec3& shift)
    : type_(Type::kHull), hull_(s.vertices), shift_(shift) {}

ConvexCore::ConvexCore(const Shape& s, const Vec3& shift) {
  std::visit(
      [&](const auto& typed) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(typed)>, Halfspace>) {
          *this = ConvexCore(typed, shift);
        }
      },
      s);
}

Vec3 ConvexCore::Support(const Vec3& d) const {
  switch (type_) {
    case Type::kVertices: {
      int best = 0;
      double best_dot = Dot(d, v_[0]);
      for (int i = 1; i < count_; ++i) {
        const double dot = Dot(d, v_[i]);
        if (dot > best_dot) best_dot = dot, best = i;
      }
      return v_[best];
    }
    case Type::kAabb:
      return {d.x >= 0 ? v_[1].x : v_[0].x, d.y >= 0 ? v_[1].y : v_[0].y, d.z >= 0 ? v_[1].z : v_[0].z};
    case Type::kObb: {
      Vec3 p = v_[0];
      for (int i = 1; i <= 3; ++i) p += Dot(d, v_[i]) >= 0 ? v_[i] : -v_[i];
      return p;
    }
    case Type::kHull: {
      // Dot products on the unshifted vertices: the shift does not change
      // which vertex is extreme.
      std::size_t best = 0;
      double best_dot = Dot(d, hull_[0]);
      for (std::size_t i = 1; i < hull_.size(); ++i) {
        const double dot = Dot(d, hull_[i]);
        if (dot > best_dot) best_dot = dot, best = i;
      }
      return hull_[best] - shift_;
    }
  }
  return {};
}

ConvexCore ConvexCore::Translated(const Vec3& t) const {
  ConvexCore c = *this;
  switch (type_) {
    case Type::kVertices:
      for (int i = 0; i < count_; ++i) c.v_[i] += t;
      break;
    case Type::kAabb:
      c.v_[0] += t;
      c.v_[1] += t;
      break;
    case Type::kObb:
      c.v_[0] += t;
      break;
    case Type::kHull:
      c.shift_ -= t;
      break;
  }
  return c;
}

Vec3 ConvexCore::AnyPoint() const {
  switch (type_) {
    case Type::kVertices:
    case Type::kObb:
      return v_[0];
    case Type::kAabb:
      return (v_[0] + v_[1]) * 0.5;
    case Type::kHull:
      return hull_[0] - shift_;
  }
  return {};
}

Vec3 ReferencePoint(const Shape& shape) {
  return std::visit(
      [](const auto& s) -> Vec3 {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, Point>) return s.position;
        if constexpr (std::is_same_v<T, Segment> || std::is_same_v<T, Capsule> || std::is_same_v<T, Triangle>)
          return s.a;
        if constexpr (std::is_same_v<T, Sphere> || std::is_same_v<T, Obb>) return s.center;
        if constexpr (std::is_same_v<T, Aabb>) return s.min;
        if constexpr (std::is_same_v<T, ConvexHull>) return s.vertices[0];
        if constexpr (std::is_same_v<T, Halfspace>) return s.normal * s.offset;
      },
      shape);
}

}  // namespace collide::internal
