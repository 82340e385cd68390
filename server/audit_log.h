// The audit trail of worlds created with journal.audit (docs/replay.md):
// one AuditRecord per shot and move verdict, in a world's files
// (<audit_dir>/<tenant>/<world>.audit.bin, length-delimited AuditBatches,
// or .audit.jsonl, JSON Lines: --audit_format; rotated past max_bytes, at
// most max_files kept) and to its WatchAudit subscribers.
//
// Off the verdicts' path: a call serializes its verdicts into their binary
// form (AuditBatch, record/audit_file.h) in one buffer and queues it
// (AppendVerdictAudit or AppendAuditBatches, then Submit); one writer
// thread, woken once per gathering period, writes the buffers (binary) or
// prints each record as a JSON line (jsonl), and parses them for
// subscribers when there are any. A full queue drops the batch (counted:
// dropped()) rather than slow the verdicts; a subscriber reading slower
// than verdicts come loses records the same way (dropped_before).
#ifndef COLLIDE_SERVER_AUDIT_LOG_H_
#define COLLIDE_SERVER_AUDIT_LOG_H_

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "collide/v1/world.pb.h"
#include "convert/world_calls.h"
#include "grpcpp/support/server_callback.h"
#include "record/audit_file.h"

namespace collide::server {

class AuditWatch;

enum class AuditFormat { kBinary, kJsonl };  // --audit_format

// One world's trail: its files (written by the AuditLog's thread only) and
// its subscribers. A binary file starts with its header; a binary file the
// trail finds with more (the world created again under its id, maybe after
// a crash that cut its last batch short) is rotated first, so that a file
// is whole batches but for a crash while it is written.
class AuditTrail {
 public:
  AuditTrail(std::string world_id, std::string path, AuditFormat format, std::int64_t max_bytes,
             int max_files);
  ~AuditTrail();
  AuditTrail(const AuditTrail&) = delete;
  AuditTrail& operator=(const AuditTrail&) = delete;

  const std::string& world_id() const { return world_id_; }
  const std::string& path() const { return path_; }

  // The writer thread: adds `batches` (length-delimited AuditBatches) to
  // the file, rotating before a batch (binary) or a line (jsonl) that would
  // pass max_bytes (held until Flush), and hands their records to every
  // subscriber.
  void Write(std::string_view batches);
  // Writes what Write held (one write); a write cut short is undone.
  void Flush();
  std::size_t buffered() const { return buffered_.size(); }
  // The world is gone: each subscriber ends once it has sent what it holds.
  void End();
  // False when the trail has ended (the watch then ends at once).
  bool Watch(std::shared_ptr<AuditWatch> watch);
  void Unwatch(const AuditWatch* watch);

 private:
  void Open();
  void Rotate();
  void Add(std::string_view bytes);

  const std::string world_id_;
  const std::string path_;
  const AuditFormat format_;
  const std::int64_t empty_size_;  // Bytes of a file without records: its header.
  const std::int64_t max_bytes_;
  const int max_files_;
  int fd_ = -1;            // -1: the file could not be opened (logged).
  std::int64_t size_ = 0;  // In the file, not counting buffered_.
  std::string buffered_;
  // The subscribers, called with no lock held: a call into gRPC may run a
  // reaction (OnDone, which unwatches) on the calling thread.
  std::vector<std::shared_ptr<AuditWatch>> Watches();

