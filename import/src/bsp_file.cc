#include "bsp_file.h"

#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "little_endian.h"

namespace collide::importer {
namespace {

// Lump numbers and record sizes (qfiles.h).
constexpr int kLumpCount = 17;
constexpr int kHeaderSize = 8 + kLumpCount * 8;
constexpr std::int32_t kVersion = 46;
struct Lump {
  int index;
  const char* name;
  std::size_t record_size;
};
constexpr Lump kShaders{1, "shaders", 72};
constexpr Lump kPlanes{2, "planes", 16};
constexpr Lump kModels{7, "models", 40};
constexpr Lump kBrushes{8, "brushes", 12};
constexpr Lump kBrushSides{9, "brushsides", 8};
constexpr Lump kVertices{10, "vertexes", 44};
constexpr Lump kMeshverts{11, "meshverts", 4};
constexpr Lump kFaces{13, "faces", 104};
constexpr const char* kLumpNames[kLumpCount] = {
    "entities",    "shaders", "planes",    "nodes",      "leafs",     "leafsurfaces",
    "leafbrushes", "models",  "brushes",   "brushsides", "vertexes",  "meshverts",
    "fogs",        "faces",   "lightmaps", "lightgrid",  "visibility"};

class Parser {
 public:
  Parser(std::string_view bytes, std::string_view name) : bytes_(bytes), name_(name) {}

  absl::Status Bad(const std::string& what) const {
    return absl::InvalidArgumentError(absl::StrCat(name_, ": ", what));
  }

  absl::Status Header() {
    if (bytes_.size() < kHeaderSize) {
      return Bad(absl::StrCat("truncated: ", bytes_.size(), " bytes is shorter than the ", kHeaderSize,
                              "-byte BSP header"));
    }
    if (bytes_.substr(0, 4) != "IBSP") return Bad("wrong magic: not a Quake 3 BSP (expected \"IBSP\")");
    if (const std::int32_t v = LoadI32(&bytes_[4]); v != kVersion) {
      return Bad(absl::StrCat("wrong version ", v, ": only Quake 3 BSP version 46 is supported"));
    }
    for (int i = 0; i < kLumpCount; ++i) {
      const std::int64_t offset = LoadI32(&bytes_[8 + 8 * i]), length = LoadI32(&bytes_[12 + 8 * i]);
      if (offset < 0 || length < 0 || offset + length > static_cast<std::int64_t>(bytes_.size())) {
        return Bad(absl::StrCat("lump ", i, " (", kLumpNames[i], ") at offset ", offset, " with length ",
                                length, " lies outside the ", bytes_.size(), "-byte file (truncated?)"));
      }
    }
    return absl::OkStatus();
  }

  // The lump's records; its length must be a whole number of them.
  absl::StatusOr<std::string_view> Records(const Lump& lump, std::size_t* count) const {
    const std::size_t offset = LoadU32(&bytes_[8 + 8 * lump.index]),
                      length = LoadU32(&bytes_[12 + 8 * lump.index]);
    if (length % lump.record_size != 0) {
      return Bad(absl::StrCat("lump ", lump.index, " (", lump.name, ") length ", length,
                              " is not a multiple of its ", lump.record_size, "-byte records"));
    }
    *count = length / lump.record_size;
    return bytes_.substr(offset, length);
  }

 private:
  std::string_view bytes_;
  std::string name_;
};

// Whether [first, first + count) lies in [0, size), without overflow.
bool RangeInside(std::int64_t first, std::int64_t count, std::size_t size) {
  return first >= 0 && count >= 0 && first + count <= static_cast<std::int64_t>(size);
}

}  // namespace

absl::StatusOr<BspFile> ParseBsp(std::string_view bytes, std::string_view name) {
  Parser parser(bytes, name);
  if (absl::Status s = parser.Header(); !s.ok()) return s;
  BspFile bsp;
  std::size_t n = 0;

  absl::StatusOr<std::string_view> lump = parser.Records(kShaders, &n);
  if (!lump.ok()) return lump.status();
  bsp.shaders.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const char* r = lump->data() + i * kShaders.record_size;
    bsp.shaders[i].name.assign(r, strnlen(r, 64));
    bsp.shaders[i].flags = {LoadI32(r + 64), LoadI32(r + 68)};
  }

