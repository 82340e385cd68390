#include "record/recording_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "google/protobuf/io/gzip_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl.h"
#include "google/protobuf/util/delimited_message_util.h"

namespace collide::record {

namespace io = google::protobuf::io;

struct RecordingWriter::Streams {
  // Close() closes the file (closing it on delete too would close it twice).
  explicit Streams(int fd) : file(fd), gzip(&file, GzipOptions()) {}
  static io::GzipOutputStream::Options GzipOptions() {
    io::GzipOutputStream::Options options;
    options.format = io::GzipOutputStream::GZIP;
    // Level 1: a recording is written on the call's path; the calls of a
    // match are alike, yet each flush restarts the dictionary, so higher
    // levels gain little for their time.
    options.compression_level = 1;
    return options;
  }
  io::FileOutputStream file;
  io::GzipOutputStream gzip;
};

RecordingWriter::RecordingWriter(std::string path, std::unique_ptr<Streams> streams)
    : path_(std::move(path)), streams_(std::move(streams)) {}

RecordingWriter::~RecordingWriter() { (void)Close(); }

absl::StatusOr<std::unique_ptr<RecordingWriter>> RecordingWriter::Open(const std::string& path,
                                                                       v1::RecordingHeader header) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return absl::UnavailableError(absl::StrCat(path, ": cannot create: ", std::strerror(errno)));
  std::unique_ptr<RecordingWriter> writer(new RecordingWriter(path, std::make_unique<Streams>(fd)));
  header.set_format(kRecordingFormat);
  header.set_version(kRecordingVersion);
  if (absl::Status written = writer->Write(header); !written.ok()) return written;
  return writer;
}

absl::Status RecordingWriter::Write(const google::protobuf::MessageLite& message) {
  if (streams_ == nullptr) return absl::FailedPreconditionError(absl::StrCat(path_, ": closed"));
  // The gzip flush hands the compressed bytes to the file stream, whose
  // flush writes them: a reader then finds every whole message.
  if (!google::protobuf::util::SerializeDelimitedToZeroCopyStream(message, &streams_->gzip) ||
      !streams_->gzip.Flush() || !streams_->file.Flush()) {
    const int error = streams_->file.GetErrno();
    return absl::UnavailableError(
        absl::StrCat(path_, ": write failed: ", error != 0 ? std::strerror(error) : "gzip error"));
  }
  return absl::OkStatus();
}

absl::Status RecordingWriter::Append(const v1::RecordedCall& call) { return Write(call); }

std::int64_t RecordingWriter::bytes() const { return streams_ == nullptr ? 0 : streams_->file.ByteCount(); }

absl::Status RecordingWriter::Close() {
  if (streams_ == nullptr) return absl::OkStatus();
  const bool ended = streams_->gzip.Close();
  const bool ok = streams_->file.Close() && ended;
  const int error = streams_->file.GetErrno();
  streams_.reset();
  if (!ok) {
    return absl::UnavailableError(
        absl::StrCat(path_, ": close failed: ", error != 0 ? std::strerror(error) : "gzip error"));
  }
  return absl::OkStatus();
}

absl::StatusOr<Recording> ReadRecording(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return absl::NotFoundError(absl::StrCat(path, ": cannot open: ", std::strerror(errno)));
  io::FileInputStream file(fd);
  file.SetCloseOnDelete(true);
  io::GzipInputStream gzip(&file, io::GzipInputStream::GZIP);
  // Why the stream ended: zlib's message when it found damage.
  const auto damage = [&gzip]() -> std::string {
    const char* message = gzip.ZlibErrorMessage();
    return message != nullptr ? absl::StrCat(" (zlib: ", message, ")") : "";
  };
  Recording recording;
  bool clean_eof = false;
  if (!google::protobuf::util::ParseDelimitedFromZeroCopyStream(&recording.header, &gzip, &clean_eof)) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": not a collide recording: ",
        clean_eof && gzip.ZlibErrorMessage() == nullptr ? "the file is empty" : "no readable header",
        damage()));
  }
  if (recording.header.format() != kRecordingFormat) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": not a collide recording: its format is \"",
                                                   recording.header.format(), "\", not \"", kRecordingFormat,
                                                   "\""));
  }
  if (recording.header.version() != kRecordingVersion) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": recording version ", recording.header.version(),
                                                   " is not one this reader knows (", kRecordingVersion,
                                                   ")"));
  }
  for (;;) {
    v1::RecordedCall call;
    if (!google::protobuf::util::ParseDelimitedFromZeroCopyStream(&call, &gzip, &clean_eof)) {
      if (!clean_eof) {
        recording.stopped = absl::StrCat("truncated after ", recording.calls.size(),
                                         " calls: the file ends or is damaged mid-message", damage());
      }
      break;
    }
    recording.calls.push_back(std::move(call));
  }
  return recording;
}

}  // namespace collide::record
