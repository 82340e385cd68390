#include "support/reference.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <utility>
#include <variant>

namespace collide::testing {
namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
// Needed by clang 14 (Debian's, used by the sanitizer builds): it lacks
// class template argument deduction for aggregates.
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

// Extent of a set of points: the largest coordinate distance from the first.
double Spread(std::span<const Vec3> v) {
  double s = 0.0;
  for (const Vec3& p : v) s = std::max(s, Length(p - v[0]));
  return s;
}

}  // namespace

double SupportValue(const Shape& s, const Vec3& d) {
  return std::visit(
      Overloaded{
          [&](const Point& p) { return Dot(d, p.position); },
          [&](const Segment& g) { return std::max(Dot(d, g.a), Dot(d, g.b)); },
          [&](const Sphere& g) { return Dot(d, g.center) + g.radius * Length(d); },
          [&](const Capsule& g) { return std::max(Dot(d, g.a), Dot(d, g.b)) + g.radius * Length(d); },
          [&](const Aabb& g) {
            double h = 0.0;
            for (int i = 0; i < 3; ++i) h += d[i] >= 0 ? d[i] * g.max[i] : d[i] * g.min[i];
            return h;
          },
          [&](const Obb& g) {
            double h = Dot(d, g.center);
            for (int i = 0; i < 3; ++i) h += g.half_extents[i] * std::fabs(Dot(d, g.rotation.col[i]));
            return h;
          },
          [&](const Triangle& g) {
            return std::max({Dot(d, g.a), Dot(d, g.b), Dot(d, g.c)});
          },
          [&](const ConvexHull& g) {
            double h = -kInfinity;
            for (const Vec3& v : g.vertices) h = std::max(h, Dot(d, v));
            return h;
          },
          [&](const Halfspace& g) {
            const double len = Length(d);
            if (len == 0.0) return 0.0;
            const double along = Dot(d, g.normal);
            // Bounded only along the outward normal.
            if (along > 0 && Length(Cross(d, g.normal)) <= 1e-12 * len) return along * g.offset;
            return kInfinity;
          },
      },
      s);
}

Vec3 SupportPoint(const Shape& s, const Vec3& d) {
  return std::visit(Overloaded{
                        [&](const Point& p) { return p.position; },
                        [&](const Segment& g) { return Dot(d, g.a) >= Dot(d, g.b) ? g.a : g.b; },
                        [&](const Sphere& g) { return g.center + NormalizedOr(d, {}) * g.radius; },
                        [&](const Capsule& g) {
                          return (Dot(d, g.a) >= Dot(d, g.b) ? g.a : g.b) + NormalizedOr(d, {}) * g.radius;
                        },
                        [&](const Aabb& g) {
                          Vec3 p;
                          for (int i = 0; i < 3; ++i) p[i] = d[i] >= 0 ? g.max[i] : g.min[i];
                          return p;
                        },
                        [&](const Obb& g) {
                          Vec3 p = g.center;
                          for (int i = 0; i < 3; ++i) {
                            const double s = Dot(d, g.rotation.col[i]) >= 0 ? 1.0 : -1.0;
                            p += g.rotation.col[i] * (s * g.half_extents[i]);
                          }
                          return p;
                        },
                        [&](const Triangle& g) {
                          const double da = Dot(d, g.a), db = Dot(d, g.b), dc = Dot(d, g.c);
                          return da >= db && da >= dc ? g.a : (db >= dc ? g.b : g.c);
                        },
                        [&](const ConvexHull& g) {
                          Vec3 best = g.vertices[0];
                          for (const Vec3& v : g.vertices) {
                            if (Dot(d, v) > Dot(d, best)) best = v;
                          }
                          return best;
                        },
                        [&](const Halfspace&) { return Vec3{}; },
                    },
                    s);
}

double PointSegmentDistance(const Vec3& p, const Vec3& a, const Vec3& b) {
  const Vec3 ab = b - a;
  const double len2 = LengthSquared(ab);
  if (len2 == 0.0) return Length(p - a);
  const double t = std::clamp(Dot(p - a, ab) / len2, 0.0, 1.0);
  // Distance to whichever is nearer of the clamped projection and the two
  // endpoints: guards the projection's rounding at the endpoints.
  return std::min({Length(p - (a + ab * t)), Length(p - a), Length(p - b)});
}

