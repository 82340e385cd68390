// The accuracy contract (issue 14, README "Accuracy"): on the hard
// configurations of tests/support/accuracy_cases.h, every answer is exact to
// round-off against the binary128 reference (support/exact_reference.h).
// With S the scene scale (the largest coordinate magnitude of either shape's
// vertices, centre or radius) and eps = 2^-52, tol = 64 eps S:
//  - hit == (exact signed distance <= 0) whenever |exact| > tol (the
//    touching band is |exact| <= tol);
//  - distance (kContact: signed; kDistance: max(exact, 0)) within tol;
//  - witness points within tol of their shapes;
//  - |point_b - point_a - distance * normal| <= tol, normal a unit vector
//    (or zero where the level reports none);
//  - an overlapping polytope pair's normal realizes the depth: the gap of
//    the shapes along it is the reported distance within tol (any
//    minimum-translation direction is accepted, as ties are common).
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>
#include <variant>

#include "collide/query.h"
#include "support/accuracy_cases.h"
#include "support/case_count.h"
#include "support/exact_reference.h"
#include "support/known_bugs.h"

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

double Tolerance(const AccuracyCase& c) {
  return 64.0 * DBL_EPSILON * std::max(MaxCoordinate(c.a), MaxCoordinate(c.b));
}

bool IsPolytope(const Shape& s) { return !std::holds_alternative<Sphere>(s); }

// The worst error of a set of cases, as a multiple of tol.
struct Worst {
  double distance = 0, witness = 0, consistency = 0, normal = 0;
  int hit_errors = 0;
  void Print(const char* what) const {
    std::printf("%-34s worst/tol: distance %.3g witness %.3g consistency %.3g normal %.3g; hit errors %d\n",
                what, distance, witness, consistency, normal, hit_errors);
  }
};

// Checks one level's answer; returns the violations of the contract.
std::vector<std::string> CheckResult(const AccuracyCase& c, QueryLevel level, double exact, double tol, Worst& w) {
  std::vector<std::string> bad;
  const PairResult r = Query(level, c.a, c.b);
  const std::string where = std::string(QueryLevelName(level)) + ", exact " + std::to_string(exact) + ": ";
  if (r.status != QueryStatus::kOk) return {where + "status not ok"};
  if (std::fabs(exact) > tol && r.hit != (exact <= 0)) {
    ++w.hit_errors;
    bad.push_back(where + "hit " + std::to_string(r.hit));
  }
  if (level == QueryLevel::kIntersect) return bad;
  const double expected = level == QueryLevel::kContact ? exact : std::max(exact, 0.0);
  const double e_distance = std::fabs(r.distance - expected) / tol;
  const double e_witness = std::max(ExactPointDistance(c.a, r.point_a), ExactPointDistance(c.b, r.point_b)) / tol;
  double e_consistency = Length(r.point_b - r.point_a - r.normal * r.distance) / tol;
  if (!(r.normal == Vec3{}) && std::fabs(Length(r.normal) - 1.0) > 1e-12) e_consistency = kInfinity;
  double e_normal = 0;
  if (level == QueryLevel::kContact && r.hit && IsPolytope(c.a) && IsPolytope(c.b) && exact < -tol)
    e_normal = std::fabs(ExactGapAlong(c.a, c.b, r.normal) - r.distance) / tol;
  w.distance = std::max(w.distance, e_distance);
  w.witness = std::max(w.witness, e_witness);
  w.consistency = std::max(w.consistency, e_consistency);
  w.normal = std::max(w.normal, e_normal);
  if (!(e_distance <= 1.0)) bad.push_back(where + "distance " + std::to_string(r.distance));
  if (!(e_witness <= 1.0)) bad.push_back(where + "witness off its shape by " + std::to_string(e_witness) + " tol");
  if (!(e_consistency <= 1.0)) bad.push_back(where + "point_b - point_a != distance * normal");
  if (!(e_normal <= 1.0)) bad.push_back(where + "the normal does not realize the depth");
  return bad;
}

