#include "query/convex/epa.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace collide::internal {

namespace {

// A triangle of the expanding polytope, counter-clockwise seen from outside.
struct Face {
  int v[3];
  int adj[3];       // The face across edge k = (v[k], v[k + 1]).
  int adj_edge[3];  // That edge's index in the neighbour.
  Vec3 n;           // Unit outward normal (zero for a degenerate face).
  double dist;      // Plane distance from the origin (+inf when degenerate).
  bool dead = false;
};

// A unit vector perpendicular to the unit vector u, closest to +x (or to +y
// when u is within 30 degrees of the x axis).
Vec3 PreferredPerpendicular(const Vec3& u) {
  const Vec3 x = Vec3{1, 0, 0} - u * u.x;
  if (LengthSquared(x) >= 0.25) return x / Length(x);
  const Vec3 y = Vec3{0, 1, 0} - u * u.y;
  return y / Length(y);
}

class Polytope {
 public:
  Polytope(const ConvexCore& a, const ConvexCore& b) : a_(a), b_(b) {
    // Typical runs stay well under these (a box pair: ~20 vertices).
    verts_.reserve(32);
    faces_.reserve(64);
  }

  SimplexVertex Support(const Vec3& d) const {
    const Vec3 pa = a_.Support(d);
    const Vec3 pb = b_.Support(-d);
    return {pa - pb, pa, pb};
  }

