#include "convert/requests.h"

#include <algorithm>
#include <optional>
#include <string>

#include "convert/packed.h"

namespace collide::convert {
namespace {

std::string Indexed(std::string_view name, std::size_t i) {
  std::string s(name);
  s += '[';
  s += std::to_string(i);
  s += ']';
  return s;
}

// Shapes in a packed array of known kind; 0 when the kind is unknown.
std::size_t PackedCount(const v1::PackedShapes& shapes) {
  const std::optional<ShapeKind> kind = PackedKindFromProto(shapes.kind());
  return kind ? static_cast<std::size_t>(shapes.data_size()) / PackedStride(*kind) : 0;
}

bool DecodeLevel(int level, QueryLevel& out, ViolationList& violations) {
  if (const std::optional<QueryLevel> l = LevelFromProto(level)) {
    out = *l;
    return true;
  }
  violations.Add("level", "must be QUERY_LEVEL_INTERSECT, QUERY_LEVEL_DISTANCE or QUERY_LEVEL_CONTACT, got " +
                              std::to_string(level));
  return false;
}

// Checks the kind and length of a packed array named `name` ("a", "shapes");
// returns its kind when both are good.
std::optional<ShapeKind> CheckPackedShapes(const v1::PackedShapes& shapes, std::string_view name,
                                           ViolationList& violations) {
  const std::optional<ShapeKind> kind = PackedKindFromProto(shapes.kind());
  if (!kind) {
    violations.Add(JoinPath(name, "kind"), "must be a PACKED_SHAPE_KIND other than UNSPECIFIED, got " +
                                               std::to_string(shapes.kind()));
    return std::nullopt;
  }
  const int stride = PackedStride(*kind);
  if (shapes.data_size() % stride != 0) {
    violations.Add(JoinPath(name, "data"), "length must be a multiple of " + std::to_string(stride) +
                                               " (the " + std::string(ShapeKindName(*kind)) +
                                               " stride), got " + std::to_string(shapes.data_size()));
    return std::nullopt;
  }
  return kind;
}

// Unpacks and validates every shape of a checked packed array into `out`.
// A violation of shape i's field f is reported at "<name>.data[i * stride +
// offset(f)]".
void UnpackShapes(const v1::PackedShapes& shapes, ShapeKind kind, std::string_view name,
                  std::vector<Shape>& out, std::vector<Violation>& scratch, ViolationList& violations) {
  const int stride = PackedStride(kind);
  const std::size_t n = static_cast<std::size_t>(shapes.data_size() / stride);
  out.resize(n);
  const double* data = shapes.data().data();
  for (std::size_t i = 0; i < n; ++i) {
    if (UnpackShape(kind, data + i * stride, out[i], scratch)) continue;
    for (Violation& v : scratch) {
      const std::size_t index = i * stride + PackedFieldOffset(kind, v.field);
      violations.Add(
          Indexed(JoinPath(name, "data"), index),
          std::string(ShapeKindName(kind)) + " " + std::to_string(i) + " " + v.field + ": " + v.description);
    }
    scratch.clear();
  }
}

}  // namespace

std::size_t ItemCount(const v1::QueryPairsRequest& request) { return request.pairs_size(); }

std::size_t ItemCount(const v1::QueryPairsPackedRequest& request) {
  return std::max(PackedCount(request.a()), PackedCount(request.b()));
}

std::size_t ItemCount(const v1::CastRaysRequest& request) { return request.casts_size(); }

std::size_t ItemCount(const v1::CastRaysPackedRequest& request) {
  return std::max(static_cast<std::size_t>(request.rays_size() / kPackedRayStride),
                  PackedCount(request.shapes()));
}

bool Decode(const v1::QueryPairsRequest& request, PairBatch& out, ViolationList& violations) {
  const std::size_t before = violations.total();
  DecodeLevel(request.level(), out.level, violations);
  const std::size_t n = static_cast<std::size_t>(request.pairs_size());
  if (n == 0) violations.Add("pairs", "must hold at least 1 pair");
  out.arena.Clear();
  out.a.resize(n);
  out.b.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const v1::ShapePair& pair = request.pairs(static_cast<int>(i));
    if (!FromProto(pair.a(), out.a[i], out.arena, out.scratch)) {
      violations.AddUnder(Indexed("pairs", i) + ".a", out.scratch);
    }
    if (!FromProto(pair.b(), out.b[i], out.arena, out.scratch)) {
      violations.AddUnder(Indexed("pairs", i) + ".b", out.scratch);
    }
  }
  return violations.total() == before;
}

