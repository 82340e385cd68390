// The pair test over the solid voxels. For regions A and B apart along axis
// k (A.max_k < c < B.min_k), every segment from p in A to q in B crosses the
// plane x_k = c at parameter t = (c - p_k) / (q_k - p_k), which decreases
// in p_k and in q_k: t lies in [t_min, t_max] with t_min = (c - A.max_k) /
// (B.max_k - A.max_k) and t_max = (c - A.min_k) / (B.min_k - A.min_k), both
// in (0, 1). The crossing's other coordinates (1 - t) p_j + t q_j lie
// between (1 - t) A.min_j + t B.min_j and (1 - t) A.max_j + t B.max_j, each
// linear in t, so their extremes over t are at t_min or t_max: a rectangle.
// When every voxel of the layer holding the plane that meets the rectangle
// is solid, every segment meets an occluder. A layer's count of solid voxels
// in a rectangle is four reads of its summed-area table (Crow, "Summed-Area
// Tables for Texture Mapping", SIGGRAPH 1984).
#include "visibility/voxel_grid.h"

#include <algorithm>
#include <cmath>

namespace collide::internal {
namespace {

// Rectangles are counted in pieces of at most 255 x 255 < 2^16 voxels, so
// that the 16-bit tables' wrapped differences are exact.
constexpr std::int64_t kPiece = 255;

}  // namespace

void VoxelGrid::BuildTables() {
  for (int k = 0; k < 3; ++k) {
    const int u = (k + 1) % 3, v = (k + 2) % 3;
    const std::int64_t nu = n_[u], nv = n_[v], stride = nu + 1, layer_size = stride * (nv + 1);
    std::vector<std::uint16_t>& table = tables_[k];
    table.assign(static_cast<std::size_t>(layer_size * n_[k]), 0);
    std::array<std::int64_t, 3> at{};
    for (std::int64_t s = 0; s < n_[k]; ++s) {
      std::uint16_t* t = table.data() + s * layer_size;
      at[k] = s;
      for (std::int64_t j = 0; j < nv; ++j) {
        at[v] = j;
        for (std::int64_t i = 0; i < nu; ++i) {
          at[u] = i;
          const std::uint16_t here = solid_[static_cast<std::size_t>(Index(at[0], at[1], at[2]))];
          t[(j + 1) * stride + i + 1] = static_cast<std::uint16_t>(
              t[j * stride + i + 1] + t[(j + 1) * stride + i] - t[j * stride + i] + here);
        }
      }
    }
  }
}

bool VoxelGrid::AllSolid(int axis, std::int64_t layer, std::int64_t u0, std::int64_t u1, std::int64_t v0,
                         std::int64_t v1) const {
  const std::int64_t stride = n_[(axis + 1) % 3] + 1, layer_size = stride * (n_[(axis + 2) % 3] + 1);
  const std::uint16_t* t = tables_[axis].data() + layer * layer_size;
  for (std::int64_t j0 = v0; j0 <= v1; j0 += kPiece) {
    const std::int64_t j1 = std::min(v1, j0 + kPiece - 1);
    for (std::int64_t i0 = u0; i0 <= u1; i0 += kPiece) {
      const std::int64_t i1 = std::min(u1, i0 + kPiece - 1);
      const auto count = static_cast<std::uint16_t>(t[(j1 + 1) * stride + i1 + 1] - t[j0 * stride + i1 + 1] -
                                                    t[(j1 + 1) * stride + i0] + t[j0 * stride + i0]);
      if (count != static_cast<std::uint16_t>((i1 - i0 + 1) * (j1 - j0 + 1))) return false;
    }
  }
  return true;
}

bool VoxelGrid::PlaneHides(int axis, std::int64_t layer, const Aabb& a, const Aabb& b) const {
  const double c = origin_[axis] + (static_cast<double>(layer) + 0.5) * h_;
  const double t_min = (c - a.max[axis]) / (b.max[axis] - a.max[axis]);
  const double t_max = (c - a.min[axis]) / (b.min[axis] - a.min[axis]);
  std::array<std::int64_t, 2> lo{}, hi{};
  for (int m = 0; m < 2; ++m) {
    const int j = (axis + 1 + m) % 3;
    const double lo0 = a.min[j] + t_min * (b.min[j] - a.min[j]),
                 lo1 = a.min[j] + t_max * (b.min[j] - a.min[j]);
    const double hi0 = a.max[j] + t_min * (b.max[j] - a.max[j]),
                 hi1 = a.max[j] + t_max * (b.max[j] - a.max[j]);
    // Rounding: the rectangle grown far beyond the error of these few
    // operations.
    const double pad = 1e-6 * h_ + 1e-12 * (std::fabs(lo0) + std::fabs(hi1) + std::fabs(origin_[j]));
    const double r0 = (std::min(lo0, lo1) - pad - origin_[j]) / h_,
                 r1 = (std::max(hi0, hi1) + pad - origin_[j]) / h_;
    if (!(r0 >= 0.0) || !(r1 < static_cast<double>(n_[j]))) return false;  // beyond the grid: not solid.
    lo[m] = static_cast<std::int64_t>(r0);
    hi[m] = static_cast<std::int64_t>(r1);
  }
  return AllSolid(axis, layer, lo[0], hi[0], lo[1], hi[1]);
}

bool VoxelGrid::Hidden(const Aabb& a, const Aabb& b) const {
  if (!info_.built) return false;
  for (int k = 0; k < 3; ++k) {
    const bool a_below = a.max[k] < b.min[k];
    if (!a_below && !(b.max[k] < a.min[k])) continue;
    const Aabb& lo = a_below ? a : b;
    const Aabb& hi = a_below ? b : a;
    // The layers whose centre plane lies strictly between the two.
    const auto centre = [&](std::int64_t s) { return origin_[k] + (static_cast<double>(s) + 0.5) * h_; };
    std::int64_t first = static_cast<std::int64_t>(
        std::clamp(std::floor((lo.max[k] - origin_[k]) / h_ - 0.5), -1.0, static_cast<double>(n_[k])));
    std::int64_t last = static_cast<std::int64_t>(
        std::clamp(std::ceil((hi.min[k] - origin_[k]) / h_ - 0.5), -1.0, static_cast<double>(n_[k])));
    first = std::max<std::int64_t>(first, 0);
    last = std::min(last, n_[k] - 1);
    while (first <= last && !(centre(first) > lo.max[k])) ++first;
    while (first <= last && !(centre(last) < hi.min[k])) --last;
    if (first > last) continue;
    const std::int64_t layers = last - first + 1;
    const std::int64_t tries = std::min<std::int64_t>(planes_per_axis_, layers);
    for (std::int64_t i = 0; i < tries; ++i) {
      const std::int64_t s = tries == 1 ? first + layers / 2 : first + (layers - 1) * i / (tries - 1);
      if (PlaneHides(k, s, lo, hi)) return true;
    }
  }
  return false;
}

}  // namespace collide::internal