  // Runs EPA from the tetrahedron `t` (which holds the origin).
  EpaResult Run(SimplexVertex t[4], double scale) {
    if (Volume(t[0].w, t[1].w, t[2].w, t[3].w) > 0) std::swap(t[1], t[2]);
    for (int i = 0; i < 4; ++i) verts_.push_back(t[i]);
    // With a negative volume these four are outward (each is an even
    // permutation of (0, 1, 2, 3) with the opposite vertex last).
    const int first[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
    for (const auto& f : first) AddFace(f[0], f[1], f[2]);
    if (!LinkNewFaces(0)) return Finish(0, QueryStatus::kNotConverged);
    const double tolerance = kEpaTolerance * scale;
    coplanar_ = 0.1 * tolerance;
    std::vector<std::pair<int, int>> horizon;
    for (;;) {
      const int best = ClosestFace();
      if (best < 0) return Finish(0, QueryStatus::kNotConverged);
      const Face& f = faces_[best];
      const SimplexVertex s = Support(f.n);
      // The face is on the boundary of A - B: nothing lies beyond its plane.
      if (Dot(s.w, f.n) - f.dist <= tolerance) return PreferredTie(best, tolerance);
      for (const SimplexVertex& v : verts_) {
        if (v.w == s.w) return PreferredTie(best, tolerance);
      }
      if (static_cast<int>(verts_.size()) >= kEpaMaxVertices ||
          static_cast<int>(faces_.size()) >= kEpaMaxFaces) {
        return Finish(best, QueryStatus::kNotConverged);
      }
      const int wi = static_cast<int>(verts_.size());
      verts_.push_back(s);
      horizon.clear();
      faces_[best].dead = true;
      const Face start = faces_[best];
      for (int e = 0; e < 3; ++e) Silhouette(start.adj[e], start.adj_edge[e], s.w, horizon);
      if (horizon.size() < 3) return Finish(best, QueryStatus::kNotConverged);
      const int first_new = static_cast<int>(faces_.size());
      for (const auto& [g, k] : horizon) {
        const int nf = AddFace(faces_[g].v[(k + 1) % 3], faces_[g].v[k], wi);
        faces_[nf].adj[0] = g;
        faces_[nf].adj_edge[0] = k;
        faces_[g].adj[k] = nf;
        faces_[g].adj_edge[k] = 0;
      }
      if (!LinkNewFaces(first_new)) return Finish(best, QueryStatus::kNotConverged);
    }
  }

 private:
  static double Volume(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
    return Dot(b - a, Cross(c - a, d - a));
  }

  int AddFace(int i0, int i1, int i2) {
    Face f;
    f.v[0] = i0, f.v[1] = i1, f.v[2] = i2;
    for (int k = 0; k < 3; ++k) f.adj[k] = -1, f.adj_edge[k] = -1;
    const Vec3& w0 = verts_[i0].w;
    const Vec3 n = Cross(verts_[i1].w - w0, verts_[i2].w - w0);
    const double len = Length(n);
    if (len > 0.0) {
      f.n = n / len;
      f.dist = Dot(f.n, w0);
    } else {
      f.n = Vec3{};
      f.dist = kInfinity;
    }
    faces_.push_back(f);
    return static_cast<int>(faces_.size()) - 1;
  }

  // Links the still unlinked edges of faces [from, end) to the face holding
  // the same edge in the opposite direction. False if one has no partner
  // (the horizon was not a simple loop, from round-off).
  bool LinkNewFaces(int from) {
    const int end = static_cast<int>(faces_.size());
    for (int i = from; i < end; ++i) {
      for (int k = 0; k < 3; ++k) {
        if (faces_[i].adj[k] >= 0) continue;
        const int p = faces_[i].v[k];
        const int q = faces_[i].v[(k + 1) % 3];
        bool found = false;
        for (int j = from; j < end && !found; ++j) {
          if (j == i) continue;
          for (int m = 0; m < 3; ++m) {
            if (faces_[j].v[m] == q && faces_[j].v[(m + 1) % 3] == p) {
              faces_[i].adj[k] = j, faces_[i].adj_edge[k] = m;
              faces_[j].adj[m] = i, faces_[j].adj_edge[m] = k;
              found = true;
              break;
            }
          }
        }
        if (!found) return false;
      }
    }
    return true;
  }

  // Depth-first walk over the faces visible from w, marking them dead and
  // collecting the horizon edges (face, edge) that bound them (van den
  // Bergen 2001; the same walk as Bullet's btGjkEpa2 "expand").
  void Silhouette(int fi, int edge, const Vec3& w, std::vector<std::pair<int, int>>& horizon) {
    Face& f = faces_[fi];
    if (f.dead) return;
    // Faces with w on their plane (to round-off) count as visible and are
    // replaced: keeping them would make a zero-area face whenever w is on the
    // line of one of their edges, common for boxes (Bullet's btGjkEpa2 does
    // the same). A degenerate face is always replaced.
    const bool degenerate = !std::isfinite(f.dist);
    if (!degenerate && !(Dot(f.n, w) - f.dist > -coplanar_)) {
      horizon.emplace_back(fi, edge);
      return;
    }
    f.dead = true;
    const int e1 = (edge + 1) % 3;
    const int e2 = (edge + 2) % 3;
    const int n1 = f.adj[e1], m1 = f.adj_edge[e1];
    const int n2 = f.adj[e2], m2 = f.adj_edge[e2];
    Silhouette(n1, m1, w, horizon);
    Silhouette(n2, m2, w, horizon);
  }

  int ClosestFace() const {
    int best = -1;
    double best_dist = kInfinity;
    for (int i = 0; i < static_cast<int>(faces_.size()); ++i) {
      if (!faces_[i].dead && faces_[i].dist < best_dist) best_dist = faces_[i].dist, best = i;
    }
    return best;
  }

  // The answer from the final face `fi`, or, when other directions give the
  // same depth (coincident boxes, a point at a box center), from the one
  // preferred by result.h's rule: +x, then +y, then +z. Tied directions are
  // the axes (probed directly: the common case) and other final faces of the
  // polytope at the same distance.
  EpaResult PreferredTie(int fi, double tolerance) const {
    const Face& f = faces_[fi];
    const double depth = f.dist;
    Vec3 best = f.n;
    int best_face = fi;
    static constexpr Vec3 kAxes[6] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, -1}, {0, -1, 0}, {-1, 0, 0}};
    for (const Vec3& u : kAxes) {
      if (Preferred(u, best) && Dot(Support(u).w, u) <= depth + tolerance) best = u, best_face = -1;
    }
    for (int i = 0; i < static_cast<int>(faces_.size()); ++i) {
      const Face& g = faces_[i];
      if (g.dead || i == fi || !(g.dist <= depth + tolerance) || !Preferred(g.n, best)) continue;
      if (Dot(Support(g.n).w, g.n) - g.dist <= tolerance) best = g.n, best_face = i;
    }
    if (best_face >= 0) return Finish(best_face, QueryStatus::kOk);
    // An axis with no face: depth * u is on the boundary of A - B, so A and
    // B moved by depth * u touch, and their common point x gives the deepest
    // points x (on A) and x - depth * u (on B).
    const GjkResult touch = GjkDistance(a_, b_.Translated(best * depth));
    const Vec3 x = (touch.point_a + touch.point_b) * 0.5;
    EpaResult r;
    r.depth = std::max(depth, 0.0);
    r.normal = best;
    r.point_a = x + best * (0.5 * (depth - r.depth));
    r.point_b = r.point_a - best * r.depth;
    return r;
  }

