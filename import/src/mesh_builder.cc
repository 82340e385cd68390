#include "mesh_builder.h"

#include <bit>

namespace collide::importer {

MeshBuilder::MeshBuilder(std::uint64_t triangles) {
  mesh_.triangles.reserve(triangles);
  index_of_.reserve(triangles / 2);  // closed meshes have about half as many vertices as triangles
}

std::uint32_t MeshBuilder::Vertex(const Vec3& p) {
  // + 0.0 turns -0 into +0 so that both weld (IEEE 754: -0 + +0 = +0).
  const std::array<std::uint64_t, 3> key = {std::bit_cast<std::uint64_t>(p.x + 0.0),
                                            std::bit_cast<std::uint64_t>(p.y + 0.0),
                                            std::bit_cast<std::uint64_t>(p.z + 0.0)};
  const auto [it, added] = index_of_.try_emplace(key, static_cast<std::uint32_t>(mesh_.vertices.size()));
  if (added) mesh_.vertices.push_back(p);
  return it->second;
}

Vec3 OutputPoint(const Vec3& v, UpAxis stored, const ImportOptions& options) {
  const UpAxis to = options.up == UpAxis::kAsStored ? stored : options.up;
  Vec3 out = v;
  // Z up -> Y up is a rotation of -90 degrees about X: (x, y, z) -> (x, z, -y);
  // Y up -> Z up its inverse: (x, y, z) -> (x, -z, y).
  if (stored == UpAxis::kZ && to == UpAxis::kY) out = {v.x, v.z, -v.y};
  if (stored == UpAxis::kY && to == UpAxis::kZ) out = {v.x, -v.z, v.y};
  if (options.scale != 1.0) out = out * options.scale;
  return out;
}

MeshData MeshBuilder::Finish(UpAxis stored, const ImportOptions& options, ImportStats& stats) && {
  for (Vec3& v : mesh_.vertices) v = OutputPoint(v, stored, options);
  stats.stored_up = stored;
  stats.min = stats.max = Vec3{};
  if (!mesh_.vertices.empty()) stats.min = stats.max = mesh_.vertices[0];
  for (const Vec3& v : mesh_.vertices) {
    stats.min = Min(stats.min, v);
    stats.max = Max(stats.max, v);
  }
  // The mesh is kept for the life of a world: no spare capacity.
  mesh_.vertices.shrink_to_fit();
  mesh_.triangles.shrink_to_fit();
  return std::move(mesh_);
}

}  // namespace collide::importer
