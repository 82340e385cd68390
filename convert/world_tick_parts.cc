#include "convert/world_tick_parts.h"

namespace collide::convert {

void AsTickPart(const v1::PushFrameRequest& in, v1::TickRequest* out) { *out->mutable_frame() = in.frame(); }
void AsTickPart(const v1::QueryWorldRequest& in, v1::TickRequest* out) {
  *out->mutable_query() = in;
  out->mutable_query()->clear_world_id();
}
void AsTickPart(const v1::CastWorldRaysPackedRequest& in, v1::TickRequest* out) {
  *out->mutable_rays_packed() = in;
  out->mutable_rays_packed()->clear_world_id();
}
void AsTickPart(const v1::ValidateShotsRequest& in, v1::TickRequest* out) {
  *out->mutable_shots() = in;
  out->mutable_shots()->clear_world_id();
}
void AsTickPart(const v1::ValidateShotsPackedRequest& in, v1::TickRequest* out) {
  *out->mutable_shots_packed() = in;
  out->mutable_shots_packed()->clear_world_id();
}
void AsTickPart(const v1::ValidateMovesRequest& in, v1::TickRequest* out) {
  *out->mutable_moves() = in;
  out->mutable_moves()->clear_world_id();
}

void AsTickAnswer(const v1::PushFrameRequest&, const v1::PushFrameResponse& in, v1::TickResponse* out) {
  *out->mutable_frame() = in;
}
void AsTickAnswer(const v1::QueryWorldRequest&, const v1::QueryWorldResponse& in, v1::TickResponse* out) {
  *out->mutable_query() = in;
}
void AsTickAnswer(const v1::CastWorldRaysPackedRequest&, const v1::CastWorldRaysPackedResponse& in,
                  v1::TickResponse* out) {
  *out->mutable_rays_packed() = in;
}
void AsTickAnswer(const v1::ValidateShotsRequest&, const v1::ValidateShotsResponse& in,
                  v1::TickResponse* out) {
  *out->mutable_shots() = in;
}
void AsTickAnswer(const v1::ValidateShotsPackedRequest&, const v1::ValidateShotsResponse& in,
                  v1::TickResponse* out) {
  *out->mutable_shots_packed() = in;
}
void AsTickAnswer(const v1::ValidateMovesRequest&, const v1::ValidateMovesResponse& in,
                  v1::TickResponse* out) {
  *out->mutable_moves() = in;
}

}  // namespace collide::convert
