#include "server/audit_log.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "convert/world_encode.h"
#include "convert/world_packed.h"
#include "server/json_line.h"
#include "spdlog/spdlog.h"

namespace collide::server {
namespace {

std::int64_t Verdicts(const v1::TickResponse& r) {
  return r.shots().verdicts_size() + r.shots_packed().verdicts_size() + r.moves().verdicts_size();
}

constexpr int kWriterNice = 10;

int OpenAppend(const std::string& path) {
  return ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
}

}  // namespace

AuditTrail::AuditTrail(std::string world_id, std::string path, std::int64_t max_bytes, int max_files)
    : world_id_(std::move(world_id)), path_(std::move(path)), max_bytes_(max_bytes), max_files_(max_files) {
  fd_ = OpenAppend(path_);
  struct stat st {};
  if (fd_ < 0) {
    spdlog::error("audit trail {}: cannot open: {}", path_, std::strerror(errno));
  } else if (::fstat(fd_, &st) == 0) {
    size_ = st.st_size;  // A world re-created under the same id goes on in its file.
  }
}

AuditTrail::~AuditTrail() {
  End();
  Flush();
  if (fd_ >= 0) ::close(fd_);
}

// path.(max_files - 1) is removed, path.k becomes path.(k + 1), path
// becomes path.1: at most max_files files of at most max_bytes each (a
// single line longer than max_bytes gets a file of its own).
void AuditTrail::Rotate() {
  if (fd_ >= 0) ::close(fd_);
  std::error_code ignored;
  if (max_files_ <= 1) {
    std::filesystem::remove(path_, ignored);
  } else {
    std::filesystem::remove(absl::StrCat(path_, ".", max_files_ - 1), ignored);
    for (int k = max_files_ - 2; k >= 1; --k) {
      std::filesystem::rename(absl::StrCat(path_, ".", k), absl::StrCat(path_, ".", k + 1), ignored);
    }
    std::filesystem::rename(path_, path_ + ".1", ignored);
  }
  fd_ = OpenAppend(path_);
  size_ = 0;
  if (fd_ < 0) spdlog::error("audit trail {}: cannot open: {}", path_, std::strerror(errno));
}

void AuditTrail::Write(const v1::AuditRecord& record, const std::string& line) {
  const auto held = size_ + static_cast<std::int64_t>(buffered_.size());
  if (held > 0 && held + static_cast<std::int64_t>(line.size()) > max_bytes_) {
    Flush();
    Rotate();
  }
  buffered_ += line;
  std::lock_guard lock(mu_);
  for (AuditWatch* watch : watches_) watch->Deliver(record);
}

void AuditTrail::Flush() {
  if (buffered_.empty()) return;
  if (fd_ >= 0) {
    if (::write(fd_, buffered_.data(), buffered_.size()) == static_cast<ssize_t>(buffered_.size())) {
      size_ += static_cast<std::int64_t>(buffered_.size());
    } else {
      spdlog::error("audit trail {}: write failed: {}", path_, std::strerror(errno));
    }
  }
  buffered_.clear();
}

void AuditTrail::End() {
  std::lock_guard lock(mu_);
  ended_ = true;
  for (AuditWatch* watch : watches_) watch->End();
}

bool AuditTrail::Watch(AuditWatch* watch) {
  std::lock_guard lock(mu_);
  if (ended_) return false;
  watches_.insert(watch);
  return true;
}

void AuditTrail::Unwatch(AuditWatch* watch) {
  std::lock_guard lock(mu_);
  watches_.erase(watch);
}

AuditLog::AuditLog(std::size_t max_queued_verdicts)
    : max_queued_(max_queued_verdicts), thread_([this] { Run(); }) {}

AuditLog::~AuditLog() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  ready_.notify_one();
  thread_.join();
}

absl::StatusOr<std::shared_ptr<AuditTrail>> AuditLog::OpenTrail(const std::string& dir,
                                                                const std::string& world_id,
                                                                std::int64_t max_bytes, int max_files) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error)
    return absl::UnavailableError(absl::StrCat("audit trail: cannot create ", dir, ": ", error.message()));
  auto trail = std::make_shared<AuditTrail>(world_id, absl::StrCat(dir, "/", world_id, ".audit.jsonl"),
                                            max_bytes, max_files);
  std::lock_guard lock(trails_mu_);
  std::erase_if(trails_, [](const std::weak_ptr<AuditTrail>& t) { return t.expired(); });
  trails_.insert(trail);
  return trail;
}

void AuditLog::Submit(AuditBatch batch) {
  const auto verdicts = static_cast<std::size_t>(Verdicts(batch.response));
  {
    std::lock_guard lock(mu_);
    if (!batch.end && queued_verdicts_ + verdicts > max_queued_) {
      dropped_.fetch_add(static_cast<std::int64_t>(verdicts), std::memory_order_relaxed);
      return;
    }
    queued_verdicts_ += verdicts;
    queue_.push_back(std::move(batch));
  }
  ready_.notify_one();
}

void AuditLog::EndAll() {
  std::vector<std::shared_ptr<AuditTrail>> live;
  {
    std::lock_guard lock(trails_mu_);
    for (const std::weak_ptr<AuditTrail>& t : trails_) {
      if (std::shared_ptr<AuditTrail> trail = t.lock()) live.push_back(std::move(trail));
    }
  }
  for (const std::shared_ptr<AuditTrail>& trail : live) trail->End();
}

