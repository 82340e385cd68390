// Shape casts inside the library: the options the world's moves need, the
// table of closed-form sweep kernels (mirrored like registry.h's pair table)
// and the generic conservative advancement that answers every other pair.
#ifndef COLLIDE_CORE_SRC_QUERY_SWEEP_SWEEP_INTERNAL_H_
#define COLLIDE_CORE_SRC_QUERY_SWEEP_SWEEP_INTERNAL_H_

#include <vector>

#include "collide/sweep.h"
#include "query/registry.h"

namespace collide::internal {

struct SweepOptions {
  // The contact is where the signed distance reaches -margin. 0 for
  // ShapeCast (touching is a hit, sweep.h); the world's moves use
  // skin_width / 2, so that a body touching a floor walks across the floor
  // triangles' shared edges, which it touches but never enters. A non-zero
  // margin takes the generic path, but for a box against a triangle.
  double margin = 0.0;
  // A pair already in contact at t = 0 blocks only when approaching (false:
  // a body standing on the floor may walk along it).
  bool start_contacts_block = true;
};

// ShapeCast with options (sweep.h with margin 0 and blocking start
// contacts).
SweepResult ShapeCast(const Shape& a, const Vec3& translation, const Shape& b, const SweepOptions& options);

// The generic sweep for every pair with a = not a halfspace: conservative
// advancement (Mirtich 1996) on the exact Contact kernels, at most
// kMaxAdvanceSteps steps (status kNotConverged past them).
inline constexpr int kMaxAdvanceSteps = 64;
// The stop distance of the generic sweep, sweep.h's touch tolerance:
// kSweepRelativeTolerance times the largest of |translation| and the
// magnitudes of the shapes' coordinates and sizes.
double SweepTolerance(const Shape& a, const Vec3& translation, const Shape& b);
SweepResult ConservativeSweep(const Shape& a, const Vec3& translation, const Shape& b,
                              const SweepOptions& options);

// The GJK ray cast (van den Bergen 2004) of the translation against the
// Minkowski difference B - A of the cores inflated by rA + rB
// (convex/conservative_advancement.h, shared with the generic ray cast), for
// two bounded shapes that do not touch at t = 0; ConservativeSweep answers,
// with `options`, when it starts in contact or hits its iteration cap.
SweepResult GjkSweep(const Shape& a, const Vec3& translation, const Shape& b,
                     const SweepOptions& options = {});

// A box (Aabb or Obb) and a triangle, either one moving by a non-zero
// translation: the separating-axis cast (sweep_box_triangle.cc), to the
// first overlap by options.margin along every axis, exact where GjkSweep
// and ConservativeSweep stop within a tolerance; ConservativeSweep, with
// `options`, answers a start in contact (overlapping by the margin).
bool IsBoxTrianglePair(const Shape& a, const Shape& b);
SweepResult BoxTriangleSweep(const Shape& a, const Vec3& translation, const Shape& b,
                             const SweepOptions& options = {});

// `shape` moved by `offset`. A hull's moved vertices go to `hull_storage`
// (the result's span points into it); with no storage a hull is returned
// unmoved.
Shape TranslateShape(const Shape& shape, const Vec3& offset, std::vector<Vec3>* hull_storage);

// A closed-form sweep kernel, called only with a non-zero translation and
// shapes that do not overlap at t = 0.
using SweepFn = SweepResult (*)(const Shape& a, const Vec3& translation, const Shape& b);

class SweepTable {
 public:
  // Registers `Kernel`, `SweepResult(const A&, const Vec3&, const B&)`, for
  // (A, B) and its mirror (B, A): B moving by v against A is A moving by -v
  // against B, seen from a frame moved by t * v: the point shifts by t * v
  // and the normal (A to B) flips.
  template <auto Kernel>
  void Register() {
    using Traits = SweepTraits<decltype(Kernel)>;
    using A = typename Traits::ShapeA;
    using B = typename Traits::ShapeB;
    constexpr int a = KindIndex<A>();
    constexpr int b = KindIndex<B>();
    static_assert(a >= 0 && b >= 0, "sweep kernel arguments must be Shape alternatives");
    table_[a][b] = [](const Shape& sa, const Vec3& v, const Shape& sb) {
      return Kernel(Unchecked<A>(sa), v, Unchecked<B>(sb));
    };
    if constexpr (a != b) {
      table_[b][a] = [](const Shape& sb, const Vec3& v, const Shape& sa) {
        SweepResult r = Kernel(Unchecked<A>(sa), -v, Unchecked<B>(sb));
        if (r.hit) {
          r.point = r.point + v * r.t;
          r.normal = -r.normal;
        }
        return r;
      };
    }
  }
  SweepFn Kernel(ShapeKind a, ShapeKind b) const { return table_[static_cast<int>(a)][static_cast<int>(b)]; }

 private:
  template <typename F>
  struct SweepTraits;
  template <typename R, typename A, typename B>
  struct SweepTraits<R (*)(const A&, const Vec3&, const B&)> {
    using ShapeA = A;
    using ShapeB = B;
  };
  SweepFn table_[kShapeKindCount][kShapeKindCount] = {};
};

// Point and sphere (a ball) against ball, capsule, boxes, triangle and
// halfspace: a ray cast from the center against the target inflated by the
// radius (sweep_sphere_*.cc).
void RegisterBallSweeps(SweepTable& table);
// Segment and capsule against segment and capsule: a ray cast against their
// Minkowski difference, a rounded parallelogram (sweep_capsule_capsule.cc).
void RegisterSegmentSweeps(SweepTable& table);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_SWEEP_SWEEP_INTERNAL_H_
