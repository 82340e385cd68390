// The boundary of a convex brush as polygons: each side's plane clipped by
// every other side's half-space (Sutherland-Hodgman, as q3map builds brush
// windings), starting from a square larger than any Quake 3 world (+-65536).
// Corners of different sides closer than kBrushWeld are made identical, so
// each hull is closed. Work is O(sides^2 * polygon size).
// A brush gives no hull when it is unbounded (a corner beyond
// kBrushWorldLimit: missing sides) or has no volume (fewer than 4 polygons,
// or under kBrushWeld^3 cubic units: sides that exclude each other, or a
// slab thinner than the weld).
#ifndef COLLIDE_IMPORT_BRUSH_HULL_H_
#define COLLIDE_IMPORT_BRUSH_HULL_H_

#include <span>
#include <vector>

#include "bsp_file.h"

namespace collide::importer {

// Units: corners this close are one corner (float planes put corners that
// should coincide ~1e-4 apart at world scale; brushes are never this thin).
inline constexpr double kBrushWeld = 1e-3;
// Units: Quake 3's MAX_WORLD_COORD (q_shared.h); no map reaches past it.
inline constexpr double kBrushWorldLimit = 128 * 1024;

// The polygons (3 or more corners, in order) bounding the intersection of
// the half-spaces Dot(normal, x) <= dist; sides that touch it in an edge or
// a point (q3map's bevels) give none. Empty for a dropped brush (above).
std::vector<std::vector<Vec3>> BrushHull(std::span<const BspPlane> sides);

}  // namespace collide::importer

#endif  // COLLIDE_IMPORT_BRUSH_HULL_H_
