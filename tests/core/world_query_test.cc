// Scene queries and verdicts on seeded random worlds against brute force:
// every body's parts at the time (BodyPartsAt, checked against the
// interpolation rule in world_history_test), every static triangle and
// primitive, with the pair and ray kernels of query.h. Plus invariants of
// shape casts and verdicts, and determinism across batch splits.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <random>
#include <set>

#include "collide/query.h"
#include "collide/world.h"
#include "support/case_count.h"
#include "support/synthetic_meshes.h"

namespace collide {
namespace {

using testing::CaseCount;

struct Rng {
  std::mt19937_64 gen;
  explicit Rng(std::uint64_t seed) : gen(seed) {}
  double Uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(gen); }
  int Int(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen); }
  Vec3 InBox(double lo, double hi) { return {Uniform(lo, hi), Uniform(lo, hi), Uniform(lo, hi)}; }
  Vec3 Direction() {
    for (;;) {
      const Vec3 v = InBox(-1, 1);
      if (LengthSquared(v) > 0.01 && LengthSquared(v) <= 1) return v / Length(v);
    }
  }
  Quat Rotation() {
    const Vec3 a = Direction();
    const double h = Uniform(-3.2, 3.2) / 2;
    return {std::cos(h), a.x * std::sin(h), a.y * std::sin(h), a.z * std::sin(h)};
  }
  Shape Part() {
    const Vec3 c = InBox(-0.5, 0.5);
    switch (Int(0, 6)) {
      case 0:
        return Sphere{c, Uniform(0.05, 0.4)};
      case 1:
        return Capsule{c, c + InBox(-0.5, 0.5), Uniform(0.05, 0.3)};
      case 2:
        return Aabb{c - InBox(0.05, 0.4), c + InBox(0.05, 0.4)};
      case 3:
        return Obb::FromQuat(c, Rotation(), InBox(0.05, 0.4));
      case 4:
        return Segment{c, c + InBox(-0.5, 0.5)};
      case 5:
        return Point{c};
      default:
        return Triangle{c, c + InBox(-0.5, 0.5), c + InBox(-0.5, 0.5)};
    }
  }
};

constexpr double kSize = 40.0;

// A seeded world: terrain and boxes meshes, three primitives, bodies moving
// over ticks with gaps, adds, removals, teleports, part-pose and part-set
// changes. Remembers every body id and category.
struct RandomWorld {
  World world;
  std::map<std::int64_t, CategoryMask> categories;

