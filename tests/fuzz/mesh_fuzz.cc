// libFuzzer target over mesh validation, the BVH build and mesh queries, on
// arbitrary vertex and index input: vertex coordinates from raw bits biased
// to the values that break geometry code (NaN, infinities, huge, tiny,
// repeated: degenerate and identical triangles), indices in and out of
// range. ValidateMesh must name every bad item without crashing, the build
// must accept anything (bad triangles left out and counted), and queries on
// the result must stay within their contracts: hits within the ray's range
// and on a queryable triangle, overlaps within the cap. Time is bounded by
// libFuzzer's -timeout (scripts/fuzz.sh: 25 s).
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "collide/mesh.h"

namespace collide {
namespace {

constexpr double kSpecial[] = {0.0, -0.0, 1.0, -1.0, 0.5, 1e-9, 1e12, 2e12, 1e-50, 1e-300, NAN, INFINITY, -INFINITY};

void Fail(const char* what) {
  std::fprintf(stderr, "mesh_fuzz: invariant violated: %s\n", what);
  std::abort();
}

double Coordinate(FuzzedDataProvider& p) {
  switch (p.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: return kSpecial[p.ConsumeIntegralInRange<std::size_t>(0, std::size(kSpecial) - 1)];
    case 1: return static_cast<double>(p.ConsumeIntegralInRange<int>(-4, 4));
    case 2: return p.ConsumeFloatingPointInRange<double>(-10.0, 10.0);
    default: return p.ConsumeFloatingPoint<double>();
  }
}

}  // namespace
}  // namespace collide

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace collide;
  FuzzedDataProvider p(data, size);
  MeshData m;
  const int nv = p.ConsumeIntegralInRange<int>(0, 64);
  for (int i = 0; i < nv; ++i) m.vertices.push_back({Coordinate(p), Coordinate(p), Coordinate(p)});
  const int nt = p.ConsumeIntegralInRange<int>(0, 512);
  for (int i = 0; i < nt && p.remaining_bytes() > 0; ++i) {
    TriangleIndices t;
    for (std::uint32_t& k : t) {
      k = p.ConsumeBool() ? p.ConsumeIntegral<std::uint32_t>() : p.ConsumeIntegralInRange<std::uint32_t>(0, nv + 1);
    }
    m.triangles.push_back(t);
  }
  std::vector<Violation> violations;
  const bool valid = ValidateMesh(m, violations);
  if (valid != violations.empty() || violations.size() > kMaxMeshViolations + 1) Fail("violation list");
  const TriangleMesh mesh(m);
  if (valid && mesh.invalid_count() != 0) Fail("a valid mesh has invalid triangles");
  if (mesh.degenerate_count() + mesh.invalid_count() > mesh.triangle_count()) Fail("counts");
  // A few queries from fuzzed rays and boxes.
  const Ray ray{{Coordinate(p), Coordinate(p), Coordinate(p)}, {Coordinate(p), Coordinate(p), Coordinate(p)},
                p.ConsumeBool() ? kInfinity : std::fabs(Coordinate(p))};
  if (IsValid(ray)) {
    const MeshRayHit hit = RayCastClosest(mesh, ray);
    if (hit.hit) {
      if (!(hit.distance >= 0.0 && hit.distance <= ray.max_distance)) Fail("ray hit outside its range");
      if (hit.triangle >= m.triangles.size()) Fail("ray hit triangle index");
      if (RayCastAny(mesh, ray).hit != true) Fail("closest hit but no any hit");
      if (!RayBlocked(mesh, ray)) Fail("closest hit but not blocked");
    } else if (RayCastAny(mesh, ray).hit || RayBlocked(mesh, ray)) {
      Fail("any hit but no closest hit");
    }
    std::vector<MeshRayHit> all;
    if (RayCastAll(mesh, ray, 4, all) < all.size() || all.size() > 4) Fail("all hits cap");
  }
  const Sphere sphere{{Coordinate(p), Coordinate(p), Coordinate(p)}, std::fabs(Coordinate(p))};
  if (IsValid(sphere)) {
    std::vector<std::uint32_t> ids;
    if (OverlapTriangles(mesh, sphere, 8, ids) < ids.size() || ids.size() > 8) Fail("overlap cap");
    const MeshPairResult d = QueryMesh(QueryLevel::kDistance, sphere, mesh);
    if (d.found && !(d.result.distance >= 0.0)) Fail("mesh distance");
  }
  return 0;
}
