// One WorldService.Tick stream (callback API, raw bytes; the contract is
// world.proto's TickRequest). Reading runs ahead of running: each message is
// timestamped when read (its budget_ms counts from there) and queued, up to
// kMaxQueued messages or kMaxQueuedBytes; messages run one at a time, in
// order (WorldService::AnswerTick, the unary calls' code); answers are
// written in order, at most kMaxQueued waiting for a slow reader before
// running pauses. So a stream holds a bounded amount of memory, and a client
// that neither reads nor sends is held by gRPC's flow control.
//
// Where a message runs: a small one (at most kMaxInlineBytes, about the
// items of one chunk, which CollisionService also runs on gRPC's thread)
// read when nothing of its stream waits or runs, on the gRPC thread that
// read it, once the next read is started: as the unary world calls do, and
// without waking another thread. Any other on the world service's
// CallExecutor, one task per message so that streams share the threads and
// a large batch never holds one of gRPC's few threads (where calls arriving
// meanwhile would wait uncounted by admission).
//
// Memory: the bytes of the messages a stream has read and not yet run and
// of the answers it has not yet written are charged to one budget shared by
// every stream (--tick_streams_memory_bytes, WorldService::TickBytesOver).
// Over it, a stream that holds any such bytes reads and runs no more (its
// client is held by gRPC's flow control) until the streams are under it
// again; a stream that holds none still reads and runs one message at a
// time, so a client that reads its answers is served while others that do
// not hold memory. What all streams hold is then at most the budget plus
// one message and one answer per stream.
//
// Ending: the client's half-close ends it OK, and WorldService::Drain
// (shutdown) UNAVAILABLE, each once every message read is answered and
// written; a cancelled call ends CANCELLED without running what is queued.
// Finish is called only then, outside the lock, as the last act of the
// thread that calls it, so OnDone (which deletes the stream) never races a
// task or a reaction still using it.
#ifndef COLLIDE_SERVER_WORLD_TICK_H_
#define COLLIDE_SERVER_WORLD_TICK_H_

#include <atomic>
#include <chrono>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <string>

#include "grpcpp/support/byte_buffer.h"
#include "grpcpp/support/server_callback.h"
#include "server/world_service.h"

namespace collide::server {

class TickStream final : public grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer> {
 public:
  static constexpr std::size_t kMaxQueued = 8;
  static constexpr std::size_t kMaxQueuedBytes = std::size_t{8} << 20;
  // A message at most this large runs on the thread that read it when it
  // is next: ~200 packed shots or moves (~70 bytes an item).
  static constexpr std::size_t kMaxInlineBytes = std::size_t{16} << 10;

  // A stream on `world` (a valid id) for `owner`; registered with the
  // service for Drain, or ended UNAVAILABLE at once when it drains.
  static TickStream* Open(WorldService& service, std::string world, std::string owner);
  // A stream ended at once with `status` (a bad header).
  static TickStream* Refuse(const grpc::Status& status);

  // Stops reading; ends UNAVAILABLE once every message read is answered.
  void Drain();
  // Tries again to read and run after stopping for the shared memory budget
  // (WorldService::ResumeStarvedStreams).
  void Resume();

  void OnReadDone(bool ok) override;
  void OnWriteDone(bool ok) override;
  void OnCancel() override;
  void OnDone() override;

 private:
  using Clock = std::chrono::steady_clock;
  struct Read {
    grpc::ByteBuffer bytes;
    Clock::time_point at;
  };

  TickStream(WorldService* service, std::string world, std::string owner);

  // Runs the oldest queued message (executor task) with Answer.
  void RunNext();
  // Runs `read` (running_ set for it), writes its answer, then posts the
  // next queued message or finishes the stream.
  void Answer(Read read);
  // Each with mu_ held: starts a read when there is room and reading goes
  // on; posts RunNext when a message waits, none runs and the answers
  // waiting to be written leave room.
  void MaybeReadLocked();
  void MaybeRunLocked();
  // The status to end with once nothing is left to do, else nullopt; marks
  // the stream finished. The caller calls Finish after unlocking.
  std::optional<grpc::Status> FinishableLocked();
  // The shared memory budget (mu_ held): bytes taken and given back, and
  // whether this stream must wait before taking more (over the budget while
  // it holds some; noted for Resume).
  void ChargeLocked(std::int64_t bytes);
  bool MustWaitForMemoryLocked();
  // After unlocking, before any Finish: lets streams stopped for memory go
  // on if there is room now. Takes the service, read while the stream was
  // certainly alive: once mu_ is released another thread may finish the
  // stream and OnDone delete it.
  static void ResumeStarved(WorldService* service);

  WorldService* const service_;  // Null for a refused stream.
  const std::string world_;
  const std::string owner_;

  // Set (release) once the constructor's writes are done, before the stream
  // is handed to gRPC; each reaction reads it (acquire) before anything else.
  // gRPC hands the stream to its threads with synchronisation TSan cannot see
  // (Debian's gRPC is not built with TSan), so without this pair TSan saw
  // OnReadDone's lock of mu_ race with the constructor's write of it.
  std::atomic<bool> published_{false};
  void Publish() { published_.store(true, std::memory_order_release); }
  void SeePublication() const { (void)published_.load(std::memory_order_acquire); }

  std::mutex mu_;
  grpc::ByteBuffer reading_buffer_;  // The outstanding read's target.
  bool reading_ = false;             // A read is outstanding.
  bool reads_ended_ = false;         // Half-close or a failed read: no more.
  bool draining_ = false;            // Drain(): no new reads.
  bool cancelled_ = false;           // OnCancel or a failed write.
  std::deque<Read> queue_;           // Read, not yet run.
  std::size_t queued_bytes_ = 0;
  bool running_ = false;                 // A message runs or a RunNext task is posted.
  std::deque<grpc::ByteBuffer> writes_;  // Answers; the front is being written when writing_.
  bool writing_ = false;
  bool finished_ = false;
  std::int64_t charged_ = 0;  // This stream's bytes in the shared budget.
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_WORLD_TICK_H_
