#include "scene_gltf.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "absl/strings/escaping.h"
#include "convert/shapes.h"
#include "nlohmann/json.hpp"
#include "shape_triangles.h"

namespace collide::cli {
namespace {

using Json = nlohmann::json;
using Rgba = std::array<double, 4>;

constexpr Rgba kLevel{0.6, 0.6, 0.6, 1};
constexpr Rgba kBody{0.9, 0.8, 0.3, 1};
constexpr Rgba kLatest{0.2, 0.4, 1.0, 0.5};
constexpr Rgba kAccepted{0.1, 0.8, 0.2, 1};
constexpr Rgba kRefused{0.9, 0.1, 0.1, 1};
// The radius points and segments of bodies are drawn with.
constexpr double kThin = 0.02;
// glTF's primitive modes.
constexpr int kLines = 1;
constexpr int kTriangles = 4;

// Builds the glTF document: one buffer, a mesh and a node per object.
class GltfBuilder {
 public:
  void Add(const std::string& name, const TriangleList& list, const Rgba& colour, int mode = kTriangles) {
    if (list.indices.empty()) return;
    const int positions = PositionAccessor(list.vertices);
    const int indices = IndexAccessor(list.indices);
    doc_["materials"].push_back(
        {{"name", name},
         {"doubleSided", true},
         {"alphaMode", colour[3] < 1 ? "BLEND" : "OPAQUE"},
         {"pbrMetallicRoughness", {{"baseColorFactor", colour}, {"metallicFactor", 0}}}});
    const int material = static_cast<int>(doc_["materials"].size()) - 1;
    doc_["meshes"].push_back({{"name", name},
                              {"primitives",
                               {{{"attributes", {{"POSITION", positions}}},
                                 {"indices", indices},
                                 {"material", material},
                                 {"mode", mode}}}}});
    doc_["nodes"].push_back({{"name", name}, {"mesh", static_cast<int>(doc_["meshes"].size()) - 1}});
    doc_["scenes"][0]["nodes"].push_back(static_cast<int>(doc_["nodes"].size()) - 1);
  }

  std::string Finish() {
    doc_["asset"] = {{"version", "2.0"}, {"generator", "collide world export"}};
    doc_["scene"] = 0;
    doc_["buffers"] =
        Json::array({{{"byteLength", bytes_.size()},
                      {"uri", "data:application/octet-stream;base64," + absl::Base64Escape(bytes_)}}});
    return doc_.dump(1);
  }

 private:
  int View(const void* data, std::size_t size, int target) {
    while (bytes_.size() % 4 != 0) bytes_.push_back('\0');
    doc_["bufferViews"].push_back(
        {{"buffer", 0}, {"byteOffset", bytes_.size()}, {"byteLength", size}, {"target", target}});
    bytes_.append(static_cast<const char*>(data), size);
    return static_cast<int>(doc_["bufferViews"].size()) - 1;
  }
  // POSITION: float VEC3 with its bounds (glTF requires them).
  int PositionAccessor(const std::vector<Vec3>& vertices) {
    std::vector<float> floats;
    std::array<double, 3> lo{}, hi{};
    lo.fill(std::numeric_limits<double>::infinity());
    hi.fill(-std::numeric_limits<double>::infinity());
    for (const Vec3& v : vertices) {
      const std::array<float, 3> f{static_cast<float>(v.x), static_cast<float>(v.y), static_cast<float>(v.z)};
      for (int i = 0; i < 3; ++i) {
        floats.push_back(f[i]);
        lo[i] = std::min<double>(lo[i], f[i]);
        hi[i] = std::max<double>(hi[i], f[i]);
      }
    }
    const int view = View(floats.data(), floats.size() * sizeof(float), 34962);  // ARRAY_BUFFER
    doc_["accessors"].push_back({{"bufferView", view},
                                 {"componentType", 5126},
                                 {"count", vertices.size()},
                                 {"type", "VEC3"},
                                 {"min", lo},
                                 {"max", hi}});
    return static_cast<int>(doc_["accessors"].size()) - 1;
  }
  int IndexAccessor(const std::vector<std::uint32_t>& indices) {
    const int view =
        View(indices.data(), indices.size() * sizeof(std::uint32_t), 34963);  // ELEMENT_ARRAY_BUFFER
    doc_["accessors"].push_back(
        {{"bufferView", view}, {"componentType", 5125}, {"count", indices.size()}, {"type", "SCALAR"}});
    return static_cast<int>(doc_["accessors"].size()) - 1;
  }

