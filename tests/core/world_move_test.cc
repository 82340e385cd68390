// Move verdicts against brute force over every triangle: the start check and
// the first sweep of World::ValidateMoves (which skips both when nothing
// static is near the swept box, and otherwise goes through the BVH) give the
// verdict, target, normal, depth and time of first contact the definition
// gives when computed over every triangle and primitive of the world, bit for
// bit, on a seeded set of moves from clear space, from touching and
// penetrating starts, of zero, tiny, short and long lengths, one shape and
// several. And the skin contract (world.h) holds geometrically: an OK move
// ends no deeper than skin_width in anything, a BLOCKED one touches what
// blocks it at t and keeps a gap of skin_width from it at allowed_position.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>

#include "collide/query.h"
#include "collide/world.h"
#include "query/sweep/sweep_internal.h"
#include "shapes/shape_bounds.h"
#include "support/case_count.h"
#include "support/synthetic_meshes.h"

namespace collide {
namespace {

using testing::CaseCount;

constexpr std::int64_t kMesh = 1, kPillar = 2;
constexpr std::int64_t kRunner = 1, kParts = 2;  // a movement capsule; two parts, no movement shape.
constexpr double kSkin = 0.05;

bool Touch(const Aabb& a, const Aabb& b) {
  return a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y &&
         a.min.z <= b.max.z && b.min.z <= a.max.z;
}

Quat Tilt() {
  const double n = std::sqrt(0.95);
  return {0.9 / n, 0.1 / n, 0.3 / n, 0.2 / n};
}

struct Fixture {
  std::shared_ptr<const TriangleMesh> mesh;
  // A tilted box (category 2) among the boxes (category 1).
  Shape pillar = Obb::FromQuat({50, 50, 10}, Tilt(), {3, 3, 10});
  World world;

  static World Make(std::shared_ptr<const TriangleMesh> mesh, const Shape& pillar) {
    WorldSettings settings;
    settings.skin_width = kSkin;
    World w(settings, {{kMesh, 1, mesh}, {kPillar, 2, pillar}});
    Frame f{1, {}, {}};
    f.bodies.push_back({kRunner,
                        Pose{},
                        {{0, Sphere{{0, 0, 1}, 0.5}, {}}},
                        {},
                        Shape{Capsule{{0, 0, 1}, {0, 0, 3}, 1}},
                        std::nullopt,
                        false});
    f.bodies.push_back({kParts,
                        Pose{},
                        {{0, Sphere{{0, 0, 3}, 0.7}, {}}, {1, Capsule{{0, 0, 0.5}, {0, 0, 2}, 0.6}, {}}},
                        {},
                        std::nullopt,
                        std::nullopt,
                        false});
    EXPECT_TRUE(w.PushFrame(f).ok());
    return w;
  }
  Fixture()
      : mesh(std::make_shared<const TriangleMesh>(testing::MakeBoxes(80, 100, 7))),
        world(Make(mesh, pillar)) {}

