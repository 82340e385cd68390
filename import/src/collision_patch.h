// The tessellation Quake 3 collides with a Bezier patch face at, coarser than
// the drawn one. The idea of the game's cm_patch.c (CM_GeneratePatchCollide,
// SUBDIVIDE_DISTANCE 16; code of our own): each patch column (the control
// columns 2s..2s+2 of every control row) is halved until, for every row, the
// curve's midpoint lies less than kCollisionPatchTolerance from the midpoint
// of its chord; the rows are then treated the same way over the columns so
// found. A quadratic's midpoint offset |p0 - 2 p1 + p2| / 4 is its largest
// distance from its chord and each halving quarters it, so a column takes
// 2^d steps with d the smallest for which offset / 4^d < 16 (a 90-degree arc
// of radius 128: offset 45, 2 steps, up to 11 units inside the curve).
// Differences from the game: it removes columns of coincident points
// (CM_RemoveDegenerateColumns), here left as zero-area triangles that queries
// skip; it stops halving at 129 grid points per side, here at kMaxCollisionSteps
// per column (a midpoint offset of 16 * 4^6 = 65536 units).
#ifndef COLLIDE_IMPORT_COLLISION_PATCH_H_
#define COLLIDE_IMPORT_COLLISION_PATCH_H_

#include <span>
#include <vector>

#include "bezier_patch.h"

namespace collide::importer {

// Units (SUBDIVIDE_DISTANCE in cm_patch.c).
inline constexpr double kCollisionPatchTolerance = 16.0;
inline constexpr int kMaxCollisionSteps = 64;

struct PatchSteps {
  std::vector<int> u;  // per patch column, (w - 1) / 2
  std::vector<int> v;  // per patch row, (h - 1) / 2
  // Triangles of the grid: two per cell.
  std::uint64_t Triangles() const;
};

// `control` as for TessellatePatch.
PatchSteps CollisionPatchSteps(std::span<const Vec3> control, int w, int h);

}  // namespace collide::importer

#endif  // COLLIDE_IMPORT_COLLISION_PATCH_H_
