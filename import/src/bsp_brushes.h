// The world model's brushes as closed hulls (brush_hull.h), with the
// categories their contents put them in: what Quake 3 collides with,
// whether or not a face of it is drawn (caulk and clip faces never are).
#ifndef COLLIDE_IMPORT_BSP_BRUSHES_H_
#define COLLIDE_IMPORT_BSP_BRUSHES_H_

#include <array>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "bsp_file.h"

namespace collide::importer {

struct BrushHullOf {
  CategoryMask categories = 0;
  std::vector<std::array<Vec3, 3>> triangles;  // empty: dropped (BrushHull)
};

// The world's brushes in any of `selected`, in file order. ResourceExhausted
// (naming `file`) when the hulls' work (sides^4 in all) exceeds a cap that
// OpenArena's maps stay 4x below.
absl::StatusOr<std::vector<BrushHullOf>> WorldBrushHulls(const BspFile& bsp, CategoryMask selected,
                                                         const std::string& file);

}  // namespace collide::importer

#endif  // COLLIDE_IMPORT_BSP_BRUSHES_H_
