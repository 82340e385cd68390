// Random-access reads from a file or a memory buffer, so that the zip reader
// reads one archive entry of a 70 MB .pk3 without loading the rest, and the
// fuzzers feed it memory.
#ifndef COLLIDE_IMPORT_BYTE_SOURCE_H_
#define COLLIDE_IMPORT_BYTE_SOURCE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace collide::importer {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // The source's name in error messages (the file path).
  virtual const std::string& name() const = 0;
  virtual std::uint64_t size() const = 0;
  // Reads exactly n bytes at offset into out; an error when the range does
  // not lie inside the source.
  virtual absl::Status Read(std::uint64_t offset, std::size_t n, char* out) = 0;
};

// A view of caller-owned memory (which must outlive the source).
std::unique_ptr<ByteSource> MemorySource(std::string_view bytes, std::string_view name);
// A descriptor of `path` opened for reading if it is a regular file: opened
// with O_NONBLOCK (so that a FIFO without a writer cannot block the open),
// then fstat; a FIFO, device, directory or socket is InvalidArgument "PATH:
// not a regular file (a FIFO)" and is never read. The descriptor is blocking
// again when returned; the caller closes it. NotFound when it cannot be
// opened.
absl::StatusOr<int> OpenRegularFile(const std::string& path);
// An open regular file (OpenRegularFile), read with pread.
absl::StatusOr<std::unique_ptr<ByteSource>> FileSource(const std::string& path);
// The whole file, at most max_bytes (ResourceExhausted beyond).
absl::StatusOr<std::string> ReadWholeFile(const std::string& path, std::uint64_t max_bytes);

}  // namespace collide::importer

#endif  // COLLIDE_IMPORT_BYTE_SOURCE_H_
