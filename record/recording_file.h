// Match recordings on disk (world.proto: RecordingHeader, RecordedCall): a
// gzip stream of length-delimited messages, one header then one call per
// message. The writer flushes after every message, so that a file cut short
// (a crash, a full disk) still reads up to its last whole call.
#ifndef COLLIDE_RECORD_RECORDING_FILE_H_
#define COLLIDE_RECORD_RECORDING_FILE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "collide/v1/world.pb.h"

namespace collide::record {

inline constexpr char kRecordingFormat[] = "collide.v1.recording";
inline constexpr std::uint32_t kRecordingVersion = 1;

class RecordingWriter {
 public:
  // Creates (truncates) `path` and writes `header`, its format and version
  // set to this layout's.
  static absl::StatusOr<std::unique_ptr<RecordingWriter>> Open(const std::string& path,
                                                               v1::RecordingHeader header);
  ~RecordingWriter();  // Closes, ignoring errors.
  RecordingWriter(const RecordingWriter&) = delete;
  RecordingWriter& operator=(const RecordingWriter&) = delete;

  // Appends one call and flushes it to the file.
  absl::Status Append(const v1::RecordedCall& call);
  // Ends the gzip stream and closes the file; later Appends fail.
  absl::Status Close();
  // Compressed bytes in the file so far.
  std::int64_t bytes() const;
  const std::string& path() const { return path_; }

 private:
  struct Streams;
  RecordingWriter(std::string path, std::unique_ptr<Streams> streams);
  absl::Status Write(const google::protobuf::MessageLite& message);

  const std::string path_;
  std::unique_ptr<Streams> streams_;  // Null once closed.
};

struct Recording {
  v1::RecordingHeader header;
  std::vector<v1::RecordedCall> calls;
  // Empty, or why reading stopped before the end of the file ("truncated
  // after 41 calls: ..."); `calls` holds the whole calls before it.
  std::string stopped;
};

// The whole recording at `path`. An error (INVALID_ARGUMENT naming the file)
// when it cannot be opened, is not a recording (not gzip, no header, another
// format) or has a version this reader does not know.
absl::StatusOr<Recording> ReadRecording(const std::string& path);

}  // namespace collide::record

#endif  // COLLIDE_RECORD_RECORDING_FILE_H_