void AuditLog::Run() {
  // Below the call threads: when the cores are busy, verdicts keep their
  // latency and the trail falls behind (its queue bounded, then dropping,
  // counted) rather than the other way round. Linux applies a tid's nice
  // value to that thread alone.
  if (::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), kWriterNice) != 0) {
    spdlog::warn("audit trail writer: cannot lower its priority: {}", std::strerror(errno));
  }
  for (;;) {
    AuditBatch batch;
    {
      std::unique_lock lock(mu_);
      ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // Stopping, and all written.
      batch = std::move(queue_.front());
      queue_.pop_front();
      queued_verdicts_ -= static_cast<std::size_t>(Verdicts(batch.response));
    }
    if (batch.end) {
      batch.trail->End();
    } else {
      WriteBatch(batch);
    }
  }
}

void AuditLog::WriteBatch(AuditBatch& batch) {
  v1::AuditRecord record;
  record.set_world_id(batch.trail->world_id());
  record.set_unix_micros(batch.unix_micros);
  record.set_latest_tick(batch.latest_tick);
  std::string line;
  const auto emit = [&](const char* call, int index, double micros) {
    record.set_call(call);
    record.set_index(index);
    record.set_batch_micros(micros);
    line.clear();
    AppendJson(record, line);
    line += '\n';
    batch.trail->Write(record, line);
    written_.fetch_add(1, std::memory_order_relaxed);
  };
  // The batch is this thread's: its items are swapped into the record, not
  // copied.
  v1::TickRequest& in = batch.request;
  v1::TickResponse& out = batch.response;
  for (int i = 0; i < out.shots().verdicts_size() && i < in.shots().shots_size(); ++i) {
    v1::ShotAudit* shot = record.mutable_shot();
    shot->mutable_shot()->Swap(in.mutable_shots()->mutable_shots(i));
    shot->mutable_verdict()->Swap(out.mutable_shots()->mutable_verdicts(i));
    emit("ValidateShots", i, batch.micros.shots);
  }
  if (out.shots_packed().verdicts_size() > 0) {
    // A packed shot as the Shot it encodes (it decoded when it was judged).
    std::vector<ShotRequest> shots;
    convert::ViolationList ignored;
    convert::DecodePacked(in.shots_packed(), shots, ignored);
    for (int i = 0; i < out.shots_packed().verdicts_size() && i < static_cast<int>(shots.size()); ++i) {
      v1::ShotAudit* shot = record.mutable_shot();
      shot->Clear();
      convert::ToProto(shots[i], shot->mutable_shot());
      shot->mutable_verdict()->Swap(out.mutable_shots_packed()->mutable_verdicts(i));
      emit("ValidateShotsPacked", i, batch.micros.shots_packed);
    }
  }
  for (int i = 0; i < out.moves().verdicts_size() && i < in.moves().moves_size(); ++i) {
    v1::MoveAudit* move = record.mutable_move();
    move->mutable_move()->Swap(in.mutable_moves()->mutable_moves(i));
    move->mutable_verdict()->Swap(out.mutable_moves()->mutable_verdicts(i));
    emit("ValidateMoves", i, batch.micros.moves);
  }
  batch.trail->Flush();
}

AuditWatch::AuditWatch(std::shared_ptr<AuditTrail> trail) : trail_(std::move(trail)) {
  if (!trail_->Watch(this)) ended_ = true;
  Pump();
}

grpc::ServerWriteReactor<v1::AuditRecord>* AuditWatch::Refuse(const grpc::Status& status) {
  class Refused final : public grpc::ServerWriteReactor<v1::AuditRecord> {
   public:
    explicit Refused(const grpc::Status& status) { Finish(status); }
    void OnDone() override { delete this; }
  };
  return new Refused(status);
}

void AuditWatch::Deliver(const v1::AuditRecord& record) {
  {
    std::lock_guard lock(mu_);
    if (finished_) return;
    if (queue_.size() >= kMaxQueued) {
      ++missed_;
      return;
    }
    queue_.push_back(record);
    queue_.back().set_dropped_before(missed_);
    missed_ = 0;
  }
  Pump();
}

void AuditWatch::End() {
  {
    std::lock_guard lock(mu_);
    ended_ = true;
  }
  Pump();
}

void AuditWatch::Pump() {
  std::lock_guard lock(mu_);
  if (writing_ || finished_) return;
  if (!queue_.empty()) {
    sending_ = std::move(queue_.front());
    queue_.pop_front();
    writing_ = true;
    StartWrite(&sending_);
  } else if (ended_) {
    finished_ = true;
    Finish(grpc::Status::OK);
  }
}

void AuditWatch::OnWriteDone(bool ok) {
  {
    std::lock_guard lock(mu_);
    writing_ = false;
    if (!ok) ended_ = true, queue_.clear();  // The client is gone.
  }
  Pump();
}

void AuditWatch::OnCancel() {
  {
    std::lock_guard lock(mu_);
    ended_ = true;
    queue_.clear();
  }
  Pump();
}

void AuditWatch::OnDone() {
  trail_->Unwatch(this);
  delete this;
}

}  // namespace collide::server
