// Shapes moved by an offset, for the generic sweep and the world.
#include "query/sweep/sweep_internal.h"

namespace collide::internal {

Shape TranslateShape(const Shape& shape, const Vec3& o, std::vector<Vec3>* hull_storage) {
  return std::visit(
      [&](const auto& s) -> Shape {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, Point>) {
          return Point{s.position + o};
        } else if constexpr (std::is_same_v<T, Segment>) {
          return Segment{s.a + o, s.b + o};
        } else if constexpr (std::is_same_v<T, Sphere>) {
          return Sphere{s.center + o, s.radius};
        } else if constexpr (std::is_same_v<T, Capsule>) {
          return Capsule{s.a + o, s.b + o, s.radius};
        } else if constexpr (std::is_same_v<T, Aabb>) {
          return Aabb{s.min + o, s.max + o};
        } else if constexpr (std::is_same_v<T, Obb>) {
          return Obb{s.center + o, s.rotation, s.half_extents};
        } else if constexpr (std::is_same_v<T, Triangle>) {
          return Triangle{s.a + o, s.b + o, s.c + o};
        } else if constexpr (std::is_same_v<T, Halfspace>) {
          return Halfspace{s.normal, s.offset + Dot(s.normal, o)};
        } else {
          if (hull_storage == nullptr) return s;
          hull_storage->resize(s.vertices.size());
          for (std::size_t i = 0; i < s.vertices.size(); ++i) (*hull_storage)[i] = s.vertices[i] + o;
          return ConvexHull{*hull_storage};
        }
      },
      shape);
}

}  // namespace collide::internal
