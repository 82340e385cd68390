// libFuzzer target over the collision core: two shapes of fuzzer-chosen kinds
// built from raw double bit patterns biased to the values that break
// geometry code (NaN, infinities, huge, tiny, subnormal, negative zero, and
// repeated values that make degenerate shapes).
//
// Invalid shapes must be rejected by Validate (the server's boundary) and are
// not queried. Valid ones must satisfy, at every level: status kOk (or
// kUnsupported for halfspace vs halfspace, kNotConverged counted, not fatal),
// no NaN or infinity in any field, hit == (distance <= 0), a unit contact
// normal, exact mirror symmetry, and ray hits on [0, max_distance]; libFuzzer's
// -timeout bounds the time per input. A violation aborts, which libFuzzer reports as a crash.
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <variant>
#include <vector>

#include "collide/query.h"
#include "collide/validate.h"

namespace collide {
namespace {

// Values that break naive geometry code.
constexpr double kSpecial[] = {0.0,     -0.0,   1.0,     -1.0,  0.5,    2.0,      1e-9,    -1e-9, 1e-300,
                               4.9e-324, 1e12, -1e12,    1e6,   1e-6,   1e300,    -1e300,  NAN,   INFINITY,
                               -INFINITY, 3.0,  0.70710678118654757, 1e-15, 1.0000001};

struct Input {
  explicit Input(FuzzedDataProvider& p) : p_(p) {}

  double Value() {
    switch (p_.ConsumeIntegralInRange<int>(0, 3)) {
      case 0: return kSpecial[p_.ConsumeIntegralInRange<size_t>(0, std::size(kSpecial) - 1)];
      case 1: return static_cast<double>(p_.ConsumeIntegralInRange<int>(-4, 4));
      case 2: {  // Repeat an earlier value: coincident points, zero lengths.
        if (history_.empty()) return 0.0;
        return history_[p_.ConsumeIntegralInRange<size_t>(0, history_.size() - 1)];
      }
      default: {
        double d;
        const uint64_t bits = p_.ConsumeIntegral<uint64_t>();
        std::memcpy(&d, &bits, sizeof d);
        return d;
      }
    }
  }
  double Next() {
    // Half the inputs go through the service's boundary rule (magnitudes
    // below 1e-50 read as 0); the rest test that Validate rejects them.
    const double v = flush_ ? FlushTiny(Value()) : Value();
    history_.push_back(v);
    return v;
  }
  Vec3 NextVec() { return {Next(), Next(), Next()}; }

  Shape MakeShape(ShapeKind kind, std::vector<Vec3>& hull_storage) {
    switch (kind) {
      case ShapeKind::kPoint: return Point{NextVec()};
      case ShapeKind::kSegment: return Segment{NextVec(), NextVec()};
      case ShapeKind::kSphere: return Sphere{NextVec(), Next()};
      case ShapeKind::kCapsule: return Capsule{NextVec(), NextVec(), Next()};
      case ShapeKind::kAabb: return Aabb{NextVec(), NextVec()};
      case ShapeKind::kObb: {
        const Vec3 c = NextVec();
        Quat q{Next(), Next(), Next(), Next()};
        // Mostly valid rotations, so the geometry gets exercised.
        if (p_.ConsumeBool() && std::isfinite(Norm(q)) && Norm(q) > 0) {
          const double n = Norm(q);
          q = {q.w / n, q.x / n, q.y / n, q.z / n};
        }
        return Obb::FromQuat(c, q, NextVec());
      }
      case ShapeKind::kTriangle: return Triangle{NextVec(), NextVec(), NextVec()};
      case ShapeKind::kConvexHull: {
        const int n = p_.ConsumeIntegralInRange<int>(1, 12);
        for (int i = 0; i < n; ++i) hull_storage.push_back(NextVec());
        return ConvexHull{hull_storage};
      }
      case ShapeKind::kHalfspace: {
        Vec3 n = NextVec();
        if (p_.ConsumeBool() && IsFinite(n) && Length(n) > 0) n = n / Length(n);
        return Halfspace{n, Next()};
      }
    }
    return Point{};
  }

