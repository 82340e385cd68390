#include "zip_archive.h"

#include <zlib.h>

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "little_endian.h"

namespace collide::importer {
namespace {

constexpr std::uint32_t kEndOfCentralDirectory = 0x06054b50;
constexpr std::uint32_t kCentralHeader = 0x02014b50;
constexpr std::uint32_t kLocalHeader = 0x04034b50;
constexpr std::size_t kEndSize = 22;      // APPNOTE 4.3.16, without the comment
constexpr std::size_t kCentralSize = 46;  // APPNOTE 4.3.12, without name, extra, comment
constexpr std::size_t kLocalSize = 30;    // APPNOTE 4.3.7, without name and extra
constexpr std::size_t kMaxCommentSize = 0xffff;
// A central directory larger than this is not a map archive (pak6 has 4 MB
// of files per kB of directory; this allows a million entries).
constexpr std::uint64_t kMaxCentralDirectoryBytes = std::uint64_t{64} << 20;
constexpr std::size_t kInflateChunk = 64 << 10;

absl::Status Bad(const std::string& file, const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat(file, ": ", what));
}

}  // namespace

absl::StatusOr<ZipArchive> ZipArchive::Open(std::unique_ptr<ByteSource> source) {
  const std::string& file = source->name();
  const std::uint64_t size = source->size();
  if (size < kEndSize) return Bad(file, absl::StrCat("not a zip archive: ", size, " bytes is too short"));
  // The end record sits in the last 22 + 65535 bytes (its comment may be up
  // to 65535 bytes long); search backwards for its signature.
  const std::uint64_t tail_size = std::min<std::uint64_t>(size, kEndSize + kMaxCommentSize);
  std::string tail(tail_size, '\0');
  if (absl::Status s = source->Read(size - tail_size, tail_size, tail.data()); !s.ok()) return s;
  std::size_t end = std::string::npos;
  for (std::size_t i = tail_size - kEndSize + 1; i-- > 0;) {
    if (LoadU32(&tail[i]) == kEndOfCentralDirectory) {
      end = i;
      break;
    }
  }
  if (end == std::string::npos) {
    return Bad(file, "not a zip archive: no end-of-central-directory record (wrong magic)");
  }
  const char* e = &tail[end];
  const std::uint16_t disk = LoadU16(e + 4), cd_disk = LoadU16(e + 6);
  const std::uint16_t disk_entries = LoadU16(e + 8), total_entries = LoadU16(e + 10);
  const std::uint32_t cd_size = LoadU32(e + 12), cd_offset = LoadU32(e + 16);
  if (disk != 0 || cd_disk != 0 || disk_entries != total_entries) {
    return Bad(file, "multi-disk zip archives are not supported");
  }
  if (total_entries == 0xffff || cd_size == 0xffffffff || cd_offset == 0xffffffff) {
    return Bad(file, "zip64 archives are not supported");
  }
  const std::uint64_t end_offset = size - tail_size + end;
  if (std::uint64_t{cd_offset} + cd_size > end_offset) {
    return Bad(file, absl::StrCat("central directory [", cd_offset, ", +", cd_size,
                                  ") runs past its end record at byte ", end_offset));
  }
  if (cd_size > kMaxCentralDirectoryBytes) {
    return Bad(file, absl::StrCat("central directory of ", cd_size, " bytes exceeds the limit of ",
                                  kMaxCentralDirectoryBytes));
  }
  if (std::uint64_t{total_entries} * kCentralSize > cd_size) {
    return Bad(file,
               absl::StrCat(total_entries, " entries cannot fit a ", cd_size, "-byte central directory"));
  }
  std::string cd(cd_size, '\0');
  if (absl::Status s = source->Read(cd_offset, cd_size, cd.data()); !s.ok()) return s;

  ZipArchive archive;
  archive.entries_.reserve(total_entries);
  std::size_t at = 0;
  for (std::uint32_t i = 0; i < total_entries; ++i) {
    if (cd_size - at < kCentralSize || LoadU32(&cd[at]) != kCentralHeader) {
      return Bad(file, absl::StrCat("central directory entry ", i, " at byte ", cd_offset + at,
                                    " is truncated or has a wrong signature"));
    }
    const char* h = &cd[at];
    ZipEntry entry;
    entry.flags = LoadU16(h + 8);
    entry.method = LoadU16(h + 10);
    entry.crc32 = LoadU32(h + 16);
    entry.compressed_size = LoadU32(h + 20);
    entry.uncompressed_size = LoadU32(h + 24);
    const std::size_t name_size = LoadU16(h + 28), extra_size = LoadU16(h + 30),
                      comment_size = LoadU16(h + 32);
    entry.local_header_offset = LoadU32(h + 42);
    const std::size_t record = kCentralSize + name_size + extra_size + comment_size;
    if (cd_size - at < record) {
      return Bad(file, absl::StrCat("central directory entry ", i, " runs past the directory's end"));
    }
    entry.name.assign(h + kCentralSize, name_size);
    at += record;
    archive.entries_.push_back(std::move(entry));
  }
  archive.central_directory_offset_ = cd_offset;
  archive.source_ = std::move(source);
  return archive;
}

