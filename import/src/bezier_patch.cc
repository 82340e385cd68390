#include "bezier_patch.h"

#include <array>

namespace collide::importer {
namespace {

struct Weights {
  double b0, b1, b2;
};

// Bernstein weights of a quadratic at t = k / n, exact for n a power of two.
Weights At(int k, int n) {
  const double t = static_cast<double>(k) / n, s = 1.0 - t;
  return {s * s, 2.0 * t * s, t * t};
}

// (b0 p0 + b2 p2) + b1 p1: the same bits for t and 1 - t with p0, p2 swapped.
Vec3 Curve(const Weights& w, const Vec3& p0, const Vec3& p1, const Vec3& p2) {
  return (p0 * w.b0 + p2 * w.b2) + p1 * w.b1;
}

}  // namespace

PatchGrid TessellatePatch(std::span<const Vec3> control, int w, int h, int n) {
  const int patches_x = (w - 1) / 2, patches_y = (h - 1) / 2;
  PatchGrid grid;
  grid.columns = n * patches_x + 1;
  grid.rows = n * patches_y + 1;
  grid.points.resize(static_cast<std::size_t>(grid.columns) * grid.rows);
  for (int r = 0; r < grid.rows; ++r) {
    // The patch row holding grid row r (the last row belongs to the last
    // patch, at v = 1) and the weights at v.
    const int py = r / n < patches_y ? r / n : patches_y - 1;
    const Weights wv = At(r - py * n, n);
    for (int c = 0; c < grid.columns; ++c) {
      const int px = c / n < patches_x ? c / n : patches_x - 1;
      const Weights wu = At(c - px * n, n);
      std::array<Vec3, 3> rows;
      for (int j = 0; j < 3; ++j) {
        const Vec3* p = &control[static_cast<std::size_t>(2 * py + j) * w + 2 * px];
        rows[j] = Curve(wu, p[0], p[1], p[2]);
      }
      grid.points[static_cast<std::size_t>(r) * grid.columns + c] = Curve(wv, rows[0], rows[1], rows[2]);
    }
  }
  return grid;
}

}  // namespace collide::importer
