// The world conformance cases (tests/conformance/world_golden.json): scripts
// of collide.v1.WorldService calls with the answers every client must get
// from a collide-server, in the same JSON conventions as golden.json (proto3
// JSON, field names as in world.proto; see golden_cases.h).
//
// Answers are the core's (collide/world.h), computed here on a World fed the
// same requests through convert/ (the server's own decoding and encoding),
// so a client that sees anything else has a bug in its encoding, decoding,
// header or transport. Service-level errors (NOT_FOUND, ALREADY_EXISTS,
// FAILED_PRECONDITION, RESOURCE_EXHAUSTED) are stated from world.proto;
// INVALID_ARGUMENT field paths are the core's and convert's, as the server
// reports them.
//
// The document:
// {
//   "tolerance": {"abs": 1e-9, "rel": 1e-9},
//   "server_args": ["--max_items_per_request=64", ...],   // start the server with these
//   "cases": [{"name": "world/...", "steps": [step, ...]}]
// }
// A case is one script, run in order; each case creates its own worlds (ids
// "conf-<case>") and deletes them, so cases are independent. A step is one of
//   {"rpc": R, "request": {...}, "response": {...}}
//   {"rpc": R, "request": {...}, "error": {"code": "NOT_FOUND",
//       "field_violations": [paths], "reason": "WORLD_NOT_FOUND"}}
//   {"restart_server": true}
// R is a WorldService method: CreateWorld, DeleteWorld, GetWorld, ListWorlds,
// PushFrame, QueryWorld, CastWorldRaysPacked, ValidateShots,
// ValidateShotsPacked, ValidateMoves, GetBodies, ValidateProjectiles,
// ValidateMelee, GetVisibility. The request is R's request
// message (ValidateShots, ValidateShotsPacked and ValidateMoves may carry
// "explain": the verdicts then carry their explanation),
// world_id included; a runner sends it through its client's world API (which
// sets the `collide-world` header from the id), with re-creation on
// WORLD_NOT_FOUND on (the default). "field_violations" are compared as sets,
// "reason" is the google.rpc.ErrorInfo reason ("" or absent: none checked);
// a key absent from "error" is not checked.
// Responses: every key present is compared (numbers within the tolerance,
// the rest exactly; int64 values are plain JSON numbers; a vector or message
// absent from the client's answer counts as zeros); a key whose value is null
// names a message that must be unset (a verdict's first_hit, a target, an
// overlap's contact). WorldInfo leaves out replica and memory_bytes (they
// vary) and the occluder grid `visibility` (not in every client's
// WorldInfo); ListWorlds lists the worlds sorted by world_id.
// "stream_cases" (beside "cases"; a runner without a Tick stream leaves them
// out) are scripts whose steps may also be
//   {"tick": [{"message": {...}, "answer": {...}}, ...]}
// : the runner opens a Tick stream on the script's world (its client's
// stream API, which sets the header), sends each message and waits for its
// answer before the next, and closes the stream. A message holds the
// TickRequest parts, named as there ("frame", "query", "rays_packed",
// "shots", "shots_packed", "moves", "projectiles", "melee", "visibility",
// "bodies"), each in its unary request's form (a Frame for "frame"); the
// runner numbers the messages itself (sequences are not compared). An
// answer holds each part's response as in the unary step (the frame's
// PushFrameResponse), null for a part that did not run, and "error" (as a
// step's, field paths under the part's name, a frame's as PushFrame's) when
// the message failed; an empty message is a ping, answered {}.
// "history_lost": true on a message as on a step (the re-creation happens
// on the stream: the message answered WORLD_NOT_FOUND is re-sent once).
// restart_server: the runner kills the server (SIGKILL, a replica that dies)
// and starts it again, same arguments and port: every world is lost. The
// runner then waits until its client reaches the new server (a health check
// answered: the channel may notice the killed connection only by failing a
// call UNAVAILABLE). The next step's call must then succeed through the
// client's re-creation (from the creation request and the state after the
// latest frame: each body's latest pose, parts and their local poses, category
// and movement shape, pushed as one frame at the latest tick); such a step
// carries "history_lost": true and the runner checks that its client reported
// one re-creation during that call, and none during any step without it.
#ifndef COLLIDE_TESTS_CONFORMANCE_WORLD_CASES_H_
#define COLLIDE_TESTS_CONFORMANCE_WORLD_CASES_H_

#include "conformance/golden_cases.h"

namespace collide::conformance {

// The server's world limits during world conformance runs: small, so that the
// over-limit cases stay small.
inline constexpr int kWorldMaxHistoryTicks = 16;
inline constexpr int kWorldMaxBodies = 4;
inline constexpr int kWorldMaxParts = 4;

Json BuildWorldGolden();

}  // namespace collide::conformance

#endif  // COLLIDE_TESTS_CONFORMANCE_WORLD_CASES_H_