  // reverse_parts: every part set listed in the opposite order (the same
  // bodies otherwise).
  explicit RandomWorld(std::uint64_t seed, int bodies = 60, int frames = 24, bool reverse_parts = false)
      : world(WorldSettings{}, Statics(seed)) {
    Rng rng(seed);
    std::int64_t next_id = 1, tick = 1000;
    std::map<std::int64_t, Vec3> position;
    std::map<std::int64_t, int> part_count;
    const auto add = [&](Frame& f) {
      BodyUpdate u;
      u.id = next_id++;
      u.pose = Pose{{rng.Uniform(0, kSize), rng.Uniform(0, kSize), rng.Uniform(0, 8)}, rng.Rotation()};
      const int n = rng.Int(1, 5);
      for (int k = 0; k < n; ++k)
        u.parts.push_back({10 + k, rng.Part(), Pose{rng.InBox(-1, 1), rng.Rotation()}});
      if (reverse_parts) std::reverse(u.parts.begin(), u.parts.end());
      u.movement_shape = Capsule{{0, 0, 0}, {0, 0, 1}, 0.3};
      u.category = CategoryMask{1} << rng.Int(0, 2);
      categories[u.id] = *u.category;
      position[u.id] = u.pose->position;
      part_count[u.id] = n;
      f.bodies.push_back(u);
    };
    Frame first{tick, {}, {}};
    for (int i = 0; i < bodies; ++i) add(first);
    EXPECT_TRUE(world.PushFrame(first).ok());
    for (int k = 1; k < frames; ++k) {
      tick += rng.Int(1, 3);
      Frame f{tick, {}, {}};
      for (auto& [id, p] : position) {
        const int what = rng.Int(0, 19);
        if (what == 0 && position.size() > 5) {
          f.removals.push_back(id);
          continue;
        }
        if (what >= 12) continue;  // not mentioned: keeps its pose.
        BodyUpdate u;
        u.id = id;
        u.teleport = what == 1;
        p = what == 1 ? Vec3{rng.Uniform(0, kSize), rng.Uniform(0, kSize), rng.Uniform(0, 8)}
                      : p + rng.InBox(-1, 1);
        u.pose = Pose{p, rng.Rotation()};
        if (what == 2) {  // a new part set (crouch)
          part_count[id] = rng.Int(1, 4);
          for (int j = 0; j < part_count[id]; ++j)
            u.parts.push_back({20 + j, rng.Part(), Pose{rng.InBox(-1, 1), Quat{}}});
          if (reverse_parts) std::reverse(u.parts.begin(), u.parts.end());
        } else if (what == 3) {  // animation of the first part
          u.part_poses.push_back({-1, Pose{rng.InBox(-1, 1), rng.Rotation()}});
        }
        f.bodies.push_back(u);
      }
      for (std::int64_t id : f.removals) position.erase(id);
      // Animation of the body's lowest part id (the same part whatever the
      // order of the set): look it up.
      for (BodyUpdate& u : f.bodies) {
        if (u.part_poses.empty()) continue;
        const auto parts = world.BodyPartsAt(u.id, std::nullopt);
        u.part_poses[0].part = std::min_element(parts.begin(), parts.end(), [](const auto& a, const auto& b) {
                                 return a.first < b.first;
                               })->first;
      }
      if (rng.Int(0, 2) == 0) add(f);
      EXPECT_TRUE(world.PushFrame(f).ok()) << tick;
    }
  }

  static std::vector<StaticElement> Statics(std::uint64_t seed) {
    return {{1, 1, std::make_shared<const TriangleMesh>(testing::MakeTerrain(12, kSize, seed))},
            {2, 2, std::make_shared<const TriangleMesh>(testing::MakeBoxes(15, kSize, seed + 1))},
            {3, 1, Shape{Sphere{{20, 20, 5}, 2}}},
            {4, 4, Shape{Obb::FromQuat({10, 30, 3}, Quat{0.8, 0.6, 0, 0}, {1, 2, 3})}},
            {5, 2, Shape{Capsule{{30, 5, 1}, {35, 10, 6}, 1}}}};
  }

  // Every target a query could touch at `at`, with its shape.
  std::vector<std::pair<HitTarget, Shape>> Targets(const Time& at, const QueryFilter& filter) const {
    std::vector<std::pair<HitTarget, Shape>> out;
    for (const StaticElement& e : world.statics()) {
      if ((e.category & filter.mask) == 0) continue;
      if (const auto* s = std::get_if<Shape>(&e.geometry)) {
        out.push_back({{HitTarget::Kind::kStatic, e.id, 0, 0}, *s});
      } else {
        const TriangleMesh& m = *std::get<1>(e.geometry);
        for (std::uint32_t t = 0; t < m.triangle_count(); ++t) {
          out.push_back({{HitTarget::Kind::kStatic, e.id, t, 0}, m.triangle(t)});
        }
      }
    }
    for (const auto& [id, category] : categories) {
      if ((category & filter.mask) == 0 ||
          std::find(filter.ignored_bodies.begin(), filter.ignored_bodies.end(), id) !=
              filter.ignored_bodies.end()) {
        continue;
      }
      for (auto& [part, shape] : world.BodyPartsAt(id, at))
        out.push_back({{HitTarget::Kind::kBody, id, 0, part}, shape});
    }
    return out;
  }

  Time RandomTime(Rng& rng) const {
    const std::int64_t lo = *world.oldest_tick() - 2, hi = *world.latest_tick() + 2;
    return {lo + rng.Int(0, static_cast<int>(hi - lo)), rng.Int(0, 3) == 0 ? 0.0 : rng.Uniform(0, 1)};
  }
  QueryFilter RandomFilter(Rng& rng) const {
    QueryFilter f;
    f.mask = rng.Int(0, 2) == 0 ? CategoryMask{static_cast<unsigned>(rng.Int(1, 7))} : kAllCategories;
    if (rng.Int(0, 1) == 0) f.ignored_bodies.push_back(rng.Int(1, static_cast<int>(categories.size())));
    return f;
  }
};

