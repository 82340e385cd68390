// Small double-precision vector, quaternion and rotation types used by every
// shape and query. Header-only so kernels inline all of it.
#ifndef COLLIDE_MATH_H_
#define COLLIDE_MATH_H_

#include <cmath>
#include <limits>

namespace collide {

inline constexpr double kInfinity = std::numeric_limits<double>::infinity();

struct Vec3 {
  double x = 0.0;
  double y = 0.0;
  double z = 0.0;

  constexpr double operator[](int i) const { return i == 0 ? x : (i == 1 ? y : z); }
  constexpr double& operator[](int i) { return i == 0 ? x : (i == 1 ? y : z); }
  friend constexpr bool operator==(const Vec3&, const Vec3&) = default;
};

constexpr Vec3 operator+(const Vec3& a, const Vec3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
constexpr Vec3 operator-(const Vec3& a, const Vec3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
constexpr Vec3 operator-(const Vec3& a) { return {-a.x, -a.y, -a.z}; }
constexpr Vec3 operator*(const Vec3& a, double s) { return {a.x * s, a.y * s, a.z * s}; }
constexpr Vec3 operator*(double s, const Vec3& a) { return {a.x * s, a.y * s, a.z * s}; }
constexpr Vec3 operator/(const Vec3& a, double s) { return {a.x / s, a.y / s, a.z / s}; }
constexpr Vec3& operator+=(Vec3& a, const Vec3& b) { return a = a + b; }
constexpr Vec3& operator-=(Vec3& a, const Vec3& b) { return a = a - b; }
constexpr Vec3& operator*=(Vec3& a, double s) { return a = a * s; }

constexpr double Dot(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
constexpr Vec3 Cross(const Vec3& a, const Vec3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
constexpr double LengthSquared(const Vec3& a) { return Dot(a, a); }
inline double Length(const Vec3& a) { return std::sqrt(Dot(a, a)); }
constexpr Vec3 Min(const Vec3& a, const Vec3& b) {
  return {a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y, a.z < b.z ? a.z : b.z};
}
constexpr Vec3 Max(const Vec3& a, const Vec3& b) {
  return {a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y, a.z > b.z ? a.z : b.z};
}
inline Vec3 Abs(const Vec3& a) { return {std::fabs(a.x), std::fabs(a.y), std::fabs(a.z)}; }
inline bool IsFinite(const Vec3& a) { return std::isfinite(a.x) && std::isfinite(a.y) && std::isfinite(a.z); }

// Returns a / |a|, or `fallback` when a is zero or not finite, so callers
// never divide by zero. Dividing by the largest component first keeps the
// result unit to rounding at any scale: |a|^2 of a tiny vector (components
// below ~1e-154) underflows to a subnormal or zero, and of a huge one
// overflows, so a / sqrt(|a|^2) would not be unit. The largest component is
// taken with comparisons rather than std::fmax, which GCC compiles to a libm
// call (fmax's NaN rule, irrelevant for the finite vectors passed here).
inline Vec3 NormalizedOr(const Vec3& a, const Vec3& fallback) {
  const double ax = std::fabs(a.x), ay = std::fabs(a.y), az = std::fabs(a.z);
  const double ayz = ay > az ? ay : az;
  const double m = ax > ayz ? ax : ayz;
  if (!(m > 0.0) || !std::isfinite(m)) return fallback;
  const Vec3 u = a / m;
  return u / Length(u);
}

// |v| and v / |v| for a non-zero v, given v2 = |v|^2. When v2 is a normal
// double (1.5e-154 <= |v| < 1.3e154), one square root and one reciprocal:
// v * (1 / |v|) is unit to 1.5 ulp, and one division is a third of the cost
// of three on the critical path. When v2 is subnormal it has lost digits and
// sqrt(v2) is inexact, and when it overflowed to infinity v / sqrt(v2) would
// be zero: the direction then comes from largest-component scaling and the
// length along it.
struct LengthAndUnit {
  double length;
  Vec3 unit;
};
inline LengthAndUnit LengthAndUnitOf(const Vec3& v, double v2) {
  if (v2 >= std::numeric_limits<double>::min() && v2 <= std::numeric_limits<double>::max()) {
    const double d = std::sqrt(v2);
    return {d, v * (1.0 / d)};
  }
  const Vec3 u = NormalizedOr(v, v);
  return {Dot(v, u), u};
}
// v / |v| from v2 = |v|^2 (division: the rounding some kernels' results
// are pinned to), scaling first where v2 has lost digits (subnormal, e.g. a
// segment ~1e-160 long) or overflowed.
inline Vec3 UnitOf(const Vec3& v, double v2) {
  return v2 >= std::numeric_limits<double>::min() && v2 <= std::numeric_limits<double>::max()
             ? v / std::sqrt(v2)
             : NormalizedOr(v, v);
}

// Some unit vector perpendicular to the unit vector n (Hughes-Moeller 1999:
// zero the smallest component, swap the other two, negate one).
inline Vec3 AnyPerpendicular(const Vec3& n) {
  const Vec3 a = Abs(n);
  Vec3 p = (a.x <= a.y && a.x <= a.z) ? Vec3{0.0, -n.z, n.y}
           : (a.y <= a.z)             ? Vec3{-n.z, 0.0, n.x}
                                      : Vec3{-n.y, n.x, 0.0};
  return p / Length(p);
}

// Rotation quaternion, w + xi + yj + zk. Shapes require unit norm.
struct Quat {
  double w = 1.0;
  double x = 0.0;
  double y = 0.0;
  double z = 0.0;
  friend constexpr bool operator==(const Quat&, const Quat&) = default;
};

inline double Norm(const Quat& q) { return std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z); }

// 3x3 matrix stored as columns. For a rotation, column i is the image of the
// i-th world axis, i.e. a box's i-th local axis expressed in world space.
struct Mat3 {
  Vec3 col[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  friend constexpr bool operator==(const Mat3&, const Mat3&) = default;
};

// R * v (local -> world for a rotation).
constexpr Vec3 operator*(const Mat3& m, const Vec3& v) {
  return m.col[0] * v.x + m.col[1] * v.y + m.col[2] * v.z;
}
// R^T * v (world -> local for a rotation).
constexpr Vec3 TransposeMul(const Mat3& m, const Vec3& v) {
  return {Dot(m.col[0], v), Dot(m.col[1], v), Dot(m.col[2], v)};
}
// R^T * B, the rotation of B expressed in R's frame.
constexpr Mat3 TransposeMul(const Mat3& r, const Mat3& b) {
  return {{TransposeMul(r, b.col[0]), TransposeMul(r, b.col[1]), TransposeMul(r, b.col[2])}};
}
constexpr Mat3 operator*(const Mat3& a, const Mat3& b) {
  return {{a * b.col[0], a * b.col[1], a * b.col[2]}};
}

// Rotation matrix of q / |q| (the standard unit-quaternion formula, e.g.
// Shoemake 1985), written with s = 2 / |q|^2 in place of 2 so that q need not
// be normalized first: one division instead of a square root and four
// divisions, which would be the latency chain of decoding an OBB. The result is
// the rotation of q / |q| to a few ulp, so a quaternion that passed the
// validity tolerance gives an exact rotation. Outside [1e-150, 1e150], where
// |q|^2 would lose precision (subnormal squares) or overflow, q is first
// divided by its largest |component| (|q|^2 then in [1, 4]); a zero or
// non-finite q gives the identity.
inline Mat3 RotationFromQuat(const Quat& q_in) {
  Quat q = q_in;
  double n2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
  if (!(n2 >= 1e-150 && n2 <= 1e150)) {
    const double m =
        std::fmax(std::fmax(std::fabs(q.w), std::fabs(q.x)), std::fmax(std::fabs(q.y), std::fabs(q.z)));
    q = m > 0.0 && std::isfinite(m) ? Quat{q_in.w / m, q_in.x / m, q_in.y / m, q_in.z / m} : Quat{};
    n2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
  }
  const double s = 2.0 / n2;
  const double xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
  const double xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
  const double wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
  return {{{1 - s * (yy + zz), s * (xy + wz), s * (xz - wy)},
           {s * (xy - wz), 1 - s * (xx + zz), s * (yz + wx)},
           {s * (xz + wy), s * (yz - wx), 1 - s * (xx + yy)}}};
}

// Unit quaternion of a rotation matrix (Shepperd's method, branch on the
// largest diagonal term for accuracy).
inline Quat QuatFromRotation(const Mat3& m) {
  const double m00 = m.col[0].x, m11 = m.col[1].y, m22 = m.col[2].z;
  const double trace = m00 + m11 + m22;
  Quat q;
  if (trace > 0) {
    const double s = 2.0 * std::sqrt(1.0 + trace);
    q = {0.25 * s, (m.col[1].z - m.col[2].y) / s, (m.col[2].x - m.col[0].z) / s,
         (m.col[0].y - m.col[1].x) / s};
  } else if (m00 > m11 && m00 > m22) {
    const double s = 2.0 * std::sqrt(1.0 + m00 - m11 - m22);
    q = {(m.col[1].z - m.col[2].y) / s, 0.25 * s, (m.col[1].x + m.col[0].y) / s,
         (m.col[2].x + m.col[0].z) / s};
  } else if (m11 > m22) {
    const double s = 2.0 * std::sqrt(1.0 + m11 - m00 - m22);
    q = {(m.col[2].x - m.col[0].z) / s, (m.col[1].x + m.col[0].y) / s, 0.25 * s,
         (m.col[2].y + m.col[1].z) / s};
  } else {
    const double s = 2.0 * std::sqrt(1.0 + m22 - m00 - m11);
    q = {(m.col[0].y - m.col[1].x) / s, (m.col[2].x + m.col[0].z) / s, (m.col[2].y + m.col[1].z) / s,
         0.25 * s};
  }
  return q;
}

}  // namespace collide

#endif  // COLLIDE_MATH_H_
