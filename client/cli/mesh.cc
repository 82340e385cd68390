// `collide mesh info FILE [--map NAME]`: what a map file imports to (see
// import/include/collide/import/map_import.h), without a server: each
// geometry category, then the mesh of the chosen ones (--categories).
#include "collide/mesh.h"

#include <chrono>
#include <iostream>

#include "absl/flags/flag.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "collide/import/map_import.h"
#include "commands.h"

ABSL_FLAG(std::string, map, "",
          "mesh: the map inside a .pk3 (NAME, as `collide mesh info FILE.pk3` lists); world: a map file in "
          "the server's --maps_dir, FILE or FILE.pk3:MAP (default: the built-in arena)");
ABSL_FLAG(double, scale, 1.0, "mesh: uniform scale applied to the imported vertices");
ABSL_FLAG(bool, clip_brushes, false,
          "mesh: add a BSP's player-clip brushes (what movement collides with, shots do not)");
ABSL_FLAG(std::string, up, "as_stored", "mesh: output up axis: as_stored, y or z");
ABSL_FLAG(
    std::string, categories, "all",
    "mesh: the geometry categories that go into the mesh (docs/map-import.md): all, or a comma-separated "
    "list of render, solid, player_clip, monster_clip, water, slime, lava");

namespace collide::cli {
namespace {

std::string AxisName(importer::UpAxis axis) {
  switch (axis) {
    case importer::UpAxis::kY:
      return "Y up";
    case importer::UpAxis::kZ:
      return "Z up";
    default:
      return "as stored";
  }
}

std::string Point(const Vec3& p) { return absl::StrFormat("(%.6g, %.6g, %.6g)", p.x, p.y, p.z); }

int Info(const std::string& path) {
  importer::ImportOptions options;
  options.map = absl::GetFlag(FLAGS_map);
  options.scale = absl::GetFlag(FLAGS_scale);
  options.clip_brushes = absl::GetFlag(FLAGS_clip_brushes);
  const absl::StatusOr<importer::CategoryMask> categories =
      importer::ParseCategories(absl::GetFlag(FLAGS_categories));
  if (!categories.ok()) {
    std::cerr << "collide mesh: --categories: " << categories.status().message() << "\n";
    return 2;
  }
  options.categories = *categories;
  const std::string up = absl::GetFlag(FLAGS_up);
  if (up == "y") {
    options.up = importer::UpAxis::kY;
  } else if (up == "z") {
    options.up = importer::UpAxis::kZ;
  } else if (up != "as_stored") {
    std::cerr << "collide mesh: --up must be as_stored, y or z, not \"" << up << "\"\n";
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<importer::ImportedMesh> imported = importer::ImportMap(path, options);
  const double import_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!imported.ok()) {
    std::cerr << "collide mesh: " << imported.status().message() << "\n";
    return 1;
  }
  const importer::ImportStats& s = imported->stats;
  const importer::UpAxis out_up = options.up == importer::UpAxis::kAsStored ? s.stored_up : options.up;
  std::cout << "file:        " << path << (s.entry.empty() ? "" : " : " + s.entry) << "\n"
            << "format:      " << s.format << ", " << AxisName(out_up) << ", scale " << options.scale << "\n";
  if (s.format == "bsp") {
    std::cout << absl::StrFormat(
        "faces:       %d in the file; imported %d polygon, %d mesh, %d patch (%d patches at %dx%d); skipped "
        "%d "
        "non-solid, %d billboard, %d of brush entities; %d clip brushes\n",
        s.source_faces, s.polygon_faces, s.mesh_faces, s.patch_faces, s.patches, options.patch_subdivisions,
        options.patch_subdivisions, s.nonsolid_faces, s.billboard_faces, s.brush_entity_faces,
        s.clip_brushes);
  } else {
    std::cout << "faces:       " << s.source_faces << " in the file; " << s.dropped_primitives
              << " points/lines dropped\n";
  }
  std::vector<std::string> names;
  std::cout << "categories:  triangles  brushes (dropped)  patch faces  bounds\n";
  for (int c = 0; c < importer::kCategoryCount; ++c) {
    const importer::Category category = static_cast<importer::Category>(c);
    if (!(options.categories & importer::MaskOf(category))) continue;
    const importer::CategoryStats& k = s.categories[c];
    const std::string name(importer::CategoryName(category));
    names.push_back(name);
    std::cout << absl::StrFormat("  %-12s %9d  %7d (%d)  %11d  %s\n", name, k.triangles, k.brushes,
                                 k.dropped_brushes, k.patch_faces,
                                 k.triangles == 0 ? "-" : Point(k.min) + " .. " + Point(k.max));
  }
  std::cout << "mesh:        " << absl::StrJoin(names, " + ") << " (each brush, patch and face once)\n"
            << "vertices:    " << imported->mesh.vertices.size() << "\n"
            << "triangles:   " << imported->mesh.triangles.size() << "\n"
            << "bounds:      " << Point(s.min) << " .. " << Point(s.max) << "\n"
            << absl::StrFormat("import:      %.1f ms\n", import_ms);

  std::vector<Violation> violations;
  if (!ValidateMesh(imported->mesh, violations)) {
    for (const Violation& v : violations)
      std::cerr << "collide mesh: " << v.field << ": " << v.description << "\n";
    return 1;
  }
  const std::size_t triangles = imported->mesh.triangles.size();
  const auto build_start = std::chrono::steady_clock::now();
  const TriangleMesh mesh(std::move(imported->mesh));
  const double build_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - build_start).count();
  std::cout << "degenerate:  " << mesh.degenerate_count() << " (zero area, left out of queries)\n"
            << absl::StrFormat("bvh build:   %.1f ms (%.0f ns per triangle)\n", build_ms,
                               triangles == 0 ? 0.0 : build_ms * 1e6 / triangles)
            << absl::StrFormat("memory:      %d bytes (%.1f per triangle; vertices, triangles and BVH)\n",
                               mesh.memory_bytes(),
                               triangles == 0 ? 0.0 : static_cast<double>(mesh.memory_bytes()) / triangles);
  return 0;
}

}  // namespace

int RunMesh(const std::vector<std::string>& args) {
  if (args.size() == 2 && args[0] == "info") return Info(args[1]);
  if (args.size() == 2 && args[0] == "maps") {
    const absl::StatusOr<std::vector<std::string>> maps = importer::ListPk3Maps(args[1]);
    if (!maps.ok()) {
      std::cerr << "collide mesh: " << maps.status().message() << "\n";
      return 1;
    }
    for (const std::string& m : *maps) std::cout << m << "\n";
    return 0;
  }
  std::cerr
      << "usage: collide mesh info FILE [--map NAME] [--scale S] [--up as_stored|y|z] [--categories LIST]\n"
      << "                        [--clip_brushes]\n"
      << "       collide mesh maps FILE.pk3\n";
  return 2;
}

}  // namespace collide::cli
