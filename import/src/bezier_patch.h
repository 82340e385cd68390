// Tessellation of Quake 3 Bezier patch faces: a control grid of w x h points
// (odd sides) is ((w-1)/2) x ((h-1)/2) biquadratic patches sharing their
// border rows, each evaluated at n x n steps.
//
// Shared edges are bitwise identical, inside a face and between faces that
// share three control points, whatever the traversal direction: t = k/n with
// n a power of two makes 1 - t and the Bernstein weights (1-t)^2, 2t(1-t),
// t^2 exact, and every curve is summed as (B0 P0 + B2 P2) + B1 P1, which is
// symmetric under t -> 1 - t (IEEE addition commutes). On a patch border the
// tensor product reduces exactly to that border curve (weights 1, 0, 0).
//
// Fineness: n = 8 (the default) keeps a quadratic arc within
// |P0 - 2 P1 + P2| / 256 of its chords (chord error h^2 |c''| / 8 with
// h = 1/n and c'' = 2 (P0 - 2 P1 + P2)): 0.7 units (~2 cm) for a 90-degree
// arc of radius 128 units, finer than Quake 3's own collision (cm_patch.c
// subdivides to 16 units) and renderer (r_subdivisions 4 units).
#ifndef COLLIDE_IMPORT_BEZIER_PATCH_H_
#define COLLIDE_IMPORT_BEZIER_PATCH_H_

#include <cstdint>
#include <span>
#include <vector>

#include "collide/math.h"

namespace collide::importer {

struct PatchGrid {
  int columns = 0;           // n * (w - 1) / 2 + 1
  int rows = 0;              // n * (h - 1) / 2 + 1
  std::vector<Vec3> points;  // row-major, columns * rows
};

// `control` holds w * h points, row-major (w per row); w, h odd >= 3; n a
// power of two >= 1.
PatchGrid TessellatePatch(std::span<const Vec3> control, int w, int h, int n);

// The same with steps per patch column (steps_u, (w - 1) / 2 of them) and per
// patch row (steps_v, (h - 1) / 2), each a power of two >= 1: the collision
// tessellation (collision_patch.h) steps each column and row as it needs.
PatchGrid TessellatePatch(std::span<const Vec3> control, int w, int h, std::span<const int> steps_u,
                          std::span<const int> steps_v);

// The quadratic Bezier curve p0 p1 p2 at t = k / n, summed as the grids are
// (the same bits for t and 1 - t with p0, p2 swapped).
Vec3 QuadraticAt(int k, int n, const Vec3& p0, const Vec3& p1, const Vec3& p2);

// Triangles of a uniform patch grid: two per cell.
inline std::uint64_t PatchTriangleCount(int w, int h, int n) {
  return std::uint64_t{2} * static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>((w - 1) / 2) *
         static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>((h - 1) / 2);
}

}  // namespace collide::importer

#endif  // COLLIDE_IMPORT_BEZIER_PATCH_H_
