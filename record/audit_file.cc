#include "record/audit_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "google/protobuf/io/coded_stream.h"

namespace collide::record {
namespace {

// Wire types (protobuf encoding): varint, 64-bit, length-delimited.
constexpr std::uint8_t kVarint = 0, kFixed64 = 1, kBytes = 2;

using google::protobuf::io::CodedOutputStream;

std::size_t VarintSize(std::uint64_t v) { return CodedOutputStream::VarintSize64(v); }

char* PutVarint(std::uint64_t v, char* p) {
  return reinterpret_cast<char*>(
      CodedOutputStream::WriteVarint64ToArray(v, reinterpret_cast<std::uint8_t*>(p)));
}

constexpr char Tag(int field, std::uint8_t wire_type) { return static_cast<char>(field << 3 | wire_type); }

// Bytes of a length-delimited field (one-byte tag) holding `n` bytes.
std::size_t FieldSize(std::size_t n) { return 1 + VarintSize(n) + n; }

char* PutBytes(int field, std::string_view s, char* p) {
  *p++ = Tag(field, kBytes);
  p = PutVarint(s.size(), p);
  std::memcpy(p, s.data(), s.size());
  return p + s.size();
}

char* PutMessage(int field, const google::protobuf::MessageLite& m, std::size_t size, char* p) {
  *p++ = Tag(field, kBytes);
  p = PutVarint(size, p);
  return reinterpret_cast<char*>(m.SerializeWithCachedSizesToArray(reinterpret_cast<std::uint8_t*>(p)));
}

}  // namespace

// The fields in number order, proto3 defaults left out: protobuf's own
// serialization of the same AuditBatch (tests/record/audit_file_test.cc).
void AppendAuditBatch(const AuditBatchHead& head, AuditItem item, int count,
                      absl::FunctionRef<const google::protobuf::MessageLite&(int)> input,
                      absl::FunctionRef<const google::protobuf::MessageLite&(int)> verdict,
                      std::string& out) {
  if (count <= 0) return;
  // ByteSizeLong caches each message's size for SerializeWithCachedSizes.
  std::size_t items = 0;
  for (int i = 0; i < count; ++i) {
    items += FieldSize(FieldSize(input(i).ByteSizeLong()) + FieldSize(verdict(i).ByteSizeLong()));
  }
  const auto micros = static_cast<std::uint64_t>(head.unix_micros);
  const auto tick = static_cast<std::uint64_t>(head.latest_tick);
  const auto batch_micros = std::bit_cast<std::uint64_t>(head.batch_micros);
  const std::size_t size =
      (head.world_id.empty() ? 0 : FieldSize(head.world_id.size())) +
      (micros == 0 ? 0 : 1 + VarintSize(micros)) + (tick == 0 ? 0 : 1 + VarintSize(tick)) +
      (head.call.empty() ? 0 : FieldSize(head.call.size())) + (batch_micros == 0 ? 0 : 9) + items;
  const std::size_t at = out.size();
  out.resize(at + VarintSize(size) + size);
  char* p = PutVarint(size, out.data() + at);
  if (!head.world_id.empty()) p = PutBytes(1, head.world_id, p);
  if (micros != 0) *p++ = Tag(2, kVarint), p = PutVarint(micros, p);
  if (tick != 0) *p++ = Tag(3, kVarint), p = PutVarint(tick, p);
  if (!head.call.empty()) p = PutBytes(4, head.call, p);
  if (batch_micros != 0) {
    *p++ = Tag(5, kFixed64);
    for (int i = 0; i < 8; ++i) *p++ = static_cast<char>(batch_micros >> (8 * i));  // Little-endian.
  }
  const char tag = Tag(item == AuditItem::kShot ? 6 : 7, kBytes);
  for (int i = 0; i < count; ++i) {
    const google::protobuf::MessageLite& in = input(i);
    const google::protobuf::MessageLite& v = verdict(i);
    const auto in_size = static_cast<std::size_t>(in.GetCachedSize());
    const auto v_size = static_cast<std::size_t>(v.GetCachedSize());
    *p++ = tag;
    p = PutVarint(FieldSize(in_size) + FieldSize(v_size), p);
    p = PutMessage(1, in, in_size, p);
    p = PutMessage(2, v, v_size, p);
  }
}

absl::StatusOr<std::string_view> NextAuditBatch(std::string_view bytes, std::size_t& offset) {
  std::uint64_t size = 0;
  std::size_t at = offset;
  for (int shift = 0;; shift += 7) {
    if (at == bytes.size()) {
      return absl::DataLossError(
          absl::StrCat("the file ends inside a batch's byte count (", bytes.size() - offset, " bytes left)"));
    }
    if (shift > 63) return absl::DataLossError("a batch's byte count is not a varint");
    const auto b = static_cast<std::uint8_t>(bytes[at++]);
    size |= std::uint64_t{b & 0x7fu} << shift;
    if (b < 0x80) break;
  }
  if (size > kMaxAuditBatchBytes) {
    return absl::DataLossError(
        absl::StrCat("a batch of ", size, " bytes (at most ", kMaxAuditBatchBytes, ")"));
  }
  if (size > bytes.size() - at) {
    return absl::DataLossError(
        absl::StrCat("the file ends inside a batch of ", size, " bytes (", bytes.size() - at, " left)"));
  }
  offset = at + size;
  return bytes.substr(at, size);
}

void ForEachAuditRecord(v1::AuditBatch& batch, absl::FunctionRef<void(const v1::AuditRecord&)> each) {
  v1::AuditRecord record;
  record.set_world_id(batch.world_id());
  record.set_unix_micros(batch.unix_micros());
  record.set_latest_tick(batch.latest_tick());
  record.set_call(batch.call());
  record.set_batch_micros(batch.batch_micros());
  for (int i = 0; i < batch.shots_size(); ++i) {
    record.set_index(i);
    record.mutable_shot()->Swap(batch.mutable_shots(i));
    each(record);
  }
  for (int i = 0; i < batch.moves_size(); ++i) {
    record.set_index(i);
    record.mutable_move()->Swap(batch.mutable_moves(i));
    each(record);
  }
}

absl::Status ReadAuditFile(const std::string& path, absl::FunctionRef<void(const v1::AuditRecord&)> each) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return absl::NotFoundError(absl::StrCat(path, ": cannot open: ", std::strerror(errno)));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int error = errno;
    ::close(fd);
    return absl::UnavailableError(absl::StrCat(path, ": cannot read: ", std::strerror(error)));
  }
  const auto length = static_cast<std::size_t>(st.st_size);
  if (length == 0) {
    ::close(fd);
    return absl::OkStatus();
  }
  void* mapped = ::mmap(nullptr, length, PROT_READ, MAP_PRIVATE, fd, 0);
  const int map_error = errno;
  ::close(fd);
  if (mapped == MAP_FAILED) {
    return absl::UnavailableError(absl::StrCat(path, ": cannot read: ", std::strerror(map_error)));
  }
  const std::string_view bytes(static_cast<const char*>(mapped), length);
  absl::Status status;
  if (!bytes.starts_with(kAuditFileHeader)) {
    status = absl::InvalidArgumentError(absl::StrCat(
        path,
        ": not a binary audit trail (it does not start with \"collide.v1.audit\"); a .audit.jsonl file "
        "is JSON Lines already"));
  }
  v1::AuditBatch batch;
  std::int64_t records = 0;
  for (std::size_t offset = kAuditFileHeader.size(); status.ok() && offset < bytes.size();) {
    const std::size_t start = offset;
    absl::StatusOr<std::string_view> message = NextAuditBatch(bytes, offset);
    if (!message.ok()) {
      status = absl::DataLossError(absl::StrCat(path, ": truncated or damaged at byte ", start, " after ",
                                                records, " records: ", message.status().message()));
    } else if (!batch.ParseFromArray(message->data(), static_cast<int>(message->size()))) {
      status = absl::DataLossError(absl::StrCat(path, ": damaged at byte ", start, " after ", records,
                                                " records: a batch that is not an AuditBatch"));
    } else {
      records += batch.shots_size() + batch.moves_size();
      ForEachAuditRecord(batch, each);
    }
  }
  ::munmap(mapped, length);
  return status;
}

}  // namespace collide::record
