// Level geometry from map files into MeshData: Quake 3 BSP maps (.bsp, or
// inside .pk3 zip archives) through a reader of our own, glTF/GLB and OBJ
// through assimp. Every failure is an absl::Status whose message starts with
// the file (and the archive entry) and says what is wrong; no input crashes
// the reader or makes it allocate beyond the limits of ImportOptions.
//
// Conventions (docs/meshes.md, "Map import"):
// - BSP: Quake units (a player is 56 units tall, so 1 unit ~ 3 cm), Z up,
//   right-handed. Only the static world (model 0) is read; brush entities
//   (doors, platforms, models 1..n) move and are counted, not imported.
//   The geometry comes in categories (Category; docs/map-import.md):
//   kRender is the drawn faces whose shader's contents are solid or player
//   clip and whose surface is not `nonsolid` (CollidesWithPlayer), with
//   Bezier patches at `patch_subdivisions` steps per 3x3 patch; the others
//   are what the game collides with: the world's brushes as closed convex
//   hulls (drawn or not: caulk, clip) and its patches at the game's coarse
//   collision tessellation (collision_patch.h), by their contents.
// - glTF/GLB: metres, Y up (the glTF specification). OBJ: the file's unit,
//   taken as Y up (what Blender and most exporters write). Node transforms
//   are applied; points and lines are dropped.
// - Vertices at bitwise identical positions are welded into one, so meshes
//   are connected where their sources share positions.
#ifndef COLLIDE_IMPORT_MAP_IMPORT_H_
#define COLLIDE_IMPORT_MAP_IMPORT_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "collide/mesh_data.h"