// Runs CaseCount(2000) cases of a class through every level. A class with
// a known-bug id that is listed in known_bugs.h prints its violations as
// KNOWN BUG and does not fail (it fails again once the entry is removed).
void CheckClass(AccuracyClass cls, ShapeKind box_kind, bool swapped, uint64_t seed, const char* name,
                const char* bug = nullptr) {
  const std::vector<AccuracyCase> cases = MakeAccuracyCases(cls, box_kind, swapped, CaseCount(2000), seed);
  const KnownBug* known = bug ? FindKnownBug(bug) : nullptr;
  Worst w;
  int violating = 0;
  std::string first;
  for (size_t k = 0; k < cases.size(); ++k) {
    const AccuracyCase& c = cases[k];
    const double exact = ExactSignedDistance(c.a, c.b);
    const double tol = Tolerance(c);
    bool any = false;
    for (QueryLevel level : {QueryLevel::kIntersect, QueryLevel::kDistance, QueryLevel::kContact}) {
      for (const std::string& b : CheckResult(c, level, exact, tol, w)) {
        any = true;
        if (first.size() < 2000) first += "  " + std::string(name) + " #" + std::to_string(k) + " " + b + "\n";
      }
    }
    violating += any;
  }
  w.Print(name);
  if (violating == 0) return;
  if (known) {
    std::printf("KNOWN BUG %s (%d of %zu cases): %s\n", known->id.data(), violating, cases.size(),
                known->description.data());
    return;
  }
  ADD_FAILURE() << name << ": " << violating << " of " << cases.size() << " cases break the contract:\n" << first;
}

TEST(AccuracyTest, BoxBoxNearlyParallelEdges) {
  CheckClass(AccuracyClass::kBoxBoxParallelEdges, ShapeKind::kObb, false, 101, "obb-obb parallel edges");
  CheckClass(AccuracyClass::kBoxBoxParallelEdges, ShapeKind::kAabb, false, 102, "aabb-obb parallel edges");
  CheckClass(AccuracyClass::kBoxBoxParallelEdges, ShapeKind::kAabb, true, 103, "obb-aabb parallel edges");
}

TEST(AccuracyTest, TriangleBoxNearlyParallelFace) {
  CheckClass(AccuracyClass::kTriangleBoxParallelFace, ShapeKind::kAabb, false, 201,
             "aabb-triangle parallel face",
             "accuracy-triangle-box-parallel-face");
  CheckClass(AccuracyClass::kTriangleBoxParallelFace, ShapeKind::kAabb, true, 202,
             "triangle-aabb parallel face",
             "accuracy-triangle-box-parallel-face");
  CheckClass(AccuracyClass::kTriangleBoxParallelFace, ShapeKind::kObb, false, 203,
             "obb-triangle parallel face",
             "accuracy-triangle-box-parallel-face");
  CheckClass(AccuracyClass::kTriangleBoxParallelFace, ShapeKind::kObb, true, 204,
             "triangle-obb parallel face",
             "accuracy-triangle-box-parallel-face");
}

TEST(AccuracyTest, TriangleBoxThinShapes) {
  CheckClass(AccuracyClass::kTriangleBoxThin, ShapeKind::kAabb, false, 301, "aabb-triangle thin");
  CheckClass(AccuracyClass::kTriangleBoxThin, ShapeKind::kAabb, true, 302, "triangle-aabb thin");
  CheckClass(AccuracyClass::kTriangleBoxThin, ShapeKind::kObb, false, 303, "obb-triangle thin");
  CheckClass(AccuracyClass::kTriangleBoxThin, ShapeKind::kObb, true, 304, "triangle-obb thin");
}

TEST(AccuracyTest, SphereTriangleThinOrNear) {
  CheckClass(AccuracyClass::kSphereTriangleThin, ShapeKind::kSphere, false, 501, "sphere-triangle thin");
  CheckClass(AccuracyClass::kSphereTriangleThin, ShapeKind::kSphere, true, 502, "triangle-sphere thin");
}

}  // namespace
}  // namespace collide::testing