// Minimum of a convex function on [0, 1] by golden-section search (to
// rounding), also checking the ends.
template <typename F>
double MinimizeConvexOnUnitInterval(F f) {
  const double phi = (std::sqrt(5.0) - 1) / 2;
  double lo = 0.0, hi = 1.0;
  double x1 = hi - phi * (hi - lo), x2 = lo + phi * (hi - lo);
  double f1 = f(x1), f2 = f(x2);
  for (int i = 0; i < 200 && hi - lo > 1e-17; ++i) {
    if (f1 < f2) {
      hi = x2, x2 = x1, f2 = f1, x1 = hi - phi * (hi - lo), f1 = f(x1);
    } else {
      lo = x1, x1 = x2, f1 = f2, x2 = lo + phi * (hi - lo), f2 = f(x2);
    }
  }
  return std::min({f1, f2, f(0.0), f(1.0)});
}

double SegmentSegmentDistance(const Vec3& a0, const Vec3& b0, const Vec3& a1, const Vec3& b1) {
  return MinimizeConvexOnUnitInterval(
      [&](double s) { return PointSegmentDistance(a0 + (b0 - a0) * s, a1, b1); });
}

double PointTriangleDistance(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const double edges =
      std::min({PointSegmentDistance(p, a, b), PointSegmentDistance(p, b, c), PointSegmentDistance(p, c, a)});
  const Vec3 n = Cross(b - a, c - a);
  const double len = Length(n);
  const double longest = std::max({LengthSquared(b - a), LengthSquared(c - b), LengthSquared(a - c)});
  if (!(len > 1e-14 * longest)) return edges;  // degenerate: a segment or a point.
  const Vec3 u = n / len;
  const double h = Dot(p - a, u);
  const Vec3 q = p - u * h;  // projection onto the plane.
  // Inside when q is on the inner side of all three edges.
  const bool inside = Dot(Cross(b - a, q - a), u) >= 0 && Dot(Cross(c - b, q - b), u) >= 0 &&
                      Dot(Cross(a - c, q - c), u) >= 0;
  return inside ? std::min(std::fabs(h), edges) : edges;
}

RefShape::RefShape(const Shape& shape) : shape_(shape) {
  std::visit(Overloaded{
                 [&](const Point&) { dimension_ = 0; },
                 [&](const Segment& g) {
                   dimension_ = g.a == g.b ? 0 : 1;
                   scale_ = Length(g.b - g.a);
                 },
                 [&](const Sphere& g) {
                   dimension_ = g.radius > 0 ? 3 : 0;
                   scale_ = g.radius;
                 },
                 [&](const Capsule& g) {
                   dimension_ = g.radius > 0 ? 3 : (g.a == g.b ? 0 : 1);
                   scale_ = Length(g.b - g.a) + 2 * g.radius;
                 },
                 [&](const Aabb& g) {
                   for (int i = 0; i < 3; ++i) dimension_ += g.max[i] > g.min[i] ? 1 : 0;
                   scale_ = Length(g.max - g.min);
                 },
                 [&](const Obb& g) {
                   for (int i = 0; i < 3; ++i) dimension_ += g.half_extents[i] > 0 ? 1 : 0;
                   scale_ = 2 * Length(g.half_extents);
                 },
                 [&](const Triangle& g) {
                   const Vec3 pts[3] = {g.a, g.b, g.c};
                   scale_ = Spread(pts);
                   const double area = Length(Cross(g.b - g.a, g.c - g.a));
                   dimension_ = area > 1e-14 * scale_ * scale_ ? 2 : (scale_ > 0 ? 1 : 0);
                 },
                 [&](const ConvexHull&) { BuildHull(); },
                 [&](const Halfspace&) { dimension_ = 3; },
             },
             shape_);
  has_volume_ = dimension_ == 3;
  std::visit(Overloaded{
                 [&](const Segment& g) { edges_.push_back(g.b - g.a); },
                 [&](const Capsule& g) { edges_.push_back(g.b - g.a); },
                 [&](const Aabb&) {
                   for (int i = 0; i < 3; ++i) {
                     Vec3 e;
                     e[i] = 1.0;
                     faces_.push_back(e);
                     edges_.push_back(e);
                   }
                 },
                 [&](const Obb& g) {
                   for (const Vec3& e : g.rotation.col) faces_.push_back(e), edges_.push_back(e);
                 },
                 [&](const Triangle& g) {
                   faces_.push_back(Cross(g.b - g.a, g.c - g.a));
                   edges_.push_back(g.b - g.a), edges_.push_back(g.c - g.b), edges_.push_back(g.a - g.c);
                 },
                 [&](const ConvexHull&) {
                   for (const Plane& pl : planes_) faces_.push_back(pl.n);
                   for (const Tri& t : tris_) {
                     if (has_volume_ || tris_.size() <= 60) {
                       faces_.push_back(Cross(t.b - t.a, t.c - t.a));
                       edges_.push_back(t.b - t.a), edges_.push_back(t.c - t.b), edges_.push_back(t.a - t.c);
                     }
                   }
                 },
                 [&](const auto&) {},
             },
             shape_);
  // Each hull edge is shared by two face triangles: keep one copy.
  std::vector<Vec3> unique;
  for (const Vec3& e : edges_) {
    bool seen = false;
    for (const Vec3& u : unique) seen = seen || u == e || u == -e;
    if (!seen) unique.push_back(e);
  }
  edges_ = std::move(unique);
}

