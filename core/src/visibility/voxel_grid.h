// The occluders as solid voxels, and the test that two boxes cannot see
// each other through them (docs/visibility.md has the proof).
#ifndef COLLIDE_CORE_SRC_VISIBILITY_VOXEL_GRID_H_
#define COLLIDE_CORE_SRC_VISIBILITY_VOXEL_GRID_H_

#include <array>
#include <cstdint>
#include <vector>

#include "collide/visibility.h"
#include "world/statics.h"

namespace collide::internal {

class VoxelGrid {
 public:
  // Voxelizes the statics in settings.occluder_mask (voxelize.cc).
  VoxelGrid(const StaticSet& statics, const VisibilitySettings& settings);

  const VisibilityGridInfo& info() const { return info_; }
  bool solid(std::int64_t x, std::int64_t y, std::int64_t z) const { return solid_[Index(x, y, z)] != 0; }
  struct RegionPair {
    const Aabb* a;
    const Aabb* b;
  };
  // The centre plane of layer `layer` along `axis` (axis -1: none).
  struct Plane {
    std::int8_t axis = -1;
    std::int32_t layer = 0;
  };
  // hidden[i] = 1 when every segment from a point of pairs[i].a to a point
  // of pairs[i].b crosses solid voxels only on some plane tried: then no
  // occluder-free line joins them; 0 says nothing (walk.cc). With `planes`,
  // (*planes)[i] is the plane that hid pair i.
  void Hidden(const std::vector<RegionPair>& pairs, std::vector<std::uint8_t>& hidden,
              std::vector<Plane>* planes = nullptr) const;
  // hides[i] = 1 when every segment from a point of pairs[i].a to a point
  // of pairs[i].b crosses planes[i] in solid voxels only (any plane: a
  // proof, whether a walk would try it or not).
  void Hides(const std::vector<RegionPair>& pairs, const std::vector<Plane>& planes,
             std::vector<std::uint8_t>& hides) const;
  double voxel_size() const { return h_; }

 private:
  std::int64_t Index(std::int64_t x, std::int64_t y, std::int64_t z) const {
    return x + n_[0] * (y + n_[1] * z);
  }
  // The axis-aligned planes of the triangles touching a voxel.
  struct SeamPlanes {
    std::array<double, 3> at{};
    std::array<bool, 3> has{};
    bool other = false;  // a triangle in no axis plane, or a second plane on an axis.
    void Add(int axis, double c);
  };
  // Touched voxels made solid by the seam rule (voxelize.cc); touched[i] is
  // 0 or 1 + the voxel's index in `seams`.
  void SolidifySeams(const std::vector<std::int32_t>& touched, const std::vector<SeamPlanes>& seams);
  void BuildTables();
  void BuildDistances();
  // Voxel indices [lo[0], hi[0]] x [lo[1], hi[1]] along the axes after a
  // layer's (u = axis + 1, v = axis + 2, mod 3).
  struct Rect {
    std::array<std::int64_t, 2> lo, hi;
  };
  // Every voxel of the rectangle (within the grid) in layer `layer` along
  // `axis` is solid.
  bool AllSolid(int axis, std::int64_t layer, const Rect& r) const;
  const std::uint16_t* Table(int axis, std::int64_t layer) const;  // the layer's summed-area table
  // The voxels of layer `layer` along `axis` that the segments from a
  // (below) to b (above) along it cross its centre plane in; false when
  // some cross it beyond the grid (not solid).
  bool PlaneRect(int axis, std::int64_t layer, const Aabb& a, const Aabb& b, Rect& r) const;
  // There are occluders, and both regions are finite (walk.cc).
  bool Judgeable(const Aabb& a, const Aabb& b) const;
  // Prefetches the four table entries AllSolid reads for r (walk.cc).
  void PrefetchRect(int axis, std::int64_t layer, const Rect& r) const;
  // PlaneRect for `plane` between a and b, when the plane lies strictly
  // between them (walk.cc).
  bool PlaneBetween(const Aabb& a, const Aabb& b, Plane plane, Rect& r) const;
  // One pair's walk over the layers (walk.cc).
  struct Walk;
  bool BeginPair(Walk& w) const;
  bool NextAxis(Walk& w) const;
  void Locate(Walk& w) const;
  int Step(Walk& w) const;

  VisibilityGridInfo info_;
  Vec3 origin_;
  double h_ = 1.0;
  std::array<std::int64_t, 3> n_{};
  std::vector<std::uint8_t> solid_;
  // Per axis k and voxel, the Chebyshev distance in voxels to the nearest
  // voxel that is solid with its 8 neighbours in its layer along k, capped
  // at 255 (0: such a voxel). Hidden walks the layers along k whose
  // centre-line voxel is such a voxel and skips the others by this
  // distance: a floor (thin along z) does not stop a walk along x.
  std::array<std::vector<std::uint8_t>, 3> distance_;
  // Per axis k, per layer along k, the summed-area table of the layer's
  // solid voxels over the other two axes (u = k + 1, v = k + 2, mod 3),
  // (n_u + 1) x (n_v + 1) counts modulo 2^16: a rectangle's count is exact
  // when its area is below 2^16 (AllSolid splits larger ones).
  std::array<std::vector<std::uint16_t>, 3> tables_;
};

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_VISIBILITY_VOXEL_GRID_H_
