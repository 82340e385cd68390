// Validity predicates for shapes and rays. The server calls them once at its
// boundary and rejects bad input there; kernels assume valid input (and
// assert it in debug builds).
//
// Valid means: every number finite, and 0 or of magnitude in [kMinMagnitude,
// kMaxMagnitude]; radius >= 0; min <= max; half extents
// >= 0; rotation orthonormal with determinant +1 within kRotationTolerance;
// halfspace normal unit within kUnitTolerance; ray direction non-zero, ray
// max_distance >= 0 (+infinity allowed); hull vertex count in
// [1, kMaxHullVertices]. Degenerate but finite shapes (zero radius, zero
// extent, coincident vertices) are valid and get defined answers.
#ifndef COLLIDE_VALIDATE_H_
#define COLLIDE_VALIDATE_H_

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "collide/math.h"
#include "collide/shapes.h"

namespace collide {

// |norm(q) - 1| allowed for a rotation quaternion, and |1 - |n|| for a unit
// normal. 1e-6 accepts a float32-normalized quaternion (error ~1e-7).
inline constexpr double kUnitTolerance = 1e-6;
// Largest magnitude of any coordinate, radius or extent: 1e12 keeps every
// product of two values far from overflow (1e24 << 1.8e308) while covering
// any world size in practice (1e12 m is 7 AU).
inline constexpr double kMaxMagnitude = 1e12;
// Smallest non-zero magnitude of any number: 1e-50 keeps squares and cubes
// of differences (>= ulp(1e-50) ~ 1e-66) far from underflow, which would
// otherwise make lengths and normals inexact. The service reads anything
// smaller as 0 (FlushTiny), a change far below any meaningful precision.
inline constexpr double kMinMagnitude = 1e-50;
// Largest |R^T R - I| entry allowed for an Obb rotation matrix.
inline constexpr double kRotationTolerance = 1e-6;
// Most vertices a convex hull may have: bounds the support-function cost.
inline constexpr int kMaxHullVertices = 1024;

// One problem with one field. `field` is the field's path relative to the
// shape, using the proto's field names: "radius", "half_extents.y",
// "vertices[4].x", "rotation" ...
struct Violation {
  std::string field;
  std::string description;
  friend bool operator==(const Violation&, const Violation&) = default;
};

// Each Validate appends one Violation per bad field to `out` and returns true
// when it appended none.
bool Validate(const Point& s, std::vector<Violation>& out);
bool Validate(const Segment& s, std::vector<Violation>& out);
bool Validate(const Sphere& s, std::vector<Violation>& out);
bool Validate(const Capsule& s, std::vector<Violation>& out);
bool Validate(const Aabb& s, std::vector<Violation>& out);
bool Validate(const Obb& s, std::vector<Violation>& out);
bool Validate(const Triangle& s, std::vector<Violation>& out);
bool Validate(const ConvexHull& s, std::vector<Violation>& out);
bool Validate(const Halfspace& s, std::vector<Violation>& out);
bool Validate(const Shape& s, std::vector<Violation>& out);
bool Validate(const Ray& s, std::vector<Violation>& out);
bool Validate(const Line& s, std::vector<Violation>& out);

// A rotation given as a quaternion (the wire form of an Obb's rotation):
// finite and |norm - 1| <= kUnitTolerance. `field` names it in violations.
bool ValidateRotation(const Quat& q, std::string_view field, std::vector<Violation>& out);

// The rule for every number of a shape or ray: finite, and 0 or of magnitude
// in [kMinMagnitude, kMaxMagnitude]. Decoders may test it to accept valid
// input on a branch-only path and call Validate only to report a violation.
inline bool IsValidNumber(double v) {
  const double m = std::fabs(v);  // NaN fails both comparisons.
  return m <= kMaxMagnitude && (m >= kMinMagnitude || v == 0.0);
}
inline bool IsValidNumber(const Vec3& v) {
  return IsValidNumber(v.x) && IsValidNumber(v.y) && IsValidNumber(v.z);
}

// v, or 0 when |v| < kMinMagnitude (subnormals and other dust).
inline double FlushTiny(double v) { return std::fabs(v) < kMinMagnitude ? 0.0 : v; }
inline Vec3 FlushTiny(const Vec3& v) { return {FlushTiny(v.x), FlushTiny(v.y), FlushTiny(v.z)}; }

// Convenience: true when Validate finds nothing.
template <typename T>
bool IsValid(const T& s) {
  std::vector<Violation> ignored;
  return Validate(s, ignored);
}

}  // namespace collide

#endif  // COLLIDE_VALIDATE_H_
