// Test helpers on shapes: translating and scaling any shape, and a
// brute-force membership test. Hull results own their vertex storage.
#ifndef COLLIDE_TESTS_SUPPORT_SHAPE_OPS_H_
#define COLLIDE_TESTS_SUPPORT_SHAPE_OPS_H_

#include <deque>
#include <vector>

#include "collide/shapes.h"

namespace collide::testing {

class ShapeOps {
 public:
  // `s` moved by `t`.
  Shape Translated(const Shape& s, const Vec3& t);
  // `s` scaled by `k` > 0 about the world origin.
  Shape Scaled(const Shape& s, double k);
  // A hull owning a copy of `v`.
  ConvexHull Hull(std::vector<Vec3> v);

 private:
  std::deque<std::vector<Vec3>> storage_;
};

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_SHAPE_OPS_H_
