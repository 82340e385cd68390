// Every specialized kernel (every registered (level, A, B) slot of
// internal::GlobalRegistry(), mirrored slots included) against the generic
// GJK/EPA fallback internal::QueryConvexFallback on the same 10,000 seeded
// pairs (tests/support/random_shapes.h sets): the kernels are measured
// optimizations of the fallback and must give the same answer:
//   hit equal outside the near-touching band (|distance| <= 1e-9 * scale),
//   distance equal within 1e-9 * max(scale, |distance|),
//   contact normals equal within 1e-6 where the normal is unique (apart: the
//   direction of the shortest vector between the shapes always is;
//   overlapping: in the generic sets, where ties have measure zero).
// Both answers are independently certified by invariants_test.cc; this test
// catches a kernel and the fallback agreeing with the convention but not with
// each other.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "collide/query.h"
#include "query/registry.h"
#include "support/case_count.h"
#include "support/check_failures.h"
#include "support/random_shapes.h"

namespace collide {
namespace {

using testing::CheckFailures;
using testing::Describe;
using testing::DescribeNumber;
using testing::PairSet;
using testing::ShapeFactory;

constexpr double kTol = 1e-9;
constexpr double kNormalTol = 1e-6;

// A tenth under sanitizers (support/case_count.h).
using testing::CaseCount;
constexpr testing::PairSetSize kSets[] = {
    {PairSet::kGeneric, CaseCount(4000)},  {PairSet::kTouching, CaseCount(1000)},
    {PairSet::kParallel, CaseCount(2000)}, {PairSet::kDegenerate, CaseCount(1500)},
    {PairSet::kHuge, CaseCount(750)},      {PairSet::kTiny, CaseCount(750)}};

struct Slot {
  QueryLevel level;
  ShapeKind a;
  ShapeKind b;
};

void PrintTo(const Slot& s, std::ostream* os) {
  *os << QueryLevelName(s.level) << "(" << ShapeKindName(s.a) << ", " << ShapeKindName(s.b) << ")";
}

std::vector<Slot> RegisteredSlots() {
  std::vector<Slot> out;
  const internal::Registry& r = internal::GlobalRegistry();
  for (QueryLevel level : {QueryLevel::kIntersect, QueryLevel::kDistance, QueryLevel::kContact}) {
    for (int a = 0; a < kShapeKindCount; ++a) {
      for (int b = 0; b < kShapeKindCount; ++b) {
        if (r.PairKernel(level, static_cast<ShapeKind>(a), static_cast<ShapeKind>(b)) != nullptr) {
          out.push_back({level, static_cast<ShapeKind>(a), static_cast<ShapeKind>(b)});
        }
      }
    }
  }
  return out;
}

class FallbackVsKernelsTest : public ::testing::TestWithParam<Slot> {};

TEST_P(FallbackVsKernelsTest, KernelAgreesWithFallback) {
  const Slot slot = GetParam();
  const internal::Registry& registry = internal::GlobalRegistry();
  const internal::PairFn kernel = registry.PairKernel(slot.level, slot.a, slot.b);
  ASSERT_NE(kernel, nullptr);
  // The contact kernel of the slot (or the dispatcher when there is none)
  // gives the near-touching band.
  const internal::PairFn contact_kernel = registry.PairKernel(QueryLevel::kContact, slot.a, slot.b);
  CheckFailures failures;
  int total = 0, compared_normals = 0;
  for (const testing::PairSetSize& set_size : kSets) {
    const PairSet set = set_size.set;
    ShapeFactory f(7000003ull * (static_cast<int>(slot.a) * 16 + static_cast<int>(slot.b)) +
                   static_cast<int>(set));
    const double scale = testing::PairSetScale(set);
    const double band = kTol * scale;
    for (int i = 0; i < set_size.count; ++i, ++total) {
      const auto pair = f.MakePair(slot.a, slot.b, set);  // Named: clang 14 cannot capture bindings.
      const Shape &a = pair.first, &b = pair.second;
      const PairResult k = kernel(a, b);
      const PairResult g = internal::QueryConvexFallback(slot.level, a, b);
      const PairResult c = contact_kernel ? contact_kernel(a, b) : Query(QueryLevel::kContact, a, b);
      auto fail = [&](const std::string& check) {
        failures.Add(check, std::string(testing::PairSetName(set)) + " #" + std::to_string(i) +
                                ": A = " + Describe(a) + ", B = " + Describe(b) + " -> kernel " +
                                Describe(k) + ", fallback " + Describe(g));
      };
      if (k.status != QueryStatus::kOk || g.status != QueryStatus::kOk) {
        fail("both status kOk");
        continue;
      }
      const bool near_touching = std::fabs(c.distance) <= band;
      if (!near_touching && k.hit != g.hit) fail("same hit outside the band");
      if (std::fabs(k.distance - g.distance) > kTol * std::max(scale, std::fabs(k.distance))) {
        fail("same distance within 1e-9 relative");
      }
      const bool unique =
          !k.hit || set == PairSet::kGeneric || set == PairSet::kHuge || set == PairSet::kTiny;
      if (slot.level == QueryLevel::kContact && !near_touching && unique) {
        ++compared_normals;
        if (Length(k.normal - g.normal) > kNormalTol) fail("same normal within 1e-6 where unique");
      }
    }
  }
  std::printf("%d pairs, %d normals compared\n", total, compared_normals);
  for (const std::string& check : failures.Checks()) {
    ADD_FAILURE() << "of " << total << " pairs, " << failures.Report(check);
  }
}

INSTANTIATE_TEST_SUITE_P(RegisteredKernels, FallbackVsKernelsTest, ::testing::ValuesIn(RegisteredSlots()),
                         [](const ::testing::TestParamInfo<Slot>& info) {
                           return std::string(QueryLevelName(info.param.level)) + "_" +
                                  std::string(ShapeKindName(info.param.a)) + "_" +
                                  std::string(ShapeKindName(info.param.b));
                         });

}  // namespace
}  // namespace collide
