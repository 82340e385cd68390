// The separating-axis cast of a box against a triangle
// (query/sweep/sweep_box_triangle.cc) against the GJK ray cast it replaced
// (internal::GjkSweep), on seeded random pairs of every set (generic,
// touching, parallel, degenerate: thin triangles and flat boxes, huge,
// tiny), both orders and both box kinds: the same hits, t within 1e-9, and
// the same normal where it is unique. Uniqueness and that normal come from a
// reference of this file: the 13 unit axes' entry times, computed from the
// shapes' corners; the normal is unique when the latest entry leads every
// entry along another direction.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "collide/query.h"
#include "query/sweep/sweep_internal.h"
#include "support/check_failures.h"
#include "support/random_shapes.h"

namespace collide {
namespace {

using testing::CheckFailures;
using testing::Describe;
using testing::DescribeNumber;
using testing::PairSet;
using testing::ShapeFactory;

struct BoxFrame {
  Vec3 center, axis[3], half;
};
BoxFrame FrameOf(const Shape& s) {
  if (const Aabb* a = std::get_if<Aabb>(&s))
    return {(a->min + a->max) * 0.5, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, (a->max - a->min) * 0.5};
  const Obb& o = std::get<Obb>(s);
  return {o.center, {o.rotation.col[0], o.rotation.col[1], o.rotation.col[2]}, o.half_extents};
}

// The latest entry time over the unit axes of the box moving by v against
// the triangle, and the latest entry along any other direction.
struct Entries {
  double first = -kInfinity, other = -kInfinity;
  Vec3 axis;
};
Entries ReferenceEntries(const BoxFrame& box, const Vec3& v, const Triangle& tri) {
  // Each axis with the product of its factors' lengths: an axis shorter
  // than 1e-9 of that (nearly parallel factors) is left out.
  struct Raw {
    Vec3 axis;
    double size;
  };
  std::vector<Raw> axes;
  for (const Vec3& a : box.axis) axes.push_back({a, 1.0});
  const Vec3 p[3] = {tri.a, tri.b, tri.c};
  axes.push_back({Cross(tri.b - tri.a, tri.c - tri.a), Length(tri.b - tri.a) * Length(tri.c - tri.a)});
  for (int m = 0; m < 3; ++m)
    for (const Vec3& a : box.axis)
      axes.push_back({Cross(p[(m + 1) % 3] - p[m], a), Length(p[(m + 1) % 3] - p[m])});
  struct Entry {
    double t;
    Vec3 n;
  };
  std::vector<Entry> entries;
  for (const auto& [raw, size] : axes) {
    if (!(Length(raw) > 1e-9 * size)) continue;
    const Vec3 n = raw / Length(raw);
    const double d = Dot(v, n);
    if (d == 0.0) continue;
    const double c = Dot(box.center, n);
    double r = 0.0;
    for (int k = 0; k < 3; ++k) r += box.half[k] * std::fabs(Dot(box.axis[k], n));
    double lo = kInfinity, hi = -kInfinity;
    for (const Vec3& q : p) lo = std::min(lo, Dot(q, n)), hi = std::max(hi, Dot(q, n));
    entries.push_back(d > 0.0 ? Entry{(lo - (c + r)) / d, n} : Entry{(hi - (c - r)) / d, -n});
  }
  Entries out;
  for (const Entry& e : entries)
    if (e.t > out.first) out.first = e.t, out.axis = e.n;
  for (const Entry& e : entries)
    if (std::fabs(Dot(e.n, out.axis)) < 1.0 - 1e-9) out.other = std::max(out.other, e.t);
  return out;
}

TEST(SweepBoxTriangleTest, MatchesTheGjkCastOnRandomPairs) {
  constexpr int kCases = 10000;
  int compared = 0, hits = 0, unique_normals = 0;
  for (const ShapeKind box_kind : {ShapeKind::kAabb, ShapeKind::kObb}) {
    for (const bool box_moves : {true, false}) {
      for (const PairSet set : testing::kAllPairSets) {
        ShapeFactory f(0xb0c5u + 64 * static_cast<int>(box_kind) + 8 * box_moves + static_cast<int>(set));
        const double scale = testing::PairSetScale(set);
        CheckFailures fails;
        for (int i = 0; i < kCases; ++i) {
          auto [box, tri] = f.MakePair(box_kind, ShapeKind::kTriangle, set);
          // The box backed off along a random direction and swept through.
          const Vec3 u = f.UnitVector();
          const double reach = f.Uniform(0.5, 4.0) * scale;
          box = f.Translated(box, u * -reach);
          Vec3 v = u * (reach * f.Uniform(0.5, 2.5)) + f.UnitVector() * (0.3 * scale);
          const Shape& a = box_moves ? box : tri;
          const Shape& b = box_moves ? tri : box;
          if (!box_moves) v = -v;
          const SweepResult sat = internal::BoxTriangleSweep(a, v, b);
          const SweepResult gjk = internal::GjkSweep(a, v, b);
          const std::string what = Describe(a) + " v=" + Describe(v) + " " + Describe(b);
          ++compared;
          const Entries ref = ReferenceEntries(FrameOf(box), box_moves ? v : -v, std::get<Triangle>(tri));
          // A grazing path (the shapes touch, to round-off, without
          // overlapping) may be a hit to one cast and a miss to the other.
          if (sat.hit != gjk.hit) {
            double deepest = 0.0;
            for (int k = 0; k <= 64; ++k)
              deepest = std::min(deepest, Contact(f.Translated(a, v * (k / 64.0)), b).distance);
            if (deepest < -1e-7 * scale) fails.Add("same hit", what + " sat " + std::to_string(sat.hit));
            continue;
          }
          if (!sat.hit) continue;
          ++hits;
          if (std::fabs(sat.t - gjk.t) > 1e-9) {
            fails.Add("t within 1e-9",
                      what + " sat " + DescribeNumber(sat.t) + " gjk " + DescribeNumber(gjk.t));
          }
          if (sat.t == 0.0) continue;  // a start contact: both are ConservativeSweep's.
          // The reference's axis points from the box to the triangle.
          const Vec3 expected = box_moves ? ref.axis : -ref.axis;
          const std::string normals = " sat " + Describe(sat.normal) + " gjk " + Describe(gjk.normal) +
                                      " reference " + Describe(expected) + " lead " +
                                      DescribeNumber(ref.first - ref.other);
          if (ref.first - ref.other > 1e-6) {
            ++unique_normals;
            if (Dot(sat.normal, expected) < 1.0 - 1e-9) fails.Add("the unique normal", what + normals);
          }
          // GJK stops within ~1e-12 of the size, on any face of the
          // Minkowski difference at a hit within that of a vertex.
          if (ref.first - ref.other > 1e-3 && Dot(sat.normal, gjk.normal) < 1.0 - 1e-6)
            fails.Add("GJK's normal", what + normals);
        }
        for (const std::string& check : fails.Checks()) {
          ADD_FAILURE() << ShapeKindName(box_kind) << (box_moves ? " moving " : " hit by a moving triangle ")
                        << testing::PairSetName(set) << " " << check << ": " << fails.Report(check);
        }
      }
    }
  }
  std::printf("%d pairs, %d hits, %d with a unique normal\n", compared, hits, unique_normals);
  EXPECT_GT(unique_normals, compared / 10);
}

// With a margin (the world's moves: the first overlap deeper than the skin)
// against the conservative advancement, which stops within 1e-9 of the
// size before that depth: the same hits but where the path's deepest
// overlap is the margin to round-off, t within 1e-6, and at t the depth is
// the margin.
TEST(SweepBoxTriangleTest, WithAMarginMatchesTheConservativeAdvancement) {
  constexpr int kCases = 3000;
  int hits = 0;
  for (const ShapeKind box_kind : {ShapeKind::kAabb, ShapeKind::kObb}) {
    for (const PairSet set : testing::kAllPairSets) {
      ShapeFactory f(0x3a26u + 16 * static_cast<int>(box_kind) + static_cast<int>(set));
      const double scale = testing::PairSetScale(set);
      CheckFailures fails;
      for (int i = 0; i < kCases; ++i) {
        auto [box, tri] = f.MakePair(box_kind, ShapeKind::kTriangle, set);
        const Vec3 u = f.UnitVector();
        const double reach = f.Uniform(0.5, 4.0) * scale;
        box = f.Translated(box, u * -reach);
        const Vec3 v = u * (reach * f.Uniform(0.5, 2.5)) + f.UnitVector() * (0.3 * scale);
        internal::SweepOptions options;
        options.margin = f.Uniform(0.0, 0.05) * scale;
        options.start_contacts_block = i % 2 == 0;
        const SweepResult sat = internal::BoxTriangleSweep(box, v, tri, options);
        const SweepResult ca = internal::ConservativeSweep(box, v, tri, options);
        const std::string what = Describe(box) + " v=" + Describe(v) + " " + Describe(tri) +
                                 " margin=" + DescribeNumber(options.margin);
        // Copies: a lambda cannot capture a structured binding (clang 15).
        const auto depth_at = [&f, &v, b = box, c = tri](double t) {
          return -Contact(f.Translated(b, v * t), c).distance;
        };
        if (sat.hit != ca.hit) {
          double deepest = -kInfinity;
          for (int k = 0; k <= 64; ++k) deepest = std::max(deepest, depth_at(k / 64.0));
          if (std::fabs(deepest - options.margin) > 1e-7 * scale) fails.Add("same hit", what);
          continue;
        }
        if (!sat.hit) continue;
        ++hits;
        if (std::fabs(sat.t - ca.t) > 1e-6) {
          fails.Add("t within 1e-6", what + " sat " + DescribeNumber(sat.t) + " ca " + DescribeNumber(ca.t));
        }
        if (sat.t > 0.0 && std::fabs(depth_at(sat.t) - options.margin) > 1e-9 * scale)
          fails.Add("depth at t", what + " depth " + DescribeNumber(depth_at(sat.t)));
      }
      for (const std::string& check : fails.Checks()) {
        ADD_FAILURE() << ShapeKindName(box_kind) << " " << testing::PairSetName(set) << " " << check << ": "
                      << fails.Report(check);
      }
    }
  }
  EXPECT_GT(hits, 10000);
}

}  // namespace
}  // namespace collide
