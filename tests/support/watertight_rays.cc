#include "support/watertight_rays.h"

#include <gmpxx.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <utility>

#include "support/near_parallel_rays.h"

namespace collide::testing {
namespace {

double Uniform(std::mt19937_64& rng, double lo, double hi) {
  return lo + (hi - lo) * (static_cast<double>(rng() >> 11) * 0x1.0p-53);
}

double At(const Vec3& v, int axis) { return axis == 0 ? v.x : (axis == 1 ? v.y : v.z); }

// dot(p, cross(q, r)) in double and a bound on its error when q and r (and
// p) are rounded differences of doubles: Shewchuk's orient3d bound
// (7 + 56 eps) eps times the permanent, rounded up to 8 eps.
struct Filtered {
  double value, bound;
  int Sign() const { return value > bound ? 1 : (value < -bound ? -1 : 0); }
};
Filtered Triple(const Vec3& p, const Vec3& q, const Vec3& r) {
  const double x = q.y * r.z - q.z * r.y, y = q.z * r.x - q.x * r.z, z = q.x * r.y - q.y * r.x;
  const double permanent = std::fabs(p.x) * (std::fabs(q.y * r.z) + std::fabs(q.z * r.y)) +
                           std::fabs(p.y) * (std::fabs(q.z * r.x) + std::fabs(q.x * r.z)) +
                           std::fabs(p.z) * (std::fabs(q.x * r.y) + std::fabs(q.y * r.x));
  return {p.x * x + p.y * y + p.z * z, 8.0 * 0x1.0p-53 * permanent};
}

// A double value is trusted to 1e-10 relative when its bound is this far
// below it.
constexpr double kTrustedRatio = 1e10;

// Exactly collinear vertices (zero area), in rational arithmetic.
bool Collinear(const Triangle& t) {
  using Q = mpq_class;
  const Q ux = Q(t.b.x) - Q(t.a.x), uy = Q(t.b.y) - Q(t.a.y), uz = Q(t.b.z) - Q(t.a.z);
  const Q vx = Q(t.c.x) - Q(t.a.x), vy = Q(t.c.y) - Q(t.a.y), vz = Q(t.c.z) - Q(t.a.z);
  return uy * vz == uz * vy && uz * vx == ux * vz && ux * vy == uy * vx;
}

}  // namespace

std::string_view WatertightRayKindName(WatertightRayKind k) {
  switch (k) {
    case WatertightRayKind::kVertex:
      return "vertex";
    case WatertightRayKind::kEdge:
      return "edge";
    case WatertightRayKind::kSight:
      return "sight";
    case WatertightRayKind::kSightGraze:
      return "sight_graze";
    case WatertightRayKind::kIncoherent:
      return "incoherent";
  }
  return "?";
}

std::vector<WatertightRay> MakeWatertightRays(const MeshData& m, int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::size_t> floors;
  for (std::size_t i = 0; i < m.triangles.size(); ++i) {
    const auto& t = m.triangles[i];
    const Vec3 n = Cross(m.vertices[t[1]] - m.vertices[t[0]], m.vertices[t[2]] - m.vertices[t[0]]);
    const double l = Length(n);
    if (l > 0 && std::fabs(n.z) > 0.7 * l) floors.push_back(i);
  }
  if (floors.empty()) {
    std::fprintf(stderr, "MakeWatertightRays: the mesh has no floor\n");
    std::abort();
  }
  auto eye = [&] {
    const auto& t = m.triangles[floors[rng() % floors.size()]];
    double u = Uniform(rng, 0, 1), v = Uniform(rng, 0, 1);
    if (u + v > 1) u = 1 - u, v = 1 - v;
    const Vec3 a = m.vertices[t[0]];
    return a + (m.vertices[t[1]] - a) * u + (m.vertices[t[2]] - a) * v + Vec3{0, 0, 48};
  };
  auto vertex = [&] { return m.vertices[m.triangles[rng() % m.triangles.size()][rng() % 3]]; };
  auto edge_point = [&] {
    const auto& t = m.triangles[rng() % m.triangles.size()];
    const int e = static_cast<int>(rng() % 3);
    const double s = 0.25 * static_cast<double>(1 + rng() % 3);
    return m.vertices[t[e]] * (1 - s) + m.vertices[t[(e + 1) % 3]] * s;
  };
  std::vector<WatertightRay> rays;
  rays.reserve(count);
  while (static_cast<int>(rays.size()) < count) {
    const auto kind = static_cast<WatertightRayKind>(rays.size() % kWatertightRayKinds);
    const Vec3 o = eye();
    Vec3 target;
    double reach = 1.0;  // max_distance in units of |target - o|; 0: unbounded.
    switch (kind) {
      case WatertightRayKind::kVertex:
        target = vertex(), reach = 2.0;
        break;
      case WatertightRayKind::kEdge:
        target = edge_point(), reach = 2.0;
        break;
      case WatertightRayKind::kSight:
        target = eye();
        break;
      case WatertightRayKind::kSightGraze:
        target = rng() % 2 ? vertex() : edge_point(), reach = 1.5;
        break;
      case WatertightRayKind::kIncoherent:
        for (double l2 = 0; l2 <= 1e-6 || l2 > 1;) {
          target = {Uniform(rng, -1, 1), Uniform(rng, -1, 1), Uniform(rng, -1, 1)};
          l2 = LengthSquared(target);
        }
        target = o + target, reach = 0.0;
        break;
    }
    const double len = Length(target - o);
    if (!(len > 0)) continue;
    rays.push_back({{o, (target - o) / len, reach > 0 ? reach * len : kInfinity}, kind});
  }
  return rays;
}

MeshRayReference::MeshRayReference(const MeshData& mesh) {
  const std::size_t n = mesh.triangles.size();
  tris_.resize(n);
  queryable_.assign(n, false);
  tri_lo_.resize(n);
  tri_hi_.resize(n);
  double scale = 1.0;
  for (const Vec3& v : mesh.vertices)
    scale = std::max({scale, std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)});
  pad_ = 1e-9 * scale;
  for (std::uint32_t i = 0; i < n; ++i) {
    const auto& t = mesh.triangles[i];
    tris_[i] = {mesh.vertices[t[0]], mesh.vertices[t[1]], mesh.vertices[t[2]]};
    const Triangle& tr = tris_[i];
    // Certainly not collinear when a component of the edge cross product
    // clears its error bound; else decide exactly.
    const Vec3 u = tr.b - tr.a, v = tr.c - tr.a;
    const bool clear = Triple({1, 0, 0}, u, v).Sign() != 0 || Triple({0, 1, 0}, u, v).Sign() != 0 ||
                       Triple({0, 0, 1}, u, v).Sign() != 0;
    queryable_[i] = clear || !Collinear(tr);
    degenerate_ += !queryable_[i];
    tri_lo_[i] = {std::min({tr.a.x, tr.b.x, tr.c.x}), std::min({tr.a.y, tr.b.y, tr.c.y}),
                  std::min({tr.a.z, tr.b.z, tr.c.z})};
    tri_hi_[i] = {std::max({tr.a.x, tr.b.x, tr.c.x}), std::max({tr.a.y, tr.b.y, tr.c.y}),
                  std::max({tr.a.z, tr.b.z, tr.c.z})};
    if (queryable_[i]) order_.push_back(i);
  }
  if (!order_.empty()) Build(0, static_cast<std::uint32_t>(order_.size()));
}