void RefShape::BuildHull() {
  const std::span<const Vec3> v = std::get<ConvexHull>(shape_).vertices;
  const int n = static_cast<int>(v.size());
  // Scale: twice the largest distance from the first vertex (>= diameter).
  scale_ = 2 * Spread(v);
  const double eps = 1e-12 * scale_;
  // Rank by farthest points: p1 farthest from p0, p2 farthest from line
  // p0p1, p3 farthest from plane p0p1p2.
  int i1 = 0, i2 = 0;
  double best = 0.0;
  for (int i = 0; i < n; ++i) {
    if (Length(v[i] - v[0]) > best) best = Length(v[i] - v[0]), i1 = i;
  }
  dimension_ = best > eps ? 1 : 0;
  if (dimension_ == 1) {
    best = 0.0;
    for (int i = 0; i < n; ++i) {
      // Distance to the line p0p1.
      const double dl = Length(Cross(v[i] - v[0], v[i1] - v[0])) / Length(v[i1] - v[0]);
      if (dl > best) best = dl, i2 = i;
    }
    if (best > eps) {
      dimension_ = 2;
      const Vec3 nrm = NormalizedOr(Cross(v[i1] - v[0], v[i2] - v[0]), {});
      for (int i = 0; i < n; ++i) {
        if (std::fabs(Dot(v[i] - v[0], nrm)) > eps) dimension_ = 3;
      }
    }
  }
  if (dimension_ < 3) {
    // Flat: the union of all vertex triangles is the hull (a polygon is the
    // union of the triangles over its vertex triples).
    if (n == 1) tris_.push_back({v[0], v[0], v[0]});
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) {
        if (n == 2) tris_.push_back({v[i], v[j], v[j]});
        for (int k = j + 1; k < n; ++k) tris_.push_back({v[i], v[j], v[k]});
      }
    }
    return;
  }
  // Solid: a vertex triple spans a face when every vertex is on one side of
  // its plane (within eps); the face triangles cover the boundary.
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      for (int k = j + 1; k < n; ++k) {
        const Vec3 c = Cross(v[j] - v[i], v[k] - v[i]);
        const double len = Length(c);
        if (!(len > 1e-9 * scale_ * scale_)) continue;  // near-collinear triple: no reliable plane.
        const Vec3 u = c / len;
        const double d = Dot(u, v[i]);
        double lo = 0.0, hi = 0.0;
        for (const Vec3& p : v) {
          const double s = Dot(u, p) - d;
          lo = std::min(lo, s);
          hi = std::max(hi, s);
        }
        if (hi <= eps) {
          planes_.push_back({u, d});
        } else if (lo >= -eps) {
          planes_.push_back({-u, -d});
        } else {
          continue;
        }
        tris_.push_back({v[i], v[j], v[k]});
      }
    }
  }
}

double RefShape::SurfaceDistance(const Vec3& p) const {
  return std::visit(Overloaded{
                        [&](const Point& g) { return Length(p - g.position); },
                        [&](const Segment& g) { return PointSegmentDistance(p, g.a, g.b); },
                        [&](const Sphere& g) { return Length(p - g.center) - g.radius; },
                        [&](const Capsule& g) { return PointSegmentDistance(p, g.a, g.b) - g.radius; },
                        [&](const Aabb& g) {
                          // Signed box distance in box coordinates (outside: length of
                          // the positive excesses; inside: the largest, negative, one).
                          const Vec3 c = (g.min + g.max) * 0.5, h = (g.max - g.min) * 0.5;
                          const Vec3 q = Abs(p - c) - h;
                          const double inside = std::min(std::max({q.x, q.y, q.z}), 0.0);
                          return Length(Max(q, {})) + inside;
                        },
                        [&](const Obb& g) {
                          const Vec3 q = Abs(TransposeMul(g.rotation, p - g.center)) - g.half_extents;
                          const double inside = std::min(std::max({q.x, q.y, q.z}), 0.0);
                          return Length(Max(q, {})) + inside;
                        },
                        [&](const Triangle& g) { return PointTriangleDistance(p, g.a, g.b, g.c); },
                        [&](const ConvexHull&) {
                          if (has_volume_) {
                            double inside = -kInfinity;
                            for (const Plane& pl : planes_) inside = std::max(inside, Dot(pl.n, p) - pl.d);
                            if (inside <= 0) return inside;
                          }
                          double out = kInfinity;
                          for (const Tri& t : tris_)
                            out = std::min(out, PointTriangleDistance(p, t.a, t.b, t.c));
                          return out;
                        },
                        [&](const Halfspace& g) { return Dot(g.normal, p) - g.offset; },
                    },
                    shape_);
}

