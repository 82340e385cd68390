// glTF, GLB and OBJ through assimp: triangulated, identical vertices joined,
// every node's mesh placed by the product of its node transforms.
#include <assimp/DefaultIOStream.h>
#include <assimp/DefaultIOSystem.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <unistd.h>

#include <assimp/Importer.hpp>
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "importers.h"
#include "mesh_builder.h"

namespace collide::importer {
namespace {

struct Placed {
  const aiMesh* mesh;
  aiMatrix4x4 transform;
};

// assimp's file stream over a FILE* of ours (its constructor is protected).
class OpenedStream final : public Assimp::DefaultIOStream {
 public:
  OpenedStream(FILE* file, const std::string& name) : Assimp::DefaultIOStream(file, name) {}
};

// assimp's file access with every open made by OpenRegularFile: the map and
// every file it names (a glTF's buffers and images, an OBJ's materials) are
// read only if they are regular files, so that a FIFO or device can never
// block or feed the import. Reads only. The first refusal is kept for the
// error message (assimp reports only "unable to open").
class RegularFileIOSystem final : public Assimp::DefaultIOSystem {
 public:
  bool Exists(const char* file) const override {
    absl::StatusOr<int> fd = OpenRegularFile(file);
    if (!fd.ok()) return false;
    close(*fd);
    return true;
  }
  Assimp::IOStream* Open(const char* file, const char* mode) override {
    if (mode == nullptr || mode[0] != 'r') return nullptr;
    absl::StatusOr<int> fd = OpenRegularFile(file);
    if (!fd.ok()) {
      if (refusal_.ok()) refusal_ = fd.status();
      return nullptr;
    }
    FILE* stream = fdopen(*fd, "rb");
    if (stream == nullptr) {
      close(*fd);
      return nullptr;
    }
    return new OpenedStream(stream, file);
  }
  const absl::Status& refusal() const { return refusal_; }

 private:
  absl::Status refusal_;
};

void Collect(const aiScene& scene, const aiNode& node, const aiMatrix4x4& parent, std::vector<Placed>& out) {
  const aiMatrix4x4 transform = parent * node.mTransformation;
  for (unsigned i = 0; i < node.mNumMeshes; ++i) out.push_back({scene.mMeshes[node.mMeshes[i]], transform});
  for (unsigned i = 0; i < node.mNumChildren; ++i) Collect(scene, *node.mChildren[i], transform, out);
}

}  // namespace

absl::StatusOr<ImportedMesh> ImportWithAssimp(const std::string& path, const std::string& format,
                                              const ImportOptions& options) {
  if (absl::Status s = ValidateOptions(options, path); !s.ok()) return s;
  // assimp picks an importer by content when the extension's importer
  // declines; a BSP or zip must never reach its Quake 3 importer.
  {
    absl::StatusOr<std::unique_ptr<ByteSource>> source = FileSource(path);
    if (!source.ok()) return source.status();
    if ((*source)->size() > options.max_entry_bytes) {
      return absl::ResourceExhaustedError(absl::StrCat(
          path, ": ", (*source)->size(), " bytes is more than the limit of ", options.max_entry_bytes));
    }
    char magic[4] = {};
    if ((*source)->size() >= 4 && (*source)->Read(0, 4, magic).ok() &&
        (std::string_view(magic, 4) == "IBSP" || std::string_view(magic, 4) == "PK\3\4")) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": wrong magic: a Quake 3 BSP or zip archive, not .", format));
    }
  }
  Assimp::Importer importer;
  auto* files = new RegularFileIOSystem();  // Owned by the importer.
  importer.SetIOHandler(files);
  const aiScene* scene = importer.ReadFile(
      path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_ValidateDataStructure);
  if (scene == nullptr || scene->mRootNode == nullptr) {
    if (!files->refusal().ok()) return files->refusal();
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", importer.GetErrorString()));
  }
  std::vector<Placed> placed;
  Collect(*scene, *scene->mRootNode, aiMatrix4x4(), placed);

  ImportedMesh out;
  out.stats.format = format;
  std::uint64_t triangles = 0;
  for (const Placed& p : placed) {
    out.stats.source_faces += p.mesh->mNumFaces;
    for (unsigned f = 0; f < p.mesh->mNumFaces; ++f) triangles += p.mesh->mFaces[f].mNumIndices == 3;
  }
  if (triangles > options.max_triangles) {
    return absl::ResourceExhaustedError(
        absl::StrCat(path, ": ", triangles, " triangles exceed the limit of ", options.max_triangles));
  }
  MeshBuilder builder(triangles);
  std::vector<std::uint32_t> index;
  for (const Placed& p : placed) {
    const aiMesh& mesh = *p.mesh;
    index.resize(mesh.mNumVertices);
    for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
      const aiVector3D q = p.transform * mesh.mVertices[v];
      const Vec3 position{q.x, q.y, q.z};
      if (!IsFinite(position)) {
        return absl::InvalidArgumentError(
            absl::StrCat(path, ": mesh \"", mesh.mName.C_Str(), "\" vertex ", v, " is not finite"));
      }
      index[v] = builder.Vertex(position);
    }
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
      const aiFace& face = mesh.mFaces[f];
      if (face.mNumIndices != 3) {
        ++out.stats.dropped_primitives;
        continue;
      }
      builder.Triangle(index[face.mIndices[0]], index[face.mIndices[1]], index[face.mIndices[2]]);
    }
  }
  out.mesh = std::move(builder).Finish(UpAxis::kY, options, out.stats);
  // Occluders must be closed solids, which these triangles are not known to be.
  if (options.categories == MaskOf(Category::kOccluder) && !options.clip_brushes) out.mesh = {};
  // No categories in these formats: everything is drawn geometry.
  CategoryStats& render = out.stats.categories[static_cast<int>(Category::kRender)];
  render.triangles = out.mesh.triangles.size();
  render.min = out.stats.min;
  render.max = out.stats.max;
  return out;
}

}  // namespace collide::importer
