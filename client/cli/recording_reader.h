// TEMPORARY: a minimal reader of match recordings (world.proto: a gzip
// stream of length-delimited RecordingHeader, then RecordedCall messages)
// until record/recording_file.h lands; then this file goes and its callers
// use ReadRecording from there (same struct, same name).
#ifndef COLLIDE_CLIENT_CLI_RECORDING_READER_H_
#define COLLIDE_CLIENT_CLI_RECORDING_READER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "collide/v1/world.pb.h"

namespace collide::cli {

struct Recording {
  v1::RecordingHeader header;
  std::vector<v1::RecordedCall> calls;
  // Empty when the file ended after a whole message; else where and why
  // reading stopped (a file cut short keeps the calls before).
  std::string stopped;
};

absl::StatusOr<Recording> ReadRecording(const std::string& path);

}  // namespace collide::cli

#endif  // COLLIDE_CLIENT_CLI_RECORDING_READER_H_
