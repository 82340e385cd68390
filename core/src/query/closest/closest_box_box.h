// Exact closest points of two separated oriented boxes, in A's frame.
#ifndef COLLIDE_CORE_SRC_QUERY_CLOSEST_CLOSEST_BOX_BOX_H_
#define COLLIDE_CORE_SRC_QUERY_CLOSEST_CLOSEST_BOX_BOX_H_

#include <cmath>

#include "collide/math.h"
#include "collide/result.h"
#include "collide/shapes.h"
#include "query/closest/closest_segment_box.h"
#include "query/contact/box_box_sat.h"
#include "query/raycast/slab.h"

namespace collide::internal {

// One edge of box P, in the frame of box Q (centred at the origin of its
// frame), with a lower bound of its squared distance to Q: the gap between
// the edge's bounding box and Q, free of divisions.
struct EdgeCandidate {
  double lower_bound_squared;
  Vec3 e0, e1;
  bool edge_of_a;  // P is A (the edge is in B's frame), else P is B.
};

// Appends the edges of box P (centre cp, axes, half extents hp, in Q's
// frame) that can hold a closest point to the box Q (half extents hq). An
// edge can only if the direction towards Q lies in its normal cone, i.e. Q
// reaches beyond the planes of both faces meeting at the edge: `beyond[k][s]`
// says so for P's face k on side s (0: -, 1: +). With `prune` false every
// edge is appended.
inline void AddEdgeCandidates(const Vec3& cp, const Vec3 axes[3], const Vec3& hp, const bool beyond[3][2],
                              const Vec3& hq, bool prune, bool edge_of_a, EdgeCandidate* out, int& count) {
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    const Vec3 along = axes[i] * hp[i];
    for (int sj = 0; sj < 2; ++sj) {
      for (int sk = 0; sk < 2; ++sk) {
        if (prune && !(beyond[j][sj] && beyond[k][sk])) continue;
        const Vec3 mid = cp + axes[j] * (sj ? hp[j] : -hp[j]) + axes[k] * (sk ? hp[k] : -hp[k]);
        EdgeCandidate& c = out[count++];
        c.e0 = mid - along;
        c.e1 = mid + along;
        c.edge_of_a = edge_of_a;
        double lb = 0.0;
        for (int m = 0; m < 3; ++m) {
          const double lo = c.e0[m] < c.e1[m] ? c.e0[m] : c.e1[m];
          const double hi = c.e0[m] < c.e1[m] ? c.e1[m] : c.e0[m];
          const double gap = lo > hq[m] ? lo - hq[m] : (hi < -hq[m] ? -hq[m] - hi : 0.0);
          lb += gap * gap;
        }
        c.lower_bound_squared = lb;
      }
    }
  }
}

// Whether box Q (centre cq and half-width rq along each of P's axes, in P's
// frame) reaches the plane of each face of P (half extents hp). Generous by
// a relative 1e-9: including an edge too many never changes the answer.
inline void FacesReached(const Vec3& cq, const Vec3& rq, const Vec3& hp, bool beyond[3][2]) {
  for (int k = 0; k < 3; ++k) {
    const double tol = 1e-9 * (std::fabs(cq[k]) + rq[k] + hp[k]);
    beyond[k][0] = -cq[k] + rq[k] >= hp[k] - tol;
    beyond[k][1] = cq[k] + rq[k] >= hp[k] - tol;
  }
}

struct BoxBoxClosest {
  double distance_squared;
  Vec3 on_a, on_b;  // A's frame.
};

