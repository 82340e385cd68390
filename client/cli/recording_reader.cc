#include "recording_reader.h"

#include <fcntl.h>
#include <google/protobuf/io/gzip_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/util/delimited_message_util.h>
#include <unistd.h>

#include "absl/strings/str_cat.h"

namespace collide::cli {

absl::StatusOr<Recording> ReadRecording(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return absl::NotFoundError(absl::StrCat("cannot open ", path));
  google::protobuf::io::FileInputStream file(fd);
  file.SetCloseOnDelete(true);
  google::protobuf::io::GzipInputStream gzip(&file);
  Recording out;
  bool clean_eof = false;
  if (!google::protobuf::util::ParseDelimitedFromZeroCopyStream(&out.header, &gzip, &clean_eof)) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": no recording header"));
  }
  if (out.header.format() != "collide.v1.recording" || out.header.version() != 1) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": not a version 1 collide.v1.recording"));
  }
  for (;;) {
    v1::RecordedCall call;
    if (!google::protobuf::util::ParseDelimitedFromZeroCopyStream(&call, &gzip, &clean_eof)) {
      if (!clean_eof) out.stopped = absl::StrCat("cut short after ", out.calls.size(), " calls");
      return out;
    }
    out.calls.push_back(std::move(call));
  }
}

}  // namespace collide::cli
