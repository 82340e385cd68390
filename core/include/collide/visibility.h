// Visibility sets against wallhacks: for each observer body, the bodies it
// may see, so that a game server sends each client only those (the design,
// its proof and its measurements: docs/visibility.md).
//
// Conservative: a target reported hidden is hidden from every point of the
// observer's eye region (its eye and where the eye can be over the latency
// margin) to every point of the target's region (its parts' bounds and where
// they can be over the margin), by the world's occluders. Occluders are the
// statics whose category is in VisibilitySettings::occluder_mask: closed,
// outward-oriented triangle meshes (each triangle counter-clockwise seen from
// outside, as the importer's MAP_GEOMETRY_OCCLUDER brushes are; a union of
// such shells may overlap and touch) and convex solids (sphere, capsule,
// aabb, obb, convex hull). At creation the world voxelizes them: a voxel is
// solid only when it lies inside the union. A pair is hidden when, for some
// plane between the two regions, every voxel its crossing rectangle meets is
// solid (every segment between the regions crosses that plane inside solid
// voxels): the planes tried are those of the layers where the segment
// between the regions' centres is in a solid voxel (no other can pass).
// Anything else is visible.
#ifndef COLLIDE_VISIBILITY_H_
#define COLLIDE_VISIBILITY_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "collide/validate.h"

namespace collide {

// The world's occluder policy (WorldSettings::visibility).
struct VisibilitySettings {
  // Statics with (category & occluder_mask) != 0 occlude (their geometry as
  // above); halfspaces, triangles, segments and points never do.
  std::uint64_t occluder_mask = 0;
  // The voxel edge, length units (> 0): thin walls occlude only where a
  // whole voxel fits inside them. Doubled until the grid has at most
  // max_voxels voxels.
  double voxel_size = 8.0;
  // The cap keeps one grid under about 350 MB (its build's peak near twice
  // that); the server reserves the peak against its memory budget first.
  std::int64_t max_voxels = std::int64_t{1} << 24;  // in [1, 2^25]; about 10 bytes each.
  // A pair judged visible because no plane tried hides it is answered
  // visible again, without a new walk, for up to reuse_ticks ticks while
  // both its regions stay within 4 voxels of those it was judged on (each
  // pair is judged anew at least once every reuse_ticks ticks, pairs spread
  // over them). Hidden pairs are proved anew at every call, the plane that
  // hid them tried first: a reused answer is only ever "visible", so a
  // target may still be sent up to reuse_ticks ticks after it steps out of
  // view, never late into it. The answers then depend on the calls before
  // (in their order); 0 (the default): every pair judged anew at every
  // call, the answer a function of the world's state alone. Used in worlds
  // of at most 256 bodies (the world keeps up to 256 x 256 pairs, 4 MB).
  std::int32_t reuse_ticks = 0;  // in [0, 64]
};
// Appends a Violation per bad setting ("visibility.voxel_size", ...).
bool ValidateVisibilitySettings(const VisibilitySettings& settings, std::vector<Violation>& out);

// What the world built at creation.
struct VisibilityGridInfo {
  bool built = false;  // some occluder lies in the mask.
  double voxel_size = 0.0;
  std::int64_t nx = 0, ny = 0, nz = 0;
  std::int64_t solid_voxels = 0;
  // Untouched-by-a-triangle voxels whose column could not be decided (a
  // column through an occluder edge exactly): left not solid.
  std::int64_t undecided_voxels = 0;
  std::size_t memory_bytes = 0;  // the voxels and their summed-area tables.
};

}  // namespace collide

#endif  // COLLIDE_VISIBILITY_H_
