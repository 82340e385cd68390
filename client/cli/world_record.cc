#include "world_record.h"

#include <chrono>

#include "collide/version.h"
#include "record/map_files.h"

namespace collide::cli {
namespace {

std::int64_t NowUnixMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

void FileRecorder::Created(const v1::CreateWorldRequest& request) {
  std::lock_guard lock(mu_);
  if (writer_ != nullptr || !failure_.ok()) return;
  v1::RecordingHeader header;
  *header.mutable_create() = request;
  header.mutable_create()->clear_journal();
  header.set_writer("collide-cli " COLLIDE_VERSION);
  header.set_created_unix_micros(NowUnixMicros());
  if (!maps_dir_.empty()) {
    if (absl::Status pinned = record::PinMapFiles(maps_dir_, header); !pinned.ok()) {
      failure_ = pinned;
      return;
    }
  }
  absl::StatusOr<std::unique_ptr<record::RecordingWriter>> writer =
      record::RecordingWriter::Open(path_, header);
  if (!writer.ok()) {
    failure_ = writer.status();
    return;
  }
  world_id_ = request.world_id();
  writer_ = *std::move(writer);
}

void FileRecorder::Called(std::string_view world_id, const v1::TickRequest& request,
                          const v1::TickResponse& response) {
  std::lock_guard lock(mu_);
  if (writer_ == nullptr || world_id != world_id_ || !failure_.ok()) return;
  v1::RecordedCall call;
  call.set_unix_micros(NowUnixMicros());
  *call.mutable_request() = request;
  *call.mutable_response() = response;
  failure_ = writer_->Append(call);
  if (failure_.ok()) ++calls_;
}

absl::Status FileRecorder::Close() {
  std::lock_guard lock(mu_);
  if (writer_ != nullptr) {
    absl::Status closed = writer_->Close();
    if (failure_.ok()) failure_ = closed;
    writer_.reset();
  } else if (failure_.ok()) {
    failure_ = absl::FailedPreconditionError(path_ + ": no world was created: nothing recorded");
  }
  return failure_;
}

std::int64_t FileRecorder::calls() const {
  std::lock_guard lock(mu_);
  return calls_;
}

}  // namespace collide::cli