double RefShape::Distance(const Vec3& p) const { return std::max(0.0, SurfaceDistance(p)); }

double Gap(const RefShape& a, const RefShape& b, const Vec3& n) { return a.Support(n) + b.Support(-n); }

namespace {}  // namespace

namespace {

// A point, segment, sphere or capsule as its core (a point or a segment)
// and radius.
struct Rounded {
  Vec3 a, b;
  double radius;
};
std::optional<Rounded> AsRounded(const Shape& s) {
  if (const auto* g = std::get_if<Point>(&s)) return Rounded{g->position, g->position, 0.0};
  if (const auto* g = std::get_if<Segment>(&s)) return Rounded{g->a, g->b, 0.0};
  if (const auto* g = std::get_if<Sphere>(&s)) return Rounded{g->center, g->center, g->radius};
  if (const auto* g = std::get_if<Capsule>(&s)) return Rounded{g->a, g->b, g->radius};
  return std::nullopt;
}
Shape CoreShape(const Rounded& r) { return r.a == r.b ? Shape{Point{r.a}} : Shape{Segment{r.a, r.b}}; }

// Distance from the segment [a, b] to the convex shape s: golden-section
// search of the distance from a + t (b - a) to s, a convex function of t.
double SegmentShapeDistance(const Vec3& a, const Vec3& b, const RefShape& s) {
  if (a == b) return s.Distance(a);
  return MinimizeConvexOnUnitInterval([&](double t) { return s.Distance(a + (b - a) * t); });
}

RefSignedDistance SearchSignedDistance(const RefShape& a, const RefShape& b, int samples);

}  // namespace

RefSignedDistance ReferenceSignedDistance(const RefShape& a, const RefShape& b, int samples) {
  if (const auto* h = std::get_if<Halfspace>(&a.shape())) {
    // B's lowest point along the normal, against the plane.
    return {-b.Support(-h->normal) - h->offset, h->normal, true};
  }
  if (const auto* h = std::get_if<Halfspace>(&b.shape())) {
    return {-a.Support(-h->normal) - h->offset, -h->normal, true};
  }
  // A round shape is its core grown by its radius, so the signed distance is
  // the cores' minus the radii. Cores apart: the distance from a point or
  // segment core to the other (core) shape, exact by convex 1-D search.
  // Cores overlapping: their depth by the axis search, exact for polytopes.
  const std::optional<Rounded> ra = AsRounded(a.shape()), rb = AsRounded(b.shape());
  if (ra || rb) {
    const RefShape ca = ra ? RefShape(CoreShape(*ra)) : a;
    const RefShape cb = rb ? RefShape(CoreShape(*rb)) : b;
    const double radii = (ra ? ra->radius : 0.0) + (rb ? rb->radius : 0.0);
    const double apart = ra ? SegmentShapeDistance(ra->a, ra->b, cb) : SegmentShapeDistance(rb->a, rb->b, ca);
    // Rounding leaves ~1e-17 of "distance" between crossing cores (a
    // segment through a triangle): below 1e-9 of the size, use the axis
    // search, which is a lower bound either way.
    if (apart > 1e-9 * std::max(a.Scale(), b.Scale())) return {apart - radii, Vec3{}, true};
    RefSignedDistance core = SearchSignedDistance(ca, cb, samples);
    core.distance -= radii;
    return core;
  }
  return SearchSignedDistance(a, b, samples);
}

