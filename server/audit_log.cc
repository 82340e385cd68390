#include "server/audit_log.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "convert/world_encode.h"
#include "convert/world_packed.h"
#include "google/protobuf/arena.h"
#include "record/json_line.h"
#include "spdlog/spdlog.h"

namespace collide::server {
namespace {

constexpr int kWriterNice = 10;
// How long the writer lets batches gather once one is queued (WatchAudit
// subscribers get records this much later at most, unless the writer is
// behind), and the bytes it holds before writing them.
constexpr std::chrono::milliseconds kGatherPeriod{100};
constexpr std::size_t kMaxBufferedBytes = std::size_t{1} << 20;

std::int64_t NowUnixMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

using google::protobuf::MessageLite;

// The batch of a call's readable items (shots or moves) and their verdicts,
// as far as both go.
template <typename Item, typename Verdict>
std::size_t AppendItems(record::AuditBatchHead head, std::string_view call, record::AuditItem kind,
                        const google::protobuf::RepeatedPtrField<Item>& items,
                        const google::protobuf::RepeatedPtrField<Verdict>& verdicts, std::string& bytes) {
  const int n = std::min(items.size(), verdicts.size());
  head.call = call;
  record::AppendAuditBatch(
      head, kind, n, [&](int i) -> const MessageLite& { return items[i]; },
      [&](int i) -> const MessageLite& { return verdicts[i]; }, bytes);
  return static_cast<std::size_t>(n);
}

}  // namespace

std::size_t AppendVerdictAudit(const record::AuditBatchHead& head, const v1::ValidateShotsRequest& in,
                               const v1::ValidateShotsResponse& out, std::string& bytes) {
  return AppendItems(head, "ValidateShots", record::AuditItem::kShot, in.shots(), out.verdicts(), bytes);
}

std::size_t AppendVerdictAudit(const record::AuditBatchHead& head, const v1::ValidateShotsPackedRequest& in,
                               const v1::ValidateShotsResponse& out, std::string& bytes) {
  if (out.verdicts_size() == 0) return 0;
  // A packed shot as the Shot it encodes (it decoded when it was judged),
  // on an arena whose first block is on the stack: a Shot is six messages,
  // and their allocations cost more than serializing them.
  alignas(std::max_align_t) char first_block[16384];
  google::protobuf::ArenaOptions arena_options;
  arena_options.initial_block = first_block;
  arena_options.initial_block_size = sizeof(first_block);
  google::protobuf::Arena arena(arena_options);
  std::vector<ShotRequest> decoded;
  convert::ViolationList ignored;
  convert::DecodePacked(in, decoded, ignored);
  std::vector<v1::Shot*> shots(std::min(decoded.size(), static_cast<std::size_t>(out.verdicts_size())));
  for (std::size_t i = 0; i < shots.size(); ++i) {
    shots[i] = google::protobuf::Arena::CreateMessage<v1::Shot>(&arena);
    convert::ToProto(decoded[i], shots[i]);
  }
  record::AuditBatchHead part = head;
  part.call = "ValidateShotsPacked";
  record::AppendAuditBatch(
      part, record::AuditItem::kShot, static_cast<int>(shots.size()),
      [&](int i) -> const MessageLite& { return *shots[i]; },
      [&](int i) -> const MessageLite& { return out.verdicts(i); }, bytes);
  return shots.size();
}

std::size_t AppendVerdictAudit(const record::AuditBatchHead& head, const v1::ValidateMovesRequest& in,
                               const v1::ValidateMovesResponse& out, std::string& bytes) {
  return AppendItems(head, "ValidateMoves", record::AuditItem::kMove, in.moves(), out.verdicts(), bytes);
}

std::size_t AppendAuditBatches(const record::AuditBatchHead& head, const v1::TickRequest& in,
                               const v1::TickResponse& out, const convert::TickPartMicros& micros,
                               std::string& bytes) {
  // About the bytes of a shot's or move's item: one allocation per call.
  constexpr std::size_t kItemBytes = 256;
  bytes.reserve(bytes.size() + kItemBytes * static_cast<std::size_t>(out.shots().verdicts_size() +
                                                                     out.shots_packed().verdicts_size() +
                                                                     out.moves().verdicts_size()));
  record::AuditBatchHead part = head;
  part.batch_micros = micros.shots;
  std::size_t n = AppendVerdictAudit(part, in.shots(), out.shots(), bytes);
  part.batch_micros = micros.shots_packed;
  n += AppendVerdictAudit(part, in.shots_packed(), out.shots_packed(), bytes);
  part.batch_micros = micros.moves;
  return n + AppendVerdictAudit(part, in.moves(), out.moves(), bytes);
}

AuditTrail::AuditTrail(std::string world_id, std::string path, AuditFormat format, std::int64_t max_bytes,
                       int max_files)
    : world_id_(std::move(world_id)),
      path_(std::move(path)),
      format_(format),
      empty_size_(format == AuditFormat::kBinary ? static_cast<std::int64_t>(record::kAuditFileHeader.size())
                                                 : 0),
      max_bytes_(max_bytes),
      max_files_(max_files) {
  Open();
  // A JSON Lines file goes on where it ended (lines are whole or the last
  // one is cut, which jq reports); a binary one that holds more than its
  // header (Open gives a new one its header) is rotated.
  if (format_ == AuditFormat::kBinary && fd_ >= 0 && size_ != empty_size_) Rotate();
}

AuditTrail::~AuditTrail() {
  End();
  Flush();
  if (fd_ >= 0) ::close(fd_);
}

// Opens path_ to append; a new binary file gets its header.
void AuditTrail::Open() {
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  size_ = 0;
  struct stat st {};
  if (fd_ < 0) {
    spdlog::error("audit trail {}: cannot open: {}", path_, std::strerror(errno));
  } else if (::fstat(fd_, &st) == 0) {
    size_ = st.st_size;
  }
  if (fd_ >= 0 && size_ == 0 && format_ == AuditFormat::kBinary) {
    buffered_ = record::kAuditFileHeader;
    Flush();
  }
}

// path.(max_files - 1) is removed, path.k becomes path.(k + 1), path
// becomes path.1: at most max_files files of at most max_bytes each (a
// single batch or line longer than max_bytes gets a file of its own).
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
  Open();
}

