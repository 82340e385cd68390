#include "shape_triangles.h"

#include <cmath>
#include <numbers>
#include <variant>

namespace collide::cli {
namespace {

constexpr int kRings = 8;      // latitude steps of a hemisphere.
constexpr int kSegments = 16;  // longitude steps.

// Two unit vectors spanning the plane normal to unit `axis`.
void Basis(const Vec3& axis, Vec3& u, Vec3& v) {
  const Vec3 helper = std::abs(axis.x) < 0.9 ? Vec3{1, 0, 0} : Vec3{0, 1, 0};
  u = Cross(axis, helper);
  u = u * (1.0 / std::sqrt(Dot(u, u)));
  v = Cross(axis, u);
}

// A capsule from a to b of radius r, its axis along a -> b (any axis when
// a == b: a sphere). Rings of the two hemispheres joined by the cylinder.
void AppendCapsule(const Vec3& a, const Vec3& b, double r, TriangleList& out) {
  Vec3 axis = b - a;
  const double length = std::sqrt(Dot(axis, axis));
  axis = length > 0 ? axis * (1.0 / length) : Vec3{0, 0, 1};
  Vec3 u, v;
  Basis(axis, u, v);
  const auto base = static_cast<std::uint32_t>(out.vertices.size());
  // Rings from the pole at a to the pole at b: kRings + 1 on each cap.
  for (int ring = 0; ring <= 2 * kRings + 1; ++ring) {
    const bool top = ring > kRings;
    const double polar = std::numbers::pi / 2 * (top ? ring - kRings - 1 : ring) / kRings;  // 0..pi/2
    const double along = top ? std::sin(polar) : -std::cos(polar);
    const double around = top ? std::cos(polar) : std::sin(polar);
    const Vec3 center = top ? b : a;
    for (int s = 0; s < kSegments; ++s) {
      const double phi = 2 * std::numbers::pi * s / kSegments;
      out.vertices.push_back(center + (axis * along + (u * std::cos(phi) + v * std::sin(phi)) * around) * r);
    }
  }
  for (int ring = 0; ring < 2 * kRings + 1; ++ring) {
    for (int s = 0; s < kSegments; ++s) {
      const std::uint32_t i0 = base + ring * kSegments + s;
      const std::uint32_t i1 = base + ring * kSegments + (s + 1) % kSegments;
      const std::uint32_t j0 = i0 + kSegments, j1 = i1 + kSegments;
      out.indices.insert(out.indices.end(), {i0, i1, j1, i0, j1, j0});
    }
  }
}

void AppendBox(const Vec3& center, const Mat3& rotation, const Vec3& half, TriangleList& out) {
  const auto base = static_cast<std::uint32_t>(out.vertices.size());
  for (int i = 0; i < 8; ++i) {
    const Vec3 local{(i & 1 ? 1 : -1) * half.x, (i & 2 ? 1 : -1) * half.y, (i & 4 ? 1 : -1) * half.z};
    out.vertices.push_back(center + rotation * local);
  }
  // Corner i has bit 0 = +x, bit 1 = +y, bit 2 = +z; two triangles a face.
  static constexpr std::uint32_t kFaces[6][4] = {{0, 2, 6, 4}, {1, 5, 7, 3}, {0, 4, 5, 1},
                                                 {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 6, 7, 5}};
  for (const auto& f : kFaces) {
    out.indices.insert(out.indices.end(),
                       {base + f[0], base + f[1], base + f[2], base + f[0], base + f[2], base + f[3]});
  }
}

}  // namespace

void AppendTriangles(const Shape& shape, double thin, TriangleList& out) {
  std::visit(
      [&](const auto& s) {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, Point>) {
          AppendCapsule(s.position, s.position, thin, out);
        } else if constexpr (std::is_same_v<T, Segment>) {
          AppendCapsule(s.a, s.b, thin, out);
        } else if constexpr (std::is_same_v<T, Sphere>) {
          AppendCapsule(s.center, s.center, s.radius, out);
        } else if constexpr (std::is_same_v<T, Capsule>) {
          AppendCapsule(s.a, s.b, s.radius, out);
        } else if constexpr (std::is_same_v<T, Aabb>) {
          AppendBox((s.min + s.max) * 0.5, Mat3{}, (s.max - s.min) * 0.5, out);
        } else if constexpr (std::is_same_v<T, Obb>) {
          AppendBox(s.center, s.rotation, s.half_extents, out);
        } else if constexpr (std::is_same_v<T, Triangle>) {
          const auto base = static_cast<std::uint32_t>(out.vertices.size());
          out.vertices.insert(out.vertices.end(), {s.a, s.b, s.c});
          out.indices.insert(out.indices.end(), {base, base + 1, base + 2});
        }
      },
      shape);
}

}  // namespace collide::cli
