// Posed bodies (GetBodies) and the verdicts' explanations (world.proto:
// PosedBody, ShotExplanation, MoveExplanation), both directions: the
// server's core -> wire and the C++ client's wire -> core.
#ifndef COLLIDE_CONVERT_WORLD_EXPLAIN_H_
#define COLLIDE_CONVERT_WORLD_EXPLAIN_H_

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "collide/v1/world.pb.h"
#include "collide/world.h"
#include "convert/violations.h"

namespace collide::convert {

// A GetBodies request decoded. Never fails: the time is the core's to
// validate (World::Bodies: "at.fraction"), the number of ids the server's
// (--max_items_per_request).
struct BodiesQuery {
  std::optional<Time> at;
  std::vector<std::int64_t> ids;
};
BodiesQuery FromProto(const v1::GetBodiesRequest& in);

// Core -> wire.
void ToProto(const PosedBody& in, v1::PosedBody* out);
void ToProto(const ShotExplanation& in, v1::ShotExplanation* out);
void ToProto(const MoveExplanation& in, v1::MoveExplanation* out);
// A valid result (an invalid one is INVALID_ARGUMENT before encoding).
void ToProto(const BodiesResult& in, v1::GetBodiesResponse* out);
// The client's request.
void ToProto(const std::optional<Time>& at, std::span<const std::int64_t> ids, v1::GetBodiesRequest* out);

// Wire -> core (a shape the server sent is a part kind: never a hull).
PosedBody FromProto(const v1::PosedBody& in);
ShotExplanation FromProto(const v1::ShotExplanation& in);
MoveExplanation FromProto(const v1::MoveExplanation& in);
BodiesResult FromProto(const v1::GetBodiesResponse& in);

}  // namespace collide::convert

#endif  // COLLIDE_CONVERT_WORLD_EXPLAIN_H_
