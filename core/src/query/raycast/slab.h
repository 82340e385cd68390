// The slab method: clip a parametric line against a box, in the box frame
// (Kay and Kajiya 1986; Ericson, Real-Time Collision Detection 5.3.3).
// Shared by the box ray casts and the segment/capsule-box kernels.
#ifndef COLLIDE_CORE_SRC_QUERY_RAYCAST_SLAB_H_
#define COLLIDE_CORE_SRC_QUERY_RAYCAST_SLAB_H_

#include "collide/math.h"

namespace collide::internal {

struct SlabClip {
  bool hit;        // some t in [t_enter, t_exit] is in the closed box.
  double t_enter;  // first parameter in the box (>= the t_lo given).
  double t_exit;   // last parameter in the box (<= the t_hi given).
  // Axis whose slab the line enters last, at t_enter; -1 when t_enter is t_lo
  // (the line is already in every slab there). The face crossed is the lo
  // face when dir[axis] > 0, else the hi face.
  int enter_axis;
};

// The parameters t in [t_lo, t_hi] for which origin + t * dir lies in the
// closed box lo <= x <= hi. Per axis the entry and exit parameters of the
// two parallel planes; the running max of entries against the min of exits.
// A direction parallel to a slab (dir[i] == 0) is tested by its origin.
// Divides rather than multiplying by 1/dir[i]: with a tiny dir[i] the inverse
// overflows and 0 * inf would give NaN for an origin on a plane.
inline SlabClip ClipLineToBox(const Vec3& origin, const Vec3& dir, const Vec3& lo, const Vec3& hi,
                              double t_lo, double t_hi) {
  SlabClip c{false, t_lo, t_hi, -1};
  for (int i = 0; i < 3; ++i) {
    if (dir[i] == 0.0) {
      if (origin[i] < lo[i] || origin[i] > hi[i]) return c;
      continue;
    }
    double t0 = (lo[i] - origin[i]) / dir[i];
    double t1 = (hi[i] - origin[i]) / dir[i];
    if (dir[i] < 0.0) {
      const double t = t0;
      t0 = t1;
      t1 = t;
    }
    if (t0 > c.t_enter) {
      c.t_enter = t0;
      c.enter_axis = i;
    }
    if (t1 < c.t_exit) c.t_exit = t1;
  }
  c.hit = c.t_enter <= c.t_exit;
  return c;
}

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_RAYCAST_SLAB_H_