// A binary batch or a JSON line, rotating first when it would pass
// max_bytes in a file that holds records.
void AuditTrail::Add(std::string_view bytes) {
  const auto held = size_ + static_cast<std::int64_t>(buffered_.size());
  if (held > empty_size_ && held + static_cast<std::int64_t>(bytes.size()) > max_bytes_) {
    Flush();
    Rotate();
  }
  buffered_ += bytes;
}

void AuditTrail::Write(std::string_view batches) {
  const std::vector<std::shared_ptr<AuditWatch>> watches = Watches();
  const bool binary = format_ == AuditFormat::kBinary;
  if (binary && watches.empty() &&
      size_ + static_cast<std::int64_t>(buffered_.size() + batches.size()) <= max_bytes_) {
    buffered_ += batches;  // The common case: the bytes as they came.
    return;
  }
  v1::AuditBatch batch;
  std::string line;
  for (std::size_t offset = 0; offset < batches.size();) {
    const std::size_t start = offset;
    // The call's thread built these: whole batches.
    const std::string_view message = *record::NextAuditBatch(batches, offset);
    if (binary) Add(batches.substr(start, offset - start));
    if (!binary || !watches.empty()) {
      batch.ParseFromArray(message.data(), static_cast<int>(message.size()));
      record::ForEachAuditRecord(batch, [&](const v1::AuditRecord& record) {
        if (!binary) {
          line.clear();
          record::AppendJson(record, line);
          line += '\n';
          Add(line);
        }
        for (const std::shared_ptr<AuditWatch>& watch : watches) watch->Deliver(record);
      });
    }
  }
}

std::vector<std::shared_ptr<AuditWatch>> AuditTrail::Watches() {
  std::lock_guard lock(mu_);
  return watches_;
}

void AuditTrail::Flush() {
  if (buffered_.empty()) return;
  if (fd_ >= 0) {
    if (::write(fd_, buffered_.data(), buffered_.size()) == static_cast<ssize_t>(buffered_.size())) {
      size_ += static_cast<std::int64_t>(buffered_.size());
    } else {
      // A part written (a full disk) would leave a batch or line cut short
      // before the next one: the file is cut back to what it held before.
      spdlog::error("audit trail {}: write failed: {}", path_, std::strerror(errno));
      if (::ftruncate(fd_, size_) != 0) {
        spdlog::error("audit trail {}: cannot cut back a partial write: {}", path_, std::strerror(errno));
      }
    }
  }
  buffered_.clear();
}

void AuditTrail::End() {
  {
    std::lock_guard lock(mu_);
    ended_ = true;
  }
  for (const std::shared_ptr<AuditWatch>& watch : Watches()) watch->End();
}

bool AuditTrail::Watch(std::shared_ptr<AuditWatch> watch) {
  std::lock_guard lock(mu_);
  if (ended_) return false;
  watches_.push_back(std::move(watch));
  return true;
}

