// The readable QueryPairs request and response read and written as protobuf
// wire bytes, without protobuf's message objects.
//
// Why: parsing a readable request builds 11 nested messages per OBB pair
// (each an arena allocation and a nested parse), ~2,900 of the ~4,200
// instructions a pair costs the server; building and serializing the
// response's messages is most of the rest. Reading the bytes straight into
// the core batch, and writing the response's bytes from the results, leaves
// the decoding of the numbers themselves.
//
// The decoder is a fast path, not a second parser: it accepts only what every
// protobuf encoder writes for a valid request (known fields with their
// declared wire types and one-byte tags, each message-typed field at most
// once, a level of INTERSECT, DISTANCE or CONTACT, at least one pair, every
// shape set and valid, no convex hull) and declines everything else, which
// the caller then parses with protobuf and decodes with Decode (requests.h),
// the one place that reports violations. What it accepts it decodes exactly
// as Decode does the parsed message (the same UnpackShape per shape), so the
// two paths give bit-identical batches (tests/convert/readable_wire_test.cc,
// and the request fuzzer compares the service's answers on both paths).
// The wire format: https://protobuf.dev/programming-guides/encoding/.
#ifndef COLLIDE_CONVERT_READABLE_WIRE_H_
#define COLLIDE_CONVERT_READABLE_WIRE_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "collide/result.h"
#include "convert/requests.h"

namespace collide::convert {

// Decodes the wire bytes of a collide.v1.QueryPairsRequest into `out` when
// they are in the form described above and hold at most `max_pairs` pairs.
// Returns false otherwise (`out` is then unspecified): the caller must fall
// back to protobuf and Decode.
bool DecodeQueryPairsWire(std::span<const std::uint8_t> bytes, std::size_t max_pairs, PairBatch& out);

// Replaces `out` by the wire bytes of a collide.v1.QueryPairsResponse with one
// PairResult per result, in order: byte for byte what protobuf serializes
// for the message that Encode (results.h) builds from `results`.
void EncodeQueryPairsResponseWire(std::span<const PairResult> results, std::string& out);

}  // namespace collide::convert

#endif  // COLLIDE_CONVERT_READABLE_WIRE_H_