namespace {

RefSignedDistance SearchSignedDistance(const RefShape& a, const RefShape& b, int samples) {
  std::vector<Vec3> dirs;
  // Separating-axis candidates, and the coordinate axes (for pairs without
  // features, e.g. two coincident points).
  for (int i = 0; i < 3; ++i) {
    Vec3 e;
    e[i] = 1.0;
    dirs.push_back(e), dirs.push_back(-e);
  }
  for (const RefShape* s : {&a, &b}) {
    for (const Vec3& f : s->FaceNormals()) dirs.push_back(f), dirs.push_back(-f);
  }
  const bool flat = a.Dimension() < 3 || b.Dimension() < 3;
  for (const Vec3& e : a.EdgeDirections()) {
    for (const Vec3& f : b.EdgeDirections()) {
      const Vec3 c = Cross(e, f);
      dirs.push_back(c), dirs.push_back(-c);
      if (flat) {
        // In-plane normals of the parallelogram e x f (flat Minkowski
        // differences, e.g. of two segments).
        for (const Vec3& g : {Cross(c, e), Cross(c, f)}) dirs.push_back(g), dirs.push_back(-g);
      }
    }
  }
  if (flat) {
    for (const RefShape* s : {&a, &b}) {
      for (const Vec3& f : s->FaceNormals()) {
        for (const Vec3& e : s->EdgeDirections()) dirs.push_back(Cross(f, e)), dirs.push_back(-Cross(f, e));
      }
      for (const Vec3& e : s->EdgeDirections()) {
        const Vec3 u = AnyPerpendicular(NormalizedOr(e, {1, 0, 0}));
        for (const Vec3& g : {u, Cross(e, u)}) dirs.push_back(g), dirs.push_back(-g);
      }
    }
  }
  // Center to center (midpoints of opposite supports along the axes).
  Vec3 ca, cb;
  for (int i = 0; i < 3; ++i) {
    Vec3 e;
    e[i] = 1.0;
    ca[i] = 0.5 * (a.Support(e) - a.Support(-e));
    cb[i] = 0.5 * (b.Support(e) - b.Support(-e));
  }
  dirs.push_back(cb - ca);

  auto value = [&](const Vec3& n) { return -Gap(a, b, n); };
  // Separating-axis candidates alone: when none separates, the polytopes
  // overlap and the best candidate is the exact answer.
  RefSignedDistance axis_best{-kInfinity, Vec3{}, true};
  for (const Vec3& d : dirs) {
    const double len = Length(d);
    if (!(len > 0) || !std::isfinite(len)) continue;
    const Vec3 n = d / len;
    const double v = value(n);
    if (v > axis_best.distance) axis_best = {v, n, true};
  }
  if (axis_best.distance <= 0) return axis_best;
  // Separated: add the sphere samples and refine locally.
  const double golden = M_PI * (3.0 - std::sqrt(5.0));
  for (int i = 0; i < samples; ++i) {
    const double z = 1.0 - (i + 0.5) * 2.0 / samples;
    const double r = std::sqrt(std::max(0.0, 1.0 - z * z));
    dirs.push_back({r * std::cos(golden * i), r * std::sin(golden * i), z});
  }
  std::vector<std::pair<double, Vec3>> scored;
  for (const Vec3& d : dirs) {
    const double len = Length(d);
    if (!(len > 0) || !std::isfinite(len)) continue;
    const Vec3 n = d / len;
    scored.push_back({value(n), n});
  }
  std::sort(scored.begin(), scored.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  RefSignedDistance best{scored[0].first, scored[0].second, false};
  if (axis_best.distance > best.distance) best = axis_best;
  // Local pattern search on the sphere from the best few starts, with a
  // randomly turned pattern each step so it does not stall on a ridge of the
  // (non-smooth) objective.
  std::mt19937_64 rng(12345);
  auto uniform = [&] { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
  const int starts = std::min<int>(4, scored.size());
  for (int s = 0; s < starts; ++s) {
    Vec3 n = scored[s].second;
    double f = scored[s].first;
    double step = 2.0 / std::sqrt(static_cast<double>(samples));
    int misses = 0;
    while (step > 1e-11) {
      const Vec3 u = AnyPerpendicular(n);
      const Vec3 w = Cross(n, u);
      const double phase = uniform() * 2 * M_PI;
      bool improved = false;
      for (int k = 0; k < 8; ++k) {
        const double ang = phase + k * M_PI / 4;
        const Vec3 m = NormalizedOr(n + (u * std::cos(ang) + w * std::sin(ang)) * step, n);
        const double g = value(m);
        if (g > f) f = g, n = m, improved = true;
      }
      if (improved) {
        misses = 0;
      } else if (++misses >= 3) {
        step *= 0.5;
        misses = 0;
      }
    }
    if (f > best.distance) best = {f, n, false};
  }
  return best;
}

}  // namespace

}  // namespace collide::testing