bool Near(double a, double b) { return std::fabs(a - b) <= 1e-9 * (1.0 + std::fabs(a)); }

TEST(WorldQueryTest, RayCastsMatchBruteForce) {
  for (std::uint64_t seed = 1; seed <= 2; ++seed) {
    const RandomWorld w(seed);
    Rng rng(seed * 77);
    for (int c = 0; c < CaseCount(300); ++c) {
      RayQuery q;
      q.ray = {{rng.Uniform(-5, kSize + 5), rng.Uniform(-5, kSize + 5), rng.Uniform(0, 10)},
               rng.Direction(),
               rng.Int(0, 1) == 0 ? kInfinity : rng.Uniform(0, 30)};
      q.at = w.RandomTime(rng);
      q.filter = w.RandomFilter(rng);
      const Time used = w.world.Resolve(q.at).used;
      std::vector<std::pair<double, HitTarget>> brute;
      for (const auto& [target, shape] : w.Targets(used, q.filter)) {
        const RayHit h = RayCast(q.ray, shape);
        if (h.hit) brute.push_back({h.distance, target});
      }
      std::sort(brute.begin(), brute.end(), [](const auto& a, const auto& b) {
        return a.first < b.first || (a.first == b.first && TargetLess(a.second, b.second));
      });
      std::vector<RayQuery> modes{q, q, q};
      modes[1].mode = RayMode::kAny;
      modes[2].mode = RayMode::kAll;
      modes[2].max_hits = 100000;
      const auto r = w.world.RayCasts(modes);
      const auto found = [&](const WorldRayHit& h) {
        return std::any_of(brute.begin(), brute.end(),
                           [&](const auto& b) { return b.second == h.target && Near(b.first, h.distance); });
      };
      SCOPED_TRACE(::testing::Message() << "seed " << seed << " case " << c);
      ASSERT_EQ(r[0].hits.size(), brute.empty() ? 0u : 1u);
      ASSERT_EQ(r[1].hits.size(), brute.empty() ? 0u : 1u);
      if (!brute.empty()) {
        EXPECT_TRUE(Near(r[0].hits[0].distance, brute[0].first))
            << r[0].hits[0].distance << " vs " << brute[0].first;
        EXPECT_TRUE(found(r[0].hits[0]));
        EXPECT_TRUE(found(r[1].hits[0]));
      }
      ASSERT_EQ(r[2].hits.size(), brute.size());
      EXPECT_EQ(r[2].total_hits, brute.size());
      std::set<std::tuple<int, std::int64_t, std::uint32_t, std::int32_t>> a, b;
      for (const auto& h : r[2].hits)
        a.insert({int(h.target.kind), h.target.id, h.target.triangle, h.target.part});
      for (const auto& h : brute)
        b.insert({int(h.second.kind), h.second.id, h.second.triangle, h.second.part});
      EXPECT_EQ(a, b);
      for (const auto& h : r[2].hits) EXPECT_TRUE(found(h));
      EXPECT_TRUE(std::is_sorted(r[2].hits.begin(), r[2].hits.end(),
                                 [](const auto& x, const auto& y) { return x.distance < y.distance; }));
    }
  }
}

Shape RandomQueryShape(Rng& rng, const Vec3& c) {
  switch (rng.Int(0, 2)) {
    case 0:
      return Sphere{c, rng.Uniform(0.1, 3)};
    case 1:
      return Capsule{c, c + rng.InBox(-2, 2), rng.Uniform(0.1, 1.5)};
    default:
      return Obb::FromQuat(c, rng.Rotation(), rng.InBox(0.1, 2));
  }
}

