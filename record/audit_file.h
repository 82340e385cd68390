// The audit trail's binary form (world.proto WorldJournal.audit,
// docs/replay.md): what collide-server writes with --audit_format=binary
// (<world>.audit.bin) and `collide world audit` prints as the JSON Lines of
// --audit_format=jsonl. A file is the line kAuditFileHeader, then
// length-delimited AuditBatch messages (each a varint byte count, then the
// message), in the order they were judged.
//
// The server builds a batch's bytes from its verdicts' input and verdict
// messages as they are (AppendAuditBatch: a serialization of each into one
// buffer, no AuditBatch or AuditRecord message), so that a verdict's trail
// costs a fraction of judging it; the bytes equal AuditBatch's own
// serialization. The fields every record of a batch shares are written once.
#ifndef COLLIDE_RECORD_AUDIT_FILE_H_
#define COLLIDE_RECORD_AUDIT_FILE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "collide/v1/world.pb.h"
#include "google/protobuf/message_lite.h"

namespace collide::record {

inline constexpr std::string_view kAuditFileHeader = "collide.v1.audit\n";
// A batch's byte count past this is a damaged file, not a batch.
inline constexpr std::uint64_t kMaxAuditBatchBytes = std::uint64_t{256} << 20;

// AuditBatch's fields but its items.
struct AuditBatchHead {
  std::string_view world_id;
  std::int64_t unix_micros = 0;
  std::int64_t latest_tick = 0;
  std::string_view call;  // "ValidateShots", "ValidateShotsPacked", "ValidateMoves".
  double batch_micros = 0;
};

enum class AuditItem { kShot, kMove };

// Appends to `out` one length-delimited AuditBatch: `head`, and `count`
// items (`kShot`: ShotAudits, `kMove`: MoveAudits) of `input(i)` (the Shot
// or Move) and `verdict(i)` (its ShotVerdict or MoveVerdict). Nothing when
// `count` is 0.
void AppendAuditBatch(const AuditBatchHead& head, AuditItem item, int count,
                      absl::FunctionRef<const google::protobuf::MessageLite&(int)> input,
                      absl::FunctionRef<const google::protobuf::MessageLite&(int)> verdict, std::string& out);

// The message bytes of the length-delimited batch at `offset` in `bytes`,
// `offset` moved past it; DATA_LOSS when the bytes end inside it or its
// byte count is past kMaxAuditBatchBytes.
absl::StatusOr<std::string_view> NextAuditBatch(std::string_view bytes, std::size_t& offset);

// Calls `each` with the AuditRecord of every item of `batch`, in order (the
// items are moved out of `batch`).
void ForEachAuditRecord(v1::AuditBatch& batch, absl::FunctionRef<void(const v1::AuditRecord&)> each);

// Calls `each` with every record of the binary audit file at `path`, in
// order. An error names the file and the byte offset where reading stopped
// (every record before it was given to `each`): the file cannot be read,
// does not start with kAuditFileHeader, ends inside a batch or holds one
// that is not an AuditBatch. An empty file has no records.
absl::Status ReadAuditFile(const std::string& path, absl::FunctionRef<void(const v1::AuditRecord&)> each);

}  // namespace collide::record

#endif  // COLLIDE_RECORD_AUDIT_FILE_H_
