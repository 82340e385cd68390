// The conformance suite's cases: requests in proto3 JSON (field names as in
// the .proto) with the answers every client must get from a collide-server.
//
// Pair and ray answers are the core library's (collide/query.h), computed
// here: the server runs the same core, so a client that sees anything else
// has a bug in its encoding, decoding or transport. Error cases state the
// status code and BadRequest field paths that collide.proto documents.
//
// The cases are written once, in golden_cases.cc; generate_golden writes
// them to tests/conformance/golden.json, and checks that file against the
// core (ctest conformance_golden_fresh).
#ifndef COLLIDE_TESTS_CONFORMANCE_GOLDEN_CASES_H_
#define COLLIDE_TESTS_CONFORMANCE_GOLDEN_CASES_H_

#include <nlohmann/json.hpp>

namespace collide::conformance {

using Json = nlohmann::ordered_json;

// Clients compare doubles with |got - want| <= kAbsTolerance +
// kRelTolerance * |want|; hit flags, status codes and field paths exactly.
inline constexpr double kAbsTolerance = 1e-9;
inline constexpr double kRelTolerance = 1e-9;
// The server's --max_items_per_request during conformance runs: small, so
// that the over-limit cases stay small.
inline constexpr int kMaxItemsPerRequest = 64;

// The whole golden document:
// {
//   "tolerance": {"abs": 1e-9, "rel": 1e-9},
//   "server_args": ["--max_items_per_request=64"],
//   "cases": [{"name", "rpc", "request", then "response" or "error"}]
// }
// rpc is QueryPairs, QueryPairsPacked, CastRays, CastRaysPacked,
// GetServerInfo or Health (grpc.health.v1.Health/Check). "response" holds the
// fields to compare (a client compares every key present; vectors as
// {"x","y","z"}, absent means zero). "error" is {"code": "INVALID_ARGUMENT",
// "field_violations": [paths]} (paths compared as sets; absent: not checked).
// Only pairs and rays that the core answers with status kOk are included.
Json BuildGolden();

}  // namespace collide::conformance

#endif  // COLLIDE_TESTS_CONFORMANCE_GOLDEN_CASES_H_