TEST(WorldQueryTest, OverlapsMatchBruteForce) {
  const RandomWorld w(3);
  Rng rng(99);
  for (int c = 0; c < CaseCount(200); ++c) {
    OverlapQuery q;
    q.shape = RandomQueryShape(rng, {rng.Uniform(0, kSize), rng.Uniform(0, kSize), rng.Uniform(0, 8)});
    q.at = w.RandomTime(rng);
    q.filter = w.RandomFilter(rng);
    q.max_results = 100000;
    q.level = static_cast<QueryLevel>(rng.Int(0, 2));
    const Time used = w.world.Resolve(q.at).used;
    std::vector<std::pair<HitTarget, PairResult>> brute;
    for (const auto& [target, shape] : w.Targets(used, q.filter)) {
      const PairResult pr = Query(q.level, q.shape, shape);
      if (pr.hit) brute.push_back({target, pr});
    }
    std::sort(brute.begin(), brute.end(),
              [](const auto& a, const auto& b) { return TargetLess(a.first, b.first); });
    const auto r = w.world.Overlaps({&q, 1})[0];
    ASSERT_EQ(r.hits.size(), brute.size()) << "case " << c;
    for (std::size_t i = 0; i < brute.size(); ++i) {
      EXPECT_EQ(r.hits[i].target, brute[i].first) << "case " << c;
      EXPECT_EQ(r.hits[i].result, brute[i].second) << "case " << c;  // the same kernel on the same shapes.
    }
    // The cap keeps the first results in TargetLess order.
    q.max_results = 2;
    const auto capped = w.world.Overlaps({&q, 1})[0];
    EXPECT_EQ(capped.total_hits, brute.size());
    EXPECT_EQ(capped.hits.size(), std::min<std::size_t>(2, brute.size()));
  }
}

TEST(WorldQueryTest, ShapeCastsStopAtTheFirstContact) {
  const RandomWorld w(4);
  Rng rng(5);
  int hits = 0;
  for (int c = 0; c < CaseCount(150); ++c) {
    ShapeCastQuery q;
    const Vec3 start{rng.Uniform(0, kSize), rng.Uniform(0, kSize), rng.Uniform(2, 10)};
    q.shape = rng.Int(0, 1) == 0 ? Shape{Sphere{start, rng.Uniform(0.1, 1)}}
                                 : Shape{Capsule{start, start + rng.InBox(-1, 1), rng.Uniform(0.1, 0.8)}};
    q.translation = rng.Direction() * rng.Uniform(1, 20);
    q.at = w.RandomTime(rng);
    q.filter = w.RandomFilter(rng);
    const ShapeCastResult r = w.world.ShapeCasts({&q, 1})[0];
    ASSERT_TRUE(r.valid);
    const auto targets = w.Targets(r.time.used, q.filter);
    const auto moved = [&](double t) {
      const Vec3 o = q.translation * t;
      if (const auto* s = std::get_if<Sphere>(&q.shape)) return Shape{Sphere{s->center + o, s->radius}};
      const auto& k = std::get<Capsule>(q.shape);
      return Shape{Capsule{k.a + o, k.b + o, k.radius}};
    };
    SCOPED_TRACE(::testing::Message() << "case " << c);
    if (r.hit) {
      ++hits;
      // Touching the named target at t, and nothing entered before t.
      const auto it =
          std::find_if(targets.begin(), targets.end(), [&](const auto& x) { return x.first == r.target; });
      ASSERT_NE(it, targets.end());
      EXPECT_LE(Distance(moved(r.t), it->second).distance, 1e-6);
      if (r.t > 0) {
        for (const auto& [target, shape] : targets) EXPECT_GT(Contact(moved(r.t), shape).distance, -1e-6);
      }
    } else {
      for (int k = 0; k <= 64; ++k) {
        for (const auto& [target, shape] : targets) ASSERT_FALSE(Intersect(moved(k / 64.0), shape).hit);
      }
    }
  }
  EXPECT_GT(hits, CaseCount(150) / 10);
}

