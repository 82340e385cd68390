#include "byte_source.h"

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
  File(std::ifstream in, std::string name, std::uint64_t size)
      : in_(std::move(in)), name_(std::move(name)), size_(size) {}
  const std::string& name() const override { return name_; }
  std::uint64_t size() const override { return size_; }
  absl::Status Read(std::uint64_t offset, std::size_t n, char* out) override {
    if (offset > size_ || n > size_ - offset) return OutOfRange(name_, offset, n, size_);
    in_.clear();
    in_.seekg(static_cast<std::streamoff>(offset));
    in_.read(out, static_cast<std::streamsize>(n));
    if (!in_) return absl::DataLossError(absl::StrCat(name_, ": read error at byte ", offset));
    return absl::OkStatus();
  }

 private:
  std::ifstream in_;
  std::string name_;
  std::uint64_t size_;
};

}  // namespace

std::unique_ptr<ByteSource> MemorySource(std::string_view bytes, std::string_view name) {
  return std::make_unique<Memory>(bytes, name);
}

absl::StatusOr<std::unique_ptr<ByteSource>> FileSource(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open: ", std::strerror(errno)));
  const std::streamoff size = in.tellg();
  if (size < 0) return absl::DataLossError(absl::StrCat(path, ": cannot tell its size"));
  return std::make_unique<File>(std::move(in), path, static_cast<std::uint64_t>(size));
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