  std::mutex mu_;  // Guards watches_ and ended_.
  std::vector<std::shared_ptr<AuditWatch>> watches_;
  bool ended_ = false;
};

// Appends to `bytes` the length-delimited AuditBatch of one verdict part's
// verdicts (the call named by its type; a packed shot as the Shot it
// encodes), with `head`'s world, time, tick and batch_micros; returns how
// many. On the call's thread: a serialization of each shot or move and its
// verdict, no message copied.
std::size_t AppendVerdictAudit(const record::AuditBatchHead& head, const v1::ValidateShotsRequest& request,
                               const v1::ValidateShotsResponse& response, std::string& bytes);
std::size_t AppendVerdictAudit(const record::AuditBatchHead& head,
                               const v1::ValidateShotsPackedRequest& request,
                               const v1::ValidateShotsResponse& response, std::string& bytes);
std::size_t AppendVerdictAudit(const record::AuditBatchHead& head, const v1::ValidateMovesRequest& request,
                               const v1::ValidateMovesResponse& response, std::string& bytes);
// The same for a Tick message's verdict parts (shots, shots_packed, moves),
// each with its time from `micros`.
std::size_t AppendAuditBatches(const record::AuditBatchHead& head, const v1::TickRequest& request,
                               const v1::TickResponse& response, const convert::TickPartMicros& micros,
                               std::string& bytes);

// A judged call's AuditBatches, as AppendVerdictAudit or AppendAuditBatches
// built them.
struct QueuedAudit {
  std::shared_ptr<AuditTrail> trail;
  std::size_t verdicts = 0;
  std::string bytes;
  bool end = false;  // The world is gone: End() the trail (never dropped).
};

class AuditLog {
 public:
  explicit AuditLog(std::size_t max_queued_verdicts = std::size_t{1} << 18);
  // Writes what is queued, then stops the thread.
  ~AuditLog();

  // The trail of `world_id` in `dir`/<world_id>.audit.bin (binary) or
  // .audit.jsonl (the directory created); an error when it cannot be
  // created.
  absl::StatusOr<std::shared_ptr<AuditTrail>> OpenTrail(const std::string& dir, const std::string& world_id,
                                                        AuditFormat format, std::int64_t max_bytes,
                                                        int max_files);
  // Queues `batch`; dropped (counted) when the queue holds its bound.
  void Submit(QueuedAudit batch);
  // Shutdown: every trail's subscribers end.
  void EndAll();

  std::int64_t written() const { return written_.load(std::memory_order_relaxed); }
  std::int64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }

 private:
  void Run();

  const std::size_t max_queued_;
  std::mutex mu_;
  std::condition_variable ready_;
  std::deque<QueuedAudit> queue_;  // Guarded by mu_.
  std::size_t queued_verdicts_ = 0;
  bool stopping_ = false;
  std::mutex trails_mu_;
  std::set<std::weak_ptr<AuditTrail>, std::owner_less<std::weak_ptr<AuditTrail>>> trails_;
  std::atomic<std::int64_t> written_{0};
  std::atomic<std::int64_t> dropped_{0};
  std::thread thread_;  // Last: started once the rest is built.
};

// A WatchAudit call: the records of its world's trail as they are written,
// at most kMaxQueued held (then dropped, counted in the next one's
// dropped_before); OK once the world is gone and all held are sent, or when
// the client cancels.
class AuditWatch final : public grpc::ServerWriteReactor<v1::AuditRecord> {
 public:
  static constexpr std::size_t kMaxQueued = 1024;
  // A watch of `trail` from now on (records judged before are not sent). It
  // owns itself until OnDone; the trail shares it, so that a record being
  // delivered keeps it alive.
  static grpc::ServerWriteReactor<v1::AuditRecord>* Start(std::shared_ptr<AuditTrail> trail);
  // A call refused before it starts.
  static grpc::ServerWriteReactor<v1::AuditRecord>* Refuse(const grpc::Status& status);

  // The trail's writer thread.
  void Deliver(const v1::AuditRecord& record);
  void End();

  void OnWriteDone(bool ok) override;
  void OnCancel() override;
  void OnDone() override;

 private:
  AuditWatch(std::shared_ptr<AuditTrail> trail, std::int64_t start_micros);
  // Starts the next write, or finishes once ended and empty; gRPC is called
  // with no lock held.
  void Pump();

  std::shared_ptr<AuditTrail> trail_;
  const std::int64_t start_micros_;
  std::shared_ptr<AuditWatch> self_;  // Released in OnDone.
  std::mutex mu_;
  std::deque<v1::AuditRecord> queue_;
  std::int64_t missed_ = 0;  // Dropped since the last queued record.
  v1::AuditRecord sending_;
  bool writing_ = false;
  bool ended_ = false;
  bool finished_ = false;
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_AUDIT_LOG_H_