  // The moving shapes at `from` (identity rotations: placing is a translation).
  std::vector<Shape> Shapes(std::int64_t body, const Vec3& from) const {
    if (body == kRunner) return {Capsule{{from.x, from.y, from.z + 1}, {from.x, from.y, from.z + 3}, 1}};
    return {Sphere{from + Vec3{0, 0, 3}, 0.7}, Capsule{from + Vec3{0, 0, 0.5}, from + Vec3{0, 0, 2}, 0.6}};
  }
};

struct Start {
  bool found = false;
  double depth = 0;
  Vec3 normal;
  HitTarget target;
};
struct First {
  SweepResult sweep;
  HitTarget target;
  Shape other;        // what blocks.
  std::size_t shape;  // which moving shape.
};

// Every triangle and the pillar, in the order the definition ties them.
template <typename Visit>
void EveryStatic(const Fixture& fx, CategoryMask mask, Visit visit) {
  if (mask & 1) {
    for (std::uint32_t t = 0; t < fx.mesh->triangle_count(); ++t) {
      visit(Shape{fx.mesh->triangle(t)}, HitTarget{HitTarget::Kind::kStatic, kMesh, t, 0}, true);
    }
  }
  if (mask & 2) visit(fx.pillar, HitTarget{HitTarget::Kind::kStatic, kPillar, 0, 0}, false);
}

Start BruteStart(const Fixture& fx, const std::vector<Shape>& shapes, CategoryMask mask) {
  Start best;
  for (const Shape& s : shapes) {
    const Aabb box = internal::BoundsOf(s);
    EveryStatic(fx, mask, [&](const Shape& other, const HitTarget& target, bool triangle) {
      if (!Touch(internal::BoundsOf(other), box)) return;
      if (triangle && !Intersect(s, other).hit) return;
      const PairResult c = Contact(s, other);
      if (c.hit && -c.distance > kSkin && (!best.found || -c.distance > best.depth)) {
        best = {true, -c.distance, c.normal, target};
      }
    });
  }
  return best;
}

// The first contact of the first sweep; `near` says whether any static's box
// touched a swept box at all.
First BruteFirst(const Fixture& fx, const std::vector<Shape>& shapes, const Vec3& d, CategoryMask mask,
                 bool& near) {
  internal::SweepOptions options;
  options.margin = kSkin;
  options.start_contacts_block = false;
  First best;
  for (std::size_t k = 0; k < shapes.size(); ++k) {
    const Shape& s = shapes[k];
    const Aabb start = internal::BoundsOf(s);
    const Aabb box{Min(start.min, start.min + d), Max(start.max, start.max + d)};
    First mine;
    EveryStatic(fx, mask, [&](const Shape& other, const HitTarget& target, bool triangle) {
      if (!Touch(internal::BoundsOf(other), box)) return;
      near = true;
      if (triangle && !Intersect(Shape{box}, other).hit) return;
      const SweepResult r = internal::ShapeCast(s, d, other, options);
      if (r.hit && (!mine.sweep.hit || r.t < mine.sweep.t ||
                    (r.t == mine.sweep.t && TargetLess(target, mine.target)))) {
        mine = {r, target, other, k};
      }
    });
    if (mine.sweep.hit && (!best.sweep.hit || mine.sweep.t < best.sweep.t)) best = mine;
  }
  return best;
}

TEST(WorldMoveTest, StartAndFirstSweepMatchBruteForceOverEveryTriangle) {
  const Fixture fx;
  std::mt19937_64 rng(20);
  const auto uniform = [&](double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
  };
  const auto direction = [&] {
    for (;;) {
      const Vec3 v{uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)};
      if (LengthSquared(v) > 0.01 && LengthSquared(v) <= 1) return v / Length(v);
    }
  };
  int clear = 0, counts[6] = {}, gapped = 0, ending_inside = 0;
  const int cases = CaseCount(3000);
  for (int c = 0; c < cases; ++c) {
    MoveRequest m;
    m.body = rng() % 3 == 0 ? kParts : kRunner;
    m.elapsed = 1;
    m.max_speed = 1e12;
    m.slide = rng() % 2 == 0;
    m.mask = rng() % 4 == 0 ? (rng() % 2 == 0 ? 1u : 2u) : kAllCategories;
    // From clear space, or from a point near a triangle or the pillar
    // (touching, penetrating, just clear).
    // Half of the moves from near geometry head for it.
    Vec3 from{uniform(-5, 105), uniform(-5, 105), uniform(-5, 105)};
    Vec3 way = direction();
    if (rng() % 3 != 0) {
      const Triangle t = fx.mesh->triangle(static_cast<std::uint32_t>(rng() % fx.mesh->triangle_count()));
      const double u = uniform(0, 1), v = uniform(0, 1 - u);
      const Vec3 p = t.a + (t.b - t.a) * u + (t.c - t.a) * v - Vec3{0, 0, 2};
      from = p + direction() * uniform(0.5, 5);
      if (rng() % 2 == 0) way = NormalizedOr(p - from + direction() * 0.3, way);
    } else if (rng() % 4 == 0) {
      from = Vec3{50, 50, 8} + direction() * uniform(2, 12);
      if (rng() % 2 == 0) way = NormalizedOr(Vec3{50, 50, 8} - from + direction() * 0.3, way);
    }
    const double length = std::array<double, 4>{0.0, 1e-7, uniform(0.01, 3), uniform(5, 60)}[rng() % 4];
    m.from = from;
    m.to = from + way * length;
    if (rng() % 5 == 0) {
      // Ending near a face, up to twice the skin deep: the runner's lower
      // sphere (centre 1 above its origin, radius 1) ends 1 - depth from the
      // face's plane, approaching it.
      m.body = kRunner;
      const Triangle t = fx.mesh->triangle(static_cast<std::uint32_t>(rng() % fx.mesh->triangle_count()));
      Vec3 n = NormalizedOr(Cross(t.b - t.a, t.c - t.a), Vec3{0, 0, 1});
      if (n.z < 0) n = -n;
      const double u = uniform(0.1, 0.8), w = uniform(0.05, 0.9 - u);
      const Vec3 p = t.a + (t.b - t.a) * u + (t.c - t.a) * w;
      m.to = p + n * (1 - uniform(-kSkin, 2 * kSkin)) - Vec3{0, 0, 1};
      m.from = m.to + NormalizedOr(n + direction() * 0.5, n) * uniform(0.001, 0.5);
      from = *m.from;
    }
    const Vec3 delta = m.to - from;
    const MoveVerdict v = fx.world.ValidateMoves({&m, 1})[0];
    ++counts[static_cast<int>(v.code)];
    const std::vector<Shape> shapes = fx.Shapes(m.body, from);
    const Start start = BruteStart(fx, shapes, m.mask);
    SCOPED_TRACE(::testing::Message() << "case " << c << " body " << m.body << " length " << length);
    if (start.found) {
      ASSERT_EQ(v.code, MoveCode::kStartPenetrating) << MoveCodeName(v.code);
      EXPECT_EQ(v.depth, start.depth);
      EXPECT_EQ(v.normal, start.normal);
      EXPECT_EQ(v.target, start.target);
      continue;
    }
    bool near = false;
    const First first = LengthSquared(delta) > 0 ? BruteFirst(fx, shapes, delta, m.mask, near) : First{};
    clear += LengthSquared(delta) > 0 && !near;
    if (!first.sweep.hit) {
      ASSERT_EQ(v.code, MoveCode::kOk) << MoveCodeName(v.code);
      EXPECT_EQ(v.allowed_position, m.to);
      EXPECT_EQ(v.slid_position, m.to);
      // Nothing entered deeper than the skin at the end.
      double deepest = 0;
      for (const Shape& s : shapes) {
        const Shape end = internal::TranslateShape(s, delta, nullptr);
        EveryStatic(fx, m.mask, [&](const Shape& other, const HitTarget&, bool) {
          if (Touch(internal::BoundsOf(other), internal::BoundsOf(end)))
            deepest = std::max(deepest, -Contact(end, other).distance);
        });
      }
      EXPECT_LE(deepest, kSkin + 1e-9 * (1 + Length(m.to)));
      ending_inside += deepest > 0;
      continue;
    }
    ASSERT_EQ(v.code, MoveCode::kBlocked) << MoveCodeName(v.code);
    EXPECT_EQ(v.target, first.target);
    // The first touch: an exact sweep against what blocks.
    const SweepResult touch = ShapeCast(shapes[first.shape], delta, first.other);
    const SweepResult& want = touch.hit && touch.t <= first.sweep.t ? touch : first.sweep;
    EXPECT_EQ(v.normal, want.normal);
    EXPECT_EQ(v.t, want.t);
    // Geometry: touching at t, a gap of skin_width at the allowed position.
    const double scale = 1e-9 * (1 + Length(from) + Length(delta));
    const double at_t = Distance(internal::TranslateShape(shapes[first.shape], delta * v.t, nullptr), first.other).distance;
    EXPECT_LE(std::fabs(at_t), scale) << "distance at t";
    if (v.allowed_position != from) {
      const Shape allowed = internal::TranslateShape(shapes[first.shape], v.allowed_position - from, nullptr);
      EXPECT_GE(Contact(allowed, first.other).distance, kSkin - scale) << "gap at the allowed position";
      ++gapped;
    }
  }
  // Every path taken often: clear of everything, blocked, starting inside.
  EXPECT_GT(clear, cases / 10);
  EXPECT_GT(counts[static_cast<int>(MoveCode::kOk)] - clear, cases / 20);
  EXPECT_GT(counts[static_cast<int>(MoveCode::kBlocked)], cases / 20);
  EXPECT_GT(counts[static_cast<int>(MoveCode::kStartPenetrating)], cases / 20);
  EXPECT_GT(gapped, cases / 40);
  EXPECT_GT(ending_inside, 0);
}

}  // namespace
}  // namespace collide
