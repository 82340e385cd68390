// The items of a world request, as admission (--max_items_in_flight) and
// --max_items_per_request count them: queries, rays, shots, moves; a frame's
// body updates; a Tick message's parts added up.
#ifndef COLLIDE_SERVER_WORLD_ITEMS_H_
#define COLLIDE_SERVER_WORLD_ITEMS_H_

#include <cstddef>

#include "collide/v1/world.pb.h"
#include "convert/packed.h"

namespace collide::server {

inline std::size_t RequestItems(const v1::GetWorldRequest&) { return 0; }
inline std::size_t RequestItems(const v1::Frame& f) { return static_cast<std::size_t>(f.bodies_size()); }
inline std::size_t RequestItems(const v1::PushFrameRequest& r) { return RequestItems(r.frame()); }
inline std::size_t RequestItems(const v1::QueryWorldRequest& r) {
  return static_cast<std::size_t>(r.ray_casts_size()) + static_cast<std::size_t>(r.shape_casts_size()) +
         static_cast<std::size_t>(r.overlaps_size());
}
inline std::size_t RequestItems(const v1::CastWorldRaysPackedRequest& r) {
  return static_cast<std::size_t>(r.rays_size()) / convert::kPackedRayStride;
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
// One per observer named, one for "every body".
inline std::size_t RequestItems(const v1::GetVisibilityRequest& r) {
  return static_cast<std::size_t>(r.observers_size()) + 1;
}
inline std::size_t RequestItems(const v1::TickRequest& r) {
  return RequestItems(r.frame()) + RequestItems(r.query()) + RequestItems(r.rays_packed()) +
         RequestItems(r.shots()) + RequestItems(r.shots_packed()) + RequestItems(r.moves()) +
         (r.has_visibility() ? RequestItems(r.visibility()) : 0);
}

}  // namespace collide::server

#endif  // COLLIDE_SERVER_WORLD_ITEMS_H_
