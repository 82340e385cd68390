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

// Where each grid line along one direction falls: its patch and weights. The
// last line belongs to the last patch, at t = 1.
struct Line {
  int patch;
  Weights weights;
};
std::vector<Line> Lines(std::span<const int> steps) {
  std::vector<Line> lines;
  for (int p = 0; p < static_cast<int>(steps.size()); ++p) {
    for (int k = 0; k < steps[p]; ++k) lines.push_back({p, At(k, steps[p])});
  }
  lines.push_back({static_cast<int>(steps.size()) - 1, At(1, 1)});
  return lines;
}

}  // namespace

Vec3 QuadraticAt(int k, int n, const Vec3& p0, const Vec3& p1, const Vec3& p2) {
  return Curve(At(k, n), p0, p1, p2);
}

PatchGrid TessellatePatch(std::span<const Vec3> control, int w, int /*h*/, std::span<const int> steps_u,
                          std::span<const int> steps_v) {
  const std::vector<Line> columns = Lines(steps_u), rows = Lines(steps_v);
  PatchGrid grid;
  grid.columns = static_cast<int>(columns.size());
  grid.rows = static_cast<int>(rows.size());
  grid.points.resize(static_cast<std::size_t>(grid.columns) * grid.rows);
  for (int r = 0; r < grid.rows; ++r) {
    const int py = rows[r].patch;
    for (int c = 0; c < grid.columns; ++c) {
      const int px = columns[c].patch;
      std::array<Vec3, 3> curves;
      for (int j = 0; j < 3; ++j) {
        const Vec3* p = &control[static_cast<std::size_t>(2 * py + j) * w + 2 * px];
        curves[j] = Curve(columns[c].weights, p[0], p[1], p[2]);
      }
      grid.points[static_cast<std::size_t>(r) * grid.columns + c] =
          Curve(rows[r].weights, curves[0], curves[1], curves[2]);
    }
  }
  return grid;
}

PatchGrid TessellatePatch(std::span<const Vec3> control, int w, int h, int n) {
  const std::vector<int> steps_u((w - 1) / 2, n), steps_v((h - 1) / 2, n);
  return TessellatePatch(control, w, h, steps_u, steps_v);
}

}  // namespace collide::importer