absl::StatusOr<std::string> ZipArchive::Extract(const ZipEntry& entry, std::uint64_t max_bytes) {
  const std::string where = absl::StrCat(source_->name(), ": ", entry.name);
  const auto bad = [&](const std::string& what) {
    return absl::InvalidArgumentError(absl::StrCat(where, ": ", what));
  };
  if (entry.flags & 1) return bad("encrypted entries are not supported");
  if (entry.method != 0 && entry.method != 8) {
    return bad(
        absl::StrCat("compression method ", entry.method, " is not supported (only stored and deflate)"));
  }
  if (entry.uncompressed_size > max_bytes) {
    return absl::ResourceExhaustedError(absl::StrCat(where, ": declared size of ", entry.uncompressed_size,
                                                     " bytes exceeds the limit of ", max_bytes));
  }
  char local[kLocalSize];
  if (entry.local_header_offset + kLocalSize > central_directory_offset_) {
    return bad(
        absl::StrCat("local header offset ", entry.local_header_offset, " is past the archive's data"));
  }
  if (absl::Status s = source_->Read(entry.local_header_offset, kLocalSize, local); !s.ok()) return s;
  if (LoadU32(local) != kLocalHeader) {
    return bad(absl::StrCat("wrong local header signature at byte ", entry.local_header_offset));
  }
  const std::uint64_t data =
      entry.local_header_offset + kLocalSize + LoadU16(local + 26) + LoadU16(local + 28);
  if (data > central_directory_offset_ || entry.compressed_size > central_directory_offset_ - data) {
    return bad(absl::StrCat("data [", data, ", +", entry.compressed_size, ") runs past the archive's data"));
  }

  std::string out(entry.uncompressed_size, '\0');
  if (entry.method == 0) {
    if (entry.compressed_size != entry.uncompressed_size) {
      return bad(absl::StrCat("stored entry with compressed size ", entry.compressed_size,
                              " != uncompressed size ", entry.uncompressed_size));
    }
    if (absl::Status s = source_->Read(data, out.size(), out.data()); !s.ok()) return s;
  } else {
    // Raw deflate (negative window bits: no zlib header), RFC 1951. The
    // output buffer is exactly the declared size: a stream that wants more
    // room is rejected instead of grown.
    z_stream z{};
    if (inflateInit2(&z, -MAX_WBITS) != Z_OK)
      return absl::InternalError(absl::StrCat(where, ": inflateInit2 failed"));
    std::string chunk(kInflateChunk, '\0');
    std::uint64_t consumed = 0;
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    int rc = Z_OK;
    while (rc != Z_STREAM_END) {
      if (z.avail_in == 0) {
        if (consumed == entry.compressed_size) break;
        const std::size_t n = std::min<std::uint64_t>(chunk.size(), entry.compressed_size - consumed);
        if (absl::Status s = source_->Read(data + consumed, n, chunk.data()); !s.ok()) {
          inflateEnd(&z);
          return s;
        }
        consumed += n;
        z.next_in = reinterpret_cast<Bytef*>(chunk.data());
        z.avail_in = static_cast<uInt>(n);
      }
      rc = inflate(&z, Z_NO_FLUSH);
      if (rc == Z_BUF_ERROR && z.avail_out == 0) break;  // wants room past the declared size
      if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) break;
    }
    const std::uint64_t produced = out.size() - z.avail_out;
    const std::string zmsg = z.msg != nullptr ? z.msg : "";
    inflateEnd(&z);
    if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT || rc == Z_MEM_ERROR || rc == Z_STREAM_ERROR) {
      return bad(absl::StrCat("corrupt deflate stream: ", zmsg.empty() ? "zlib error" : zmsg, " after ",
                              produced, " bytes"));
    }
    if (rc != Z_STREAM_END) {
      if (z.avail_out == 0) {
        return bad(absl::StrCat("deflate stream inflates past its declared size of ", out.size(),
                                " bytes (zip bomb or corrupt header)"));
      }
      return bad(absl::StrCat("truncated deflate stream: ", produced, " of ", out.size(), " bytes"));
    }
    if (produced != out.size()) {
      return bad(
          absl::StrCat("deflate stream ends after ", produced, " of the declared ", out.size(), " bytes"));
    }
  }
  const std::uint32_t crc = static_cast<std::uint32_t>(
      crc32_z(crc32(0, nullptr, 0), reinterpret_cast<const Bytef*>(out.data()), out.size()));
  if (crc != entry.crc32) {
    return bad(absl::StrCat("CRC-32 mismatch: ", crc, " computed, ", entry.crc32, " declared"));
  }
  return out;
}

}  // namespace collide::importer
