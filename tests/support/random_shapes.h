// Seeded random shapes for property and differential tests and benchmarks.
#ifndef COLLIDE_TESTS_SUPPORT_RANDOM_SHAPES_H_
#define COLLIDE_TESTS_SUPPORT_RANDOM_SHAPES_H_

#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "collide/result.h"
#include "collide/shapes.h"

namespace collide::testing {

// Families of random pairs; each stresses a different part of a kernel.
enum class PairSet {
  kGeneric,     // random shapes, B placed near A: about half overlap.
  kTouching,    // B touches A at exactly one point (up to rounding): distance ~0.
  kParallel,    // shapes aligned to one frame, placed along a frame axis:
                // parallel faces, edges and axes (face-face contact, ties).
  kDegenerate,  // zero radii, zero extents, coincident and collinear vertices.
  kHuge,        // generic at sizes and positions ~1e6.
  kTiny,        // generic at sizes and positions ~1e-6.
};
inline constexpr PairSet kAllPairSets[] = {PairSet::kGeneric,    PairSet::kTouching, PairSet::kParallel,
                                           PairSet::kDegenerate, PairSet::kHuge,     PairSet::kTiny};
std::string_view PairSetName(PairSet set);
// How many pairs of a set a test draws.
struct PairSetSize {
  PairSet set;
  int count;
};
// The length scale of a set's shapes (1, 1e6 or 1e-6): tolerances are
// relative to it.
double PairSetScale(PairSet set);

// Makes shapes of every kind with positions in [-extent, extent]^3 and sizes
// in [0.1, 1] * size, from a fixed seed (std::mt19937_64 and hand-written
// distributions, so sequences are identical on every platform). Owns the
// vertex storage of the hulls it makes.
class ShapeFactory {
 public:
  explicit ShapeFactory(std::uint64_t seed, double extent = 2.0, double size = 1.0)
      : rng_(seed), extent_(extent), size_(size) {}

  Shape Make(ShapeKind kind);
  Vec3 Position();    // uniform in the cube.
  Vec3 UnitVector();  // uniform on the sphere.
  Quat Rotation();    // uniform unit quaternion.
  double Size();      // uniform in [0.1, 1] * size.
  double Uniform(double lo, double hi);
  Ray MakeRay();  // origin in the cube, random direction, infinite.

  // A shape aligned to the rotation `frame`: segment and capsule axes along
  // a frame axis, boxes with the frame's axes, triangles in a frame plane,
  // hulls that are frame-aligned boxes or prisms, halfspace normals along a
  // frame axis.
  Shape MakeParallel(ShapeKind kind, const Mat3& frame);
  // A degenerate shape of the kind: zero radius or length, zero extents,
  // coincident or (nearly) collinear vertices, 1- and 2-vertex, flat and
  // duplicated-vertex hulls. Point and halfspace are as Make.
  Shape MakeDegenerate(ShapeKind kind);

  // A pair (A, B) of the set: A and B of the set's flavour, B then
  // translated along a direction n (random, or a frame axis for kParallel)
  // to a signed gap in about [-0.6, 0.25] * size, or to touch A exactly
  // (kTouching: B's support point towards -n moved onto A's support point
  // towards n). Pairs without a solid or whose dimensions add up to less
  // than 4 (point-point, triangle-triangle, point-sphere, ...) touch in 40%
  // of the pairs of every set, so that their rare or measure-zero hits are
  // exercised.
  std::pair<Shape, Shape> MakePair(ShapeKind a, ShapeKind b, PairSet set);

  // s translated by v.
  Shape Translated(const Shape& s, const Vec3& v);
  // s under x -> r * x + t (r a rotation; for an Aabb r must be a signed
  // axis permutation so that the image is an Aabb).
  Shape Moved(const Shape& s, const Mat3& r, const Vec3& t);
  // A uniformly random proper signed permutation matrix (24 rotations).
  Mat3 SignedPermutation();

 private:
  std::vector<Vec3>& NewHull() { return hulls_.emplace_back(); }

  std::mt19937_64 rng_;
  double extent_;
  double size_;
  std::deque<std::vector<Vec3>> hulls_;
};

// Full-precision text of a shape, for failure messages and for turning a
// failing case into a regression test.
std::string Describe(const Shape& s);
std::string Describe(const Vec3& v);
std::string Describe(const PairResult& r);
std::string Describe(const RayHit& h);
std::string Describe(const Ray& r);
std::string DescribeNumber(double d);  // %.17g

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_RANDOM_SHAPES_H_
