#include "query/raycast/exact_sign.h"

#include <array>
#include <cmath>

namespace collide::internal {
namespace {

// a - b == x + y exactly (Knuth's two-sum, Shewchuk's Two-Diff).
void TwoDiff(double a, double b, double& x, double& y) {
  x = a - b;
  const double bv = a - x;
  const double av = x + bv;
  y = (a - av) + (bv - b);
}

// Dekker's split of a into two 26-bit halves (Shewchuk's Split).
void Split(double a, double& hi, double& lo) {
  const double c = 134217729.0 * a;  // 2^27 + 1.
  const double big = c - a;
  hi = c - big;
  lo = a - hi;
}

// a * b == x + y exactly.
void TwoProduct(double a, double b, double& x, double& y) {
  x = a * b;
  double ahi, alo, bhi, blo;
  Split(a, ahi, alo);
  Split(b, bhi, blo);
  const double err1 = x - ahi * bhi;
  const double err2 = err1 - alo * bhi;
  const double err3 = err2 - ahi * blo;
  y = alo * blo - err3;
}

// An exact sum of doubles as a non-overlapping expansion in increasing
// magnitude (Shewchuk's Grow-Expansion with zero elimination). 512 slots hold
// the 192 terms of the largest sum formed here, with room to spare: the
// length of an expansion never exceeds the number of terms added.
class ExactSum {
 public:
  void Add(double b) {
    int out = 0;
    double q = b;
    for (int i = 0; i < n_; ++i) {
      const double sum = q + e_[i];
      const double bv = sum - q;
      const double err = (q - (sum - bv)) + (e_[i] - bv);
      q = sum;
      if (err != 0.0) e_[out++] = err;
    }
    if (q != 0.0 || out == 0) e_[out++] = q;
    n_ = out;
  }
  // a * b * c added exactly.
  void AddProduct(double a, double b, double c) {
    if (a == 0.0 || b == 0.0 || c == 0.0) return;
    double x, y, x1, y1, x2, y2;
    TwoProduct(a, b, x, y);
    TwoProduct(x, c, x1, y1);
    TwoProduct(y, c, x2, y2);
    Add(x1);
    Add(y1);
    Add(x2);
    Add(y2);
  }
  int Sign() const { return n_ == 0 ? 0 : (e_[n_ - 1] > 0.0) - (e_[n_ - 1] < 0.0); }
  // The sum rounded to the nearest double (ties to even), as the last step
  // of Python's math.fsum: from the largest component down, the running sum
  // is exact until an addition rounds (error lo != 0); the components left
  // are then below lo's lowest bit, so they change the rounding only of a
  // tie (lo exactly half an ulp), towards their sign. The two-sum without a
  // branch (Fast-Two-Sum) holds since the exact running sum, a non-zero
  // multiple of its last component's lowest bit, outweighs the next one.
  double Value() const {
    if (n_ == 0) return 0.0;
    int i = n_ - 1;
    double hi = e_[i], lo = 0.0;
    while (i > 0) {
      const double x = hi, y = e_[--i];
      hi = x + y;
      lo = y - (hi - x);
      if (lo != 0.0) break;
    }
    if (i > 0 && lo != 0.0 && (lo < 0.0) == (e_[i - 1] < 0.0)) {
      const double y = 2.0 * lo, x = hi + y;
      if (x - hi == y) hi = x;
    }
    return hi;
  }

 private:
  std::array<double, 512> e_;
  int n_ = 0;
};

// A vector difference held exactly as hi + lo per component.
struct SplitVec {
  Vec3 part[2];
};
SplitVec Difference(const Vec3& a, const Vec3& b) {
  SplitVec s;
  for (int i = 0; i < 3; ++i) TwoDiff(a[i], b[i], s.part[0][i], s.part[1][i]);
  return s;
}

// det[p1 - p0, q1 - q0, r1 - r0] as an exact sum. det is multilinear: the
// sum over the hi/lo parts of each argument of the six signed products of
// the Leibniz formula.
ExactSum Triple(const Vec3& p1, const Vec3& p0, const Vec3& q1, const Vec3& q0, const Vec3& r1,
                const Vec3& r0) {
  const SplitVec p = Difference(p1, p0), q = Difference(q1, q0), r = Difference(r1, r0);
  ExactSum sum;
  for (const Vec3& a : p.part) {
    for (const Vec3& b : q.part) {
      for (const Vec3& c : r.part) {
        sum.AddProduct(a.x, b.y, c.z);
        sum.AddProduct(a.y, b.z, c.x);
        sum.AddProduct(a.z, b.x, c.y);
        sum.AddProduct(-a.x, b.z, c.y);
        sum.AddProduct(-a.y, b.x, c.z);
        sum.AddProduct(-a.z, b.y, c.x);
      }
    }
  }
  return sum;
}

}  // namespace

int ExactTripleSign(const Vec3& p1, const Vec3& p0, const Vec3& q1, const Vec3& q0, const Vec3& r1,
                    const Vec3& r0) {
  return Triple(p1, p0, q1, q0, r1, r0).Sign();
}

double ExactTriple(const Vec3& p1, const Vec3& p0, const Vec3& q1, const Vec3& q0, const Vec3& r1,
                   const Vec3& r0) {
  return Triple(p1, p0, q1, q0, r1, r0).Value();
}

bool ExactlyCollinear(const Vec3& a, const Vec3& b, const Vec3& c) {
  // Filter: a component of the double cross product beyond its rounding
  // bound (differences and products within 3 eps, the difference within 1:
  // below 8 eps of the sum of the products' magnitudes) is certainly
  // non-zero.
  const Vec3 du = b - a, dv = c - a;
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    const double p = du[j] * dv[k], q = du[k] * dv[j];
    if (std::fabs(p - q) > 8 * 0x1p-53 * (std::fabs(p) + std::fabs(q))) return false;
  }
  const SplitVec u = Difference(b, a), v = Difference(c, a);
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    // cross_i = u_j v_k - u_k v_j.
    ExactSum sum;
    for (const Vec3& s : u.part) {
      for (const Vec3& t : v.part) {
        sum.AddProduct(s[j], t[k], 1.0);
        sum.AddProduct(-s[k], t[j], 1.0);
      }
    }
    if (sum.Sign() != 0) return false;
  }
  return true;
}

}  // namespace collide::internal
