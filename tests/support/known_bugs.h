// Kernel bugs found by the verification tests and reported to the kernels'
// owners, not yet fixed. A test that hits one of these prints it loudly
// ("KNOWN BUG <id>") and does not fail; every other failure fails. Remove an
// entry together with its fix: the regression tests named after it then
// must pass.
#ifndef COLLIDE_TESTS_SUPPORT_KNOWN_BUGS_H_
#define COLLIDE_TESTS_SUPPORT_KNOWN_BUGS_H_

#include <string_view>

namespace collide::testing {

struct KnownBug {
  std::string_view id;
  std::string_view description;
};

inline constexpr KnownBug kKnownBugs[] = {
    {"distance-common-point",
     "kDistance on overlapping shapes returns as the common point the midpoint of the kContact deepest "
     "points (DistanceFromContact in result.h), which need not lie in both shapes: the deepest point of B "
     "is on B's surface, outside A when A is a point or lies well inside B. Distance(Point{0,0,0}, "
     "Sphere{{0,0,0.5},1}) returns (0,0,-0.25) instead of (0,0,0). Round family (round_pair.h "
     "RoundDistance)."},
};

inline const KnownBug* FindKnownBug(std::string_view id) {
  for (const KnownBug& b : kKnownBugs) {
    if (b.id == id) return &b;
  }
  return nullptr;
}

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_KNOWN_BUGS_H_
