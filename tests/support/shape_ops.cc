#include "support/shape_ops.h"

#include <type_traits>
#include <variant>

namespace collide::testing {

ConvexHull ShapeOps::Hull(std::vector<Vec3> v) { return ConvexHull{storage_.emplace_back(std::move(v))}; }

Shape ShapeOps::Translated(const Shape& s, const Vec3& t) {
  return std::visit(
      [&](const auto& x) -> Shape {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, Point>) return Point{x.position + t};
        if constexpr (std::is_same_v<T, Segment>) return Segment{x.a + t, x.b + t};
        if constexpr (std::is_same_v<T, Sphere>) return Sphere{x.center + t, x.radius};
        if constexpr (std::is_same_v<T, Capsule>) return Capsule{x.a + t, x.b + t, x.radius};
        if constexpr (std::is_same_v<T, Aabb>) return Aabb{x.min + t, x.max + t};
        if constexpr (std::is_same_v<T, Obb>) return Obb{x.center + t, x.rotation, x.half_extents};
        if constexpr (std::is_same_v<T, Triangle>) return Triangle{x.a + t, x.b + t, x.c + t};
        if constexpr (std::is_same_v<T, ConvexHull>) {
          std::vector<Vec3> v(x.vertices.begin(), x.vertices.end());
          for (Vec3& p : v) p += t;
          return Hull(std::move(v));
        }
        if constexpr (std::is_same_v<T, Halfspace>) {
          return Halfspace{x.normal, x.offset + Dot(x.normal, t) / LengthSquared(x.normal)};
        }
      },
      s);
}

Shape ShapeOps::Scaled(const Shape& s, double k) {
  return std::visit(
      [&](const auto& x) -> Shape {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, Point>) return Point{x.position * k};
        if constexpr (std::is_same_v<T, Segment>) return Segment{x.a * k, x.b * k};
        if constexpr (std::is_same_v<T, Sphere>) return Sphere{x.center * k, x.radius * k};
        if constexpr (std::is_same_v<T, Capsule>) return Capsule{x.a * k, x.b * k, x.radius * k};
        if constexpr (std::is_same_v<T, Aabb>) return Aabb{x.min * k, x.max * k};
        if constexpr (std::is_same_v<T, Obb>) return Obb{x.center * k, x.rotation, x.half_extents * k};
        if constexpr (std::is_same_v<T, Triangle>) return Triangle{x.a * k, x.b * k, x.c * k};
        if constexpr (std::is_same_v<T, ConvexHull>) {
          std::vector<Vec3> v(x.vertices.begin(), x.vertices.end());
          for (Vec3& p : v) p *= k;
          return Hull(std::move(v));
        }
        if constexpr (std::is_same_v<T, Halfspace>) return Halfspace{x.normal, x.offset * k};
      },
      s);
}

}  // namespace collide::testing
