#include "byte_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace collide::importer {
namespace {

absl::Status OutOfRange(const std::string& name, std::uint64_t offset, std::size_t n, std::uint64_t size) {
  return absl::InvalidArgumentError(absl::StrCat(name, ": truncated: needs bytes [", offset, ", ", offset + n,
                                                 ") of a ", size, "-byte file"));
}

class Memory final : public ByteSource {
 public:
  Memory(std::string_view bytes, std::string_view name) : bytes_(bytes), name_(name) {}
  const std::string& name() const override { return name_; }
  std::uint64_t size() const override { return bytes_.size(); }
  absl::Status Read(std::uint64_t offset, std::size_t n, char* out) override {
    if (offset > bytes_.size() || n > bytes_.size() - offset) return OutOfRange(name_, offset, n, size());
    if (n > 0) std::memcpy(out, bytes_.data() + offset, n);
    return absl::OkStatus();
  }

 private:
  std::string_view bytes_;
  std::string name_;
};

class File final : public ByteSource {
 public:
  File(int fd, std::string name, std::uint64_t size) : fd_(fd), name_(std::move(name)), size_(size) {}
  ~File() override { close(fd_); }
  File(const File&) = delete;
  File& operator=(const File&) = delete;
  const std::string& name() const override { return name_; }
  std::uint64_t size() const override { return size_; }
  absl::Status Read(std::uint64_t offset, std::size_t n, char* out) override {
    if (offset > size_ || n > size_ - offset) return OutOfRange(name_, offset, n, size_);
    for (std::size_t done = 0; done < n;) {
      const ssize_t got = pread(fd_, out + done, n - done, static_cast<off_t>(offset + done));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return absl::DataLossError(absl::StrCat(name_, ": read error at byte ", offset + done));
      done += static_cast<std::size_t>(got);
    }
    return absl::OkStatus();
  }

 private:
  const int fd_;
  std::string name_;
  std::uint64_t size_;
};

// What a file that is not a regular one is, for the refusal.
const char* KindOf(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a file";
}

}  // namespace

std::unique_ptr<ByteSource> MemorySource(std::string_view bytes, std::string_view name) {
  return std::make_unique<Memory>(bytes, name);
}

absl::StatusOr<int> OpenRegularFile(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return absl::NotFoundError(absl::StrCat(path, ": cannot open: ", std::strerror(errno)));
  struct stat st {};
  if (fstat(fd, &st) != 0) {
    const int error = errno;
    close(fd);
    return absl::DataLossError(absl::StrCat(path, ": cannot stat: ", std::strerror(error)));
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": not a regular file (", KindOf(st.st_mode), "); only regular files are read"));
  }
  // Reads of a regular file never return EAGAIN; blocking again all the same.
  if (const int flags = fcntl(fd, F_GETFL); flags >= 0) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

absl::StatusOr<std::unique_ptr<ByteSource>> FileSource(const std::string& path) {
  absl::StatusOr<int> fd = OpenRegularFile(path);
  if (!fd.ok()) return fd.status();
  struct stat st {};
  if (fstat(*fd, &st) != 0 || st.st_size < 0) {
    close(*fd);
    return absl::DataLossError(absl::StrCat(path, ": cannot tell its size"));
  }
  return std::make_unique<File>(*fd, path, static_cast<std::uint64_t>(st.st_size));
}

absl::StatusOr<std::string> ReadWholeFile(const std::string& path, std::uint64_t max_bytes) {
  absl::StatusOr<std::unique_ptr<ByteSource>> source = FileSource(path);
  if (!source.ok()) return source.status();
  const std::uint64_t size = (*source)->size();
  if (size > max_bytes) {
    return absl::ResourceExhaustedError(
        absl::StrCat(path, ": ", size, " bytes is more than the limit of ", max_bytes));
  }
  std::string bytes(size, '\0');
  if (absl::Status s = (*source)->Read(0, size, bytes.data()); !s.ok()) return s;
  return bytes;
}

}  // namespace collide::importer
