// Two oriented boxes seen from box A, and the separating-axis test over
// their 15 candidate axes (Gottschalk, Lin and Manocha, "OBBTree", 1996;
// Ericson, Real-Time Collision Detection 4.4.1). Everything is computed in
// A's frame for round-off: A is centred at the origin with axes e_0..e_2.
#ifndef COLLIDE_CORE_SRC_QUERY_CONTACT_BOX_BOX_SAT_H_
#define COLLIDE_CORE_SRC_QUERY_CONTACT_BOX_BOX_SAT_H_

#include <cmath>

#include "collide/math.h"
#include "collide/shapes.h"

namespace collide::internal {

// Gottschalk's epsilon: added to |R| on the edge-edge axes so that a cross
// product of near-parallel edges, which is round-off noise, can never report
// a false separation. Relative to the extents, so it is scale-free; 1e-12
// dominates the ~1e-16 error of R while keeping false hits below 1e-12 of the
// box size.
inline constexpr double kSatEpsilon = 1e-12;

struct BoxPairFrame {
  double r[3][3];      // r[i][j] = a_i . b_j: column j is B's axis j in A's frame.
  double abs_r[3][3];  // |r[i][j]|.
  Vec3 t;              // B's centre in A's frame.
  Vec3 ha, hb;         // half extents.
};

inline BoxPairFrame MakeBoxPairFrame(const Obb& a, const Obb& b) {
  BoxPairFrame f;
  for (int j = 0; j < 3; ++j) {
    const Vec3 bj = TransposeMul(a.rotation, b.rotation.col[j]);
    for (int i = 0; i < 3; ++i) {
      f.r[i][j] = bj[i];
      f.abs_r[i][j] = std::fabs(bj[i]);
    }
  }
  f.t = TransposeMul(a.rotation, b.center - a.center);
  f.ha = a.half_extents;
  f.hb = b.half_extents;
  return f;
}

// Overlap along the edge-edge axis e_i x b_j (not normalized): ra + rb - |s|
// with the projections written out in terms of r (Ericson 4.4.1), and the
// epsilon-inflated radius used for the separation decision.
struct EdgeAxisOverlap {
  double s;         // t . (e_i x b_j).
  double exact;     // ra + rb - |s| with |r|.
  double inflated;  // the same with |r| + kSatEpsilon.
};
inline EdgeAxisOverlap EdgeOverlap(const BoxPairFrame& f, int i, int j) {
  const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
  const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
  const double ra = f.ha[i1] * f.abs_r[i2][j] + f.ha[i2] * f.abs_r[i1][j];
  const double rb = f.hb[j1] * f.abs_r[i][j2] + f.hb[j2] * f.abs_r[i][j1];
  const double s = f.t[i2] * f.r[i1][j] - f.t[i1] * f.r[i2][j];
  const double exact = ra + rb - std::fabs(s);
  const double slack = kSatEpsilon * (f.ha[i1] + f.ha[i2] + f.hb[j1] + f.hb[j2]);
  return {s, exact, exact + slack};
}

// True when some axis separates the boxes strictly (touching is not
// separated). Face axes use the exact |r|; edge axes the inflated one.
inline bool SeparatedBoxPair(const BoxPairFrame& f) {
  for (int i = 0; i < 3; ++i) {
    const double rb = f.hb[0] * f.abs_r[i][0] + f.hb[1] * f.abs_r[i][1] + f.hb[2] * f.abs_r[i][2];
    if (std::fabs(f.t[i]) > f.ha[i] + rb) return true;
  }
  for (int j = 0; j < 3; ++j) {
    const double ra = f.ha[0] * f.abs_r[0][j] + f.ha[1] * f.abs_r[1][j] + f.ha[2] * f.abs_r[2][j];
    const double s = f.t[0] * f.r[0][j] + f.t[1] * f.r[1][j] + f.t[2] * f.r[2][j];
    if (std::fabs(s) > ra + f.hb[j]) return true;
  }
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      if (EdgeOverlap(f, i, j).inflated < 0.0) return true;
    }
  }
  return false;
}

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_CONTACT_BOX_BOX_SAT_H_