  // u is preferred over v as a tied normal: larger x, then y, then z.
  static bool Preferred(const Vec3& u, const Vec3& v) {
    for (int i = 0; i < 3; ++i) {
      if (u[i] > v[i] + 1e-9) return true;
      if (u[i] < v[i] - 1e-9) return false;
    }
    return false;
  }

  // Barycentric coordinates of p in face g (projected along its normal).
  void Barycentric(const Face& g, const Vec3& p, double l[3]) const {
    const Vec3& w0 = verts_[g.v[0]].w;
    const Vec3& w1 = verts_[g.v[1]].w;
    const Vec3& w2 = verts_[g.v[2]].w;
    const double area = Dot(Cross(w1 - w0, w2 - w0), g.n);
    l[0] = 1.0, l[1] = 0.0, l[2] = 0.0;
    if (area > 0.0) {
      l[0] = Dot(Cross(w1 - p, w2 - p), g.n) / area;
      l[1] = Dot(Cross(w2 - p, w0 - p), g.n) / area;
      l[2] = 1.0 - l[0] - l[1];
    }
  }

  // The answer from face `fi`: the origin's projection on its plane, in
  // barycentric coordinates of the face, gives the deepest points. A face of
  // A - B is often split into several coplanar triangles (boxes: always), and
  // the closest one by plane distance need not hold the projection; with
  // negative weights the points would leave A and B, so take the coplanar
  // triangle that holds it best.
  EpaResult Finish(int fi, QueryStatus status) const {
    const Face& f = faces_[fi];
    const Vec3 p = f.n * f.dist;
    double l[3];
    Barycentric(f, p, l);
    const Face* holder = &f;
    double worst = std::min({l[0], l[1], l[2]});
    if (worst < 0.0 && std::isfinite(f.dist)) {
      for (const Face& g : faces_) {
        if (g.dead || &g == &f || !(Dot(g.n, f.n) > 1.0 - 1e-12) ||
            !(std::fabs(g.dist - f.dist) <= coplanar_)) {
          continue;
        }
        double m[3];
        Barycentric(g, p, m);
        const double g_worst = std::min({m[0], m[1], m[2]});
        if (g_worst > worst) {
          worst = g_worst, holder = &g;
          for (int k = 0; k < 3; ++k) l[k] = m[k];
        }
      }
    }
    const SimplexVertex& s0 = verts_[holder->v[0]];
    const SimplexVertex& s1 = verts_[holder->v[1]];
    const SimplexVertex& s2 = verts_[holder->v[2]];
    const double l0 = l[0], l1 = l[1], l2 = l[2];
    const Vec3 pa = s0.a * l0 + s1.a * l1 + s2.a * l2;
    const Vec3 pb = s0.b * l0 + s1.b * l1 + s2.b * l2;
    EpaResult r;
    r.status = status;
    r.depth = std::isfinite(f.dist) ? std::max(f.dist, 0.0) : 0.0;
    r.normal = f.n;
    // Re-centre so that point_a - point_b == depth * normal exactly up to
    // rounding (the two differ from the plane projection by round-off).
    const Vec3 mid = (pa + pb) * 0.5;
    r.point_a = mid + r.normal * (0.5 * r.depth);
    r.point_b = mid - r.normal * (0.5 * r.depth);
    return r;
  }

