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

const std::uint16_t* VoxelGrid::Table(int axis, std::int64_t layer) const {
  return tables_[axis].data() + layer * (n_[(axis + 1) % 3] + 1) * (n_[(axis + 2) % 3] + 1);
}

bool VoxelGrid::AllSolid(int axis, std::int64_t layer, const Rect& r) const {
  const std::int64_t u0 = r.lo[0], u1 = r.hi[0], v0 = r.lo[1], v1 = r.hi[1];
  const std::int64_t stride = n_[(axis + 1) % 3] + 1;
  const std::uint16_t* t = Table(axis, layer);
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

bool VoxelGrid::PlaneRect(int axis, std::int64_t layer, const Aabb& a, const Aabb& b, Rect& r) const {
  const double c = origin_[axis] + (static_cast<double>(layer) + 0.5) * h_;
  const double t_min = (c - a.max[axis]) / (b.max[axis] - a.max[axis]);
  const double t_max = (c - a.min[axis]) / (b.min[axis] - a.min[axis]);
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
    r.lo[m] = static_cast<std::int64_t>(r0);
    r.hi[m] = static_cast<std::int64_t>(r1);
  }
  return true;
}

namespace {

// The Chebyshev distance in voxels from each voxel of an n[0] x n[1] x n[2]
// grid (x fastest) to the nearest marked one, capped at 255: the two-pass
// chessboard distance transform (Rosenfeld and Pfaltz, "Sequential
// Operations in Digital Picture Processing", JACM 1966), each pass taking
// the 13 neighbours already visited, which is exact for this metric.
std::vector<std::uint8_t> ChebyshevDistances(const std::vector<std::uint8_t>& marked,
                                             const std::array<std::int64_t, 3>& n) {
  std::vector<std::uint8_t> d(marked.size());
  for (std::size_t i = 0; i < marked.size(); ++i) d[i] = marked[i] != 0 ? 0 : 255;
  const auto at = [&](std::int64_t x, std::int64_t y, std::int64_t z) {
    return static_cast<std::size_t>(x + n[0] * (y + n[1] * z));
  };
  for (const int sign : {1, -1}) {
    for (std::int64_t zz = 0; zz < n[2]; ++zz) {
      const std::int64_t z = sign > 0 ? zz : n[2] - 1 - zz;
      for (std::int64_t yy = 0; yy < n[1]; ++yy) {
        const std::int64_t y = sign > 0 ? yy : n[1] - 1 - yy;
        for (std::int64_t xx = 0; xx < n[0]; ++xx) {
          const std::int64_t x = sign > 0 ? xx : n[0] - 1 - xx;
          std::uint8_t& here = d[at(x, y, z)];
          if (here == 0) continue;
          // The neighbours (dx, dy, dz) before this voxel in the pass's
          // order: dz = -1 (9 of them), dz = 0 and dy = -1 (3), dx = -1.
          for (int m = 0; m < 13; ++m) {
            const std::int64_t dz = m < 9 ? -1 : 0, dy = m < 9 ? m / 3 - 1 : (m < 12 ? -1 : 0),
                               dx = m < 9 ? m % 3 - 1 : (m < 12 ? m - 10 : -1);
            const std::int64_t qx = x + sign * dx, qy = y + sign * dy, qz = z + sign * dz;
            if (qx < 0 || qy < 0 || qz < 0 || qx >= n[0] || qy >= n[1] || qz >= n[2]) continue;
            here = std::min<int>(here, d[at(qx, qy, qz)] + 1);
          }
        }
      }
    }
  }
  return d;
}

}  // namespace

void VoxelGrid::BuildDistances() {
  const auto solid_at = [&](std::int64_t x, std::int64_t y, std::int64_t z) {
    return x >= 0 && y >= 0 && z >= 0 && x < n_[0] && y < n_[1] && z < n_[2] &&
           solid_[static_cast<std::size_t>(Index(x, y, z))] != 0;
  };
  std::vector<std::uint8_t> thick(solid_.size());
  for (int k = 0; k < 3; ++k) {
    const int u = (k + 1) % 3, v = (k + 2) % 3;
    for (std::int64_t z = 0; z < n_[2]; ++z) {
      for (std::int64_t y = 0; y < n_[1]; ++y) {
        for (std::int64_t x = 0; x < n_[0]; ++x) {
          bool all = true;
          for (int m = 0; m < 9 && all; ++m) {
            std::array<std::int64_t, 3> q{x, y, z};
            q[u] += m % 3 - 1;
            q[v] += m / 3 - 1;
            all = solid_at(q[0], q[1], q[2]);
          }
          thick[static_cast<std::size_t>(Index(x, y, z))] = all ? 1 : 0;
        }
      }
    }
    distance_[k] = ChebyshevDistances(thick, n_);
  }
}

}  // namespace collide::internal