std::uint32_t MeshRayReference::Build(std::uint32_t begin, std::uint32_t end) {
  const std::vector<Vec3>&lo = tri_lo_, &hi = tri_hi_;
  const auto index = static_cast<std::uint32_t>(nodes_.size());
  nodes_.push_back({});
  Vec3 box_lo = lo[order_[begin]], box_hi = hi[order_[begin]];
  for (std::uint32_t k = begin; k < end; ++k) {
    const Vec3 &l = lo[order_[k]], &h = hi[order_[k]];
    box_lo = {std::min(box_lo.x, l.x), std::min(box_lo.y, l.y), std::min(box_lo.z, l.z)};
    box_hi = {std::max(box_hi.x, h.x), std::max(box_hi.y, h.y), std::max(box_hi.z, h.z)};
  }
  nodes_[index].lo = box_lo, nodes_[index].hi = box_hi;
  if (end - begin <= 4) {
    nodes_[index].first = begin, nodes_[index].count = end - begin;
    return index;
  }
  // Median split of the box centers on the box's longest axis.
  const Vec3 extent = box_hi - box_lo;
  const int axis = extent.x >= extent.y && extent.x >= extent.z ? 0 : (extent.y >= extent.z ? 1 : 2);
  const std::uint32_t mid = begin + (end - begin) / 2;
  std::nth_element(order_.begin() + begin, order_.begin() + mid, order_.begin() + end,
                   [&](std::uint32_t a, std::uint32_t b) {
                     return At(lo[a], axis) + At(hi[a], axis) < At(lo[b], axis) + At(hi[b], axis);
                   });
  const std::uint32_t left = Build(begin, mid);
  const std::uint32_t right = Build(mid, end);
  nodes_[index].first = left, nodes_[index].count = 0, nodes_[index].right = right;
  return index;
}

double MeshRayReference::Entry(const Ray& ray, const Vec3& lo, const Vec3& hi, double tmax) const {
  double t0 = 0.0, t1 = tmax;
  for (int axis = 0; axis < 3; ++axis) {
    const double o = At(ray.origin, axis), d = At(ray.direction, axis);
    const double l = At(lo, axis) - pad_, h = At(hi, axis) + pad_;
    if (d == 0.0) {
      if (o < l || o > h) return -1.0;
      continue;
    }
    double a = (l - o) / d, b = (h - o) / d;
    if (a > b) std::swap(a, b);
    t0 = std::max(t0, a);
    t1 = std::min(t1, b);
    if (t0 > t1) return -1.0;
  }
  return t0;
}

