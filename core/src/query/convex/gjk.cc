#include "query/convex/gjk.h"

#include <algorithm>
#include <cmath>

namespace collide::internal {

namespace {

// Both non-zero with the same sign (Montanari et al. 2017, "compareSigns").
bool SameSign(double a, double b) { return (a > 0 && b > 0) || (a < 0 && b < 0); }

int LargestAxis(const Vec3& v) {
  const Vec3 a = Abs(v);
  return (a.x >= a.y && a.x >= a.z) ? 0 : (a.y >= a.z ? 1 : 2);
}

// A candidate answer of the sub-algorithm: the kept vertices (indices into
// the input simplex), their weights and the closest point.
struct Candidate {
  int index[4];
  double lambda[4];
  int size = 0;
  Vec3 v;
  double v2 = kInfinity;
};

Candidate Vertex(const Vec3* w, int i) {
  Candidate c;
  c.index[0] = i;
  c.lambda[0] = 1.0;
  c.size = 1;
  c.v = w[i];
  c.v2 = LengthSquared(c.v);
  return c;
}

// Segment [w[i0], w[i1]]: project the origin on the line and compare the
// signed lengths along the axis where the segment is longest (S1D).
Candidate S1D(const Vec3* w, int i0, int i1) {
  const Vec3& p = w[i0];
  const Vec3& q = w[i1];
  const Vec3 t = q - p;
  const double tt = LengthSquared(t);
  if (!(tt > 0.0)) return Vertex(w, i0);
  const Vec3 p0 = p - t * (Dot(p, t) / tt);
  const int k = LargestAxis(t);
  const double mu = p[k] - q[k];
  const double c0 = p0[k] - q[k];  // weight of p, times mu.
  const double c1 = p[k] - p0[k];  // weight of q, times mu.
  if (SameSign(mu, c0) && SameSign(mu, c1)) {
    Candidate c;
    c.index[0] = i0;
    c.index[1] = i1;
    c.lambda[0] = c0 / mu;
    c.lambda[1] = c1 / mu;
    c.size = 2;
    c.v = p * c.lambda[0] + q * c.lambda[1];
    c.v2 = LengthSquared(c.v);
    return c;
  }
  return SameSign(mu, c0) ? Vertex(w, i0) : Vertex(w, i1);
}

Candidate Better(const Candidate& a, const Candidate& b) { return b.v2 < a.v2 ? b : a; }

// Triangle: project the origin on its plane, then compare signed areas in the
// coordinate plane where the triangle's projection is largest (S2D).
Candidate S2D(const Vec3* w, int i0, int i1, int i2) {
  const Vec3& a = w[i0];
  const Vec3& b = w[i1];
  const Vec3& c = w[i2];
  const Vec3 n = Cross(b - a, c - a);
  const double nn = LengthSquared(n);
  // A collinear triangle (sin of its angle below ~1e-14) has no interior to
  // project on: its closest point is on an edge.
  if (!(nn > 1e-28 * LengthSquared(b - a) * LengthSquared(c - a))) {
    return Better(Better(S1D(w, i0, i1), S1D(w, i1, i2)), S1D(w, i0, i2));
  }
  const Vec3 p0 = n * (Dot(a, n) / nn);
  const int k = LargestAxis(n);
  const int i = (k + 1) % 3;
  const int j = (k + 2) % 3;
  // Twice the signed area of (x, y, z) projected on axes (i, j); with (i, j)
  // cyclic after k this is the k-th component of the 3-D cross product.
  const auto area = [i, j](const Vec3& x, const Vec3& y, const Vec3& z) {
    return (y[i] - x[i]) * (z[j] - x[j]) - (y[j] - x[j]) * (z[i] - x[i]);
  };
  const double mu = area(a, b, c);
  const double cof[3] = {area(p0, b, c), area(a, p0, c), area(a, b, p0)};
  if (SameSign(mu, cof[0]) && SameSign(mu, cof[1]) && SameSign(mu, cof[2])) {
    Candidate r;
    r.index[0] = i0;
    r.index[1] = i1;
    r.index[2] = i2;
    for (int m = 0; m < 3; ++m) r.lambda[m] = cof[m] / mu;
    r.size = 3;
    r.v = a * r.lambda[0] + b * r.lambda[1] + c * r.lambda[2];
    r.v2 = LengthSquared(r.v);
    return r;
  }
  // The closest point is on an edge opposite a vertex whose weight is not
  // positive.
  const int idx[3] = {i0, i1, i2};
  Candidate best;
  for (int m = 0; m < 3; ++m) {
    if (!SameSign(mu, cof[m])) best = Better(best, S1D(w, idx[(m + 1) % 3], idx[(m + 2) % 3]));
  }
  return best;
}

double Volume(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  return Dot(b - a, Cross(c - a, d - a));
}

// Tetrahedron: the origin's barycentric weights are signed volumes (S3D).
Candidate S3D(const Vec3* w) {
  const Vec3 o{};
  const double mu = Volume(w[0], w[1], w[2], w[3]);
  const double scale = Length(w[1] - w[0]) * Length(w[2] - w[0]) * Length(w[3] - w[0]);
  const double cof[4] = {Volume(o, w[1], w[2], w[3]), Volume(w[0], o, w[2], w[3]),
                         Volume(w[0], w[1], o, w[3]), Volume(w[0], w[1], w[2], o)};
  const bool flat = !(std::fabs(mu) > 1e-14 * scale);
  if (!flat && SameSign(mu, cof[0]) && SameSign(mu, cof[1]) && SameSign(mu, cof[2]) && SameSign(mu, cof[3])) {
    Candidate r;
    for (int m = 0; m < 4; ++m) r.index[m] = m, r.lambda[m] = cof[m] / mu;
    r.size = 4;
    r.v = Vec3{};
    r.v2 = 0.0;
    return r;
  }
  // Faces opposite a vertex with a non-positive weight (every face of a flat
  // tetrahedron, whose signs mean nothing).
  static constexpr int kFace[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
  Candidate best;
  for (int m = 0; m < 4; ++m) {
    if (flat || !SameSign(mu, cof[m])) best = Better(best, S2D(w, kFace[m][0], kFace[m][1], kFace[m][2]));
  }
  return best;
}

}  // namespace

Vec3 ReduceToClosest(Simplex& s) {
  Vec3 w[4];
  for (int i = 0; i < s.size; ++i) w[i] = s.v[i].w;
  Candidate c;
  switch (s.size) {
    case 1:
      c = Vertex(w, 0);
      break;
    case 2:
      c = S1D(w, 0, 1);
      break;
    case 3:
      c = S2D(w, 0, 1, 2);
      break;
    default:
      c = S3D(w);
      break;
  }
  Simplex out;
  out.size = c.size;
  for (int i = 0; i < c.size; ++i) {
    out.v[i] = s.v[c.index[i]];
    out.lambda[i] = c.lambda[i];
  }
  s = out;
  return c.v;
}

GjkResult GjkDistance(const ConvexCore& a, const ConvexCore& b, double stop_beyond) {
  GjkResult r;
  r.status = QueryStatus::kNotConverged;
  Simplex& s = r.simplex;
  {
    const Vec3 pa = a.AnyPoint();
    const Vec3 pb = b.AnyPoint();
    s.v[0] = {pa - pb, pa, pb};
    s.lambda[0] = 1.0;
    s.size = 1;
  }
  Vec3 v = s.v[0].w;
  double v2 = LengthSquared(v);
  double scale2 = v2;
  for (int iter = 0; iter < kGjkMaxIterations; ++iter) {
    if (v2 <= kGjkTouchTolerance * kGjkTouchTolerance * scale2) {
      r.overlap = true;
      r.status = QueryStatus::kOk;
      break;
    }
    const Vec3 pa = a.Support(-v);
    const Vec3 pb = b.Support(v);
    const Vec3 w = pa - pb;
    scale2 = std::max(scale2, LengthSquared(w));
    const double vw = Dot(v, w);
    // dot(v, w) / |v| is a lower bound of the distance (the plane through w
    // normal to v separates the origin from A - B). The margin, far above
    // the touch tolerance, keeps the early answer equal to the full run's on
    // touching shapes (which the full run may call touching).
    const double bound = stop_beyond + kGjkEarlyExitMargin * std::sqrt(scale2);
    if (vw > 0.0 && vw * vw > bound * bound * v2) {
      r.status = QueryStatus::kOk;
      r.distance = vw / std::sqrt(v2);
      r.point_a = r.point_b = Vec3{};
      for (int i = 0; i < s.size; ++i) {
        r.point_a += s.v[i].a * s.lambda[i];
        r.point_b += s.v[i].b * s.lambda[i];
      }
      r.scale = std::sqrt(scale2);
      return r;
    }
    // Converged: the bounds agree to the relative tolerance.
    if (v2 - vw <= kGjkRelativeTolerance * v2) {
      r.status = QueryStatus::kOk;
      break;
    }
    // A support point already in the simplex cannot improve it (the
    // polytope case converging exactly).
    bool repeated = false;
    for (int i = 0; i < s.size; ++i) repeated = repeated || s.v[i].w == w;
    if (repeated) {
      r.status = QueryStatus::kOk;
      break;
    }
    const Simplex previous = s;
    s.v[s.size++] = {w, pa, pb};
    const Vec3 next = ReduceToClosest(s);
    if (s.size == 4) {
      v = next;
      v2 = 0.0;
      r.overlap = true;
      r.status = QueryStatus::kOk;
      break;
    }
    const double next2 = LengthSquared(next);
    // |v| decreases strictly in exact arithmetic; when round-off stops it,
    // the previous simplex is the answer.
    if (!(next2 < v2)) {
      s = previous;
      r.status = QueryStatus::kOk;
      break;
    }
    v = next;
    v2 = next2;
  }
  for (int i = 0; i < s.size; ++i) {
    r.point_a += s.v[i].a * s.lambda[i];
    r.point_b += s.v[i].b * s.lambda[i];
  }
  r.scale = std::sqrt(scale2);
  if (!r.overlap && v2 <= kGjkTouchTolerance * kGjkTouchTolerance * scale2) r.overlap = true;
  r.distance = r.overlap ? 0.0 : Length(r.point_b - r.point_a);
  return r;
}

}  // namespace collide::internal