  if (lump = parser.Records(kVertices, &n); !lump.ok()) return lump.status();
  bsp.vertices.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const char* r = lump->data() + i * kVertices.record_size;
    bsp.vertices[i] = {LoadF32(r), LoadF32(r + 4), LoadF32(r + 8)};
    if (!IsFinite(bsp.vertices[i])) return parser.Bad(absl::StrCat("vertex ", i, " is not finite"));
  }

  if (lump = parser.Records(kMeshverts, &n); !lump.ok()) return lump.status();
  bsp.meshverts.resize(n);
  for (std::size_t i = 0; i < n; ++i) bsp.meshverts[i] = LoadI32(lump->data() + 4 * i);

  if (lump = parser.Records(kFaces, &n); !lump.ok()) return lump.status();
  bsp.faces.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const char* r = lump->data() + i * kFaces.record_size;
    BspFace& f = bsp.faces[i];
    f = {LoadI32(r),      LoadI32(r + 8),  LoadI32(r + 12), LoadI32(r + 16),
         LoadI32(r + 20), LoadI32(r + 24), LoadI32(r + 96), LoadI32(r + 100)};
    const auto bad_face = [&](const std::string& what) {
      return parser.Bad(absl::StrCat("face ", i, ": ", what));
    };
    if (f.type == kBillboard) continue;  // never read
    if (f.type != kPolygon && f.type != kPatch && f.type != kTriangleSoup) {
      return bad_face(absl::StrCat("unknown type ", f.type, " (1 polygon, 2 patch, 3 mesh, 4 billboard)"));
    }
    if (f.shader < 0 || static_cast<std::size_t>(f.shader) >= bsp.shaders.size()) {
      return bad_face(
          absl::StrCat("shader ", f.shader, " is out of range (", bsp.shaders.size(), " shaders)"));
    }
    if (!RangeInside(f.first_vertex, f.num_vertices, bsp.vertices.size())) {
      return bad_face(absl::StrCat("vertices [", f.first_vertex, ", +", f.num_vertices,
                                   ") are out of range (", bsp.vertices.size(), " vertices)"));
    }
    if (f.type == kPatch) {
      const std::int32_t w = f.patch_width, h = f.patch_height;
      if (w < 3 || h < 3 || w > kMaxPatchSide || h > kMaxPatchSide || w % 2 == 0 || h % 2 == 0) {
        return bad_face(
            absl::StrCat("patch control grid ", w, "x", h, " is not odd sides in [3, ", kMaxPatchSide, "]"));
      }
      if (w * h != f.num_vertices) {
        return bad_face(absl::StrCat("patch control grid ", w, "x", h, " does not match its ", f.num_vertices,
                                     " vertices"));
      }
      continue;
    }
    if (!RangeInside(f.first_meshvert, f.num_meshverts, bsp.meshverts.size())) {
      return bad_face(absl::StrCat("meshverts [", f.first_meshvert, ", +", f.num_meshverts,
                                   ") are out of range (", bsp.meshverts.size(), " meshverts)"));
    }
    if (f.num_meshverts % 3 != 0) {
      return bad_face(absl::StrCat(f.num_meshverts, " meshverts is not a whole number of triangles"));
    }
    for (std::int32_t k = 0; k < f.num_meshverts; ++k) {
      const std::int32_t m = bsp.meshverts[f.first_meshvert + k];
      if (m < 0 || m >= f.num_vertices) {
        return bad_face(absl::StrCat("meshvert ", f.first_meshvert + k, " = ", m, " is outside the face's ",
                                     f.num_vertices, " vertices (out-of-range index)"));
      }
    }
  }

  if (lump = parser.Records(kModels, &n); !lump.ok()) return lump.status();
  if (n == 0) return parser.Bad("no models: a BSP has at least the world model");
  bsp.models.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const char* r = lump->data() + i * kModels.record_size;
    bsp.models[i] = {LoadI32(r + 24), LoadI32(r + 28), LoadI32(r + 32), LoadI32(r + 36)};
    if (!RangeInside(bsp.models[i].first_face, bsp.models[i].num_faces, bsp.faces.size())) {
      return parser.Bad(absl::StrCat("model ", i, ": faces [", bsp.models[i].first_face, ", +",
                                     bsp.models[i].num_faces, ") are out of range (", bsp.faces.size(),
                                     " faces)"));
    }
  }

  if (lump = parser.Records(kPlanes, &n); !lump.ok()) return lump.status();
  bsp.planes.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const char* r = lump->data() + i * kPlanes.record_size;
    bsp.planes[i] = {{LoadF32(r), LoadF32(r + 4), LoadF32(r + 8)}, LoadF32(r + 12)};
    if (!IsFinite(bsp.planes[i].normal) || !std::isfinite(bsp.planes[i].dist)) {
      return parser.Bad(absl::StrCat("plane ", i, " is not finite"));
    }
  }

  if (lump = parser.Records(kBrushSides, &n); !lump.ok()) return lump.status();
  bsp.brush_side_planes.resize(n);
  bsp.brush_side_shaders.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::int32_t plane = LoadI32(lump->data() + i * kBrushSides.record_size);
    // Only the occluder rule reads a side's shader: one out of range makes
    // its brush no occluder rather than the file unreadable.
    const std::int32_t shader = LoadI32(lump->data() + i * kBrushSides.record_size + 4);
    bsp.brush_side_shaders[i] =
        shader >= 0 && static_cast<std::size_t>(shader) < bsp.shaders.size() ? shader : -1;
    if (plane < 0 || static_cast<std::size_t>(plane) >= bsp.planes.size()) {
      return parser.Bad(absl::StrCat("brush side ", i, ": plane ", plane, " is out of range (",
                                     bsp.planes.size(), " planes)"));
    }
    bsp.brush_side_planes[i] = plane;
  }

  if (lump = parser.Records(kBrushes, &n); !lump.ok()) return lump.status();
  bsp.brushes.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const char* r = lump->data() + i * kBrushes.record_size;
    BspBrush& b = bsp.brushes[i];
    b = {LoadI32(r), LoadI32(r + 4), LoadI32(r + 8)};
    if (!RangeInside(b.first_side, b.num_sides, bsp.brush_side_planes.size())) {
      return parser.Bad(absl::StrCat("brush ", i, ": sides [", b.first_side, ", +", b.num_sides,
                                     ") are out of range (", bsp.brush_side_planes.size(), " brush sides)"));
    }
    if (b.num_sides > kMaxBrushSides) {
      return parser.Bad(
          absl::StrCat("brush ", i, ": ", b.num_sides, " sides exceed the limit of ", kMaxBrushSides));
    }
    if (b.shader < 0 || static_cast<std::size_t>(b.shader) >= bsp.shaders.size()) {
      return parser.Bad(absl::StrCat("brush ", i, ": shader ", b.shader, " is out of range (",
                                     bsp.shaders.size(), " shaders)"));
    }
  }
  for (std::size_t i = 0; i < bsp.models.size(); ++i) {
    if (!RangeInside(bsp.models[i].first_brush, bsp.models[i].num_brushes, bsp.brushes.size())) {
      return parser.Bad(absl::StrCat("model ", i, ": brushes [", bsp.models[i].first_brush, ", +",
                                     bsp.models[i].num_brushes, ") are out of range (", bsp.brushes.size(),
                                     " brushes)"));
    }
  }
  return bsp;
}

}  // namespace collide::importer
