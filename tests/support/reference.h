// Independent reference geometry for the verification tests: support
// functions, point-to-shape signed surface distances and a brute-force signed
// distance between two convex shapes. Written without the core kernels (and
// with different algorithms from them) so that a test comparing the two can
// catch a kernel bug: simple, slow and obviously right beats fast here.
#ifndef COLLIDE_TESTS_SUPPORT_REFERENCE_H_
#define COLLIDE_TESTS_SUPPORT_REFERENCE_H_

#include <vector>

#include "collide/math.h"
#include "collide/shapes.h"

namespace collide::testing {

// h_S(d) = max over x in S of dot(d, x). For a halfspace it is +infinity
// unless d is a non-negative multiple of the outward normal (within 1e-12 of
// the direction); the pair references below treat halfspaces in closed form.
double SupportValue(const Shape& s, const Vec3& d);

// A point x of S with dot(d, x) == SupportValue(s, d) (any one when there
// are ties). Not defined for a halfspace.
Vec3 SupportPoint(const Shape& s, const Vec3& d);

// Distance from p to the closed segment [a, b] (a == b allowed): clamped
// projection.
double PointSegmentDistance(const Vec3& p, const Vec3& a, const Vec3& b);

// Distance from p to the solid flat triangle abc (degenerate allowed): the
// distance to its plane when the projection falls inside (barycentric
// signs), else the nearest of the three edges.
double PointTriangleDistance(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c);

// Distance between the closed segments [a0, b0] and [a1, b1] (points
// allowed): golden-section search of the distance from a0 + s (b0 - a0) to
// the second segment, which is convex in s.
double SegmentSegmentDistance(const Vec3& a0, const Vec3& b0, const Vec3& a1, const Vec3& b1);

// A shape prepared for reference queries. Convex hulls get their faces by
// brute force over vertex triples (fine for the <= ~20-vertex hulls the
// tests make: O(n^4) once per hull).
class RefShape {
 public:
  explicit RefShape(const Shape& shape);

  const Shape& shape() const { return shape_; }

  // Signed distance from p to the boundary of the shape: > 0 outside, < 0
  // strictly inside a solid with volume. Shapes without volume (point,
  // segment, triangle, zero-radius sphere/capsule, flat boxes, flat hulls)
  // return the unsigned distance to the set, so a point "on the surface" of
  // any shape gives ~0.
  double SurfaceDistance(const Vec3& p) const;

  // Distance from p to the solid shape: 0 inside or on it.
  double Distance(const Vec3& p) const;

  double Support(const Vec3& d) const { return SupportValue(shape_, d); }

  // True when the shape has a non-empty interior (a solid with volume).
  bool HasVolume() const { return has_volume_; }

  // Topological dimension of the set: 0 point, 1 segment, 2 flat, 3 solid.
  int Dimension() const { return dimension_; }

  // A length scale of the shape (its extent), for tolerances.
  double Scale() const { return scale_; }

  // Face normals and edge directions (not normalized, possibly repeated):
  // the candidate separating axes of the shape (for a hull, from its
  // brute-force faces).
  const std::vector<Vec3>& FaceNormals() const { return faces_; }
  const std::vector<Vec3>& EdgeDirections() const { return edges_; }

 private:
  struct Plane {
    Vec3 n;  // unit, outward.
    double d;
  };
  struct Tri {
    Vec3 a, b, c;
  };

  void BuildHull();

  Shape shape_;
  bool has_volume_ = false;
  int dimension_ = 0;
  double scale_ = 0.0;
  // Convex hull only: face planes (volume hulls) and the triangles covering
  // the boundary (volume hulls) or the whole flat set (flat hulls).
  std::vector<Plane> planes_;
  std::vector<Tri> tris_;
  std::vector<Vec3> faces_;
  std::vector<Vec3> edges_;
};

// gap(n) = h_A(n) + h_B(-n): B translated by t * n (t > gap) is separated
// from A by a plane normal to n, so the true signed distance is
// max over unit n of -gap(n), for any two compact convex sets.
double Gap(const RefShape& a, const RefShape& b, const Vec3& n);

struct RefSignedDistance {
  double distance = 0.0;  // signed: < 0 is minus the penetration depth.
  Vec3 normal;            // unit, from A towards B: the maximizing n.
  bool exact = false;     // exact to rounding (see below), not a search lower bound.
};

// The signed distance of A and B.
//  - With a halfspace: closed form (min of dot(m, x) over the other shape,
//    minus the offset).
//  - With a point, segment, sphere or capsule: that shape is a core (point
//    or segment) grown by a radius, so the answer is the cores' signed
//    distance minus the radii; cores apart: the distance from the core to
//    the other shape by golden-section search along the core (convex, so
//    exact to rounding); cores overlapping: the axis search below.
//  - Otherwise: max over unit n of -gap(n) by a brute-force search:
//    `samples` Fibonacci-sphere directions and the separating-axis
//    candidates (face normals of A and B, cross products of an edge of A and
//    an edge of B, in-plane normals of flat shapes), then a local pattern
//    search from the best few. For overlapping polytopes the candidates
//    contain the optimum (the separating axis theorem), so the answer is
//    exact; for separated polytopes it is a lower bound that may be off by
//    ~1e-3 relative (the objective is not smooth at the optimum): the tests
//    certify separated results with witness points instead.
// Every search result is an achieved -gap(n), a lower bound on the true
// signed distance: a kernel reporting a smaller signed distance (a deeper
// penetration) is provably wrong. Halfspace vs halfspace is not defined.
RefSignedDistance ReferenceSignedDistance(const RefShape& a, const RefShape& b, int samples = 400);

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_REFERENCE_H_
