// A box (Aabb or Obb) moving against a triangle, in closed form: the
// separating-axis test over the 13 axes of a box and a triangle
// (triangle_box_sat.h) with the box's interval along each axis moving at
// dot(v, axis). The shapes touch at t exactly when every axis's intervals
// meet at t; along one axis they meet on an interval of t, so the first
// contact is the latest entry over the axes (if no axis has left by then),
// and its normal is the axis that entered last. With a margin m (the
// world's moves: the first overlap deeper than the skin), each axis's
// intervals must overlap by m times its length. No iteration and no
// tolerance: t is one division of the SAT's own projections (exact to
// round-off of the scene's size, as the overlap test), a quarter of the
// time of the GJK ray cast that answered before (sweep_bench).
#include <algorithm>
#include <cmath>
#include <optional>
#include <type_traits>
#include <variant>

#include "query/box/closest_triangle_box.h"
#include "query/box/triangle_box_sat.h"
#include "query/raycast/slab.h"
#include "query/sweep/sweep_internal.h"

namespace collide::internal {
namespace {

struct FrameCast {
  bool hit = false;
  double t = 0.0;
  Vec3 axis;      // the last axis to enter, pointing from the box to the triangle,
  int index = 0;  // and its TriangleBoxOverlap::axis.
};

// The box of `f` moving by v (both in the box's frame) against its
// triangle, to where they overlap by `margin` along every axis (the
// penetration depth, the least overlap over the axes, reaches it; 0: they
// touch); an entry at t <= 0 is a start contact, left to the caller.
template <bool kLength>
FrameCast CastBoxFrame(const TriangleBox& f, const Vec3& v, double margin) {
  double enter = -kInfinity, leave = kInfinity;
  Vec3 axis;
  int index = 0;
  bool apart = false;
  ForEachTriangleBoxAxis<kLength>(f, [&](int k, const Vec3& l, double plus, double minus, double length) {
    // The box moved by x along l overlaps the triangle by the margin for
    // -minus <= x <= plus.
    if constexpr (kLength) plus -= margin * length, minus -= margin * length;
    const double d = Dot(v, l);
    if (d == 0.0) {
      apart = (plus < 0.0) | (minus < 0.0);
      return apart;
    }
    const double a = -minus / d, b = plus / d;
    const double in = d > 0.0 ? a : b, out = d > 0.0 ? b : a;
    if (in > enter) enter = in, axis = d > 0.0 ? l : -l, index = k;
    leave = MinBranchFree(leave, out);
    // Entries only rise and exits only fall: stop once they cannot meet in
    // [0, 1].
    apart = (enter > leave) | (enter > 1.0) | (leave < 0.0);
    return apart;
  });
  if (apart) return {};
  return {true, enter, axis, index};
}

// A point of the triangle touching the box's face along axis k (the
// triangle on its side `s` > 0: hi, else lo) when the triangle's nearest
// feature to that face is parallel to it: a floor or wall triangle, or one
// of its edges, against a face of the box (the common case of a player box;
// TouchingWitnesses takes a closest-pair search there). A vertex over the
// face, else a corner of the face on the triangle, else the middle of an
// edge's part over the face; nothing when none is (not parallel, or
// touching to round-off only).
std::optional<Vec3> FlatContact(const TriangleBox& f, int k, double s) {
  const Vec3* v = f.v;
  const double near = s > 0.0 ? std::min({v[0][k], v[1][k], v[2][k]}) : std::max({v[0][k], v[1][k], v[2][k]});
  const bool flat[3] = {v[0][k] == near, v[1][k] == near, v[2][k] == near};
  // The face's rectangle, unbounded along k.
  Vec3 lo = f.lo, hi = f.hi;
  lo[k] = -kInfinity, hi[k] = kInfinity;
  const auto over = [&](const Vec3& p) {
    return p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y && p.z >= lo.z && p.z <= hi.z;
  };
  for (int j = 0; j < 3; ++j)
    if (flat[j] && over(v[j])) return v[j];
  if (flat[0] && flat[1] && flat[2]) {
    const Vec3 n = Cross(v[1] - v[0], v[2] - v[0]);
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    for (int c = 0; c < 4; ++c) {
      Vec3 q;
      q[k] = near, q[i] = c & 1 ? f.hi[i] : f.lo[i], q[j] = c & 2 ? f.hi[j] : f.lo[j];
      bool on = n != Vec3{};
      for (int m = 0; m < 3; ++m) on &= Dot(Cross(v[(m + 1) % 3] - v[m], q - v[m]), n) >= 0.0;
      if (on) return q;
    }
  }
  for (int m = 0; m < 3; ++m) {
    const Vec3 &a = v[m], &b = v[(m + 1) % 3];
    if (!flat[m] || !flat[(m + 1) % 3]) continue;
    const SlabClip c = ClipLineToBox(a, b - a, lo, hi, 0.0, 1.0);
    if (c.hit) return a + (b - a) * (0.5 * (c.t_enter + c.t_exit));
  }
  return std::nullopt;
}

// Box `box` (an Obb, or an Aabb as its own frame) moving by v against
// triangle `tri`, all in world space. A hit at t = 0 (touching or
// overlapping by the margin at the start) carries nothing else: the caller
// hands it to ConservativeSweep.
template <typename Box>
SweepResult Cast(const Box& box, const Vec3& v, const Triangle& tri, double margin) {
  TriangleBox f;
  Vec3 move;
  if constexpr (std::is_same_v<Box, Aabb>) {
    f = {{tri.a, tri.b, tri.c}, box.min, box.max};
    move = v;
  } else {
    f = {{ToBoxFrame(box, tri.a), ToBoxFrame(box, tri.b), ToBoxFrame(box, tri.c)},
         -box.half_extents,
         box.half_extents};
    move = TransposeMul(box.rotation, v);
  }
  const FrameCast c = margin > 0.0 ? CastBoxFrame<true>(f, move, margin) : CastBoxFrame<false>(f, move, 0.0);
  SweepResult r;
  r.hit = c.hit;
  if (!c.hit || !(c.t > 0.0)) return r;
  r.t = c.t;
  // The contact point: a witness on the triangle of the box touching it,
  // moved back by the margin, at t (in the box's frame with the triangle
  // moved by -t v, and back again), off by ~1e-12 of the size along the
  // normal: the closest pair TouchingWitnesses may fall back on needs the
  // shapes apart, and at t they touch only to round-off (a face-face contact
  // may overlap by an ulp). With a margin, the point half way into the box
  // (ConservativeSweep's: the middle of Contact's witnesses).
  const Vec3 normal = NormalizedOr(c.axis, c.axis);
  double size = Length(move) + margin;
  for (const Vec3& p : {f.v[0], f.v[1], f.v[2], f.lo, f.hi})
    size = std::max({size, std::fabs(p.x), std::fabs(p.y), std::fabs(p.z)});
  const Vec3 off = move * c.t - normal * (margin + 1e-12 * size);
  const TriangleBox at{{f.v[0] - off, f.v[1] - off, f.v[2] - off}, f.lo, f.hi};
  std::optional<Vec3> flat;
  if (c.index < 3) flat = FlatContact(at, c.index, c.axis[c.index]);
  const Vec3 point = (flat ? *flat : TouchingWitnesses(at, c.index, -normal, {}).on_triangle) + off -
                     normal * (0.5 * margin);
  if constexpr (std::is_same_v<Box, Aabb>) {
    r.point = point;
    r.normal = normal;
  } else {
    r.point = FromBoxFrame(box, point);
    r.normal = box.rotation * normal;
  }
  return r;
}

template <typename Box>
SweepResult CastEitherOrder(const Box& box, const Vec3& v, const Triangle& tri, bool box_moves,
                            double margin) {
  if (box_moves) return Cast(box, v, tri, margin);
  // The triangle moving by v is the box moving by -v, seen from a frame
  // moved by t v: the point shifts by t v and the normal flips.
  SweepResult r = Cast(box, -v, tri, margin);
  r.point = r.point + v * r.t;
  r.normal = -r.normal;
  return r;
}

}  // namespace

bool IsBoxTrianglePair(const Shape& a, const Shape& b) {
  const auto box = [](const Shape& s) {
    return KindOf(s) == ShapeKind::kAabb || KindOf(s) == ShapeKind::kObb;
  };
  return (box(a) && KindOf(b) == ShapeKind::kTriangle) || (KindOf(a) == ShapeKind::kTriangle && box(b));
}

SweepResult BoxTriangleSweep(const Shape& a, const Vec3& v, const Shape& b, const SweepOptions& options) {
  const bool box_moves = KindOf(b) == ShapeKind::kTriangle;
  const Shape& box = box_moves ? a : b;
  const Triangle& tri = std::get<Triangle>(box_moves ? b : a);
  const SweepResult r = KindOf(box) == ShapeKind::kAabb
                            ? CastEitherOrder(std::get<Aabb>(box), v, tri, box_moves, options.margin)
                            : CastEitherOrder(std::get<Obb>(box), v, tri, box_moves, options.margin);
  // Touching or overlapping (by the margin) at the start: the conservative
  // advancement answers (Contact's depth and normal,
  // options.start_contacts_block).
  return r.hit && r.t == 0.0 ? ConservativeSweep(a, v, b, options) : r;
}

}  // namespace collide::internal
