// Quake 3's contents and surface bits that the BSP import reads
// (code/game/surfaceflags.h), and the categories contents put a brush or a
// patch in.
#ifndef COLLIDE_IMPORT_BSP_CONTENTS_H_
#define COLLIDE_IMPORT_BSP_CONTENTS_H_

#include <cstdint>

#include "collide/import/map_import.h"

namespace collide::importer {

inline constexpr std::int32_t kContentsSolid = 0x1;
inline constexpr std::int32_t kContentsLava = 0x8;
inline constexpr std::int32_t kContentsSlime = 0x10;
inline constexpr std::int32_t kContentsWater = 0x20;
inline constexpr std::int32_t kContentsPlayerClip = 0x10000;
inline constexpr std::int32_t kContentsMonsterClip = 0x20000;
inline constexpr std::int32_t kContentsTranslucent = 0x20000000;
inline constexpr std::int32_t kSurfaceNonSolid = 0x4000;

// The collision categories (never kRender or kOccluder) of a brush or patch with these
// contents. Contents alone decide, as in the game's traces (cm_trace.c tests
// `contents & mask`); q3map already clears CONTENTS_SOLID for `nonsolid`.
CategoryMask CollisionCategories(std::int32_t contents);

}  // namespace collide::importer

#endif  // COLLIDE_IMPORT_BSP_CONTENTS_H_
