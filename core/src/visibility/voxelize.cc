// The occluders' solid voxels. A voxel is solid only when it lies inside the
// union of the occluders:
// - inside a convex occluder: its 8 corners are (a convex set holds the box
//   of its corners' hull);
// - or no occluder triangle meets it (the exact triangle-box test, on the
//   voxel grown by a rounding margin) and the winding number of the meshes
//   at it is >= 1. With no triangle inside, the winding number is the same
//   at every point of the voxel; for a union of closed outward shells it is
//   the number of shells holding the point (Jacobson et al., "Robust
//   Inside-Outside Segmentation using Generalized Winding Numbers", 2013, 2).
// - or, touched only by triangles lying in axis-aligned planes (all three
//   vertices on x_k = c exactly; at most one such plane per axis, strictly
//   inside the voxel: the seams where brushes meet), each of the up to 8
//   cells those planes cut it into has a face on the voxel's boundary next
//   to a voxel solid by the rule before: the cell's open interior, that
//   face's open patch and the neighbour's interior meet no triangle (the
//   neighbour is untouched), so the winding number in the cell is the
//   neighbour's, >= 1.
// The winding number of a column of voxels comes from the crossings of the
// vertical line through it with the triangles: a point's count is the sum,
// over the crossings above it, of +1 for a triangle facing up and -1 for
// one facing down. A line through a triangle's edge or corner exactly
// leaves the whole column undecided (not solid). The 2-D edge functions are
// written so that two triangles sharing an edge compute exact negations of
// each other (a product's operands swapped, a difference reversed), so no
// line slips between two triangles or crosses both (the watertight argument
// of Woop et al., "Watertight Ray/Triangle Intersection", JCGT 2013).
#include <algorithm>
#include <cmath>

#include "collide/query.h"
#include "query/box/triangle_box_sat.h"
#include "shapes/shape_bounds.h"
#include "visibility/voxel_grid.h"

