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

struct EdgeBoxClosest {
  double distance_squared = kInfinity;
  Vec3 on_edge;  // in the frame of box Q.
  Vec3 on_box;
};

// Closest points between the edges of box P and the solid box Q (centred at
// the origin of its frame, half extents hq), P given in Q's frame by its
// centre, axes and half extents. An edge of P can hold a closest point only
// if the direction towards Q lies in the edge's normal cone, i.e. Q reaches
// beyond the planes of both faces meeting at the edge: `beyond[k][s]` says so
// for P's face k on side s (0: -, 1: +). With `prune` false every edge is
// tried.
inline void ClosestEdgesToBox(const Vec3& cp, const Vec3 axes[3], const Vec3& hp, const bool beyond[3][2],
                              const Vec3& hq, bool prune, EdgeBoxClosest& best) {
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    for (int sj = 0; sj < 2; ++sj) {
      for (int sk = 0; sk < 2; ++sk) {
        if (prune && !(beyond[j][sj] && beyond[k][sk])) continue;
        const Vec3 mid = cp + axes[j] * (sj ? hp[j] : -hp[j]) + axes[k] * (sk ? hp[k] : -hp[k]);
        const Vec3 along = axes[i] * hp[i];
        const SegmentBoxClosest c = ClosestSegmentBoxFrame(mid - along, mid + along, -hq, hq);
        if (c.distance_squared < best.distance_squared) best = {c.distance_squared, c.on_segment, c.on_box};
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
// distance; the normal-cone pruning keeps typically 1 to 3 of the 24 edges.
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

  for (const bool prune : {true, false}) {
    EdgeBoxClosest a_edges, b_edges;  // A's edges in B's frame; B's edges in A's frame.
    ClosestEdgesToBox(ca, a_axes_in_b, f.ha, b_beyond_a, f.hb, prune, a_edges);
    ClosestEdgesToBox(f.t, b_axes_in_a, f.hb, a_beyond_b, f.ha, prune, b_edges);
    if (a_edges.distance_squared == kInfinity && b_edges.distance_squared == kInfinity) continue;
    if (a_edges.distance_squared <= b_edges.distance_squared) {
      const auto to_a = [&](const Vec3& p) {
        return b_axes_in_a[0] * p.x + b_axes_in_a[1] * p.y + b_axes_in_a[2] * p.z + f.t;
      };
      return {a_edges.distance_squared, to_a(a_edges.on_edge), to_a(a_edges.on_box)};
    }
    return {b_edges.distance_squared, b_edges.on_box, b_edges.on_edge};
  }
  return {0.0, {}, {}};  // Unreachable: the unpruned pass always finds an edge.
}

// Some point of P's edges inside the box Q (frame as in ClosestEdgesToBox):
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
