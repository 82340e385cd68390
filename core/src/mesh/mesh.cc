// TriangleMesh construction and the mesh validity predicate.
#include "collide/mesh.h"

#include <string>

#include "mesh/bvh.h"
#include "query/raycast/exact_sign.h"

namespace collide {
namespace {

// Appends one violation unless the list is full; at the cap, one last entry
// says that more were left out.
void Report(std::vector<Violation>& out, std::size_t& reported, std::string field, std::string description) {
  if (reported < kMaxMeshViolations) {
    out.push_back({std::move(field), std::move(description)});
  } else if (reported == kMaxMeshViolations) {
    out.push_back({"triangles", "more violations left out (only the first 100 are listed)"});
  }
  ++reported;
}

}  // namespace

bool ValidateMesh(const MeshData& mesh, std::vector<Violation>& out) {
  std::size_t reported = 0;
  if (mesh.vertices.size() > kMaxMeshTriangles) {
    Report(out, reported, "vertices", "at most 2^29 vertices, got " + std::to_string(mesh.vertices.size()));
  }
  if (mesh.triangles.size() > kMaxMeshTriangles) {
    Report(out, reported, "triangles",
           "at most 2^29 triangles, got " + std::to_string(mesh.triangles.size()));
  }
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
    const Vec3& v = mesh.vertices[i];
    if (IsValidNumber(v)) continue;  // the common case: no string built.
    std::vector<Violation> numbers;
    Validate(Point{v}, numbers);  // names the bad coordinates "position.x" ...
    for (Violation& n : numbers) {
      const std::string axis = n.field.substr(n.field.rfind('.'));
      Report(out, reported, "vertices[" + std::to_string(i) + "]" + axis, std::move(n.description));
    }
  }
  const std::size_t nv = mesh.vertices.size();
  for (std::size_t i = 0; i < mesh.triangles.size(); ++i) {
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t index = mesh.triangles[i][k];
      if (index < nv) continue;
      Report(out, reported, "triangles[" + std::to_string(i) + "][" + std::to_string(k) + "]",
             "vertex index must be < " + std::to_string(nv) + ", got " + std::to_string(index));
    }
  }
  return reported == 0;
}

TriangleMesh::TriangleMesh(MeshData data) : data_(std::move(data)) {
  const std::size_t nv = data_.vertices.size();
  // Vertices usable by a triangle (finite, in range) are tested once each.
  std::vector<bool> good(nv);
  for (std::size_t i = 0; i < nv; ++i) good[i] = IsValidNumber(data_.vertices[i]);
  std::vector<internal::BvhTriangle> tris;
  const std::size_t n = std::min(data_.triangles.size(), kMaxMeshTriangles);
  invalid_count_ = data_.triangles.size() - n;
  tris.reserve(n);
  bounds_ = {{kInfinity, kInfinity, kInfinity}, {-kInfinity, -kInfinity, -kInfinity}};
  for (std::size_t i = 0; i < n; ++i) {
    const TriangleIndices& t = data_.triangles[i];
    if (!(t[0] < nv && t[1] < nv && t[2] < nv && good[t[0]] && good[t[1]] && good[t[2]])) {
      ++invalid_count_;
      continue;
    }
    const Vec3 &a = data_.vertices[t[0]], &b = data_.vertices[t[1]], &c = data_.vertices[t[2]];
    if (internal::ExactlyCollinear(a, b, c)) {
      ++degenerate_count_;
      continue;
    }
    bounds_.min = Min(bounds_.min, Min(a, Min(b, c)));
    bounds_.max = Max(bounds_.max, Max(a, Max(b, c)));
    tris.push_back({{t[0], t[1], t[2]}, static_cast<std::uint32_t>(i)});
  }
  bvh_ = std::make_unique<internal::Bvh>(internal::BuildBvh(data_.vertices, std::move(tris)));
}

TriangleMesh::TriangleMesh(TriangleMesh&&) noexcept = default;
TriangleMesh& TriangleMesh::operator=(TriangleMesh&&) noexcept = default;
TriangleMesh::~TriangleMesh() = default;

Triangle TriangleMesh::triangle(std::size_t i) const {
  const TriangleIndices& t = data_.triangles[i];
  return {data_.vertices[t[0]], data_.vertices[t[1]], data_.vertices[t[2]]};
}

std::size_t TriangleMesh::memory_bytes() const {
  return data_.vertices.capacity() * sizeof(Vec3) + data_.triangles.capacity() * sizeof(TriangleIndices) +
         bvh_->nodes.capacity() * sizeof(internal::BvhNode) +
         bvh_->triangles.capacity() * sizeof(internal::BvhTriangle) + sizeof(internal::Bvh);
}

}  // namespace collide
