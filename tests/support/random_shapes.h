// Seeded random shapes for property and differential tests and benchmarks.
#ifndef COLLIDE_TESTS_SUPPORT_RANDOM_SHAPES_H_
#define COLLIDE_TESTS_SUPPORT_RANDOM_SHAPES_H_

#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include "collide/shapes.h"

namespace collide::testing {

// Makes shapes of every kind with positions in [-extent, extent]^3 and sizes
// in [0.1, 1] * size, from a fixed seed (std::mt19937_64 and hand-written
// distributions, so sequences are identical on every platform). Owns the
// vertex storage of the hulls it makes.
class ShapeFactory {
 public:
  explicit ShapeFactory(std::uint64_t seed, double extent = 2.0, double size = 1.0)
      : rng_(seed), extent_(extent), size_(size) {}

  Shape Make(ShapeKind kind);
  Vec3 Position();     // uniform in the cube.
  Vec3 UnitVector();   // uniform on the sphere.
  Quat Rotation();     // uniform unit quaternion.
  double Size();       // uniform in [0.1, 1] * size.
  double Uniform(double lo, double hi);
  Ray MakeRay();       // origin in the cube, random direction, infinite.

 private:
  std::mt19937_64 rng_;
  double extent_;
  double size_;
  std::deque<std::vector<Vec3>> hulls_;
};

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_RANDOM_SHAPES_H_