void AuditTrail::Unwatch(const AuditWatch* watch) {
  std::lock_guard lock(mu_);
  std::erase_if(watches_, [watch](const std::shared_ptr<AuditWatch>& w) { return w.get() == watch; });
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
                                                                AuditFormat format, std::int64_t max_bytes,
                                                                int max_files) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error)
    return absl::UnavailableError(absl::StrCat("audit trail: cannot create ", dir, ": ", error.message()));
  const char* extension = format == AuditFormat::kBinary ? ".audit.bin" : ".audit.jsonl";
  auto trail = std::make_shared<AuditTrail>(world_id, absl::StrCat(dir, "/", world_id, extension), format,
                                            max_bytes, max_files);
  std::lock_guard lock(trails_mu_);
  std::erase_if(trails_, [](const std::weak_ptr<AuditTrail>& t) { return t.expired(); });
  trails_.insert(trail);
  return trail;
}

void AuditLog::Submit(QueuedAudit batch) {
  bool wake = false;
  {
    std::lock_guard lock(mu_);
    if (!batch.end && queued_verdicts_ + batch.verdicts > max_queued_) {
      dropped_.fetch_add(static_cast<std::int64_t>(batch.verdicts), std::memory_order_relaxed);
      return;
    }
    // The writer sleeps while the queue is empty, then gathers for a
    // period: woken by the first batch, and early by the one that fills a
    // quarter of the queue, not by every batch.
    const std::size_t quarter = max_queued_ / 4;
    wake = queue_.empty() || (queued_verdicts_ < quarter && queued_verdicts_ + batch.verdicts >= quarter);
    queued_verdicts_ += batch.verdicts;
    queue_.push_back(std::move(batch));
  }
  if (wake) ready_.notify_one();
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
  std::deque<QueuedAudit> batches;
  std::vector<std::shared_ptr<AuditTrail>> held;  // Trails with bytes to write.
  for (;;) {
    {
      std::unique_lock lock(mu_);
      ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      // A wake-up and a context switch cost more than writing a batch: the
      // batches of a period are written together, one write per trail.
      ready_.wait_for(lock, kGatherPeriod,
                      [this] { return stopping_ || queued_verdicts_ >= max_queued_ / 4; });
      if (queue_.empty()) return;  // Stopping, and all written.
      batches.swap(queue_);
      queued_verdicts_ = 0;
    }
    std::size_t held_bytes = 0;
    for (QueuedAudit& batch : batches) {
      if (batch.end) {
        batch.trail->Flush();
        batch.trail->End();
        continue;
      }
      if (batch.trail->buffered() == 0) held.push_back(batch.trail);
      batch.trail->Write(batch.bytes);
      written_.fetch_add(static_cast<std::int64_t>(batch.verdicts), std::memory_order_relaxed);
      held_bytes += batch.bytes.size();
      if (held_bytes > kMaxBufferedBytes) {
        for (const std::shared_ptr<AuditTrail>& trail : held) trail->Flush();
        held.clear();
        held_bytes = 0;
      }
    }
    for (const std::shared_ptr<AuditTrail>& trail : held) trail->Flush();
    held.clear();
    batches.clear();
  }
}

AuditWatch::AuditWatch(std::shared_ptr<AuditTrail> trail, std::int64_t start_micros)
    : trail_(std::move(trail)), start_micros_(start_micros) {}

grpc::ServerWriteReactor<v1::AuditRecord>* AuditWatch::Start(std::shared_ptr<AuditTrail> trail) {
  std::shared_ptr<AuditWatch> watch(new AuditWatch(std::move(trail), NowUnixMicros()));
  watch->self_ = watch;
  if (!watch->trail_->Watch(watch)) watch->End();  // The world is gone already.
  return watch.get();
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
  // A batch judged before the call started but written after: not this
  // watch's (world.proto: verdicts judged after the call starts).
  if (record.unix_micros() < start_micros_) return;
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
  enum { kNothing, kWrite, kFinish } next = kNothing;
  {
    std::lock_guard lock(mu_);
    if (writing_ || finished_) return;
    if (!queue_.empty()) {
      sending_ = std::move(queue_.front());
      queue_.pop_front();
      writing_ = true;
      next = kWrite;
    } else if (ended_) {
      finished_ = true;
      next = kFinish;
    }
  }
  // writing_ and finished_ make this thread the only one to call these.
  if (next == kWrite) StartWrite(&sending_);
  if (next == kFinish) Finish(grpc::Status::OK);
}

void AuditWatch::OnWriteDone(bool ok) {
  const std::shared_ptr<AuditWatch> keep = self_;  // Finish may run OnDone inline.
  {
    std::lock_guard lock(mu_);
    writing_ = false;
    if (!ok) ended_ = true, queue_.clear();  // The client is gone.
  }
  Pump();
}

void AuditWatch::OnCancel() {
  const std::shared_ptr<AuditWatch> keep = self_;
  {
    std::lock_guard lock(mu_);
    ended_ = true;
    queue_.clear();
  }
  Pump();
}

void AuditWatch::OnDone() {
  trail_->Unwatch(this);
  self_.reset();  // Last: may delete this.
}

}  // namespace collide::server