MeshRayReference::Answer MeshRayReference::Single(const Ray& ray, std::uint32_t id) const {
  ++tests_;
  if (!queryable_[id]) return {};
  const Triangle& tri = tris_[id];
  const Vec3& d = ray.direction;
  const Vec3 a = tri.a - ray.origin, b = tri.b - ray.origin, c = tri.c - ray.origin;
  // Edge functions as oriented volumes with the direction (as in
  // ReferenceRayCast): the line meets the closed triangle when no two have
  // opposite signs.
  const Filtered eu = Triple(d, c, b), ev = Triple(d, a, c), ew = Triple(d, b, a);
  const int su = eu.Sign(), sv = ev.Sign(), sw = ew.Sign();
  if ((su < 0 || sv < 0 || sw < 0) && (su > 0 || sv > 0 || sw > 0)) return {};
  auto exact = [&] {
    ++exact_;
    const ReferenceRayTriangle r = ReferenceRayCast(ray, tri);
    return Answer{r.hit, r.certain, r.distance, id};
  };
  if (su == 0 || sv == 0 || sw == 0) return exact();
  // Through the interior: t = det[a, b, c] / dot(n, d), and the edge
  // functions sum to -dot(n, d).
  const Filtered det = Triple(a, b, c);
  const double sum = eu.value + ev.value + ew.value;
  const double sum_bound = eu.bound + ev.bound + ew.bound + 0x1.0p-52 * std::fabs(sum);
  if (std::fabs(det.value) <= kTrustedRatio * det.bound || std::fabs(sum) <= kTrustedRatio * sum_bound) {
    return exact();
  }
  const double t = det.value / -sum;
  if (t < 0.0) return {};
  const double distance = t * Length(d);
  if (ray.max_distance < kInfinity) {
    if (std::fabs(distance - ray.max_distance) <= 1e-9 * ray.max_distance) return {false, false, 0.0, id};
    if (distance > ray.max_distance) return {};
  }
  return {true, true, distance, id};
}

MeshRayReference::Answer MeshRayReference::Closest(const Ray& ray) const {
  if (nodes_.empty()) return {};
  const double len = Length(ray.direction);
  const double tmax = ray.max_distance < kInfinity ? (ray.max_distance * (1 + 1e-9) + pad_) / len : kInfinity;
  std::vector<std::pair<double, std::uint32_t>> candidates;
  std::vector<std::uint32_t> stack{0};
  while (!stack.empty()) {
    const Node node = nodes_[stack.back()];
    stack.pop_back();
    if (Entry(ray, node.lo, node.hi, tmax) < 0.0) continue;
    if (node.count == 0) {
      stack.push_back(node.first);
      stack.push_back(node.right);
      continue;
    }
    for (std::uint32_t k = node.first; k < node.first + node.count; ++k) {
      const std::uint32_t id = order_[k];
      const double e = Entry(ray, tri_lo_[id], tri_hi_[id], tmax);
      if (e >= 0.0) candidates.emplace_back(e * len, id);
    }
  }
  std::sort(candidates.begin(), candidates.end());
  Answer best;
  bool uncertain = false;
  for (const auto& [entry, id] : candidates) {
    // A padded box entered past the best hit holds no nearer hit.
    if (best.hit && entry > best.distance * (1 + 1e-9) + pad_) break;
    const Answer a = Single(ray, id);
    uncertain |= !a.certain;
    if (a.hit && (!best.hit || a.distance < best.distance)) best = a;
  }
  // An uncertain triangle lies at the range's end: it decides nothing when a
  // hit comes before it.
  best.certain = best.hit || !uncertain;
  return best;
}

Ray ExtendedForJudging(const Ray& ray) {
  Ray r = ray;
  if (r.max_distance < kInfinity) r.max_distance += kJudgeReach * (1 + r.max_distance);
  return r;
}

Verdict JudgeClosest(const MeshRayReference::Answer& ref, const Ray& ray, double tol, bool hit,
                     double distance) {
  // An uncertain reference (no hit before a triangle at the extended range's
  // end) means no hit within the ray's own range.
  const double max = ray.max_distance;
  if (ref.certain && ref.hit && max < kInfinity && std::fabs(ref.distance - max) <= tol * (1 + max)) {
    return Verdict::kUncertain;
  }
  const bool expected = ref.certain && ref.hit && ref.distance <= max;
  if (!expected) return hit ? Verdict::kPhantom : Verdict::kAgree;
  if (!hit || distance > ref.distance + tol * (1 + ref.distance)) return Verdict::kMissed;
  if (distance < ref.distance - tol * (1 + ref.distance)) return Verdict::kPhantom;
  return Verdict::kAgree;
}

Verdict JudgeBlocked(const MeshRayReference::Answer& ref, const Ray& ray, double tol, bool blocked) {
  return JudgeClosest(ref, ray, tol, blocked, ref.distance);
}

}  // namespace collide::testing
