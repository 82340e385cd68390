// The conformance cases (see golden_cases.h). Shapes are placed at
// asymmetric offsets so that no answer hangs on a tie-break, and rays run
// along exact (dyadic) lines so that no hit hangs on a rounding.
#include "conformance/golden_cases.h"

#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "collide/query.h"
#include "collide/result.h"
#include "collide/shapes.h"

namespace collide::conformance {
namespace {

// A core shape with what the wire form needs beside it: an Obb's quaternion
// (the core keeps only the matrix) and a hull's vertices (the core only
// borrows them).
struct Spec {
  Shape shape;
  Quat rotation;
  std::shared_ptr<const std::vector<Vec3>> vertices;
};

Spec Make(const Shape& s) { return {s, {}, nullptr}; }
Spec MakeObb(const Vec3& center, const Quat& q, const Vec3& half_extents) {
  return {Obb::FromQuat(center, q, half_extents), q, nullptr};
}
Spec MakeHull(std::vector<Vec3> vertices) {
  auto owned = std::make_shared<const std::vector<Vec3>>(std::move(vertices));
  return {ConvexHull{*owned}, {}, owned};
}

Quat Normalized(const Quat& q) {
  const double n = Norm(q);
  return {q.w / n, q.x / n, q.y / n, q.z / n};
}

// proto3 JSON numbers: non-finite values are the strings "NaN", "Infinity".
Json Num(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  return v;
}
Json V(const Vec3& v) { return {{"x", Num(v.x)}, {"y", Num(v.y)}, {"z", Num(v.z)}}; }

constexpr ShapeKind kAllKinds[] = {ShapeKind::kPoint,    ShapeKind::kSegment,    ShapeKind::kSphere,
                                   ShapeKind::kCapsule,  ShapeKind::kAabb,       ShapeKind::kObb,
                                   ShapeKind::kTriangle, ShapeKind::kConvexHull, ShapeKind::kHalfspace};
constexpr QueryLevel kAllLevels[] = {QueryLevel::kIntersect, QueryLevel::kDistance, QueryLevel::kContact};

std::string KindName(ShapeKind k) { return std::string(ShapeKindName(k)); }
std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}
std::string LevelName(QueryLevel level) { return std::string(QueryLevelName(level)); }
std::string LevelEnum(QueryLevel level) { return "QUERY_LEVEL_" + Upper(LevelName(level)); }
std::string PackedKindEnum(ShapeKind k) { return "PACKED_SHAPE_KIND_" + Upper(KindName(k)); }
bool Packable(ShapeKind k) { return k != ShapeKind::kConvexHull; }

// ---------------------------------------------------------------- encoding

Json ShapeJson(const Spec& spec) {
  struct Visitor {
    const Spec& spec;
    Json operator()(const Point& s) const { return {{"point", {{"position", V(s.position)}}}}; }
    Json operator()(const Segment& s) const { return {{"segment", {{"a", V(s.a)}, {"b", V(s.b)}}}}; }
    Json operator()(const Sphere& s) const {
      return {{"sphere", {{"center", V(s.center)}, {"radius", Num(s.radius)}}}};
    }
    Json operator()(const Capsule& s) const {
      return {{"capsule", {{"a", V(s.a)}, {"b", V(s.b)}, {"radius", Num(s.radius)}}}};
    }
    Json operator()(const Aabb& s) const { return {{"aabb", {{"min", V(s.min)}, {"max", V(s.max)}}}}; }
    Json operator()(const Obb& s) const {
      const Quat& q = spec.rotation;
      return {{"obb",
               {{"center", V(s.center)},
                {"rotation", {{"w", Num(q.w)}, {"x", Num(q.x)}, {"y", Num(q.y)}, {"z", Num(q.z)}}},
                {"half_extents", V(s.half_extents)}}}};
    }
    Json operator()(const Triangle& s) const {
      return {{"triangle", {{"a", V(s.a)}, {"b", V(s.b)}, {"c", V(s.c)}}}};
    }
    Json operator()(const ConvexHull& s) const {
      Json vertices = Json::array();
      for (const Vec3& v : s.vertices) vertices.push_back(V(v));
      return {{"convex_hull", {{"vertices", vertices}}}};
    }
    Json operator()(const Halfspace& s) const {
      return {{"halfspace", {{"normal", V(s.normal)}, {"offset", Num(s.offset)}}}};
    }
  };
  return std::visit(Visitor{spec}, spec.shape);
}

// Appends the packed form (collide.proto's PackedShapeKind strides).
void AppendPacked(const Spec& spec, Json& data) {
  auto put = [&data](std::initializer_list<double> values) {
    for (double v : values) data.push_back(Num(v));
  };
  auto put3 = [&put](const Vec3& v) { put({v.x, v.y, v.z}); };
  struct Visitor {
    const Spec& spec;
    decltype(put)& p;
    decltype(put3)& p3;
    void operator()(const Point& s) const { p3(s.position); }
    void operator()(const Segment& s) const { p3(s.a), p3(s.b); }
    void operator()(const Sphere& s) const { p3(s.center), p({s.radius}); }
    void operator()(const Capsule& s) const { p3(s.a), p3(s.b), p({s.radius}); }
    void operator()(const Aabb& s) const { p3(s.min), p3(s.max); }
    void operator()(const Obb& s) const {
      const Quat& q = spec.rotation;
      p3(s.center), p({q.w, q.x, q.y, q.z}), p3(s.half_extents);
    }
    void operator()(const Triangle& s) const { p3(s.a), p3(s.b), p3(s.c); }
    void operator()(const ConvexHull&) const {}
    void operator()(const Halfspace& s) const { p3(s.normal), p({s.offset}); }
  };
  std::visit(Visitor{spec, put, put3}, spec.shape);
}

Json RayJson(const Ray& ray) {
  Json j = {{"origin", V(ray.origin)}, {"direction", V(ray.direction)}};
  if (std::isfinite(ray.max_distance)) j["max_distance"] = ray.max_distance;
  return j;
}

std::string StatusName(QueryStatus s) {
  return s == QueryStatus::kNotConverged ? "RESULT_STATUS_NOT_CONVERGED" : "RESULT_STATUS_OK";
}

Json PairResultJson(const PairResult& r) {
  return {{"hit", r.hit},
          {"distance", r.distance},
          {"point_a", V(r.point_a)},
          {"point_b", V(r.point_b)},
          {"normal", V(r.normal)},
          {"status", StatusName(r.status)}};
}

Json RayHitJson(const RayHit& r) {
  return {{"hit", r.hit},
          {"distance", r.distance},
          {"point", V(r.point)},
          {"normal", V(r.normal)},
          {"status", StatusName(r.status)}};
}

// ------------------------------------------------------------------ shapes

// Shape of kind `k` around the offset `t`, about unit size, asymmetric. A
// halfspace's normal depends on its side of the pair so that the "apart"
// placement below really is apart.
Spec Canonical(ShapeKind k, const Vec3& t, bool as_b) {
  switch (k) {
    case ShapeKind::kPoint:
      return Make(Point{t + Vec3{0.05, -0.1, 0.02}});
    case ShapeKind::kSegment:
      return Make(Segment{t + Vec3{-0.6, -0.1, 0.05}, t + Vec3{0.7, 0.2, -0.1}});
    case ShapeKind::kSphere:
      return Make(Sphere{t + Vec3{0.02, 0.01, -0.03}, 0.8});
    case ShapeKind::kCapsule:
      return Make(Capsule{t + Vec3{-0.5, 0.1, 0.0}, t + Vec3{0.4, -0.2, 0.3}, 0.45});
    case ShapeKind::kAabb:
      return Make(Aabb{t + Vec3{-0.7, -0.5, -0.6}, t + Vec3{0.6, 0.8, 0.5}});
    case ShapeKind::kObb:
      return MakeObb(t + Vec3{0.03, -0.02, 0.01}, Normalized({0.9, 0.2, -0.3, 0.25}), {0.5, 0.7, 0.4});
    case ShapeKind::kTriangle:
      return Make(Triangle{t + Vec3{-0.8, -0.4, 0.1}, t + Vec3{0.7, -0.3, -0.2}, t + Vec3{0.1, 0.9, 0.15}});
    case ShapeKind::kConvexHull:
      return MakeHull({t + Vec3{-0.6, -0.5, -0.4}, t + Vec3{0.7, -0.4, -0.5}, t + Vec3{0.1, 0.8, -0.3},
                       t + Vec3{0.0, 0.1, 0.75}, t + Vec3{-0.2, -0.1, 0.1}, t + Vec3{0.5, 0.5, 0.4}});
    case ShapeKind::kHalfspace: {
      const Vec3 n = Vec3{0.1, 0.2, 1.0} / Length(Vec3{0.1, 0.2, 1.0});
      const Vec3 normal = as_b ? -n : n;
      return Make(Halfspace{normal, Dot(normal, t)});
    }
  }
  return {};
}

// Offsets of shape B from shape A (at the origin).
constexpr Vec3 kOverlap{0.25, 0.15, -0.1};
constexpr Vec3 kApart{1.9, 1.2, 2.4};

// ------------------------------------------------------------------- cases

struct PairQuery {
  std::vector<std::pair<Spec, Spec>> pairs;
};

// Appends a QueryPairs case when the core answers every pair with kOk.
void AddQueryPairs(Json& cases, const std::string& name, QueryLevel level,
                   const std::vector<std::pair<Spec, Spec>>& pairs) {
  Json request_pairs = Json::array();
  Json results = Json::array();
  for (const auto& [a, b] : pairs) {
    const PairResult r = Query(level, a.shape, b.shape);
    if (r.status != QueryStatus::kOk) return;
    request_pairs.push_back({{"a", ShapeJson(a)}, {"b", ShapeJson(b)}});
    results.push_back(PairResultJson(r));
  }
  cases.push_back({{"name", name},
                   {"rpc", "QueryPairs"},
                   {"request", {{"level", LevelEnum(level)}, {"pairs", request_pairs}}},
                   {"response", {{"results", results}}}});
}

void AddQueryPairsPacked(Json& cases, const std::string& name, QueryLevel level,
                         const std::vector<std::pair<Spec, Spec>>& pairs) {
  const ShapeKind ka = KindOf(pairs.front().first.shape);
  const ShapeKind kb = KindOf(pairs.front().second.shape);
  Json a_data = Json::array(), b_data = Json::array();
  Json hit = Json::array(), distance = Json::array(), point_a = Json::array(), point_b = Json::array(),
       normal = Json::array();
  auto put3 = [](Json& arr, const Vec3& v) { arr.push_back(v.x), arr.push_back(v.y), arr.push_back(v.z); };
  for (const auto& [a, b] : pairs) {
    const PairResult r = Query(level, a.shape, b.shape);
    if (r.status != QueryStatus::kOk) return;
    AppendPacked(a, a_data);
    AppendPacked(b, b_data);
    hit.push_back(r.hit);
    if (level == QueryLevel::kIntersect) continue;  // INTERSECT fills only `hit`.
    distance.push_back(r.distance);
    put3(point_a, r.point_a), put3(point_b, r.point_b), put3(normal, r.normal);
  }
  cases.push_back({{"name", name},
                   {"rpc", "QueryPairsPacked"},
                   {"request",
                    {{"level", LevelEnum(level)},
                     {"a", {{"kind", PackedKindEnum(ka)}, {"data", a_data}}},
                     {"b", {{"kind", PackedKindEnum(kb)}, {"data", b_data}}}}},
                   {"response",
                    {{"hit", hit},
                     {"distance", distance},
                     {"point_a", point_a},
                     {"point_b", point_b},
                     {"normal", normal},
                     {"not_converged", Json::array()}}}});
}

void AddCastRays(Json& cases, const std::string& name, const std::vector<std::pair<Ray, Spec>>& casts) {
  Json request_casts = Json::array();
  Json hits = Json::array();
  for (const auto& [ray, shape] : casts) {
    const RayHit h = RayCast(ray, shape.shape);
    if (h.status != QueryStatus::kOk) return;
    request_casts.push_back({{"ray", RayJson(ray)}, {"shape", ShapeJson(shape)}});
    hits.push_back(RayHitJson(h));
  }
  cases.push_back({{"name", name},
                   {"rpc", "CastRays"},
                   {"request", {{"casts", request_casts}}},
                   {"response", {{"hits", hits}}}});
}

void AddCastRaysPacked(Json& cases, const std::string& name, const std::vector<std::pair<Ray, Spec>>& casts) {
  const ShapeKind kind = KindOf(casts.front().second.shape);
  Json rays = Json::array(), shapes = Json::array();
  Json hit = Json::array(), distance = Json::array(), point = Json::array(), normal = Json::array();
  auto put3 = [](Json& arr, const Vec3& v) {
    arr.push_back(Num(v.x)), arr.push_back(Num(v.y)), arr.push_back(Num(v.z));
  };
  for (const auto& [ray, shape] : casts) {
    const RayHit h = RayCast(ray, shape.shape);
    if (h.status != QueryStatus::kOk) return;
    put3(rays, ray.origin), put3(rays, ray.direction), rays.push_back(Num(ray.max_distance));
    AppendPacked(shape, shapes);
    hit.push_back(h.hit);
    distance.push_back(h.distance);
    put3(point, h.point), put3(normal, h.normal);
  }
  cases.push_back(
      {{"name", name},
       {"rpc", "CastRaysPacked"},
       {"request", {{"rays", rays}, {"shapes", {{"kind", PackedKindEnum(kind)}, {"data", shapes}}}}},
       {"response",
        {{"hit", hit},
         {"distance", distance},
         {"point", point},
         {"normal", normal},
         {"not_converged", Json::array()}}}});
}

// Every unordered kind pair at every level, both orders in one request, each
// overlapping and apart.
void AddAllPairs(Json& cases) {
  for (QueryLevel level : kAllLevels) {
    for (int i = 0; i < kShapeKindCount; ++i) {
      for (int j = i; j < kShapeKindCount; ++j) {
        const ShapeKind ka = kAllKinds[i], kb = kAllKinds[j];
        if (!IsSupported(ka, kb)) continue;
        const Spec a = Canonical(ka, {}, false);
        const Spec b_near = Canonical(kb, kOverlap, true);
        const Spec b_far = Canonical(kb, kApart, true);
        AddQueryPairs(cases, "pairs/" + LevelName(level) + "/" + KindName(ka) + "_" + KindName(kb), level,
                      {{a, b_near}, {b_near, a}, {a, b_far}, {b_far, a}});
      }
    }
  }
}

// Every ordered packable kind pair at every level, overlapping and apart.
void AddAllPackedPairs(Json& cases) {
  for (QueryLevel level : kAllLevels) {
    for (ShapeKind ka : kAllKinds) {
      for (ShapeKind kb : kAllKinds) {
        if (!Packable(ka) || !Packable(kb) || !IsSupported(ka, kb)) continue;
        const Spec a = Canonical(ka, {}, false);
        AddQueryPairsPacked(cases, "packed/" + LevelName(level) + "/" + KindName(ka) + "_" + KindName(kb),
                            level, {{a, Canonical(kb, kOverlap, true)}, {a, Canonical(kb, kApart, true)}});
      }
    }
  }
}

// A target of each kind with a point `aim` on or in it, for rays along x.
std::pair<Spec, Vec3> RayTarget(ShapeKind k) {
  switch (k) {
    case ShapeKind::kPoint:
      return {Make(Point{{0.5, 0.25, -0.125}}), {0.5, 0.25, -0.125}};
    case ShapeKind::kSegment:
      return {Make(Segment{{0, -1, 0.5}, {0, 1, 0.5}}), {0, 0.25, 0.5}};
    case ShapeKind::kSphere:
      return {Make(Sphere{{0.5, 0.25, -0.125}, 1.0}), {0.5, 0.25, -0.125}};
    case ShapeKind::kCapsule:
      return {Make(Capsule{{0, -1, 0}, {0, 1, 0}, 0.5}), {0, 0.25, 0}};
    case ShapeKind::kAabb:
      return {Make(Aabb{{-1, -0.5, -0.75}, {1, 0.5, 0.75}}), {0, 0.25, 0}};
    case ShapeKind::kObb:
      return {MakeObb({0.25, 0, 0}, Normalized({0.9, 0.1, -0.2, 0.3}), {0.5, 0.75, 0.25}), {0.25, 0, 0}};
    case ShapeKind::kTriangle:
      return {Make(Triangle{{0, -1, -1}, {0, 1, -1}, {0, 0, 1}}), {0, 0.25, 0}};
    case ShapeKind::kConvexHull:
      return {Canonical(ShapeKind::kConvexHull, {}, false), {0, 0, 0}};
    case ShapeKind::kHalfspace:
      return {Make(Halfspace{{-1, 0, 0}, 1}), {0.25, 0.25, 0.5}};
  }
  return {};
}

// Hit from outside, miss pointing away, start inside (or on a flat shape),
// too short to reach, and a non-unit direction.
std::vector<std::pair<Ray, Spec>> RaysAt(ShapeKind k) {
  const auto [shape, aim] = RayTarget(k);
  const Vec3 from = aim - Vec3{4, 0, 0};
  return {{Ray{from, {1, 0, 0}}, shape},
          {Ray{from, {-1, 0, 0}}, shape},
          {Ray{aim, {0, 1, 0}}, shape},
          {Ray{from, {1, 0, 0}, 0.5}, shape},
          {Ray{from, {3, 0, 0}, 100}, shape}};
}

void AddAllRays(Json& cases) {
  for (ShapeKind k : kAllKinds) {
    AddCastRays(cases, "rays/" + KindName(k), RaysAt(k));
    if (Packable(k)) AddCastRaysPacked(cases, "rays_packed/" + KindName(k), RaysAt(k));
  }
}

// Shapes that collapse to lower dimensions, and exactly touching shapes.
void AddDegenerate(Json& cases) {
  const Spec unit_sphere = Make(Sphere{{0.3, 0.1, -0.2}, 1.0});
  const Spec box = Make(Aabb{{-1, -1, -1}, {1, 1, 1}});
  const std::vector<std::pair<std::string, std::pair<Spec, Spec>>> pairs = {
      {"zero_radius_sphere_vs_sphere", {Make(Sphere{{1.5, 0.5, 0.25}, 0.0}), unit_sphere}},
      {"zero_radius_capsule_vs_sphere", {Make(Capsule{{-2, 0.5, 0}, {2, 0.5, 0}, 0.0}), unit_sphere}},
      {"point_capsule_vs_aabb", {Make(Capsule{{1.5, 0.5, 0.25}, {1.5, 0.5, 0.25}, 0.25}), box}},
      {"zero_length_segment_vs_triangle",
       {Make(Segment{{0.2, 0.1, 1}, {0.2, 0.1, 1}}), Make(Triangle{{-1, -1, 0}, {1, -1, 0}, {0, 1, 0}})}},
      {"flat_aabb_vs_sphere", {Make(Aabb{{-1, -1, 0}, {1, 1, 0}}), unit_sphere}},
      {"point_aabb_vs_capsule",
       {Make(Aabb{{0.5, 0.5, 0.5}, {0.5, 0.5, 0.5}}), Make(Capsule{{-1, 0, 0}, {1, 0, 0}, 0.25})}},
      {"zero_extent_obb_vs_sphere",
       {MakeObb({0.5, 0.2, 0.1}, Normalized({1, 0.2, 0.1, 0}), {0, 0, 0}), unit_sphere}},
      {"collinear_triangle_vs_sphere", {Make(Triangle{{-1, 2, 0}, {0, 2, 0}, {1, 2, 0}}), unit_sphere}},
      {"coincident_triangle_vs_aabb", {Make(Triangle{{1.5, 0.5, 0}, {1.5, 0.5, 0}, {1.5, 0.5, 0}}), box}},
      {"single_vertex_hull_vs_sphere", {MakeHull({{1.5, 0.5, 0.25}}), unit_sphere}},
      {"duplicate_vertex_hull_vs_obb",
       {MakeHull({{2, 0, 0}, {2, 0, 0}, {3, 1, 0}, {3, 1, 0}, {2.5, 0.5, 1}}),
        MakeObb({0, 0, 0}, Normalized({0.9, 0, 0, 0.3}), {1, 0.5, 0.5})}},
      {"touching_spheres", {Make(Sphere{{0, 0, 0}, 1}), Make(Sphere{{2, 0, 0}, 1})}},
      {"touching_aabbs_face", {box, Make(Aabb{{1, -0.5, -0.5}, {2, 0.5, 0.5}})}},
      {"point_on_aabb_face", {Make(Point{{1, 0.25, -0.5}}), box}},
      {"point_on_halfspace_plane", {Make(Point{{0.5, 0.25, 0}}), Make(Halfspace{{0, 0, 1}, 0})}},
  };
  for (const auto& [name, pair] : pairs) {
    for (QueryLevel level : kAllLevels) {
      AddQueryPairs(cases, "degenerate/" + LevelName(level) + "/" + name, level,
                    {pair, {pair.second, pair.first}});
    }
  }
  AddCastRays(cases, "degenerate/rays",
              {{Ray{{-4, 0.25, 0.125}, {1, 0, 0}}, Make(Sphere{{0, 0.25, 0.125}, 0.0})},
               {Ray{{-4, 0.25, 0.125}, {1, 0, 0}}, Make(Aabb{{0, -1, -1}, {0, 1, 1}})},
               {Ray{{-4, 0.25, 0}, {1, 0, 0}}, Make(Capsule{{0, 0.25, 0}, {0, 0.25, 0}, 0.5})},
               {Ray{{-4, 0.25, 0}, {1, 0, 0}, 0}, box}});
}

// ------------------------------------------------------------------ errors

Json Error(const std::string& code, std::vector<std::string> fields) {
  Json e = {{"code", code}};
  e["field_violations"] = fields;
  return e;
}

void AddError(Json& cases, const std::string& name, const std::string& rpc, const char* request, Json error) {
  cases.push_back({{"name", "errors/" + name},
                   {"rpc", rpc},
                   {"request", Json::parse(request)},
                   {"error", std::move(error)}});
}

// One case per error class of collide.proto, with the field paths it
// documents ("pairs[3].b.capsule.radius", "a.data[41]").
void AddErrors(Json& cases) {
  const std::string kInvalid = "INVALID_ARGUMENT";
  constexpr const char* kSphere = R"({"sphere": {"center": {"x": 0}, "radius": 1}})";
  auto pairs_with = [&](const std::string& a, const std::string& b) {
    return std::string(R"({"level": "QUERY_LEVEL_CONTACT", "pairs": [{"a": )") + a + R"(, "b": )" + b + "}]}";
  };
  const std::string sphere = kSphere;
  struct Readable {
    const char* name;
    std::string a, b;
    std::vector<std::string> fields;
  };
  const std::vector<Readable> readable = {
      {"nan_coordinate",
       R"({"sphere": {"center": {"x": "NaN"}, "radius": 1}})",
       sphere,
       {"pairs[0].a.sphere.center.x"}},
      {"infinite_radius", sphere, R"({"sphere": {"radius": "Infinity"}})", {"pairs[0].b.sphere.radius"}},
      {"negative_infinite_coordinate",
       R"({"point": {"position": {"z": "-Infinity"}}})",
       sphere,
       {"pairs[0].a.point.position.z"}},
      {"magnitude_over_1e12", R"({"segment": {"b": {"y": 2e12}}})", sphere, {"pairs[0].a.segment.b.y"}},
      {"negative_radius",
       sphere,
       R"({"capsule": {"b": {"x": 1}, "radius": -0.5}})",
       {"pairs[0].b.capsule.radius"}},
      {"negative_half_extent",
       R"({"obb": {"half_extents": {"x": 1, "y": -1, "z": 1}}})",
       sphere,
       {"pairs[0].a.obb.half_extents.y"}},
      {"min_greater_than_max",
       R"({"aabb": {"min": {"x": 2}, "max": {"x": 1, "y": 1, "z": 1}}})",
       sphere,
       {"pairs[0].a.aabb.min.x"}},
      {"non_unit_quaternion",
       R"({"obb": {"rotation": {"w": 2}, "half_extents": {"x": 1, "y": 1, "z": 1}}})",
       sphere,
       {"pairs[0].a.obb.rotation"}},
      {"non_unit_halfspace_normal",
       sphere,
       R"({"halfspace": {"normal": {"z": 2}}})",
       {"pairs[0].b.halfspace.normal"}},
      {"empty_hull", R"({"convex_hull": {}})", sphere, {"pairs[0].a.convex_hull.vertices"}},
      {"unset_shape", sphere, "{}", {"pairs[0].b"}},
  };
  for (const Readable& r : readable) {
    AddError(cases, r.name, "QueryPairs", pairs_with(r.a, r.b).c_str(), Error(kInvalid, r.fields));
  }
  AddError(cases, "every_violation_listed", "QueryPairs", R"({"level": "QUERY_LEVEL_DISTANCE", "pairs": [
      {"a": {"sphere": {"radius": -1}}, "b": {"point": {}}},
      {"a": {"point": {}}, "b": {"point": {}}},
      {"a": {"point": {}}, "b": {"aabb": {"min": {"y": 1}, "max": {"z": "NaN"}}}}]})",
           Error(kInvalid, {"pairs[0].a.sphere.radius", "pairs[2].b.aabb.max.z", "pairs[2].b.aabb.min.y"}));
  AddError(cases, "unspecified_level", "QueryPairs",
           R"({"pairs": [{"a": {"point": {}}, "b": {"point": {}}}]})", Error(kInvalid, {"level"}));
  AddError(cases, "unknown_level", "QueryPairs",
           R"({"level": 99, "pairs": [{"a": {"point": {}}, "b": {"point": {}}}]})",
           Error(kInvalid, {"level"}));
  AddError(cases, "empty_batch", "QueryPairs", R"({"level": "QUERY_LEVEL_INTERSECT"})",
           Error(kInvalid, {"pairs"}));
  AddError(cases, "halfspace_halfspace", "QueryPairs", R"({"level": "QUERY_LEVEL_CONTACT", "pairs": [
      {"a": {"point": {}}, "b": {"halfspace": {"normal": {"z": 1}}}},
      {"a": {"halfspace": {"normal": {"z": 1}}}, "b": {"halfspace": {"normal": {"x": 1}}}}]})",
           Error("UNIMPLEMENTED", {"pairs[1]"}));

  // Packed: paths index the flat array.
  AddError(cases, "packed_nan", "QueryPairsPacked", R"({"level": "QUERY_LEVEL_CONTACT",
      "a": {"kind": "PACKED_SHAPE_KIND_POINT", "data": [0, 0, 0, 1, 2, "NaN"]},
      "b": {"kind": "PACKED_SHAPE_KIND_POINT", "data": [0, 0, 0, 1, 2, 3]}})",
           Error(kInvalid, {"a.data[5]"}));
  AddError(cases, "packed_negative_radius", "QueryPairsPacked", R"({"level": "QUERY_LEVEL_DISTANCE",
      "a": {"kind": "PACKED_SHAPE_KIND_POINT", "data": [0, 0, 0, 1, 2, 3]},
      "b": {"kind": "PACKED_SHAPE_KIND_SPHERE", "data": [0, 0, 0, 1, 5, 5, 5, -1]}})",
           Error(kInvalid, {"b.data[7]"}));
  AddError(cases, "packed_non_unit_quaternion", "QueryPairsPacked", R"({"level": "QUERY_LEVEL_INTERSECT",
      "a": {"kind": "PACKED_SHAPE_KIND_OBB", "data": [0, 0, 0, 0, 0, 0, 0, 1, 1, 1]},
      "b": {"kind": "PACKED_SHAPE_KIND_POINT", "data": [0, 0, 0]}})",
           Error(kInvalid, {"a.data[3]"}));
  AddError(cases, "packed_min_greater_than_max", "QueryPairsPacked", R"({"level": "QUERY_LEVEL_INTERSECT",
      "a": {"kind": "PACKED_SHAPE_KIND_AABB", "data": [0, 3, 0, 1, 1, 1]},
      "b": {"kind": "PACKED_SHAPE_KIND_POINT", "data": [0, 0, 0]}})",
           Error(kInvalid, {"a.data[1]"}));
  AddError(cases, "packed_unspecified_kind", "QueryPairsPacked", R"({"level": "QUERY_LEVEL_INTERSECT",
      "a": {"data": [0, 0, 0]}, "b": {"kind": "PACKED_SHAPE_KIND_POINT", "data": [0, 0, 0]}})",
           Error(kInvalid, {"a.kind"}));
  AddError(cases, "packed_unknown_kind", "QueryPairsPacked", R"({"level": "QUERY_LEVEL_INTERSECT",
      "a": {"kind": "PACKED_SHAPE_KIND_POINT", "data": [0, 0, 0]}, "b": {"kind": 42, "data": [0, 0, 0]}})",
           Error(kInvalid, {"b.kind"}));
  AddError(cases, "packed_unknown_level", "QueryPairsPacked", R"({"level": 7,
      "a": {"kind": "PACKED_SHAPE_KIND_POINT", "data": [0, 0, 0]},
      "b": {"kind": "PACKED_SHAPE_KIND_POINT", "data": [0, 0, 0]}})",
           Error(kInvalid, {"level"}));
  AddError(cases, "packed_not_a_multiple_of_stride", "QueryPairsPacked", R"({"level": "QUERY_LEVEL_INTERSECT",
      "a": {"kind": "PACKED_SHAPE_KIND_SPHERE", "data": [0, 0, 0, 1, 0]},
      "b": {"kind": "PACKED_SHAPE_KIND_POINT", "data": [0, 0, 0]}})",
           Error(kInvalid, {"a.data"}));
  AddError(cases, "packed_count_mismatch", "QueryPairsPacked", R"({"level": "QUERY_LEVEL_INTERSECT",
      "a": {"kind": "PACKED_SHAPE_KIND_POINT", "data": [0, 0, 0, 1, 1, 1]},
      "b": {"kind": "PACKED_SHAPE_KIND_POINT", "data": [0, 0, 0]}})",
           Error(kInvalid, {"b.data"}));
  AddError(cases, "packed_empty_batch", "QueryPairsPacked", R"({"level": "QUERY_LEVEL_INTERSECT",
      "a": {"kind": "PACKED_SHAPE_KIND_POINT"}, "b": {"kind": "PACKED_SHAPE_KIND_POINT"}})",
           Error(kInvalid, {"a.data"}));
  AddError(cases, "packed_halfspace_halfspace", "QueryPairsPacked", R"({"level": "QUERY_LEVEL_CONTACT",
      "a": {"kind": "PACKED_SHAPE_KIND_HALFSPACE", "data": [0, 0, 1, 0]},
      "b": {"kind": "PACKED_SHAPE_KIND_HALFSPACE", "data": [1, 0, 0, 0]}})",
           Error("UNIMPLEMENTED", {"b.kind"}));

  // Rays.
  constexpr const char* kRayCast = R"({"casts": [{"ray": %RAY%, "shape": %SHAPE%}]})";
  auto cast = [&](const std::string& ray, const std::string& shape) {
    std::string s = kRayCast;
    s.replace(s.find("%RAY%"), 5, ray);
    s.replace(s.find("%SHAPE%"), 7, shape);
    return s;
  };
  const std::string ray = R"({"direction": {"x": 1}})";
  AddError(cases, "ray_zero_direction", "CastRays", cast(R"({"origin": {"x": 1}})", sphere).c_str(),
           Error(kInvalid, {"casts[0].ray.direction"}));
  AddError(cases, "ray_negative_max_distance", "CastRays",
           cast(R"({"direction": {"x": 1}, "max_distance": -1})", sphere).c_str(),
           Error(kInvalid, {"casts[0].ray.max_distance"}));
  AddError(cases, "ray_nan_origin", "CastRays",
           cast(R"({"origin": {"y": "NaN"}, "direction": {"x": 1}})", sphere).c_str(),
           Error(kInvalid, {"casts[0].ray.origin.y"}));
  AddError(cases, "ray_bad_shape", "CastRays", cast(ray, R"({"capsule": {"radius": -2}})").c_str(),
           Error(kInvalid, {"casts[0].shape.capsule.radius"}));
  AddError(cases, "ray_unset_shape", "CastRays", cast(ray, "{}").c_str(),
           Error(kInvalid, {"casts[0].shape"}));
  AddError(cases, "ray_empty_batch", "CastRays", "{}", Error(kInvalid, {"casts"}));
  AddError(cases, "rays_packed_not_a_multiple_of_7", "CastRaysPacked", R"({"rays": [0, 0, 0, 1, 0, 0],
      "shapes": {"kind": "PACKED_SHAPE_KIND_POINT", "data": [0, 0, 0]}})",
           Error(kInvalid, {"rays"}));
  AddError(cases, "rays_packed_negative_max_distance", "CastRaysPacked",
           R"({"rays": [0, 0, 0, 1, 0, 0, "Infinity", 0, 0, 0, 1, 0, 0, -1],
      "shapes": {"kind": "PACKED_SHAPE_KIND_POINT", "data": [0, 0, 0, 1, 1, 1]}})",
           Error(kInvalid, {"rays[13]"}));
  AddError(cases, "rays_packed_bad_shape", "CastRaysPacked", R"({"rays": [0, 0, 0, 1, 0, 0, 10],
      "shapes": {"kind": "PACKED_SHAPE_KIND_SPHERE", "data": [0, 0, "NaN", 1]}})",
           Error(kInvalid, {"shapes.data[2]"}));
  AddError(cases, "rays_packed_unspecified_kind", "CastRaysPacked", R"({"rays": [0, 0, 0, 1, 0, 0, 10],
      "shapes": {"data": [0, 0, 0]}})",
           Error(kInvalid, {"shapes.kind"}));

  // Over the server's --max_items_per_request: RESOURCE_EXHAUSTED.
  const int n = kMaxItemsPerRequest + 1;
  Json over = {{"level", "QUERY_LEVEL_INTERSECT"}, {"pairs", Json::array()}};
  Json points = Json::array();
  for (int i = 0; i < n; ++i) {
    over["pairs"].push_back(
        {{"a", {{"point", {{"position", V({double(i), 0, 0})}}}}}, {"b", {{"point", Json::object()}}}});
    points.push_back(double(i)), points.push_back(0.0), points.push_back(0.0);
  }
  cases.push_back({{"name", "errors/over_limit_batch"},
                   {"rpc", "QueryPairs"},
                   {"request", over},
                   {"error", {{"code", "RESOURCE_EXHAUSTED"}}}});
  cases.push_back({{"name", "errors/packed_over_limit_batch"},
                   {"rpc", "QueryPairsPacked"},
                   {"request",
                    {{"level", "QUERY_LEVEL_INTERSECT"},
                     {"a", {{"kind", "PACKED_SHAPE_KIND_POINT"}, {"data", points}}},
                     {"b", {{"kind", "PACKED_SHAPE_KIND_POINT"}, {"data", points}}}}},
                   {"error", {{"code", "RESOURCE_EXHAUSTED"}}}});
}

void AddService(Json& cases) {
  cases.push_back({{"name", "service/server_info"},
                   {"rpc", "GetServerInfo"},
                   {"request", Json::object()},
                   {"response", {{"max_items_per_request", kMaxItemsPerRequest}}}});
  cases.push_back({{"name", "service/health"},
                   {"rpc", "Health"},
                   {"request", {{"service", ""}}},
                   {"response", {{"status", "SERVING"}}}});
}

}  // namespace

Json BuildGolden() {
  Json cases = Json::array();
  AddService(cases);
  AddAllPairs(cases);
  AddAllPackedPairs(cases);
  AddAllRays(cases);
  AddDegenerate(cases);
  AddErrors(cases);
  return {{"tolerance", {{"abs", kAbsTolerance}, {"rel", kRelTolerance}}},
          {"server_args", {"--max_items_per_request=" + std::to_string(kMaxItemsPerRequest)}},
          {"cases", cases}};
}

}  // namespace collide::conformance
