#include "collision_patch.h"

#include <algorithm>

namespace collide::importer {
namespace {

// Steps for a quadratic segment whose midpoint lies `offset` from its chord's.
int StepsFor(double offset) {
  int steps = 1;
  while (offset >= kCollisionPatchTolerance && steps < kMaxCollisionSteps) {
    offset /= 4;
    steps *= 2;
  }
  return steps;
}

double MidpointOffset(const Vec3& p0, const Vec3& p1, const Vec3& p2) {
  return Length(p0 - p1 * 2.0 + p2) / 4;
}

}  // namespace

std::uint64_t PatchSteps::Triangles() const {
  std::uint64_t columns = 0, rows = 0;
  for (int s : u) columns += static_cast<std::uint64_t>(s);
  for (int s : v) rows += static_cast<std::uint64_t>(s);
  return 2 * columns * rows;
}

PatchSteps CollisionPatchSteps(std::span<const Vec3> control, int w, int h) {
  const auto at = [&](int row, int column) { return control[static_cast<std::size_t>(row) * w + column]; };
  PatchSteps steps;
  // Columns, judged on every control row.
  for (int s = 0; 2 * s + 2 < w; ++s) {
    double offset = 0;
    for (int row = 0; row < h; ++row) {
      offset = std::max(offset, MidpointOffset(at(row, 2 * s), at(row, 2 * s + 1), at(row, 2 * s + 2)));
    }
    steps.u.push_back(StepsFor(offset));
  }
  // Rows, judged on every grid column the column steps give: the control
  // rows' curves evaluated there.
  for (int s = 0; 2 * s + 2 < h; ++s) {
    double offset = 0;
    for (int px = 0; px < static_cast<int>(steps.u.size()); ++px) {
      const int n = steps.u[px];
      for (int k = 0; k <= n; ++k) {
        Vec3 q[3];
        for (int j = 0; j < 3; ++j) {
          const int row = 2 * s + j;
          q[j] = QuadraticAt(k, n, at(row, 2 * px), at(row, 2 * px + 1), at(row, 2 * px + 2));
        }
        offset = std::max(offset, MidpointOffset(q[0], q[1], q[2]));
      }
    }
    steps.v.push_back(StepsFor(offset));
  }
  return steps;
}

}  // namespace collide::importer