namespace collide::importer {

enum class UpAxis { kAsStored, kY, kZ };

// What map geometry is for. A BSP brush or patch is in every category its
// shader's contents name (code/game/surfaceflags.h: CONTENTS_SOLID 0x1,
// CONTENTS_PLAYERCLIP 0x10000, CONTENTS_MONSTERCLIP 0x20000, CONTENTS_WATER
// 0x20, CONTENTS_SLIME 0x10, CONTENTS_LAVA 0x8), as the game's traces test
// `contents & mask`. kOccluder is what blocks sight, as closed solids for
// visibility sets (collide/visibility.h): the hulls of the solid brushes
// none of whose shaders is translucent (CONTENTS_TRANSLUCENT 0x20000000,
// `surfaceparm trans`: glass, grates, fences), each closed and
// counter-clockwise seen from outside (brush_hull.h); never patches, which
// are open surfaces. glTF and OBJ files have render triangles only (none
// for kOccluder alone: their meshes are not known to be closed).
enum class Category : int { kRender, kSolid, kPlayerClip, kMonsterClip, kWater, kSlime, kLava, kOccluder };
inline constexpr int kCategoryCount = 8;
// A set of categories, bit (1 << Category).
using CategoryMask = std::uint32_t;
constexpr CategoryMask MaskOf(Category c) { return CategoryMask{1} << static_cast<int>(c); }
inline constexpr CategoryMask kAllCategories = (CategoryMask{1} << kCategoryCount) - 1;
// What Quake 3 moves players against (MASK_PLAYERSOLID: solid | playerclip;
// its CONTENTS_BODY is other players, not map geometry).
inline constexpr CategoryMask kPlayerCollision = MaskOf(Category::kSolid) | MaskOf(Category::kPlayerClip);
// What its shots hit (MASK_SHOT: solid; body and corpse are entities).
inline constexpr CategoryMask kShotCollision = MaskOf(Category::kSolid);

// "render", "solid", "player_clip", "monster_clip", "water", "slime", "lava",
// "occluder".
std::string_view CategoryName(Category category);
// A comma-separated list of those names, or "all"; InvalidArgument naming
// the unknown name, or for an empty list.
absl::StatusOr<CategoryMask> ParseCategories(std::string_view list);

struct ImportOptions {
  // The map inside a .pk3: "NAME", "NAME.bsp" or "maps/NAME.bsp". May be
  // empty when the archive holds exactly one map.
  std::string map;
  // Output up axis; a Y-up <-> Z-up change is a rotation about X
  // (Z up (x, y, z) -> Y up (x, z, -y)), so handedness is kept.
  UpAxis up = UpAxis::kAsStored;
  // Uniform scale applied after the axis change (0.03125 takes Quake units
  // to metres if the 56-unit player stands 1.75 m tall).
  double scale = 1.0;
  // Steps per 3x3 Bezier patch in each direction: a power of two in [1, 64]
  // (powers of two make the patch weights exact, which makes shared patch
  // edges bitwise identical; see bezier_patch.h).
  int patch_subdivisions = 8;
  // Kept for its callers: the same as adding Category::kPlayerClip to
  // `categories` (the world's player-clip brushes: invisible walls, stair
  // ramps; players collide with them, shots do not).
  bool clip_brushes = false;
  // The categories that go into the mesh (not none), each brush, collision
  // patch and drawn face once even when it is in several. The default, the
  // drawn faces, is what the import gave before categories. glTF and OBJ:
  // their triangles whatever the categories.
  CategoryMask categories = MaskOf(Category::kRender);
  // Caps checked before allocating: output triangles, and the decompressed
  // size of one archive entry.
  std::uint64_t max_triangles = std::uint64_t{1} << 25;
  std::uint64_t max_entry_bytes = std::uint64_t{256} << 20;
};

// One category of an import (bounds in output coordinates, zero when it has
// no triangles). A brush or patch in several categories counts in each.
struct CategoryStats {
  std::uint64_t triangles = 0;
  std::uint64_t brushes = 0;          // BSP brush hulls
  std::uint64_t dropped_brushes = 0;  // BSP brushes without a hull (BrushHull: unbounded or no volume)
  std::uint64_t patch_faces = 0;      // BSP patch faces
  Vec3 min{}, max{};
};

// What an import read and what it left out (BSP fields are zero for other
// formats).
struct ImportStats {
  std::string format;              // "bsp", "gltf", "glb", "obj"
  std::string entry;               // the .pk3 entry read, "" for a plain file
  UpAxis stored_up = UpAxis::kZ;   // kY or kZ: the format's own up axis
  std::uint64_t source_faces = 0;  // BSP faces in the file, or assimp faces
  // The drawn faces (zero unless kRender is imported):
  std::uint64_t polygon_faces = 0;       // BSP type 1 imported
  std::uint64_t mesh_faces = 0;          // BSP type 3 imported
  std::uint64_t patch_faces = 0;         // BSP type 2 imported
  std::uint64_t patches = 0;             // 3x3 patches tessellated
  std::uint64_t billboard_faces = 0;     // BSP type 4, skipped
  std::uint64_t nonsolid_faces = 0;      // world faces skipped by the collision rule
  std::uint64_t brush_entity_faces = 0;  // faces of models 1..n, skipped
  std::uint64_t clip_brushes = 0;        // player-clip brushes imported (categories[kPlayerClip].brushes)
  std::uint64_t dropped_primitives = 0;  // assimp points and lines
  Vec3 min{}, max{};                     // bounds of the output vertices
  // Indexed by Category; filled for the categories imported (for glTF and
  // OBJ: kRender).
  std::array<CategoryStats, kCategoryCount> categories{};
};

struct ImportedMesh {
  MeshData mesh;
  ImportStats stats;
};

// Loads `path` by its extension: .bsp, .pk3, .gltf, .glb or .obj (any case).
absl::StatusOr<ImportedMesh> ImportMap(const std::string& path, const ImportOptions& options = {});

// The maps in a .pk3: its entries maps/NAME.bsp, sorted.
absl::StatusOr<std::vector<std::string>> ListPk3Maps(const std::string& path);

// The same from memory; `name` stands for the file in error messages. For the
// fuzzers and for callers that hold the bytes already.
absl::StatusOr<ImportedMesh> ImportBspBytes(std::string_view bytes, std::string_view name,
                                            const ImportOptions& options = {});
absl::StatusOr<ImportedMesh> ImportPk3Bytes(std::string_view bytes, std::string_view name,
                                            const ImportOptions& options = {});

// A Quake 3 shader's surface flags and contents as the BSP stores them.
struct ShaderFlags {
  std::int32_t surface = 0;
  std::int32_t contents = 0;
};
// The collision-face rule: what Quake 3's player movement traces against
// (MASK_PLAYERSOLID = CONTENTS_SOLID | CONTENTS_PLAYERCLIP; a `nonsolid`
// surface is never collided with). Sky surfaces stay: players and shots
// stop at them.
bool CollidesWithPlayer(const ShaderFlags& shader);

}  // namespace collide::importer

#endif  // COLLIDE_IMPORT_MAP_IMPORT_H_
