// The boundary of a convex brush as triangles. Its corners come from each
// side's plane clipped by every other side's half-space (Sutherland-Hodgman,
// as q3map builds brush windings), starting from a square larger than any
// Quake 3 world; corners closer than kBrushWeld are one. The boundary is then
// the convex hull of the corners (convex_hull.h), which is closed however the
// float planes round nearly coincident corners: built per side, 616 of the
// 47,571 brushes of OpenArena's 38 maps had an open edge; as a hull, none.
// Work is O(sides^3) for the corners, O(corners^2) for the hull.
// A brush gives no hull when it is unbounded (a corner beyond
// kBrushWorldLimit: missing sides) or has no volume: sides that exclude each
// other (one of the 47,571, in oa_thor), or thinner than kBrushWeld (twice
// its volume over its area, a slab's thickness).
#ifndef COLLIDE_IMPORT_BRUSH_HULL_H_
#define COLLIDE_IMPORT_BRUSH_HULL_H_

#include <array>
#include <span>
#include <vector>

#include "bsp_file.h"

namespace collide::importer {

// Units: corners this close are one corner (float planes put corners that
// should coincide ~1e-4 apart at world scale; brushes are never this thin).
inline constexpr double kBrushWeld = 1e-3;
// Units: Quake 3's MAX_WORLD_COORD (q_shared.h); no map reaches past it.
inline constexpr double kBrushWorldLimit = 128 * 1024;

// The triangles bounding the intersection of the half-spaces
// Dot(normal, x) <= dist, counter-clockwise seen from outside; sides that
// touch it in an edge or a point (q3map's bevels) give none. Empty for a
// dropped brush (above).
std::vector<std::array<Vec3, 3>> BrushHull(std::span<const BspPlane> sides);

}  // namespace collide::importer

#endif  // COLLIDE_IMPORT_BRUSH_HULL_H_