  const ConvexCore& a_;
  const ConvexCore& b_;
  double coplanar_ = 0.0;
  std::vector<SimplexVertex> verts_;
  std::vector<Face> faces_;
};

}  // namespace

Vec3 PreferPositiveSign(const Vec3& n) {
  for (int i = 0; i < 3; ++i) {
    if (std::fabs(n[i]) > 1e-9) return n[i] > 0 ? n : -n;
  }
  return n;
}

EpaResult EpaPenetration(const ConvexCore& a, const ConvexCore& b, const GjkResult& gjk) {
  Polytope poly(a, b);
  // The size of A - B from its extreme points along the axes: the scale of
  // every tolerance below.
  static constexpr Vec3 kAxes[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  SimplexVertex axis_support[6];
  double scale = gjk.scale;
  for (int i = 0; i < 6; ++i) {
    axis_support[i] = poly.Support(kAxes[i]);
    scale = std::max(scale, Length(axis_support[i].w));
  }
  const double flat = kEpaFlatTolerance * scale;

  // Grow GJK's simplex (which holds the origin) into a tetrahedron by adding
  // the support point farthest from its affine hull; when none is farther
  // than `flat`, A - B has no volume and the cores only touch.
  SimplexVertex t[4];
  int n = gjk.simplex.size;
  for (int i = 0; i < n; ++i) t[i] = gjk.simplex.v[i];
  EpaResult degenerate;
  const Vec3 common = (gjk.point_a + gjk.point_b) * 0.5;
  degenerate.point_a = degenerate.point_b = common;
  if (n == 1) {
    int best = -1;
    double best_d = flat;
    for (int i = 0; i < 6; ++i) {
      const double d = Length(axis_support[i].w - t[0].w);
      if (d > best_d) best_d = d, best = i;
    }
    if (best < 0) {
      degenerate.normal = {1, 0, 0};
      return degenerate;
    }
    t[n++] = axis_support[best];
  }
  if (n == 2) {
    const Vec3 u = NormalizedOr(t[1].w - t[0].w, {1, 0, 0});
    const Vec3 p1 = PreferredPerpendicular(u);
    const Vec3 p2 = Cross(u, p1);
    const Vec3 dirs[4] = {p1, -p1, p2, -p2};
    SimplexVertex best_s;
    double best_d = flat;
    for (const Vec3& d : dirs) {
      const SimplexVertex s = poly.Support(d);
      const double dist = Length(Cross(s.w - t[0].w, u));
      if (dist > best_d) best_d = dist, best_s = s;
    }
    if (best_d == flat) {
      degenerate.normal = p1;
      return degenerate;
    }
    t[n++] = best_s;
  }
  if (n == 3) {
    const Vec3 nrm = PreferPositiveSign(NormalizedOr(Cross(t[1].w - t[0].w, t[2].w - t[0].w), {1, 0, 0}));
    const SimplexVertex up = poly.Support(nrm);
    const SimplexVertex down = poly.Support(-nrm);
    const double du = Dot(up.w - t[0].w, nrm);
    const double dd = -Dot(down.w - t[0].w, nrm);
    if (std::max(du, dd) <= flat) {
      degenerate.normal = nrm;
      return degenerate;
    }
    t[n++] = du >= dd ? up : down;
  }
  EpaResult r = poly.Run(t, scale);
  return r;
}

}  // namespace collide::internal