TEST(WorldVerdictInvariantsTest, ConfirmedShotsAndOkMovesHoldUp) {
  const RandomWorld w(6);
  Rng rng(7);
  int confirmed = 0, ok = 0;
  const std::int64_t latest = *w.world.latest_tick();
  // 400 shots under sanitizers too: they are cheap, and a tenth of them is
  // too few to be sure of confirmed shots to check.
  for (int c = 0; c < 400; ++c) {
    ShotRequest s;
    s.shooter = rng.Int(1, static_cast<int>(w.categories.size()));
    s.at = Time{latest - rng.Int(0, 30), rng.Uniform(0, 1)};
    // The origin near where the server knows the shooter: the latest frame.
    const auto shooter = w.world.BodyPoseAt(s.shooter, std::nullopt);
    if (!shooter) continue;
    s.origin = shooter->position + rng.InBox(-1, 1);
    const std::int64_t target = rng.Int(1, static_cast<int>(w.categories.size()));
    const auto parts = w.world.BodyPartsAt(target, s.at);
    if (parts.empty() || target == s.shooter) continue;
    const auto& [part, shape] = parts[rng.Int(0, static_cast<int>(parts.size()) - 1)];
    s.claim = ShotClaim{target, part};
    // Aim at the part's point nearest to the origin.
    const PairResult toward = Distance(Point{s.origin}, shape);
    s.direction = toward.point_b - s.origin;
    if (LengthSquared(s.direction) == 0.0) continue;
    const ShotVerdict v = w.world.ValidateShots({&s, 1})[0];
    if (v.code != ShotCode::kConfirmed) continue;
    ++confirmed;
    const Ray ray{s.origin, s.direction, s.max_range};
    const RayHit h = RayCast(ray, shape);
    ASSERT_TRUE(h.hit);
    EXPECT_TRUE(Near(h.distance, v.first_hit->distance));
    QueryFilter all;
    all.ignored_bodies = {s.shooter};
    for (const auto& [t, other] : w.Targets(v.time.used, all)) {
      const RayHit o = RayCast(ray, other);
      if (o.hit) EXPECT_GE(o.distance, h.distance * (1 - 1e-12) - 1e-12) << "before the claim: " << t.id;
    }
  }
  const auto statics = w.Targets(Time{latest, 0}, QueryFilter{kAllCategories, {}});
  for (int c = 0; c < CaseCount(200); ++c) {
    MoveRequest m;
    m.body = rng.Int(1, static_cast<int>(w.categories.size()));
    const auto pose = w.world.BodyPoseAt(m.body, std::nullopt);
    if (!pose) continue;
    m.from = pose->position;
    m.to = pose->position + rng.InBox(-3, 3);
    m.elapsed = 1.0;
    m.slide = rng.Int(0, 1) == 0;
    const MoveVerdict v = w.world.ValidateMoves({&m, 1})[0];
    if (v.code != MoveCode::kOk) {
      EXPECT_NE(v.code, MoveCode::kInvalid);
      continue;
    }
    ++ok;
    const Capsule cap{{0, 0, 0}, {0, 0, 1}, 0.3};
    for (int k = 0; k <= 32; ++k) {
      const Vec3 p = pose->position + (m.to - pose->position) * (k / 32.0);
      const Shape placed = PlaceShape(cap, Pose{p, pose->rotation});
      for (const auto& [t, shape] : statics) {
        if (t.kind == HitTarget::Kind::kStatic) {
          // Contacts up to skin_width deep are tolerated (world.h).
          EXPECT_GE(Contact(placed, shape).distance, -w.world.settings().skin_width * (1 + 1e-9) - 1e-12);
        }
      }
    }
  }
  // Rate guards (the invariants above must have run on real cases): 5 of the
  // 400 shots, and of the 200 moves in Release (at the sanitizers' tenth, one).
  EXPECT_GT(confirmed, 5);
  EXPECT_GT(ok, testing::kSanitized ? 0 : 5);
}

