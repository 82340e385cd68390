// A reader of zip archives (.pk3) of our own: the central directory and the
// stored (0) and deflate (8) methods through zlib's raw inflate. Single-disk,
// no zip64, no encryption. Sizes are bounded before anything is allocated and
// an entry never inflates past its declared size (zip bombs stop there), so
// memory and time are bounded by the limits and the archive's size.
// Format: PKWARE APPNOTE.TXT 6.3.x, sections 4.3.7 (local header), 4.3.12
// (central directory header) and 4.3.16 (end of central directory).
#ifndef COLLIDE_IMPORT_ZIP_ARCHIVE_H_
#define COLLIDE_IMPORT_ZIP_ARCHIVE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "byte_source.h"

namespace collide::importer {

struct ZipEntry {
  std::string name;
  std::uint16_t method = 0;
  std::uint16_t flags = 0;
  std::uint32_t crc32 = 0;
  std::uint64_t compressed_size = 0;
  std::uint64_t uncompressed_size = 0;
  std::uint64_t local_header_offset = 0;
};

class ZipArchive {
 public:
  // Reads the central directory of `source`.
  static absl::StatusOr<ZipArchive> Open(std::unique_ptr<ByteSource> source);

  const std::vector<ZipEntry>& entries() const { return entries_; }
  const std::string& name() const { return source_->name(); }
  // The entry's bytes, checked against its CRC-32; ResourceExhausted when
  // its declared size exceeds max_bytes.
  absl::StatusOr<std::string> Extract(const ZipEntry& entry, std::uint64_t max_bytes);

 private:
  std::unique_ptr<ByteSource> source_;
  std::vector<ZipEntry> entries_;
  std::uint64_t central_directory_offset_ = 0;
};

}  // namespace collide::importer

#endif  // COLLIDE_IMPORT_ZIP_ARCHIVE_H_
