#include "support/accuracy_contract.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <variant>

#include "support/exact_reference.h"

namespace collide::testing {
namespace {

double MaxCoordinate(const Shape& s) {
  const auto m = [](const Vec3& v) { return std::max({std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)}); };
  if (const Aabb* b = std::get_if<Aabb>(&s)) return std::max(m(b->min), m(b->max));
  if (const Obb* b = std::get_if<Obb>(&s))
    return m(b->center) + b->half_extents.x + b->half_extents.y + b->half_extents.z;
  if (const Triangle* t = std::get_if<Triangle>(&s)) return std::max({m(t->a), m(t->b), m(t->c)});
  const Sphere& b = std::get<Sphere>(s);
  return m(b.center) + b.radius;
}

bool IsPolytope(const Shape& s) { return !std::holds_alternative<Sphere>(s); }

}  // namespace

double AccuracyTolerance(const AccuracyCase& c) {
  return 64.0 * DBL_EPSILON * std::max(MaxCoordinate(c.a), MaxCoordinate(c.b));
}

void AccuracyWorst::Print(const char* what) const {
  std::printf("%-34s worst/tol: distance %.3g witness %.3g consistency %.3g normal %.3g; hit errors %d\n",
              what, distance, witness, consistency, normal, hit_errors);
}

std::vector<std::string> ContractViolations(const AccuracyCase& c, QueryLevel level, const PairResult& r,
                                            double exact, double tol, AccuracyWorst& w) {
  std::vector<std::string> bad;
  const std::string where = std::string(QueryLevelName(level)) + ", exact " + std::to_string(exact) + ": ";
  if (r.status != QueryStatus::kOk) return {where + "status not ok"};
  if (std::fabs(exact) > tol && r.hit != (exact <= 0)) {
    ++w.hit_errors;
    bad.push_back(where + "hit " + std::to_string(r.hit));
  }
  if (level == QueryLevel::kIntersect) return bad;
  const double expected = level == QueryLevel::kContact ? exact : std::max(exact, 0.0);
  const double e_distance = std::fabs(r.distance - expected) / tol;
  const double e_witness =
      std::max(ExactPointDistance(c.a, r.point_a), ExactPointDistance(c.b, r.point_b)) / tol;
  double e_consistency = Length(r.point_b - r.point_a - r.normal * r.distance) / tol;
  if (!(r.normal == Vec3{}) && std::fabs(Length(r.normal) - 1.0) > 1e-12) e_consistency = INFINITY;
  double e_normal = 0;
  if (level == QueryLevel::kContact && r.hit && IsPolytope(c.a) && IsPolytope(c.b) && exact < -tol)
    e_normal = std::fabs(ExactGapAlong(c.a, c.b, r.normal) - r.distance) / tol;
  w.distance = std::max(w.distance, e_distance);
  w.witness = std::max(w.witness, e_witness);
  w.consistency = std::max(w.consistency, e_consistency);
  w.normal = std::max(w.normal, e_normal);
  if (!(e_distance <= 1.0)) bad.push_back(where + "distance " + std::to_string(r.distance));
  if (!(e_witness <= 1.0))
    bad.push_back(where + "witness off its shape by " + std::to_string(e_witness) + " tol");
  if (!(e_consistency <= 1.0)) bad.push_back(where + "point_b - point_a != distance * normal");
  if (!(e_normal <= 1.0)) bad.push_back(where + "the normal does not realize the depth");
  return bad;
}

}  // namespace collide::testing
