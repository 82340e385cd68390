#include "server/world_journal.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <utility>

#include "absl/strings/str_cat.h"
#include "collide/version.h"
#include "record/map_files.h"
#include "spdlog/spdlog.h"

namespace collide::server {
namespace {

std::int64_t NowUnixMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// A tenant's directory: its principal ("sha256:..."), or "_" for the one
// tenant of a server without token auth.
std::string TenantDir(const std::string& root, const std::string& owner) {
  return absl::StrCat(root, "/", owner.empty() ? "_" : owner);
}

RequestError Unset(const char* option, const char* flag) {
  return {RequestError::Kind::kFailedPrecondition,
          absl::StrCat("journal.", option, " needs the server's ", flag, ", which is unset"),
          nullptr,
          nullptr,
          {.reason = "JOURNAL_DISABLED", .domain = "collide.v1", .metadata = {{"flag", flag}}}};
}

}  // namespace

std::string CheckJournalConfig(const JournalConfig& c) {
  if (c.audit_max_bytes < 1024) return "audit_max_bytes must be >= 1024";
  if (c.audit_max_files < 1) return "audit_max_files must be >= 1";
  if (c.recording_max_bytes < 4096) return "recording_max_bytes must be >= 4096";
  return "";
}

std::optional<RequestError> CheckJournal(const v1::WorldJournal& journal, const JournalConfig& config) {
  if (journal.audit() && config.audit_dir.empty()) return Unset("audit", "--audit_dir");
  if (journal.record() && config.recordings_dir.empty()) return Unset("record", "--recordings_dir");
  return std::nullopt;
}

absl::StatusOr<std::unique_ptr<WorldJournal>> WorldJournal::Open(
    const JournalConfig& config, AuditLog& audit_log, const std::string& owner,
    const v1::CreateWorldRequest& request, int history_ticks, const std::string& maps_dir) {
  std::unique_ptr<WorldJournal> journal(new WorldJournal());
  journal->audit_log_ = &audit_log;
  if (request.journal().audit()) {
    absl::StatusOr<std::shared_ptr<AuditTrail>> trail =
        audit_log.OpenTrail(TenantDir(config.audit_dir, owner), request.world_id(), config.audit_format,
                            config.audit_max_bytes, config.audit_max_files);
    if (!trail.ok()) return trail.status();
    journal->audit_ = *std::move(trail);
  }
  if (request.journal().record()) {
    const std::string dir = TenantDir(config.recordings_dir, owner);
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    if (error)
      return absl::UnavailableError(absl::StrCat("recording: cannot create ", dir, ": ", error.message()));
    v1::RecordingHeader header;
    *header.mutable_create() = request;
    header.mutable_create()->clear_journal();
    header.mutable_create()->set_history_ticks(history_ticks);  // As resolved (0: the server's default).
    header.set_writer("collide-server " COLLIDE_VERSION);
    header.set_created_unix_micros(NowUnixMicros());
    if (absl::Status pinned = record::PinMapFiles(maps_dir, header); !pinned.ok()) return pinned;
    journal->recording_path_ = absl::StrCat(dir, "/", request.world_id(), ".collide-rec");
    static std::atomic<std::int64_t> serial{0};
    absl::StatusOr<std::unique_ptr<record::RecordingWriter>> writer = record::RecordingWriter::Open(
        absl::StrCat(journal->recording_path_, ".creating-", getpid(), "-", serial.fetch_add(1)), header);
    if (!writer.ok()) return writer.status();
    journal->recording_ = *std::move(writer);
    journal->recording_wanted_ = true;
    journal->recording_max_bytes_ = config.recording_max_bytes;
  }
  return journal;
}

void WorldJournal::Commit() {
  std::lock_guard lock(call_mu_);
  committed_ = true;
  if (recording_ == nullptr) return;
  std::error_code error;
  std::filesystem::rename(recording_->path(), recording_path_, error);
  if (error) spdlog::error("recording {}: cannot rename: {}", recording_path_, error.message());
}

WorldJournal::~WorldJournal() {
  if (recording_ != nullptr) {
    const std::string path = recording_->path();
    if (absl::Status closed = recording_->Close(); !closed.ok()) spdlog::error("{}", closed.ToString());
    std::error_code ignored;
    if (!committed_) std::filesystem::remove(path, ignored);
  }
  // After every batch already queued for it.
  if (audit_ != nullptr) audit_log_->Submit({.trail = audit_, .end = true});
}

std::optional<std::unique_lock<std::mutex>> WorldJournal::Serialize() {
  if (!recording_wanted_) return std::nullopt;
  return std::unique_lock(call_mu_);
}

void WorldJournal::Record(const v1::TickRequest& request, const v1::TickResponse& response,
                          const std::optional<RequestError>& refused) {
  if (recording_ == nullptr) return;
  v1::RecordedCall call;
  call.set_unix_micros(NowUnixMicros());
  *call.mutable_request() = request;
  *call.mutable_response() = response;
  if (refused) *call.mutable_response()->mutable_status() = ToRpcStatus(*refused);
  absl::Status appended = recording_->Append(call);
  if (appended.ok() && recording_->bytes() < recording_max_bytes_) return;
  if (!appended.ok()) {
    spdlog::error("recording stopped: {}", appended.ToString());
  } else {
    spdlog::warn("recording {} reached --recording_max_bytes ({} bytes): closed", recording_path_,
                 recording_max_bytes_);
  }
  if (absl::Status closed = recording_->Close(); !closed.ok()) spdlog::error("{}", closed.ToString());
  if (committed_) {
    recording_.reset();
  } else {
    std::error_code error;
    std::filesystem::rename(recording_->path(), recording_path_, error);
    recording_.reset();
    committed_ = true;
  }
}

void WorldJournal::SubmitAudit(
    std::int64_t latest_tick,
    absl::FunctionRef<std::size_t(const record::AuditBatchHead&, std::string&)> append) {
  QueuedAudit batch{.trail = audit_};
  batch.verdicts = append(
      record::AuditBatchHead{
          .world_id = audit_->world_id(), .unix_micros = NowUnixMicros(), .latest_tick = latest_tick},
      batch.bytes);
  if (batch.verdicts > 0) audit_log_->Submit(std::move(batch));
}

void WorldJournal::Audit(const v1::TickRequest& request, const v1::TickResponse& response,
                         const convert::TickPartMicros& micros, std::int64_t latest_tick) {
  if (audit_ == nullptr) return;
  if (!response.has_shots() && !response.has_shots_packed() && !response.has_moves()) return;
  SubmitAudit(latest_tick, [&](const record::AuditBatchHead& head, std::string& bytes) {
    return AppendAuditBatches(head, request, response, micros, bytes);
  });
}

}  // namespace collide::server
