// What the server keeps of a world's calls when it is created with
// CreateWorldRequest.journal (docs/replay.md): the match recording
// (record/recording_file.h) and the audit trail (audit_log.h). One per
// world, owned by its WorldEntry: destroying it (the world deleted, evicted,
// or the server stopping) closes the recording and ends the audit trail.
#ifndef COLLIDE_SERVER_WORLD_JOURNAL_H_
#define COLLIDE_SERVER_WORLD_JOURNAL_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "absl/functional/function_ref.h"
#include "collide/v1/world.pb.h"
#include "convert/world_calls.h"
#include "record/recording_file.h"
#include "server/audit_log.h"
#include "server/status_mapping.h"

namespace collide::server {

// The server's journal flags; an empty directory turns its option off.
struct JournalConfig {
  std::string audit_dir;                                     // --audit_dir
  AuditFormat audit_format = AuditFormat::kBinary;           // --audit_format
  std::int64_t audit_max_bytes = std::int64_t{64} << 20;     // --audit_max_bytes, per file
  int audit_max_files = 8;                                   // --audit_max_files
  std::string recordings_dir;                                // --recordings_dir
  std::int64_t recording_max_bytes = std::int64_t{1} << 30;  // --recording_max_bytes
};
// "" when valid, else the first bad value and why.
std::string CheckJournalConfig(const JournalConfig& config);

// FAILED_PRECONDITION naming the flag when `journal` asks for an option
// whose flag is unset.
std::optional<RequestError> CheckJournal(const v1::WorldJournal& journal, const JournalConfig& config);

class WorldJournal {
 public:
  // The journal `request.journal` asks for (`owner`'s world; map files
  // pinned from `maps_dir`, history_ticks resolved to `history_ticks`);
  // an error when a file cannot be created.
  static absl::StatusOr<std::unique_ptr<WorldJournal>> Open(const JournalConfig& config, AuditLog& audit_log,
                                                            const std::string& owner,
                                                            const v1::CreateWorldRequest& request,
                                                            int history_ticks, const std::string& maps_dir);
  // Closes the recording; the audit trail ends once what is queued is written.
  ~WorldJournal();
  // The world is in the registry: its recording, written until now under a
  // temporary name (a creation refused as ALREADY_EXISTS must not replace
  // the live world's file), takes its name. Without Commit the destructor
  // removes it.
  void Commit();

  // Calls on a recorded world run one at a time, so that the recording
  // holds them in the order the world ran them: the caller holds this
  // around running a call and Record. Null when nothing is recorded.
  std::optional<std::unique_lock<std::mutex>> Serialize();
  // The call that ran (its Tick message form) and its answer; `refused`
  // becomes the answer's status.
  void Record(const v1::TickRequest& request, const v1::TickResponse& response,
              const std::optional<RequestError>& refused);
  // The verdict parts of a Tick message that ran, for the audit trail
  // (nothing when the world has none, or the call none). `latest_tick`: the
  // world's then.
  void Audit(const v1::TickRequest& request, const v1::TickResponse& response,
             const convert::TickPartMicros& micros, std::int64_t latest_tick);
  // A unary verdict call's (ValidateShots, ValidateShotsPacked,
  // ValidateMoves: AppendVerdictAudit's), judged in `micros`.
  template <typename Request, typename Response>
  void Audit(const Request& request, const Response& response, double micros, std::int64_t latest_tick) {
    if (audit_ == nullptr) return;
    SubmitAudit(latest_tick, [&](const record::AuditBatchHead& head, std::string& bytes) {
      record::AuditBatchHead timed = head;
      timed.batch_micros = micros;
      return AppendVerdictAudit(timed, request, response, bytes);
    });
  }

  bool records() const { return recording_wanted_; }
  const std::shared_ptr<AuditTrail>& audit_trail() const { return audit_; }

 private:
  WorldJournal() = default;
  // Queues the batch `append(head, bytes)` builds (returning its verdicts).
  void SubmitAudit(std::int64_t latest_tick,
                   absl::FunctionRef<std::size_t(const record::AuditBatchHead&, std::string&)> append);

  AuditLog* audit_log_ = nullptr;
  std::shared_ptr<AuditTrail> audit_;  // Null: no audit trail.
  bool recording_wanted_ = false;
  std::mutex call_mu_;
  std::unique_ptr<record::RecordingWriter> recording_;  // Guarded by call_mu_; null once full.
  std::int64_t recording_max_bytes_ = 0;
  std::string recording_path_;  // The final name; the writer's is temporary until Commit.
  bool committed_ = false;
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_WORLD_JOURNAL_H_