  FuzzedDataProvider& p_;
  bool flush_ = p_.ConsumeBool();
  std::vector<double> history_;
};

// The shapes of the current input, printed on failure in C++ syntax with
// exact hex floats, ready to paste into a regression test.
const Shape* g_a = nullptr;
const Shape* g_b = nullptr;
const Ray* g_ray = nullptr;

void Print(const Vec3& v) { std::fprintf(stderr, "{%a, %a, %a}", v.x, v.y, v.z); }

void Print(const Shape& shape) {
  std::visit(
      [](const auto& s) {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, Point>) {
          std::fprintf(stderr, "Point{"), Print(s.position);
        } else if constexpr (std::is_same_v<T, Segment>) {
          std::fprintf(stderr, "Segment{"), Print(s.a), std::fprintf(stderr, ", "), Print(s.b);
        } else if constexpr (std::is_same_v<T, Sphere>) {
          std::fprintf(stderr, "Sphere{"), Print(s.center), std::fprintf(stderr, ", %a", s.radius);
        } else if constexpr (std::is_same_v<T, Capsule>) {
          std::fprintf(stderr, "Capsule{"), Print(s.a), std::fprintf(stderr, ", "), Print(s.b);
          std::fprintf(stderr, ", %a", s.radius);
        } else if constexpr (std::is_same_v<T, Aabb>) {
          std::fprintf(stderr, "Aabb{"), Print(s.min), std::fprintf(stderr, ", "), Print(s.max);
        } else if constexpr (std::is_same_v<T, Obb>) {
          std::fprintf(stderr, "Obb{"), Print(s.center), std::fprintf(stderr, ", {{");
          for (const Vec3& c : s.rotation.col) Print(c), std::fprintf(stderr, ", ");
          std::fprintf(stderr, "}}, "), Print(s.half_extents);
        } else if constexpr (std::is_same_v<T, Triangle>) {
          std::fprintf(stderr, "Triangle{"), Print(s.a), std::fprintf(stderr, ", "), Print(s.b);
          std::fprintf(stderr, ", "), Print(s.c);
        } else if constexpr (std::is_same_v<T, ConvexHull>) {
          std::fprintf(stderr, "ConvexHull{ vertices {");
          for (const Vec3& v : s.vertices) Print(v), std::fprintf(stderr, ", ");
          std::fprintf(stderr, "}");
        } else {
          std::fprintf(stderr, "Halfspace{"), Print(s.normal), std::fprintf(stderr, ", %a", s.offset);
        }
        std::fprintf(stderr, "}");
      },
      shape);
}

[[noreturn]] void Fail(const char* what, ShapeKind a, ShapeKind b, int level) {
  std::fprintf(stderr, "invariant violated: %s (kinds %s, %s, level %d)\n", what,
               std::string(ShapeKindName(a)).c_str(), std::string(ShapeKindName(b)).c_str(), level);
  if (g_a) std::fprintf(stderr, "  a = "), Print(*g_a), std::fprintf(stderr, "\n");
  if (g_b) std::fprintf(stderr, "  b = "), Print(*g_b), std::fprintf(stderr, "\n");
  if (g_ray && level < 0) {
    std::fprintf(stderr, "  ray = Ray{"), Print(g_ray->origin), std::fprintf(stderr, ", "), Print(g_ray->direction);
    std::fprintf(stderr, ", %a}  (cast against b)\n", g_ray->max_distance);
  }
  std::abort();
}

bool Finite(const PairResult& r) {
  return std::isfinite(r.distance) && IsFinite(r.point_a) && IsFinite(r.point_b) && IsFinite(r.normal);
}

void CheckPair(const Shape& a, const Shape& b) {
  const ShapeKind ka = KindOf(a), kb = KindOf(b);
  for (int level = 0; level < 3; ++level) {
    // No clock here: a time limit per pair depends on the machine's speed.
    // Unbounded loops are caught by libFuzzer's -timeout (scripts/fuzz.sh: 25 s
    // per input).
    const PairResult r = Query(static_cast<QueryLevel>(level), a, b);
    const PairResult m = Query(static_cast<QueryLevel>(level), b, a);
    if (!IsSupported(ka, kb)) {
      if (r.status != QueryStatus::kUnsupported) Fail("unsupported pair answered", ka, kb, level);
      continue;
    }
    if (r.status == QueryStatus::kUnsupported) Fail("supported pair unanswered", ka, kb, level);
    if (!Finite(r)) Fail("non-finite result", ka, kb, level);
    if (!(a == b) && !(m == r.Flipped())) Fail("mirror asymmetry", ka, kb, level);
    if (level == 0) continue;
    if (r.hit != (r.distance <= 0.0)) Fail("hit != (distance <= 0)", ka, kb, level);
    if (level == 1 && r.distance < 0.0) Fail("negative distance at distance level", ka, kb, level);
    if (level == 2 && std::fabs(Length(r.normal) - 1.0) > 1e-9) Fail("contact normal not unit", ka, kb, level);
  }
}

void CheckRay(const Ray& ray, const Shape& s) {
  const RayHit h = RayCast(ray, s);
  if (h.status == QueryStatus::kUnsupported) Fail("ray unanswered", KindOf(s), KindOf(s), -1);
  if (!std::isfinite(h.distance) || !IsFinite(h.point) || !IsFinite(h.normal)) {
    Fail("non-finite ray hit", KindOf(s), KindOf(s), -1);
  }
  if (h.hit && (h.distance < 0.0 || h.distance > ray.max_distance)) Fail("ray hit out of range", KindOf(s), KindOf(s), -1);
  if (h.hit && std::fabs(Length(h.normal) - 1.0) > 1e-9) Fail("ray normal not unit", KindOf(s), KindOf(s), -1);
}

}  // namespace
}  // namespace collide

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace collide;
  FuzzedDataProvider provider(data, size);
  Input in(provider);
  const auto ka = static_cast<ShapeKind>(provider.ConsumeIntegralInRange<int>(0, kShapeKindCount - 1));
  const auto kb = static_cast<ShapeKind>(provider.ConsumeIntegralInRange<int>(0, kShapeKindCount - 1));
  std::vector<Vec3> hull_a, hull_b;
  hull_a.reserve(16);
  hull_b.reserve(16);
  const Shape a = in.MakeShape(ka, hull_a);
  const Shape b = in.MakeShape(kb, hull_b);
  const Ray ray{in.NextVec(), in.NextVec(), provider.ConsumeBool() ? kInfinity : std::fabs(in.Next())};
  g_a = &a;
  g_b = &b;
  g_ray = &ray;

  std::vector<Violation> violations;
  const bool a_ok = Validate(a, violations);
  const bool b_ok = Validate(b, violations);
  if (a_ok != violations.empty() && b_ok) Fail("Validate result and violations disagree", ka, kb, -1);
  for (const Violation& v : violations) {
    if (v.field.empty() || v.description.empty()) Fail("violation without field or description", ka, kb, -1);
  }
  if (a_ok && b_ok) CheckPair(a, b);
  if (b_ok && IsValid(ray)) CheckRay(ray, b);
  return 0;
}