// Exact closest points of two separated boxes. For disjoint convex polytopes
// some closest pair has a point on an edge of A or on an edge of B (a face-
// face pair can slide to a vertex of the overlap of the two faces'
// projections, which lies on an edge of one of them), so the least of the
// edge-to-solid-box distances, each exact (ClosestSegmentBoxFrame), is the
// distance. The normal-cone test keeps a few of the 24 edges; they are tried
// in order of a cheap lower bound, stopping when it reaches the best so far.
inline BoxBoxClosest ClosestBoxBoxFrame(const BoxPairFrame& f) {
  const Vec3 b_axes_in_a[3] = {{f.r[0][0], f.r[1][0], f.r[2][0]},
                               {f.r[0][1], f.r[1][1], f.r[2][1]},
                               {f.r[0][2], f.r[1][2], f.r[2][2]}};
  const Vec3 a_axes_in_b[3] = {{f.r[0][0], f.r[0][1], f.r[0][2]},
                               {f.r[1][0], f.r[1][1], f.r[1][2]},
                               {f.r[2][0], f.r[2][1], f.r[2][2]}};
  // A's centre in B's frame: R^T (-t).
  const Vec3 ca{-Dot(b_axes_in_a[0], f.t), -Dot(b_axes_in_a[1], f.t), -Dot(b_axes_in_a[2], f.t)};
  Vec3 rb_along_a, ra_along_b;
  for (int k = 0; k < 3; ++k) {
    rb_along_a[k] = f.hb[0] * f.abs_r[k][0] + f.hb[1] * f.abs_r[k][1] + f.hb[2] * f.abs_r[k][2];
    ra_along_b[k] = f.ha[0] * f.abs_r[0][k] + f.ha[1] * f.abs_r[1][k] + f.ha[2] * f.abs_r[2][k];
  }
  bool b_beyond_a[3][2], a_beyond_b[3][2];
  FacesReached(f.t, rb_along_a, f.ha, b_beyond_a);
  FacesReached(ca, ra_along_b, f.hb, a_beyond_b);

  EdgeCandidate cand[24];
  int count = 0;
  for (const bool prune : {true, false}) {
    AddEdgeCandidates(ca, a_axes_in_b, f.ha, b_beyond_a, f.hb, prune, true, cand, count);
    AddEdgeCandidates(f.t, b_axes_in_a, f.hb, a_beyond_b, f.ha, prune, false, cand, count);
    if (count > 0) break;  // Exact arithmetic always keeps one; round-off may not.
  }
  // Insertion sort by lower bound (at most 24, usually 2 to 6).
  for (int m = 1; m < count; ++m) {
    const EdgeCandidate c = cand[m];
    int k = m;
    for (; k > 0 && cand[k - 1].lower_bound_squared > c.lower_bound_squared; --k) cand[k] = cand[k - 1];
    cand[k] = c;
  }
  BoxBoxClosest best{kInfinity, {}, {}};
  for (int m = 0; m < count && cand[m].lower_bound_squared < best.distance_squared; ++m) {
    const EdgeCandidate& c = cand[m];
    const Vec3& hq = c.edge_of_a ? f.hb : f.ha;
    const SegmentBoxClosest s = ClosestSegmentBoxFrame(c.e0, c.e1, -hq, hq, /*known_apart=*/true);
    if (s.distance_squared >= best.distance_squared) continue;
    if (c.edge_of_a) {
      const auto to_a = [&](const Vec3& p) {
        return b_axes_in_a[0] * p.x + b_axes_in_a[1] * p.y + b_axes_in_a[2] * p.z + f.t;
      };
      best = {s.distance_squared, to_a(s.on_segment), to_a(s.on_box)};
    } else {
      best = {s.distance_squared, s.on_box, s.on_segment};
    }
  }
  return best;
}

// Some point of P's edges inside the box Q (frame as in AddEdgeCandidates):
// the middle of the first edge's part inside Q.
inline bool EdgePointInBox(const Vec3& cp, const Vec3 axes[3], const Vec3& hp, const Vec3& hq, Vec3& out) {
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    for (int sj = 0; sj < 2; ++sj) {
      for (int sk = 0; sk < 2; ++sk) {
        const Vec3 mid = cp + axes[j] * (sj ? hp[j] : -hp[j]) + axes[k] * (sk ? hp[k] : -hp[k]);
        const Vec3 start = mid - axes[i] * hp[i];
        const SlabClip c = ClipLineToBox(start, axes[i] * (2 * hp[i]), -hq, hq, 0.0, 1.0);
        if (c.hit) {
          out = start + axes[i] * (hp[i] * (c.t_enter + c.t_exit));
          return true;
        }
      }
    }
  }
  return false;
}

// A point in both of two overlapping boxes, in A's frame, or false if round-
// off hides it (touching boxes). If convex polytopes meet, one contains a
// vertex of the other or an edge of one crosses a face of the other, so some
// edge of B meets A or some edge of A meets B.
inline bool CommonPointBoxBox(const BoxPairFrame& f, Vec3& out) {
  const Vec3 b_axes_in_a[3] = {{f.r[0][0], f.r[1][0], f.r[2][0]},
                               {f.r[0][1], f.r[1][1], f.r[2][1]},
                               {f.r[0][2], f.r[1][2], f.r[2][2]}};
  if (EdgePointInBox(f.t, b_axes_in_a, f.hb, f.ha, out)) return true;
  const Vec3 a_axes_in_b[3] = {{f.r[0][0], f.r[0][1], f.r[0][2]},
                               {f.r[1][0], f.r[1][1], f.r[1][2]},
                               {f.r[2][0], f.r[2][1], f.r[2][2]}};
  const Vec3 ca{-Dot(b_axes_in_a[0], f.t), -Dot(b_axes_in_a[1], f.t), -Dot(b_axes_in_a[2], f.t)};
  Vec3 p;
  if (!EdgePointInBox(ca, a_axes_in_b, f.ha, f.hb, p)) return false;
  out = b_axes_in_a[0] * p.x + b_axes_in_a[1] * p.y + b_axes_in_a[2] * p.z + f.t;
  return true;
}

// The kDistance/kContact result of two boxes that the separating-axis test
// found apart.
inline PairResult ApartBoxBox(const Obb& a, const BoxPairFrame& f) {
  const BoxBoxClosest c = ClosestBoxBoxFrame(f);
  const double dist = std::sqrt(c.distance_squared);
  const Vec3 n = NormalizedOr(c.on_b - c.on_a, Vec3{1, 0, 0});
  return {QueryStatus::kOk, false, dist, a.rotation * c.on_a + a.center, a.rotation * c.on_b + a.center,
          a.rotation * n};
}

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_CLOSEST_CLOSEST_BOX_BOX_H_
