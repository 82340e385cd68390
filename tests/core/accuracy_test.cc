// The accuracy contract (issue 14, docs/queries.md, "Accuracy contract", stated with its
// tolerance tol = 64 eps S in support/accuracy_contract.h) on the hard
// configurations of tests/support/accuracy_cases.h, every level, against
// the binary128 reference (support/exact_reference.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>
#include <variant>
#include <vector>

#include "collide/query.h"
#include "support/accuracy_cases.h"
#include "support/accuracy_contract.h"
#include "support/case_count.h"
#include "support/exact_reference.h"

namespace collide::testing {
namespace {

// Runs CaseCount(2000) cases of a class through every level.
void CheckClass(AccuracyClass cls, ShapeKind box_kind, bool swapped, uint64_t seed, const char* name) {
  const std::vector<AccuracyCase> cases = MakeAccuracyCases(cls, box_kind, swapped, CaseCount(2000), seed);
  AccuracyWorst w;
  int violating = 0;
  std::string first;
  for (size_t k = 0; k < cases.size(); ++k) {
    const AccuracyCase& c = cases[k];
    const double exact = ExactSignedDistance(c.a, c.b);
    const double tol = AccuracyTolerance(c);
    bool any = false;
    for (QueryLevel level : {QueryLevel::kIntersect, QueryLevel::kDistance, QueryLevel::kContact}) {
      for (const std::string& b : ContractViolations(c, level, Query(level, c.a, c.b), exact, tol, w)) {
        any = true;
        if (first.size() < 2000)
          first += "  " + std::string(name) + " #" + std::to_string(k) + " " + b + "\n";
      }
    }
    violating += any;
  }
  w.Print(name);
  if (violating == 0) return;
  ADD_FAILURE() << name << ": " << violating << " of " << cases.size() << " cases break the contract:\n"
                << first;
}

// Regressions: cases of the generators that were wrong before the fixes
// (issue 14), with their binary128 answers as computed by the reference at
// the time, checked through the contract at every level.
void ExpectContract(const Shape& a, const Shape& b, double exact_then, const char* name) {
  const AccuracyCase c{a, b};
  const double exact = ExactSignedDistance(a, b);
  EXPECT_EQ(exact, exact_then) << name << ": the reference moved";
  AccuracyWorst w;
  for (QueryLevel level : {QueryLevel::kIntersect, QueryLevel::kDistance, QueryLevel::kContact}) {
    for (const Shape* first : {&a, &b}) {
      const AccuracyCase o = first == &a ? c : AccuracyCase{b, a};
      for (const std::string& bad :
           ContractViolations(o, level, Query(level, o.a, o.b), exact, AccuracyTolerance(o), w))
        ADD_FAILURE() << name << (first == &a ? "" : " (swapped)") << ": " << bad;
    }
  }
}

TEST(AccuracyRegressionTest, BoxesApartByNanometresAlongNearlyParallelEdgesAreApart) {
  // Was: hit, distance 0 (the edge axis's slack swallowed the gap).
  ExpectContract(Aabb{{-0.062864904659838405, -0.2998350888945463, 0.73563389059829221},
                      {1.5271684941416077, 0.23683025478734004, 1.1407069462919901}},
                 Obb{{2.5416885154062863, 0.30611319408400922, 0.91943894616138466},
                     {{{6.5858424177869691e-07, -3.8104198310789935e-06, 0.99999999999252354},
                       {-0.89113827175694449, 0.45373183776839293, 2.3157984156669408e-06},
                       {-0.4537318377738247, -0.89113827175180715, -3.0967903045885711e-06}}},
                     {0.2336642291925628, 0.87264173811444334, 0.52206070880850519}},
                 6.1510754026972788e-09, "aabb-obb 6.2e-9 apart");
  ExpectContract(Aabb{{-1.7132255185261587, -1.0000766596799744, 0.05631270810150002},
                      {-0.49661676517076159, 0.60608952022337026, 1.8408309411568402}},
                 Obb{{0.10311676279582055, -0.24233420318798427, -0.69617470593545594},
                     {{{-1.3900299330064928e-05, 0.99999999929916961, -3.4762659685437377e-05},
                       {-0.99991152171384068, -1.4361489333885845e-05, -0.0133022004818431},
                       {-0.013302200971764065, 3.4574679376439916e-05, 0.99991152121270133}}},
                     {0.2027230457401196, 0.58967071959653139, 0.7603986087901593}},
                 6.7978488094557759e-09, "aabb-obb 6.8e-9 apart");
}

TEST(AccuracyRegressionTest, SphereCenterNearATriangleIsNotSnappedOntoIt) {
  // Was: depth = radius exactly (the center within GJK's touch tolerance).
  ExpectContract(Sphere{{2.0694752180858296, 0.22041579837281516, -0.92482309772780469}, 0.70430251411200717},
                 Triangle{{1.8089497636613259, 0.48234392370790302, -1.315146541253541},
                          {2.3801274920227335, -0.091909029629595906, -0.45939884361794769},
                          {2.3055602060797398, -0.016916828338857687, -0.57118137967032612}},
                 -0.70430251411199751, "center 1e-13 off the triangle");
}

TEST(AccuracyRegressionTest, SphereAtASliversVertexGetsTheSliversDistance) {
  // Was: distance off by 3e-12 (the sliver's double plane normal).
  ExpectContract(
      Sphere{{0.81882506576936254, 0.10327941982493721, -0.46391464616810557}, 5.5334261972974406e-12},
      Triangle{{1.2797454617140729, -1.0905987483475341, -0.73522611815894945},
               {0.81882506575306124, 0.10327941984254485, -0.4639146461653183},
               {0.75438351129322512, 0.27020423822321382, -0.42598219985998309}},
      -1.0603708057580717e-13, "sliver");
}

TEST(AccuracyRegressionTest, TriangleNearlyParallelToABoxFaceGetsItsDistance) {
  // Was (GJK/EPA): distance 1.36e-8 for 1.12e-8, and 3.12e-9 for 2.40e-9.
  ExpectContract(Aabb{{-0.56545453208110774, -1.6750252112954516, -1.120942062390621},
                      {0.78920063611441083, -0.29475430715343798, 0.17816807988044403}},
                 Triangle{{-0.56545455340166439, -1.3427138053555687, 1.0004091516338454},
                          {-0.56545454330798839, -0.41177627383520848, -0.8083141295538645},
                          {-0.5654545511994673, 0.24160729371128908, 1.5780166687043149}},
                 1.1226880647363657e-08, "aabb-triangle 1.1e-8 apart");
  ExpectContract(Obb{{1.7016141338743642, -1.3866476372686249, 0.1798376354574418},
                     {{{0.96319438518819922, 0.21976661208417669, 0.15478763695776862},
                       {0.24794956861158707, -0.94876850748435793, -0.19585538193072757},
                       {0.10381516154808436, 0.22702633199465275, -0.96833953591382338}}},
                     {0.58027799560490001, 0.20648410561375652, 0.28385257797020308}},
                 Triangle{{1.9807356612761975, -0.46351758312813218, 0.88116331080821975},
                          {2.5269499428167745, -2.5755803773587091, 0.48093986914412612},
                          {2.2092760910740927, -0.7891767013020522, -0.078602326866912778}},
                 2.3998288763139061e-09, "obb-triangle 2.4e-9 apart");
}

TEST(AccuracyRegressionTest, TriangleSlightlyIntoABoxFaceIsAHit) {
  // Was (GJK/EPA): a miss, contact distance +5.4e-10 and +3.6e-9.
  ExpectContract(Aabb{{-0.26631284885089102, -1.4528405211978206, 0.089702423808939002},
                      {1.6560994333211454, -0.69989376532154368, 1.0863841309899955}},
                 Triangle{{0.82753971772414769, -0.73656986474242614, 0.089702423900050024},
                          {1.956429221042844, -1.3989563268702172, 0.089702422648692492},
                          {1.5862889322865033, 0.15898148568244241, 0.089702423071594817}},
                 -9.1111021505163592e-11, "aabb-triangle 9.1e-11 deep");
  ExpectContract(Obb{{0.54355631691041184, 0.021939941949082886, -1.6960751029137524},
                     {{{-0.70580076694260518, 0.67251479418113314, 0.22264125626383549},
                       {-0.29067966844351789, -0.5615409029901266, 0.77471100716499441},
                       {0.64602678561867488, 0.48207433646331116, 0.59182237739600652}}},
                     {0.4205537641609392, 0.78211321874741846, 0.61959545474614552}},
                 Triangle{{0.49439877510693964, -0.40530323267734458, -3.0337569392892068},
                          {1.4803830835252252, -0.71622124603310977, -2.8891708862277987},
                          {0.57612706798987934, 0.5916846269577708, -2.280435740642504}},
                 -5.2665949789119657e-10, "obb-triangle 5.3e-10 deep");
}

TEST(AccuracyTest, BoxBoxNearlyParallelEdges) {
  CheckClass(AccuracyClass::kBoxBoxParallelEdges, ShapeKind::kObb, false, 101, "obb-obb parallel edges");
  CheckClass(AccuracyClass::kBoxBoxParallelEdges, ShapeKind::kAabb, false, 102, "aabb-obb parallel edges");
  CheckClass(AccuracyClass::kBoxBoxParallelEdges, ShapeKind::kAabb, true, 103, "obb-aabb parallel edges");
}

TEST(AccuracyTest, TriangleBoxNearlyParallelFace) {
  CheckClass(AccuracyClass::kTriangleBoxParallelFace, ShapeKind::kAabb, false, 201,
             "aabb-triangle parallel face");
  CheckClass(AccuracyClass::kTriangleBoxParallelFace, ShapeKind::kAabb, true, 202,
             "triangle-aabb parallel face");
  CheckClass(AccuracyClass::kTriangleBoxParallelFace, ShapeKind::kObb, false, 203,
             "obb-triangle parallel face");
  CheckClass(AccuracyClass::kTriangleBoxParallelFace, ShapeKind::kObb, true, 204,
             "triangle-obb parallel face");
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