namespace collide::internal {
namespace {

// The axis whose coordinate the three vertices share exactly, or -1.
int PlaneAxis(const Vec3& a, const Vec3& b, const Vec3& c) {
  for (int k = 0; k < 3; ++k) {
    if (a[k] == b[k] && b[k] == c[k]) return k;
  }
  return -1;
}

bool IsConvexSolid(const Shape& s) {
  return std::holds_alternative<Sphere>(s) || std::holds_alternative<Capsule>(s) ||
         std::holds_alternative<Aabb>(s) || std::holds_alternative<Obb>(s) ||
         std::holds_alternative<ConvexHull>(s);
}

// cross(a - p, b - p).z: > 0 when p is left of a -> b. Swapping a and b
// negates it exactly.
double EdgeFunction(const Vec3& a, const Vec3& b, double px, double py) {
  return (a.x - px) * (b.y - py) - (a.y - py) * (b.x - px);
}

std::int64_t Clamp(double v, std::int64_t lo, std::int64_t hi) {
  if (!(v >= static_cast<double>(lo))) return lo;
  if (!(v <= static_cast<double>(hi))) return hi;
  return static_cast<std::int64_t>(v);
}

}  // namespace

VoxelGrid::VoxelGrid(const StaticSet& statics, const VisibilitySettings& settings) {
  std::vector<const TriangleMesh*> meshes;
  std::vector<const Shape*> convex;
  Aabb box{{kInfinity, kInfinity, kInfinity}, {-kInfinity, -kInfinity, -kInfinity}};
  for (std::uint32_t i : statics.bounded) {
    if ((statics.elements[i].category & settings.occluder_mask) == 0) continue;
    if (const TriangleMesh* mesh = statics.MeshOf(i)) {
      if (mesh->triangle_count() == 0 || !(mesh->bounds().min.x <= mesh->bounds().max.x)) continue;
      meshes.push_back(mesh);
    } else if (IsConvexSolid(*statics.ShapeOf(i))) {
      convex.push_back(statics.ShapeOf(i));
    } else {
      continue;
    }
    box = {Min(box.min, statics.bounds[i].min), Max(box.max, statics.bounds[i].max)};
  }
  if (meshes.empty() && convex.empty()) return;
  // The grid: voxels of edge h from box.min, doubled until they fit the cap.
  h_ = settings.voxel_size;
  const Vec3 extent = box.max - box.min;
  const auto count = [&](double h) {
    return (std::floor(extent.x / h) + 1) * (std::floor(extent.y / h) + 1) * (std::floor(extent.z / h) + 1);
  };
  while (count(h_) > static_cast<double>(settings.max_voxels)) h_ *= 2;
  // Shifted by 5/16 and 13/32 of a voxel: map coordinates on an integer
  // grid (Quake's brushes) then never lie on a voxel face, where a face of
  // a brush would touch the voxels on both sides, and the columns' lines
  // (through the voxel centres) miss the 45-degree diagonals of the faces.
  origin_ = box.min - Vec3{0.3125, 0.40625, 0.3125} * h_;
  for (int k = 0; k < 3; ++k) n_[k] = static_cast<std::int64_t>(std::floor(extent[k] / h_)) + 1;
  const std::int64_t nx = n_[0], ny = n_[1], nz = n_[2];
  const std::int64_t columns = nx * ny;
  solid_.assign(static_cast<std::size_t>(columns * nz), 0);
  // touched[i]: 0, or 1 + the voxel's index in `seams`.
  std::vector<std::int32_t> touched(solid_.size(), 0);
  std::vector<SeamPlanes> seams;
  std::vector<std::uint8_t> undecided(static_cast<std::size_t>(columns), 0);
  std::vector<std::int32_t> winding(static_cast<std::size_t>(columns * (nz + 1)), 0);
  // Rounding margin of the touch test: far above the triangle-box test's
  // error (~eps times the coordinates) and far below any wall.
  const double margin = 1e-6 * h_ + 1e-12 * (Length(Abs(box.min)) + Length(Abs(box.max)));
  const double half = 0.5 * h_ + margin;
  const auto centre = [&](int k, std::int64_t i) { return origin_[k] + (static_cast<double>(i) + 0.5) * h_; };
  const auto first_voxel = [&](int k, double v) {
    return Clamp(std::floor((v - margin - origin_[k]) / h_), 0, n_[k] - 1);
  };
  const auto last_voxel = [&](int k, double v) {
    return Clamp(std::floor((v + margin - origin_[k]) / h_), 0, n_[k] - 1);
  };
  for (const TriangleMesh* mesh : meshes) {
    const std::vector<Vec3>& vertices = mesh->vertices();
    for (const TriangleIndices& t : mesh->triangles()) {
      if (t[0] >= vertices.size() || t[1] >= vertices.size() || t[2] >= vertices.size()) continue;
      const Vec3 &a = vertices[t[0]], &b = vertices[t[1]], &c = vertices[t[2]];
      const Vec3 lo = Min(a, Min(b, c)), hi = Max(a, Max(b, c));
      if (!IsValidNumber(lo.x + lo.y + lo.z + hi.x + hi.y + hi.z)) continue;
      // The voxels it touches.
      const int axis = PlaneAxis(a, b, c);
      for (std::int64_t z = first_voxel(2, lo.z); z <= last_voxel(2, hi.z); ++z) {
        for (std::int64_t y = first_voxel(1, lo.y); y <= last_voxel(1, hi.y); ++y) {
          for (std::int64_t x = first_voxel(0, lo.x); x <= last_voxel(0, hi.x); ++x) {
            const Vec3 m{centre(0, x), centre(1, y), centre(2, z)};
            const TriangleBox f{{a - m, b - m, c - m}, {-half, -half, -half}, {half, half, half}};
            if (SeparatedTriangleBox(f)) continue;
            std::int32_t& mark = touched[static_cast<std::size_t>(Index(x, y, z))];
            if (mark == 0) {
              seams.emplace_back();
              mark = static_cast<std::int32_t>(seams.size());
            }
            seams[static_cast<std::size_t>(mark - 1)].Add(axis, axis >= 0 ? a[axis] : 0.0);
          }
        }
      }
      // Its crossings with the columns' vertical lines (one column wider
      // on each side than its bounds: a line on its boundary is seen).
      const Vec3 n = Cross(b - a, c - a);
      for (std::int64_t y = std::max<std::int64_t>(0, first_voxel(1, lo.y) - 1);
           y <= std::min(ny - 1, last_voxel(1, hi.y) + 1); ++y) {
        for (std::int64_t x = std::max<std::int64_t>(0, first_voxel(0, lo.x) - 1);
             x <= std::min(nx - 1, last_voxel(0, hi.x) + 1); ++x) {
          const double px = centre(0, x), py = centre(1, y);
          const double e0 = EdgeFunction(a, b, px, py), e1 = EdgeFunction(b, c, px, py),
                       e2 = EdgeFunction(c, a, px, py);
          const bool up = e0 > 0 && e1 > 0 && e2 > 0, down = e0 < 0 && e1 < 0 && e2 < 0;
          const std::int64_t column = x + nx * y;
          if (!up && !down) {
            // On the closed triangle's boundary: not decidable here.
            const bool on = (e0 >= 0 && e1 >= 0 && e2 >= 0) || (e0 <= 0 && e1 <= 0 && e2 <= 0);
            if (on &&
                !(e0 == 0 && e1 == 0 && e2 == 0 && (px < lo.x || px > hi.x || py < lo.y || py > hi.y))) {
              undecided[static_cast<std::size_t>(column)] = 1;
            }
            continue;
          }
          // The plane's height at the line: for a triangle steeper than
          // 60 degrees the division loses too much (its error grows as
          // |n| / |n.z|), so the voxels of its whole height in this column
          // are left out instead (marked touched by a non-axis triangle).
          double zc = a.z - (n.x * (px - a.x) + n.y * (py - a.y)) / n.z;
          if (!IsValidNumber(zc)) {
            undecided[static_cast<std::size_t>(column)] = 1;
            continue;
          }
          // The voxels below the triangle count it, those above do not,
          // whatever the error.
          zc = std::clamp(zc, lo.z, hi.z);
          if (!(std::fabs(n.z) >= 0.5 * Length(n))) {
            for (std::int64_t z = first_voxel(2, lo.z); z <= last_voxel(2, hi.z); ++z) {
              std::int32_t& mark = touched[static_cast<std::size_t>(Index(x, y, z))];
              if (mark == 0) {
                seams.emplace_back();
                mark = static_cast<std::int32_t>(seams.size());
              }
              seams[static_cast<std::size_t>(mark - 1)].Add(-1, 0.0);
            }
          }
          // Voxels with their centre below the crossing count it.
          const std::int64_t below = Clamp(std::ceil((zc - origin_.z) / h_ - 0.5), 0, nz);
          const std::int32_t s = up ? 1 : -1;
          winding[static_cast<std::size_t>(column * (nz + 1))] += s;
          winding[static_cast<std::size_t>(column * (nz + 1) + below)] -= s;
        }
      }
    }
  }
  for (std::int64_t y = 0; y < ny; ++y) {
    for (std::int64_t x = 0; x < nx; ++x) {
      const std::int64_t column = x + nx * y;
      std::int32_t w = 0;
      for (std::int64_t z = 0; z < nz; ++z) {
        w += winding[static_cast<std::size_t>(column * (nz + 1) + z)];
        const std::size_t i = static_cast<std::size_t>(Index(x, y, z));
        if (touched[i] != 0) continue;
        if (undecided[static_cast<std::size_t>(column)] != 0) {
          ++info_.undecided_voxels;
        } else if (w >= 1) {
          solid_[i] = 1;
        }
      }
    }
  }
  SolidifySeams(touched, seams);
  // Convex occluders: a voxel whose 8 corners are inside one.
  std::vector<std::uint8_t> inside;
  for (const Shape* shape : convex) {
    const Aabb b = BoundsOf(*shape);
    std::array<std::int64_t, 3> c0, c1;  // corner index ranges
    for (int k = 0; k < 3; ++k) {
      c0[k] = Clamp(std::ceil((b.min[k] - origin_[k]) / h_), 0, n_[k]);
      c1[k] = Clamp(std::floor((b.max[k] - origin_[k]) / h_), 0, n_[k]);
    }
    if (c0[0] >= c1[0] || c0[1] >= c1[1] || c0[2] >= c1[2]) continue;
    const std::int64_t wx = c1[0] - c0[0] + 1, wy = c1[1] - c0[1] + 1;
    inside.assign(static_cast<std::size_t>(wx * wy * (c1[2] - c0[2] + 1)), 0);
    const auto at = [&](std::int64_t x, std::int64_t y, std::int64_t z) -> std::uint8_t& {
      return inside[static_cast<std::size_t>((x - c0[0]) + wx * ((y - c0[1]) + wy * (z - c0[2])))];
    };
    for (std::int64_t z = c0[2]; z <= c1[2]; ++z) {
      for (std::int64_t y = c0[1]; y <= c1[1]; ++y) {
        for (std::int64_t x = c0[0]; x <= c1[0]; ++x) {
          const Vec3 p =
              origin_ + Vec3{static_cast<double>(x), static_cast<double>(y), static_cast<double>(z)} * h_;
          at(x, y, z) = Intersect(Point{p}, *shape).hit ? 1 : 0;
        }
      }
    }
    for (std::int64_t z = c0[2]; z < c1[2]; ++z) {
      for (std::int64_t y = c0[1]; y < c1[1]; ++y) {
        for (std::int64_t x = c0[0]; x < c1[0]; ++x) {
          bool all = true;
          for (int corner = 0; corner < 8 && all; ++corner) {
            all = at(x + (corner & 1), y + ((corner >> 1) & 1), z + (corner >> 2)) != 0;
          }
          if (all) solid_[static_cast<std::size_t>(Index(x, y, z))] = 1;
        }
      }
    }
  }
  BuildTables();
  BuildDistances();
  info_.built = true;
  info_.voxel_size = h_;
  info_.nx = nx;
  info_.ny = ny;
  info_.nz = nz;
  for (std::uint8_t s : solid_) info_.solid_voxels += s;
  info_.memory_bytes = solid_.size() + 3 * distance_[0].size() +
                       (tables_[0].size() + tables_[1].size() + tables_[2].size()) * 2;
}

void VoxelGrid::SeamPlanes::Add(int axis, double c) {
  if (axis < 0) {
    other = true;
  } else if (!has[axis]) {
    has[axis] = true;
    at[axis] = c;
  } else {
    other = other || at[axis] != c;
  }
}

void VoxelGrid::SolidifySeams(const std::vector<std::int32_t>& touched,
                              const std::vector<SeamPlanes>& seams) {
  const std::vector<std::uint8_t> base = solid_;
  for (std::int64_t z = 0; z < n_[2]; ++z) {
    for (std::int64_t y = 0; y < n_[1]; ++y) {
      for (std::int64_t x = 0; x < n_[0]; ++x) {
        const std::int32_t mark = touched[static_cast<std::size_t>(Index(x, y, z))];
        if (mark == 0 || seams[static_cast<std::size_t>(mark - 1)].other) continue;
        const SeamPlanes& s = seams[static_cast<std::size_t>(mark - 1)];
        const std::array<std::int64_t, 3> at{x, y, z};
        std::array<bool, 3> split{};
        for (int k = 0; k < 3; ++k) {
          const double lo = origin_[k] + static_cast<double>(at[k]) * h_;
          split[k] = s.has[k] && lo < s.at[k] && s.at[k] < lo + h_;
        }
        // Cell `cell` (bit k: the high side of the plane on axis k) is
        // solid when a voxel across one of its boundary faces is.
        const auto neighbour_solid = [&](int k, int side) {
          std::array<std::int64_t, 3> q = at;
          q[k] += side == 0 ? -1 : 1;
          return q[k] >= 0 && q[k] < n_[k] && base[static_cast<std::size_t>(Index(q[0], q[1], q[2]))] != 0;
        };
        bool all = true;
        for (int cell = 0; cell < 8 && all; ++cell) {
          bool skip = false, ok = false;
          for (int k = 0; k < 3; ++k) {
            const int side = (cell >> k) & 1;
            if (!split[k] && side == 1) skip = true;  // one cell on an axis without a plane
            if (split[k]) {
              ok = ok || neighbour_solid(k, side);
            } else {
              ok = ok || neighbour_solid(k, 0) || neighbour_solid(k, 1);
            }
          }
          if (!skip) all = ok;
        }
        if (all) solid_[static_cast<std::size_t>(Index(x, y, z))] = 1;
      }
    }
  }
}

}  // namespace collide::internal
