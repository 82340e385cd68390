// The items of a world request, as admission (--max_items_in_flight) and
// --max_items_per_request count them: queries, rays, shots, moves, swings,
// projectiles (kProjectileItems each); a frame's body updates; a Tick
// message's parts added up.
#ifndef COLLIDE_CONVERT_WORLD_ITEMS_H_
#define COLLIDE_CONVERT_WORLD_ITEMS_H_

#include <algorithm>
#include <cstddef>

#include "collide/v1/world.pb.h"
#include "convert/packed.h"

namespace collide::convert {

inline std::size_t RequestItems(const v1::GetWorldRequest&) { return 0; }
inline std::size_t RequestItems(const v1::Frame& f) { return static_cast<std::size_t>(f.bodies_size()); }
inline std::size_t RequestItems(const v1::PushFrameRequest& r) { return RequestItems(r.frame()); }
inline std::size_t RequestItems(const v1::QueryWorldRequest& r) {
  return static_cast<std::size_t>(r.ray_casts_size()) + static_cast<std::size_t>(r.shape_casts_size()) +
         static_cast<std::size_t>(r.overlaps_size());
}
inline std::size_t RequestItems(const v1::CastWorldRaysPackedRequest& r) {
  return static_cast<std::size_t>(r.rays_size()) / kPackedRayStride;
}
inline std::size_t RequestItems(const v1::ValidateShotsRequest& r) {
  return static_cast<std::size_t>(r.shots_size());
}
inline std::size_t RequestItems(const v1::ValidateShotsPackedRequest& r) {
  return static_cast<std::size_t>(r.shooter_ids_size());
}
inline std::size_t RequestItems(const v1::ValidateMovesRequest& r) {
  return static_cast<std::size_t>(r.moves_size());
}
// The ids asked for (every body when none: one item, as a frame's bodies are
// bounded by the world's limits anyway).
inline std::size_t RequestItems(const v1::GetBodiesRequest& r) {
  return std::max<std::size_t>(1, static_cast<std::size_t>(r.body_ids_size()));
}
// A projectile's flight is many sweeps (about a hundred shots' work for 2 s
// at 64 Hz: bench/README.md), so it counts as this many items.
inline constexpr std::size_t kProjectileItems = 16;
inline std::size_t RequestItems(const v1::ValidateProjectilesRequest& r) {
  return static_cast<std::size_t>(r.projectiles_size()) * kProjectileItems;
}
inline std::size_t RequestItems(const v1::ValidateMeleeRequest& r) {
  return static_cast<std::size_t>(r.melee_size());
}
// One per observer named, one for "every body".
inline std::size_t RequestItems(const v1::GetVisibilityRequest& r) {
  return static_cast<std::size_t>(r.observers_size()) + 1;
}
inline std::size_t RequestItems(const v1::TickRequest& r) {
  return RequestItems(r.frame()) + RequestItems(r.query()) + RequestItems(r.rays_packed()) +
         RequestItems(r.shots()) + RequestItems(r.shots_packed()) + RequestItems(r.moves()) +
         RequestItems(r.projectiles()) + RequestItems(r.melee()) +
         (r.has_bodies() ? RequestItems(r.bodies()) : 0) +
         (r.has_visibility() ? RequestItems(r.visibility()) : 0);
}

}  // namespace collide::convert

#endif  // COLLIDE_CONVERT_WORLD_ITEMS_H_
