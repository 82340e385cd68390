#include "server/world_tick.h"

#include <cstddef>
#include <memory>
#include <utility>

#include "google/protobuf/arena.h"
#include "grpcpp/support/proto_buffer_reader.h"
#include "server/request_encoding.h"
#include "server/service.h"
#include "server/status_mapping.h"

namespace collide::server {
namespace {

// A message's request and response live on an arena whose first block is
// the running thread's own, reused message after message: a tick of a
// 64-player match (a frame, 64 moves, 10 shots, and the verdicts) is ~1,000
// sub-messages, and parsed onto the heap their malloc and free would be a
// fifth of the server's CPU under 8 such matches (perf, `collide bench
// --matches`). The arena lives inside Answer, whose scope only parses,
// runs the message in the core and serializes (no gRPC call that could run
// another reaction on this thread), so the block is used by one arena at a
// time; blocks beyond it are the arena's, freed with it.
google::protobuf::ArenaOptions ThreadArenaOptions() {
  constexpr std::size_t kBlockBytes = 256 << 10;
  thread_local const std::unique_ptr<char[]> block(new char[kBlockBytes]);
  google::protobuf::ArenaOptions options;
  options.initial_block = block.get();
  options.initial_block_size = kBlockBytes;
  return options;
}

grpc::Status ShuttingDown() {
  return ToGrpcStatus({RequestError::Kind::kUnavailable,
                       "the server is shutting down: every message it read on this stream was answered; a "
                       "message without an answer was not applied (send it again on a new stream)"});
}

}  // namespace

TickStream::TickStream(WorldService* service, std::string world, std::string owner)
    : service_(service), world_(std::move(world)), owner_(std::move(owner)) {}

TickStream* TickStream::Open(WorldService& service, std::string world, std::string owner) {
  auto* stream = new TickStream(&service, std::move(world), std::move(owner));
  if (!service.AddStream(stream)) {
    stream->finished_ = true;
    stream->Publish();
    stream->Finish(ShuttingDown());
    return stream;
  }
  stream->Publish();
  std::lock_guard lock(stream->mu_);
  stream->MaybeReadLocked();
  return stream;
}

TickStream* TickStream::Refuse(const grpc::Status& status) {
  auto* stream = new TickStream(nullptr, "", "");
  stream->finished_ = true;
  stream->Publish();
  stream->Finish(status);
  return stream;
}

void TickStream::ChargeLocked(std::int64_t bytes) {
  if (bytes == 0 || service_ == nullptr) return;
  charged_ += bytes;
  service_->ChargeTickBytes(bytes);
}

bool TickStream::MustWaitForMemoryLocked() {
  if (charged_ == 0 || service_ == nullptr || !service_->TickBytesOver()) return false;
  service_->NoteStarved();
  return true;
}

void TickStream::ResumeStarved(WorldService* service) {
  if (service != nullptr) service->ResumeStarvedStreams();
}

void TickStream::Resume() {
  SeePublication();
  std::lock_guard lock(mu_);
  MaybeReadLocked();
  MaybeRunLocked();
}

void TickStream::MaybeReadLocked() {
  if (reading_ || reads_ended_ || draining_ || cancelled_ || finished_) return;
  if (queue_.size() >= kMaxQueued || queued_bytes_ >= kMaxQueuedBytes) return;
  if (MustWaitForMemoryLocked()) return;
  reading_ = true;
  StartRead(&reading_buffer_);
}

void TickStream::MaybeRunLocked() {
  if (running_ || queue_.empty() || cancelled_ || writes_.size() >= kMaxQueued) return;
  // Unwritten answers and the budget spent: its client is not reading.
  if (!writes_.empty() && MustWaitForMemoryLocked()) return;
  running_ = true;
  service_->executor_.Post([this] { RunNext(); });
}

std::optional<grpc::Status> TickStream::FinishableLocked() {
  if (finished_ || running_ || writing_ || !queue_.empty() || !writes_.empty()) return std::nullopt;
  if (!cancelled_ && !reads_ended_ && !draining_) return std::nullopt;
  finished_ = true;
  if (cancelled_) return ToGrpcStatus({RequestError::Kind::kCancelled, "the call was cancelled"});
  // The client's half-close: it has sent everything, all of it answered.
  if (reads_ended_) return grpc::Status::OK;
  return ShuttingDown();
}

void TickStream::OnReadDone(bool ok) {
  SeePublication();
  WorldService* const service = service_;
  std::optional<grpc::Status> finish;
  std::optional<Read> here;  // A small message run on this thread.
  {
    std::lock_guard lock(mu_);
    reading_ = false;
    if (!ok) {
      reads_ended_ = true;
    } else if (!cancelled_ && !finished_) {
      Read read{std::move(reading_buffer_), Clock::now()};
      reading_buffer_.Clear();
      ChargeLocked(static_cast<std::int64_t>(read.bytes.Length()));
      if (!running_ && queue_.empty() && writes_.size() < kMaxQueued &&
          read.bytes.Length() <= kMaxInlineBytes) {
        running_ = true;
        here = std::move(read);
      } else {
        queued_bytes_ += read.bytes.Length();
        queue_.push_back(std::move(read));
        MaybeRunLocked();
      }
      MaybeReadLocked();  // Reading runs ahead of the message run here.
    }
    finish = FinishableLocked();
  }
  ResumeStarved(service);
  // After the message's read time was taken and it was queued.
  if (ok && service != nullptr && service->config_.hooks.on_tick_read) service->config_.hooks.on_tick_read();
  if (here) {
    Answer(*std::move(here));
  } else if (finish) {
    Finish(*std::move(finish));
  }
}

void TickStream::RunNext() {
  WorldService* const service = service_;
  Read read;
  bool got = false;
  std::optional<grpc::Status> finish;
  {
    std::lock_guard lock(mu_);
    if (cancelled_ || queue_.empty()) {
      running_ = false;
      finish = FinishableLocked();
    } else {
      read = std::move(queue_.front());
      queue_.pop_front();
      queued_bytes_ -= read.bytes.Length();
      got = true;
      MaybeReadLocked();  // Room for one more.
    }
  }
  if (!got) {
    ResumeStarved(service);
    if (finish) Finish(*std::move(finish));
    return;
  }
  Answer(std::move(read));
}

void TickStream::Answer(Read read) {
  WorldService* const service = service_;
  // The message, outside the lock: reads and writes go on meanwhile.
  std::optional<grpc::Status> finish;
  grpc::ByteBuffer answer;
  grpc::Status serialized;
  {
    google::protobuf::Arena arena(ThreadArenaOptions());
    auto* request = google::protobuf::Arena::CreateMessage<v1::TickRequest>(&arena);
    auto* response = google::protobuf::Arena::CreateMessage<v1::TickResponse>(&arena);
    // A compressed message is refused as a compressed unary request is
    // (request_encoding.h), without being inflated or parsed.
    RequestReader reader(read.bytes);
    grpc::Status parsed = CheckRequestEncoding(reader);
    if (parsed.ok()) parsed = ParseRequest(reader, read.bytes.Length(), *request);
    if (!parsed.ok()) {
      // Its sequence is unknown: 0 (world.proto asks for sequences >= 1).
      response->mutable_status()->set_code(parsed.error_code());
      response->mutable_status()->set_message(parsed.error_message());
    } else {
      service_->AnswerTick(owner_, world_, *request, read.at, response);
    }
    bool own_buffer = false;
    serialized = grpc::SerializationTraits<v1::TickResponse>::Serialize(*response, &answer, &own_buffer);
  }

  const auto read_bytes = static_cast<std::int64_t>(read.bytes.Length());
  read.bytes.Clear();
  {
    std::lock_guard lock(mu_);
    running_ = false;
    ChargeLocked(-read_bytes);
    if (!cancelled_ && serialized.ok()) {
      ChargeLocked(static_cast<std::int64_t>(answer.Length()));
      writes_.push_back(std::move(answer));
      if (!writing_) {
        writing_ = true;
        StartWrite(&writes_.front());
      }
    }
    MaybeRunLocked();
    finish = FinishableLocked();
  }
  ResumeStarved(service);
  if (finish) Finish(*std::move(finish));
}

void TickStream::OnWriteDone(bool ok) {
  SeePublication();
  WorldService* const service = service_;
  std::optional<grpc::Status> finish;
  {
    std::lock_guard lock(mu_);
    writing_ = false;
    ChargeLocked(-static_cast<std::int64_t>(writes_.front().Length()));
    writes_.pop_front();
    if (!ok) {  // The client is gone: nothing more can be delivered.
      cancelled_ = true;
      ChargeLocked(-static_cast<std::int64_t>(queued_bytes_));
      queue_.clear();
      queued_bytes_ = 0;
      for (const grpc::ByteBuffer& w : writes_) ChargeLocked(-static_cast<std::int64_t>(w.Length()));
      writes_.clear();
    } else if (!writes_.empty()) {
      writing_ = true;
      StartWrite(&writes_.front());
    }
    MaybeReadLocked();  // Room again in the budget, perhaps.
    MaybeRunLocked();
    finish = FinishableLocked();
  }
  ResumeStarved(service);
  if (finish) Finish(*std::move(finish));
}

void TickStream::OnCancel() {
  SeePublication();
  WorldService* const service = service_;
  std::optional<grpc::Status> finish;
  {
    std::lock_guard lock(mu_);
    cancelled_ = true;
    ChargeLocked(-static_cast<std::int64_t>(queued_bytes_));
    queue_.clear();
    queued_bytes_ = 0;
    while (writes_.size() > (writing_ ? 1 : 0)) {
      ChargeLocked(-static_cast<std::int64_t>(writes_.back().Length()));
      writes_.pop_back();
    }
    finish = FinishableLocked();
  }
  ResumeStarved(service);
  if (service != nullptr && service->config_.hooks.on_tick_cancelled)
    service->config_.hooks.on_tick_cancelled();
  if (finish) Finish(*std::move(finish));
}

void TickStream::Drain() {
  std::optional<grpc::Status> finish;
  {
    std::lock_guard lock(mu_);
    draining_ = true;
    finish = FinishableLocked();
  }
  if (finish) Finish(*std::move(finish));
}

void TickStream::OnDone() {
  SeePublication();
  if (service_ != nullptr) service_->RemoveStream(this);
  // Every reaction and task left mu_ before OnDone: taking it once orders
  // their last accesses before the destruction (for TSan, which does not see
  // gRPC's own ordering). What it still holds goes back to the budget.
  {
    std::lock_guard lock(mu_);
    if (charged_ != 0) ChargeLocked(-charged_);
  }
  WorldService* const service = service_;
  delete this;
  if (service != nullptr) service->ResumeStarvedStreams();
}

}  // namespace collide::server