// Where the ray first comes within `grow` of `shape` (a convex set: the
// distance along the ray is convex), by ternary search for its minimum and
// bisection before it, on the exact point distance; nullopt when it never
// does. `grazing` is set when the closest approach is within 1e-7 of `grow`
// (a verdict there may go either way by rounding).
std::optional<double> GrownHit(const Ray& ray, const Shape& shape, double grow, bool& grazing) {
  const Vec3 u = NormalizedOr(ray.direction, Vec3{1, 0, 0});
  const auto f = [&](double s) { return Distance(Point{ray.origin + u * s}, shape).distance; };
  if (f(0) <= grow) return 0.0;
  double lo = 0, hi = std::min(ray.max_distance, 1e3);
  for (int i = 0; i < 200; ++i) {
    const double a = lo + (hi - lo) / 3, b = hi - (hi - lo) / 3;
    if (f(a) < f(b)) {
      hi = b;
    } else {
      lo = a;
    }
  }
  const double closest = (lo + hi) / 2;
  if (std::fabs(f(closest) - grow) < 1e-7) grazing = true;
  if (f(closest) > grow) return std::nullopt;
  lo = 0, hi = closest;
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2;
    if (f(mid) > grow) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return hi;
}

// Shot verdicts against brute force over every triangle, primitive and body
// part at the time used, the claimed body's parts grown by the tolerance
// (GrownHit) and the order rules of world.h; and the same verdicts from a
// world whose every part set is listed in the opposite order.
TEST(WorldShotTest, VerdictsMatchBruteForceWithTolerancesInEveryPartOrder) {
  const RandomWorld w(11, 40, 16);
  const RandomWorld reversed(11, 40, 16, true);
  Rng rng(12);
  std::map<ShotCode, int> seen;
  int compared = 0;
  const std::int64_t latest = *w.world.latest_tick();
  // Every case under sanitizers too (about 3 s there): a tenth is too few to
  // meet every verdict code.
  constexpr int kCases = 1500;
  for (int c = 0; c < kCases; ++c) {
    ShotRequest s;
    s.shooter = rng.Int(1, static_cast<int>(w.categories.size()));
    s.at = Time{latest - rng.Int(0, 20), rng.Uniform(0, 1)};
    const auto shooter = w.world.BodyPoseAt(s.shooter, std::nullopt);  // at the command: the latest.
    if (!shooter) continue;
    s.origin = shooter->position + rng.InBox(-1, 1);
    s.tolerance = std::array<double, 4>{0.0, 0.05, 0.3, 1.0}[rng.Int(0, 3)];
    if (rng.Int(0, 1) == 0) s.max_range = rng.Uniform(1, 30);
    const std::int64_t target = rng.Int(1, static_cast<int>(w.categories.size()));
    const auto parts = w.world.BodyPartsAt(target, s.at);
    if (rng.Int(0, 5) != 0 && !parts.empty() && target != s.shooter) {
      const auto& [part, shape] = parts[rng.Int(0, static_cast<int>(parts.size()) - 1)];
      s.claim = ShotClaim{target, part};
      // Aim near the claimed part: at it, or off it by up to twice the tolerance.
      s.direction = Distance(Point{s.origin}, shape).point_b + rng.InBox(-1, 1) * (2 * s.tolerance + 0.1) - s.origin;
    } else {
      s.direction = rng.Direction();
    }
    if (LengthSquared(s.direction) == 0.0) continue;
    const ShotVerdict v = w.world.ValidateShots({&s, 1})[0];
    const ShotVerdict r = reversed.world.ValidateShots({&s, 1})[0];
    ++seen[v.code];
    EXPECT_EQ(v.code, r.code) << "part order changed the verdict, case " << c;
    EXPECT_EQ(v.first_hit.has_value(), r.first_hit.has_value());
    if (v.first_hit && r.first_hit) {
      EXPECT_EQ(v.first_hit->target, r.first_hit->target);
      EXPECT_EQ(v.first_hit->distance, r.first_hit->distance);
    }
    if (v.code > ShotCode::kMissed) continue;  // a rejection: not geometric.
    // The reference: the first hit over every target, grown where claimed.
    const Ray ray{s.origin, s.direction, s.max_range};
    QueryFilter all;
    all.ignored_bodies = {s.shooter};
    bool grazing = false, on_claim = false;
    std::optional<std::pair<double, HitTarget>> first;
    double runner_up = kInfinity;
    for (const auto& [t, shape] : w.Targets(v.time.used, all)) {
      const bool claimed = s.claim && t.kind == HitTarget::Kind::kBody && t.id == s.claim->body;
      std::optional<double> d;
      if (claimed && s.tolerance > 0) {
        d = GrownHit(ray, shape, s.tolerance, grazing);
      } else if (const RayHit h = RayCast(ray, shape); h.hit) {
        d = h.distance;
      }
      if (!d) continue;
      on_claim |= claimed;
      if (!first || *d < first->first || (*d == first->first && TargetLess(t, first->second))) {
        if (first) runner_up = std::min(runner_up, first->first);
        first = {*d, t};
      } else {
        runner_up = std::min(runner_up, *d);
      }
    }
    if (grazing || (first && runner_up - first->first < 1e-6 * (1 + first->first))) continue;  // a tie.
    ShotCode want = ShotCode::kMissed;
    if (first && !(s.claim && !on_claim)) {
      const HitTarget& t = first->second;
      if (t.kind == HitTarget::Kind::kStatic) {
        want = ShotCode::kBlocked;
      } else if (!s.claim || (t.id == s.claim->body && t.part == s.claim->part)) {
        want = ShotCode::kConfirmed;
      } else {
        want = t.id == s.claim->body ? ShotCode::kHitOtherPart : ShotCode::kHitOtherBody;
      }
    }
    ++compared;
    SCOPED_TRACE(::testing::Message() << "case " << c << " tolerance " << s.tolerance);
    ASSERT_EQ(v.code, want) << ShotCodeName(v.code) << " vs " << ShotCodeName(want);
    ASSERT_EQ(v.first_hit.has_value(), first.has_value());
    if (first) {
      EXPECT_EQ(v.first_hit->target, first->second);
      EXPECT_NEAR(v.first_hit->distance, first->first, 1e-7 * (1 + first->first));
    }
  }
  // Every geometric verdict was met, most shots were compared.
  for (const ShotCode code : {ShotCode::kConfirmed, ShotCode::kHitOtherPart, ShotCode::kHitOtherBody,
                              ShotCode::kBlocked, ShotCode::kMissed}) {
    EXPECT_GT(seen[code], 0) << ShotCodeName(code);
  }
  EXPECT_GT(compared, kCases / 3);
}

