#include "synthetic_bsp.h"

#include <array>
#include <bit>
#include <cstring>

namespace collide::testing {
namespace {

void PutI32(std::string& s, std::int32_t v) {
  const auto u = static_cast<std::uint32_t>(v);
  for (int k = 0; k < 4; ++k) s.push_back(static_cast<char>((u >> (8 * k)) & 0xff));
}
void PutF32(std::string& s, double v) { PutI32(s, std::bit_cast<std::int32_t>(static_cast<float>(v))); }
void PutVec(std::string& s, const Vec3& v) {
  PutF32(s, v.x);
  PutF32(s, v.y);
  PutF32(s, v.z);
}

}  // namespace

std::int32_t SyntheticBsp::Shader(const std::string& name, std::int32_t surface, std::int32_t contents) {
  shaders.push_back({name, {surface, contents}});
  return static_cast<std::int32_t>(shaders.size()) - 1;
}

std::int32_t SyntheticBsp::Brush(const std::vector<importer::BspPlane>& sides, std::int32_t shader) {
  const std::int32_t first = static_cast<std::int32_t>(brush_side_planes.size());
  for (const importer::BspPlane& side : sides) {
    brush_side_planes.push_back(static_cast<std::int32_t>(planes.size()));
    brush_side_shaders.push_back(shader);
    planes.push_back(side);
  }
  brushes.push_back({first, static_cast<std::int32_t>(sides.size()), shader});
  return static_cast<std::int32_t>(brushes.size()) - 1;
}

std::int32_t SyntheticBsp::BoxBrush(const Vec3& lo, const Vec3& hi, std::int32_t shader) {
  std::vector<importer::BspPlane> sides;
  for (int axis = 0; axis < 3; ++axis) {
    Vec3 n{};
    n[axis] = 1;
    sides.push_back({n, hi[axis]});
    n[axis] = -1;
    sides.push_back({n, -lo[axis]});
  }
  return Brush(sides, shader);
}

void SyntheticBsp::PolygonFace(const std::vector<Vec3>& corners, std::int32_t shader) {
  importer::BspFace face;
  face.shader = shader;
  face.type = importer::kPolygon;
  face.first_vertex = static_cast<std::int32_t>(vertices.size());
  face.num_vertices = static_cast<std::int32_t>(corners.size());
  face.first_meshvert = static_cast<std::int32_t>(meshverts.size());
  for (std::int32_t k = 2; k < face.num_vertices; ++k) meshverts.insert(meshverts.end(), {0, k - 1, k});
  face.num_meshverts = static_cast<std::int32_t>(meshverts.size()) - face.first_meshvert;
  vertices.insert(vertices.end(), corners.begin(), corners.end());
  faces.push_back(face);
}

std::string SyntheticBsp::Bytes() const {
  std::array<std::string, 17> lumps;
  for (const importer::BspShader& s : shaders) {
    std::string name(64, '\0');
    std::memcpy(name.data(), s.name.data(), std::min<std::size_t>(s.name.size(), 63));
    lumps[1] += name;
    PutI32(lumps[1], s.flags.surface);
    PutI32(lumps[1], s.flags.contents);
  }
  for (const importer::BspPlane& p : planes) {
    PutVec(lumps[2], p.normal);
    PutF32(lumps[2], p.dist);
  }
  // The world model: mins, maxs (unread), faces, brushes.
  for (int k = 0; k < 6; ++k) PutF32(lumps[7], 0);
  for (std::size_t v : {std::size_t{0}, faces.size(), std::size_t{0}, brushes.size()})
    PutI32(lumps[7], static_cast<std::int32_t>(v));
  for (const importer::BspBrush& b : brushes) {
    PutI32(lumps[8], b.first_side);
    PutI32(lumps[8], b.num_sides);
    PutI32(lumps[8], b.shader);
  }
  for (std::size_t i = 0; i < brush_side_planes.size(); ++i) {
    PutI32(lumps[9], brush_side_planes[i]);
    PutI32(lumps[9], brush_side_shaders[i]);
  }
  for (const Vec3& v : vertices) {
    PutVec(lumps[10], v);
    lumps[10].append(44 - 12, '\0');  // texture, lightmap, normal, colour
  }
  for (std::int32_t m : meshverts) PutI32(lumps[11], m);
  for (const importer::BspFace& f : faces) {
    for (std::int32_t v :
         {f.shader, -1, f.type, f.first_vertex, f.num_vertices, f.first_meshvert, f.num_meshverts})
      PutI32(lumps[13], v);
    lumps[13].append(96 - 28, '\0');  // lightmap fields, normal
    PutI32(lumps[13], f.patch_width);
    PutI32(lumps[13], f.patch_height);
  }
  std::string out = "IBSP";
  PutI32(out, 46);
  std::int32_t offset = 8 + 17 * 8;
  for (const std::string& lump : lumps) {
    PutI32(out, offset);
    PutI32(out, static_cast<std::int32_t>(lump.size()));
    offset += static_cast<std::int32_t>(lump.size());
  }
  for (const std::string& lump : lumps) out += lump;
  return out;
}

}  // namespace collide::testing