  Json doc_ = {{"scenes", Json::array({{{"nodes", Json::array()}}})}};
  std::string bytes_;
};

Vec3 Core(const v1::Vec3& v) { return convert::FromProto(v); }

void AppendShape(const v1::Shape& shape, const Vec3& offset, TriangleList& out) {
  Shape core;
  convert::DecodeArena arena;
  std::vector<Violation> violations;
  if (!convert::FromProto(shape, core, arena, violations)) return;
  const auto first = out.vertices.size();
  AppendTriangles(core, kThin, out);
  for (auto i = first; i < out.vertices.size(); ++i) out.vertices[i] = out.vertices[i] + offset;
}

TriangleList BodyTriangles(const v1::PosedBody& body, const Vec3& offset = {}) {
  TriangleList out;
  for (const v1::PosedPart& part : body.parts()) AppendShape(part.shape(), offset, out);
  return out;
}

TriangleList LevelTriangles(const viewer::Level& level) {
  TriangleList out;
  for (int i = 0; i + 2 < level.positions_size(); i += 3) {
    out.vertices.push_back({level.positions(i), level.positions(i + 1), level.positions(i + 2)});
  }
  out.indices.assign(level.indices().begin(), level.indices().end());
  for (const v1::Shape& shape : level.shapes()) AppendShape(shape, {}, out);
  return out;
}

TriangleList Lines(const std::vector<std::pair<Vec3, Vec3>>& segments) {
  TriangleList out;
  for (const auto& [a, b] : segments) {
    const auto base = static_cast<std::uint32_t>(out.vertices.size());
    out.vertices.insert(out.vertices.end(), {a, b});
    out.indices.insert(out.indices.end(), {base, base + 1});
  }
  return out;
}

// The body as posed in the frame of `tick`, if it was there.
std::optional<v1::PosedBody> BodyAtTick(const viewer::Scene& scene, std::int64_t tick, std::int64_t id) {
  for (const viewer::TickBodies& t : scene.ticks()) {
    if (t.tick() != tick) continue;
    for (const v1::PosedBody& b : t.bodies()) {
      if (b.id() == id) return b;
    }
  }
  return std::nullopt;
}

}  // namespace

std::string ShotGltf(const viewer::Scene& scene, const viewer::SceneShot& shot) {
  GltfBuilder gltf;
  gltf.Add("level", LevelTriangles(scene.level()), kLevel);
  const v1::ShotExplanation& explained = shot.verdict().explanation();
  if (explained.has_shooter()) {
    gltf.Add("shooter", BodyTriangles(explained.shooter()), kBody);
  } else if (auto shooter = BodyAtTick(scene, shot.latest_tick(), shot.shot().shooter_id())) {
    gltf.Add("shooter", BodyTriangles(*shooter), kBody);
  }
  const bool confirmed = shot.verdict().code() == v1::SHOT_CODE_CONFIRMED;
  const v1::PosedBody* rewound = explained.has_claimed_rewound() ? &explained.claimed_rewound()
                                 : shot.has_claimed_rewound()    ? &shot.claimed_rewound()
                                                                 : nullptr;
  const v1::PosedBody* latest = explained.has_claimed_latest() ? &explained.claimed_latest()
                                : shot.has_claimed_latest()    ? &shot.claimed_latest()
                                                               : nullptr;
  if (rewound != nullptr)
    gltf.Add("claimed_rewound", BodyTriangles(*rewound), confirmed ? kAccepted : kRefused);
  if (latest != nullptr) gltf.Add("claimed_latest", BodyTriangles(*latest), kLatest);
  gltf.Add("ray", Lines({{Core(shot.shot().origin()), Core(shot.ray_end())}}),
           confirmed ? kAccepted : kRefused, kLines);
  return gltf.Finish();
}

std::string MoveGltf(const viewer::Scene& scene, const viewer::SceneMove& move) {
  GltfBuilder gltf;
  gltf.Add("level", LevelTriangles(scene.level()), kLevel);
  const v1::MoveVerdict& verdict = move.verdict();
  const Vec3 from = Core(move.from());
  // The body's parts (or the judge's movement shape) carried to `from` and
  // to the allowed position by translation, as moves are judged.
  if (verdict.explanation().has_shape()) {
    TriangleList at_from, at_allowed;
    AppendShape(verdict.explanation().shape(), {}, at_from);
    AppendShape(verdict.explanation().shape(), Core(verdict.allowed_position()) - from, at_allowed);
    gltf.Add("body_from", at_from, kBody);
    gltf.Add("body_allowed", at_allowed, verdict.code() == v1::MOVE_CODE_OK ? kAccepted : kRefused);
  } else if (auto body = BodyAtTick(scene, move.latest_tick(), move.move().body_id())) {
    const Vec3 origin = Core(body->pose().position());
    gltf.Add("body_from", BodyTriangles(*body, from - origin), kBody);
    gltf.Add("body_allowed", BodyTriangles(*body, Core(verdict.allowed_position()) - origin),
             verdict.code() == v1::MOVE_CODE_OK ? kAccepted : kRefused);
  }
  std::vector<std::pair<Vec3, Vec3>> sweeps;
  for (const v1::MoveSweep& s : move.sweeps()) sweeps.emplace_back(Core(s.from()), Core(s.to()));
  gltf.Add("sweeps", Lines(sweeps), kBody, kLines);
  return gltf.Finish();
}

}  // namespace collide::cli
