// The accuracy contract of issue 14 (docs/queries.md, "Accuracy contract"), checked against the
// binary128 reference (exact_reference.h). With S the scene scale (the
// largest coordinate magnitude of either shape's vertices, centre plus
// extents, or centre plus radius) and eps = 2^-52, tol = 64 eps S:
//  - hit == (exact signed distance <= 0) whenever |exact| > tol (the
//    touching band is |exact| <= tol);
//  - distance (kContact: signed; kDistance: max(exact, 0)) within tol;
//  - witness points within tol of their shapes;
//  - |point_b - point_a - distance * normal| <= tol, normal a unit vector
//    (or zero where the level reports none);
//  - an overlapping polytope pair's normal realizes the depth: the gap of
//    the shapes along it is the reported distance within tol (any
//    minimum-translation direction is accepted, as ties are common).
#ifndef COLLIDE_TESTS_SUPPORT_ACCURACY_CONTRACT_H_
#define COLLIDE_TESTS_SUPPORT_ACCURACY_CONTRACT_H_

#include <string>
#include <vector>

#include "collide/result.h"
#include "support/accuracy_cases.h"

namespace collide::testing {

// tol = 64 eps S for the case.
double AccuracyTolerance(const AccuracyCase& c);

// The worst error of a set of cases, as a multiple of tol.
struct AccuracyWorst {
  double distance = 0, witness = 0, consistency = 0, normal = 0;
  int hit_errors = 0;
  void Print(const char* what) const;
};

// The violations of the contract by r, the answer at `level` to case c whose
// exact signed distance is `exact`; updates w.
std::vector<std::string> ContractViolations(const AccuracyCase& c, QueryLevel level, const PairResult& r,
                                            double exact, double tol, AccuracyWorst& w);

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_ACCURACY_CONTRACT_H_
