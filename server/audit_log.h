// The audit trail of worlds created with journal.audit (docs/replay.md):
// one AuditRecord per shot and move verdict, as JSON Lines in a world's
// files (<audit_dir>/<tenant>/<world>.audit.jsonl, rotated past max_bytes,
// at most max_files kept) and to its WatchAudit subscribers.
//
// Off the verdicts' path: a call copies its verdict parts into a bounded
// queue (Submit, a few microseconds); one writer thread turns them into
// records, JSON lines and subscriber messages. A full queue drops the batch
// (counted: dropped()) rather than slow the verdicts; a subscriber reading
// slower than verdicts come loses records the same way (dropped_before).
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
#include <thread>

#include "absl/status/statusor.h"
#include "collide/v1/world.pb.h"
#include "convert/world_calls.h"
#include "grpcpp/support/server_callback.h"

namespace collide::server {

class AuditWatch;

// One world's trail: its files (written by the AuditLog's thread only) and
// its subscribers.
class AuditTrail {
 public:
  AuditTrail(std::string world_id, std::string path, std::int64_t max_bytes, int max_files);
  ~AuditTrail();
  AuditTrail(const AuditTrail&) = delete;
  AuditTrail& operator=(const AuditTrail&) = delete;

  const std::string& world_id() const { return world_id_; }
  const std::string& path() const { return path_; }

  // The writer thread: adds `line` to the file (rotating first when it
  // would pass max_bytes; written at the next Flush, one write per batch)
  // and hands `record` to every subscriber.
  void Write(const v1::AuditRecord& record, const std::string& line);
  void Flush();
  // The world is gone: each subscriber ends once it has sent what it holds.
  void End();
  // False when the trail has ended (the watch then ends at once).
  bool Watch(AuditWatch* watch);
  void Unwatch(AuditWatch* watch);

 private:
  void Rotate();

  const std::string world_id_;
  const std::string path_;
  const std::int64_t max_bytes_;
  const int max_files_;
  int fd_ = -1;            // -1: the file could not be opened (logged).
  std::int64_t size_ = 0;  // In the file, not counting buffered_.
  std::string buffered_;
  std::mutex mu_;  // Guards watches_ and ended_.
  std::set<AuditWatch*> watches_;
  bool ended_ = false;
};

// A judged call's verdict parts, as the writer thread turns them into
// records: request and response hold only shots, shots_packed and moves.
struct AuditBatch {
  std::shared_ptr<AuditTrail> trail;
  std::int64_t unix_micros = 0;
  std::int64_t latest_tick = 0;
  v1::TickRequest request;
  v1::TickResponse response;
  convert::TickPartMicros micros;
  bool end = false;  // The world is gone: End() the trail (never dropped).
};

class AuditLog {
 public:
  explicit AuditLog(std::size_t max_queued_verdicts = std::size_t{1} << 18);
  // Writes what is queued, then stops the thread.
  ~AuditLog();

  // The trail of `world_id` in `dir`/<world_id>.audit.jsonl (the directory
  // created); an error when it cannot be created.
  absl::StatusOr<std::shared_ptr<AuditTrail>> OpenTrail(const std::string& dir, const std::string& world_id,
                                                        std::int64_t max_bytes, int max_files);
  // Queues `batch`; dropped (counted) when the queue holds its bound.
  void Submit(AuditBatch batch);
  // Shutdown: every trail's subscribers end.
  void EndAll();

  std::int64_t written() const { return written_.load(std::memory_order_relaxed); }
  std::int64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }

 private:
  void Run();
  void WriteBatch(AuditBatch& batch);

  const std::size_t max_queued_;
  std::mutex mu_;
  std::condition_variable ready_;
  std::deque<AuditBatch> queue_;  // Guarded by mu_.
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
  explicit AuditWatch(std::shared_ptr<AuditTrail> trail);
  // A call refused before it starts.
  static grpc::ServerWriteReactor<v1::AuditRecord>* Refuse(const grpc::Status& status);

  // The trail's (under its lock).
  void Deliver(const v1::AuditRecord& record);
  void End();

  void OnWriteDone(bool ok) override;
  void OnCancel() override;
  void OnDone() override;

 private:
  void Pump();  // Takes mu_.

  std::shared_ptr<AuditTrail> trail_;
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