bool Decode(const v1::QueryPairsPackedRequest& request, PairBatch& out, ViolationList& violations) {
  const std::size_t before = violations.total();
  DecodeLevel(request.level(), out.level, violations);
  const std::optional<ShapeKind> ka = CheckPackedShapes(request.a(), "a", violations);
  const std::optional<ShapeKind> kb = CheckPackedShapes(request.b(), "b", violations);
  if (ka && kb) {
    const std::size_t na = PackedCount(request.a());
    const std::size_t nb = PackedCount(request.b());
    if (na == 0) violations.Add("a.data", "must hold at least 1 shape");
    if (na != nb) {
      violations.Add("b.data",
                     "must hold as many shapes as a (" + std::to_string(na) + "), got " + std::to_string(nb));
    }
  }
  if (ka) UnpackShapes(request.a(), *ka, "a", out.a, out.scratch, violations);
  if (kb) UnpackShapes(request.b(), *kb, "b", out.b, out.scratch, violations);
  return violations.total() == before;
}

bool Decode(const v1::CastRaysRequest& request, RayBatch& out, ViolationList& violations) {
  const std::size_t before = violations.total();
  const std::size_t n = static_cast<std::size_t>(request.casts_size());
  if (n == 0) violations.Add("casts", "must hold at least 1 cast");
  out.arena.Clear();
  out.rays.resize(n);
  out.shapes.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const v1::RayCast& cast = request.casts(static_cast<int>(i));
    if (!FromProto(cast.ray(), out.rays[i], out.scratch)) {
      violations.AddUnder(Indexed("casts", i) + ".ray", out.scratch);
    }
    if (!FromProto(cast.shape(), out.shapes[i], out.arena, out.scratch)) {
      violations.AddUnder(Indexed("casts", i) + ".shape", out.scratch);
    }
  }
  return violations.total() == before;
}

bool Decode(const v1::CastRaysPackedRequest& request, RayBatch& out, ViolationList& violations) {
  const std::size_t before = violations.total();
  bool rays_ok = true;
  if (request.rays_size() % kPackedRayStride != 0) {
    violations.Add("rays", "length must be a multiple of 7 (origin, direction, max_distance), got " +
                               std::to_string(request.rays_size()));
    rays_ok = false;
  }
  const std::optional<ShapeKind> kind = CheckPackedShapes(request.shapes(), "shapes", violations);
  const std::size_t nr = static_cast<std::size_t>(request.rays_size() / kPackedRayStride);
  if (rays_ok && nr == 0) violations.Add("rays", "must hold at least 1 ray");
  if (rays_ok && kind && PackedCount(request.shapes()) != nr) {
    violations.Add("shapes.data", "must hold one shape per ray (" + std::to_string(nr) + "), got " +
                                      std::to_string(PackedCount(request.shapes())));
  }
  if (rays_ok) {
    out.rays.resize(nr);
    const double* data = request.rays().data();
    for (std::size_t i = 0; i < nr; ++i) {
      if (UnpackRay(data + i * kPackedRayStride, out.rays[i], out.scratch)) continue;
      for (Violation& v : out.scratch) {
        violations.Add(Indexed("rays", i * kPackedRayStride + PackedRayFieldOffset(v.field)),
                       "ray " + std::to_string(i) + " " + v.field + ": " + v.description);
      }
      out.scratch.clear();
    }
  }
  if (kind) UnpackShapes(request.shapes(), *kind, "shapes", out.shapes, out.scratch, violations);
  return violations.total() == before;
}

}  // namespace collide::convert