TEST(WorldDeterminismTest, BatchSplitsGiveBitIdenticalResults) {
  const RandomWorld a(8), b(8);
  Rng rng(9);
  std::vector<RayQuery> rays;
  std::vector<ShotRequest> shots;
  for (int c = 0; c < CaseCount(200); ++c) {
    RayQuery q;
    q.ray = {{rng.Uniform(0, kSize), rng.Uniform(0, kSize), rng.Uniform(0, 10)}, rng.Direction(), kInfinity};
    q.at = a.RandomTime(rng);
    q.mode = static_cast<RayMode>(rng.Int(0, 2));
    rays.push_back(q);
    ShotRequest s;
    s.shooter = rng.Int(1, 60);
    s.origin = q.ray.origin;
    s.direction = q.ray.direction;
    s.at = q.at;
    s.claim = ShotClaim{rng.Int(1, 60), 10};
    shots.push_back(s);
  }
  const auto whole = a.world.RayCasts(rays);
  const auto other = b.world.RayCasts(rays);
  const auto shots_whole = a.world.ValidateShots(shots);
  for (std::size_t i = 0; i < rays.size(); ++i) {
    const auto one = a.world.RayCasts({&rays[i], 1})[0];
    EXPECT_EQ(one.hits, whole[i].hits);
    EXPECT_EQ(one.time, whole[i].time);
    EXPECT_EQ(other[i].hits, whole[i].hits);
    const auto shot = a.world.ValidateShots({&shots[i], 1})[0];
    EXPECT_EQ(shot.code, shots_whole[i].code);
    EXPECT_EQ(shot.first_hit, shots_whole[i].first_hit);
    EXPECT_EQ(std::memcmp(&shot.claim_miss_distance, &shots_whole[i].claim_miss_distance, sizeof(double)), 0);
  }
}

}  // namespace
}  // namespace collide
