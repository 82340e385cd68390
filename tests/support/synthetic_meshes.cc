#include "support/synthetic_meshes.h"

#include <cmath>
#include <map>
#include <random>

namespace collide::testing {
namespace {

// Uniform in [lo, hi) from the top 53 bits (identical on every platform).
double Uniform(std::mt19937_64& rng, double lo, double hi) {
  return lo + (hi - lo) * (static_cast<double>(rng() >> 11) * 0x1.0p-53);
}

std::uint32_t Index(std::size_t i) { return static_cast<std::uint32_t>(i); }

}  // namespace

MeshData MakeTerrain(int n, double size, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  double phase[4], freq[4];
  for (int i = 0; i < 4; ++i) phase[i] = Uniform(rng, 0, 6.28), freq[i] = Uniform(rng, 1, 6);
  MeshData m;
  m.vertices.reserve(static_cast<std::size_t>(n + 1) * (n + 1));
  for (int j = 0; j <= n; ++j) {
    for (int i = 0; i <= n; ++i) {
      const double x = size * i / n, y = size * j / n;
      double h = 0;
      for (int k = 0; k < 4; ++k) h += std::sin(freq[k] * (x + (k + 1) * y) / size + phase[k]);
      m.vertices.push_back({x, y, 0.025 * size * (h + 4)});
    }
  }
  m.triangles.reserve(2 * static_cast<std::size_t>(n) * n);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      const std::uint32_t v00 = Index(j * (n + 1) + i), v10 = v00 + 1, v01 = v00 + n + 1, v11 = v01 + 1;
      m.triangles.push_back({v00, v10, v11});
      m.triangles.push_back({v00, v11, v01});
    }
  }
  return m;
}

MeshData MakeBoxes(int count, double extent, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  MeshData m;
  for (int b = 0; b < count; ++b) {
    Vec3 lo, hi;
    for (int k = 0; k < 3; ++k) {
      // Half of the boxes on a 1/64 grid: exactly shared and touching faces.
      const bool grid = b % 2 == 0;
      double s = Uniform(rng, 0.02, 0.1) * extent, p = Uniform(rng, 0, extent - s);
      if (grid) s = std::ceil(s / extent * 64) * extent / 64, p = std::floor(p / extent * 64) * extent / 64;
      lo[k] = p, hi[k] = p + s;
    }
    const std::uint32_t base = Index(m.vertices.size());
    for (int c = 0; c < 8; ++c)
      m.vertices.push_back({c & 1 ? hi.x : lo.x, c & 2 ? hi.y : lo.y, c & 4 ? hi.z : lo.z});
    // Two triangles per face; the corners of face (axis k, side s).
    static constexpr int kFaces[6][4] = {{0, 2, 6, 4}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                         {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 5, 7, 6}};
    for (const auto& f : kFaces) {
      m.triangles.push_back({base + f[0], base + f[1], base + f[2]});
      m.triangles.push_back({base + f[0], base + f[2], base + f[3]});
    }
  }
  return m;
}

MeshData MakeClosedSphere(int level, double radius, const Vec3& center) {
  MeshData m;
  // Vertices on each octant face's barycentric grid, deduplicated by their
  // integer grid coordinates (i, j, k with i + j + k = level, signed).
  std::map<std::int64_t, std::uint32_t> index_of;
  auto vertex = [&](int sx, int sy, int sz, int i, int j, int k) -> std::uint32_t {
    // Zero coordinates have no sign: normalize so shared edges share keys.
    const int x = i * sx, y = j * sy, z = k * sz;
    const std::int64_t key = ((static_cast<std::int64_t>(x) + 1024) << 22) |
                             ((static_cast<std::int64_t>(y) + 1024) << 11) |
                             (static_cast<std::int64_t>(z) + 1024);
    const auto [it, added] = index_of.emplace(key, Index(m.vertices.size()));
    if (added) {
      const Vec3 p{static_cast<double>(x), static_cast<double>(y), static_cast<double>(z)};
      m.vertices.push_back(center + p * (radius / Length(p)));
    }
    return it->second;
  };
  for (int s = 0; s < 8; ++s) {
    const int sx = s & 1 ? -1 : 1, sy = s & 2 ? -1 : 1, sz = s & 4 ? -1 : 1;
    for (int i = 0; i < level; ++i) {
      for (int j = 0; i + j < level; ++j) {
        const int k = level - i - j;
        const std::uint32_t a = vertex(sx, sy, sz, i, j, k), b = vertex(sx, sy, sz, i + 1, j, k - 1),
                            c = vertex(sx, sy, sz, i, j + 1, k - 1);
        m.triangles.push_back({a, b, c});
        if (i + j + 1 < level) {
          const std::uint32_t d = vertex(sx, sy, sz, i + 1, j + 1, k - 2);
          m.triangles.push_back({b, d, c});
        }
      }
    }
  }
  return m;
}

MeshData MakeSoup(int count, double extent, double size, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  MeshData m;
  for (int t = 0; t < count; ++t) {
    const Vec3 c{Uniform(rng, -extent, extent), Uniform(rng, -extent, extent), Uniform(rng, -extent, extent)};
    const std::uint32_t base = Index(m.vertices.size());
    for (int v = 0; v < 3; ++v) {
      m.vertices.push_back(
          c + Vec3{Uniform(rng, -size, size), Uniform(rng, -size, size), Uniform(rng, -size, size)});
    }
    if (t % 50 == 7) m.vertices[base + 2] = m.vertices[base];  // zero area.
    if (t % 50 == 9) m.vertices[base + 2] = m.vertices[base + 1];
    m.triangles.push_back({base, base + 1, base + 2});
  }
  return m;
}

}  // namespace collide::testing
