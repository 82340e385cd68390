#include "convert/readable_wire.h"

#include <bit>
#include <cstring>
#include <optional>

#include "convert/packed.h"
#include "convert/results.h"
#include "convert/shapes.h"

namespace collide::convert {
namespace {

static_assert(std::endian::native == std::endian::little,
              "wire doubles are little-endian, as memcpy reads them");

// Wire types and one-byte tags (field number < 16), from the encoding guide.
constexpr int kVarint = 0;
constexpr int kFixed64 = 1;
constexpr int kLen = 2;
constexpr std::uint8_t Tag(int field, int wire_type) {
  return static_cast<std::uint8_t>(field << 3 | wire_type);
}

// Reads a span of wire bytes front to back; every read checks the bounds.
class WireReader {
 public:
  WireReader() = default;
  WireReader(const std::uint8_t* begin, const std::uint8_t* end) : p_(begin), end_(end) {}

  bool done() const { return p_ == end_; }
  std::size_t size() const { return static_cast<std::size_t>(end_ - p_); }
  const std::uint8_t* data() const { return p_; }

  // The next byte, which the caller compares against the one-byte tags it
  // expects: a longer tag has its top bit set and so matches none of them.
  bool Tag(std::uint8_t& tag) {
    if (p_ == end_) return false;
    tag = *p_++;
    return true;
  }
  bool Varint(std::uint64_t& v) {
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p_ == end_) return false;
      const std::uint8_t byte = *p_++;
      v |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return true;
    }
    return false;  // Longer than 10 bytes.
  }
  bool Double(double& d) {
    if (end_ - p_ < 8) return false;
    std::memcpy(&d, p_, 8);
    p_ += 8;
    return true;
  }
  // A length-delimited field's contents.
  bool Message(WireReader& contents) {
    std::uint64_t n;
    if (!Varint(n) || n > static_cast<std::uint64_t>(end_ - p_)) return false;
    contents = WireReader(p_, p_ + n);
    p_ += n;
    return true;
  }

 private:
  const std::uint8_t* p_ = nullptr;
  const std::uint8_t* end_ = nullptr;
};

// A message of n double fields numbered 1..n (Vec3: x y z; Quaternion: w x y
// z) into out[0..n), unset ones 0. A repeated scalar keeps its last value,
// as protobuf does.
bool ReadDoubles(WireReader r, int n, double* out) {
  // What encoders write when no field is zero: n (tag, 8 bytes) in field
  // order, read without the loop's per-field checks.
  if (r.size() == 9 * static_cast<std::size_t>(n)) {
    const std::uint8_t* p = r.data();
    bool canonical = true;
    for (int i = 0; i < n; ++i) canonical &= p[9 * i] == Tag(i + 1, kFixed64);
    if (canonical) {
      for (int i = 0; i < n; ++i) std::memcpy(out + i, p + 9 * i + 1, 8);
      return true;
    }
  }
  for (int i = 0; i < n; ++i) out[i] = 0.0;
  while (!r.done()) {
    std::uint8_t tag;
    if (!r.Tag(tag)) return false;
    const int field = tag >> 3;
    if ((tag & 7) != kFixed64 || field < 1 || field > n || !r.Double(out[field - 1])) return false;
  }
  return true;
}

// Where each field of a shape message goes in the packed layout (packed.h),
// which lists the fields in the same order as geometry.proto.
enum class Part : std::uint8_t { kNone, kVec3, kQuaternion, kDouble };
struct FieldPlace {
  Part part = Part::kNone;
  std::uint8_t offset = 0;
};
struct ShapeLayout {
  ShapeKind kind;
  FieldPlace fields[3];  // Fields 1..3 of the shape's message.
};

// Indexed by the Shape oneof's field number - 1 (geometry.proto).
constexpr ShapeLayout kLayouts[9] = {
    {ShapeKind::kPoint, {{Part::kVec3, 0}}},
    {ShapeKind::kSegment, {{Part::kVec3, 0}, {Part::kVec3, 3}}},
    {ShapeKind::kSphere, {{Part::kVec3, 0}, {Part::kDouble, 3}}},
    {ShapeKind::kCapsule, {{Part::kVec3, 0}, {Part::kVec3, 3}, {Part::kDouble, 6}}},
    {ShapeKind::kAabb, {{Part::kVec3, 0}, {Part::kVec3, 3}}},
    {ShapeKind::kObb, {{Part::kVec3, 0}, {Part::kQuaternion, 3}, {Part::kVec3, 7}}},
    {ShapeKind::kTriangle, {{Part::kVec3, 0}, {Part::kVec3, 3}, {Part::kVec3, 6}}},
    {ShapeKind::kConvexHull, {}},  // Declined: left to protobuf.
    {ShapeKind::kHalfspace, {{Part::kVec3, 0}, {Part::kDouble, 3}}},
};

// A shape message's fields into its packed doubles `d`. A message-typed field
// seen twice is declined (protobuf would merge the two).
bool ReadShapeFields(WireReader r, const ShapeLayout& layout, double* d) {
  for (int i = 0; i < kMaxPackedStride; ++i) d[i] = 0.0;
  // geometry.proto: an unset Obb.rotation is the identity.
  if (layout.kind == ShapeKind::kObb) d[3] = 1.0;
  unsigned seen = 0;
  while (!r.done()) {
    std::uint8_t tag;
    if (!r.Tag(tag)) return false;
    const int field = tag >> 3;
    if ((tag & 0x80) != 0 || field < 1 || field > 3) return false;
    const FieldPlace& place = layout.fields[field - 1];
    const int wire_type = tag & 7;
    WireReader contents;
    switch (place.part) {
      case Part::kNone:
        return false;
      case Part::kDouble:
        if (wire_type != kFixed64 || !r.Double(d[place.offset])) return false;
        break;
      case Part::kVec3:
      case Part::kQuaternion:
        if (wire_type != kLen || (seen & (1u << field)) != 0 || !r.Message(contents)) return false;
        seen |= 1u << field;
        if (!ReadDoubles(contents, place.part == Part::kVec3 ? 3 : 4, d + place.offset)) return false;
        break;
    }
  }
  return true;
}

// A Shape message: exactly one oneof member, decoded and valid.
bool ReadShape(WireReader r, Shape& out, std::vector<Violation>& scratch) {
  std::uint8_t tag;
  if (!r.Tag(tag)) return false;  // No member set: Decode reports it.
  const int field = tag >> 3;
  WireReader contents;
  if ((tag & 0x80) != 0 || (tag & 7) != kLen || field < 1 || field > 9 || !r.Message(contents)) return false;
  if (!r.done()) return false;  // A second member: protobuf's oneof rules decide.
  const ShapeLayout& layout = kLayouts[field - 1];
  if (layout.kind == ShapeKind::kConvexHull) return false;
  double d[kMaxPackedStride];
  if (!ReadShapeFields(contents, layout, d)) return false;
  if (UnpackShape(layout.kind, d, out, scratch)) return true;
  scratch.clear();
  return false;
}

// A ShapePair message: a and b, each exactly once.
bool ReadPair(WireReader r, Shape& a, Shape& b, std::vector<Violation>& scratch) {
  bool has_a = false;
  bool has_b = false;
  while (!r.done()) {
    std::uint8_t tag;
    WireReader contents;
    if (!r.Tag(tag)) return false;
    if (tag == Tag(1, kLen) && !has_a) {
      has_a = true;
      if (!r.Message(contents) || !ReadShape(contents, a, scratch)) return false;
    } else if (tag == Tag(2, kLen) && !has_b) {
      has_b = true;
      if (!r.Message(contents) || !ReadShape(contents, b, scratch)) return false;
    } else {
      return false;
    }
  }
  return has_a && has_b;
}

std::uint64_t Bits(double d) { return std::bit_cast<std::uint64_t>(d); }

bool AllBitsZero(const Vec3& v) { return (Bits(v.x) | Bits(v.y) | Bits(v.z)) == 0; }

// protobuf writes a proto3 double only when its bits are not all zero (so
// -0.0 is written): 1 tag byte + 8.
std::size_t DoubleSize(double d) { return Bits(d) != 0 ? 9 : 0; }
std::size_t Vec3Size(const Vec3& v) { return DoubleSize(v.x) + DoubleSize(v.y) + DoubleSize(v.z); }

std::size_t VarintSize(std::uint64_t v) {
  std::size_t n = 1;
  for (; v >= 0x80; v >>= 7) ++n;
  return n;
}

// The PairResult fields ToProto (results.h) sets, in field order: hit,
// distance, point_a, point_b and normal when not all-bits-zero, status.
std::size_t ResultSize(const PairResult& r) {
  std::size_t n = (r.hit ? 2 : 0) + DoubleSize(r.distance);
  for (const Vec3* v : {&r.point_a, &r.point_b, &r.normal}) {
    if (!AllBitsZero(*v)) n += 2 + Vec3Size(*v);  // Tag, one-byte length (at most 27), fields.
  }
  if (ToProto(r.status) != 0) n += 1 + VarintSize(ToProto(r.status));
  return n;
}

std::uint8_t* PutVarint(std::uint64_t v, std::uint8_t* p) {
  for (; v >= 0x80; v >>= 7) *p++ = static_cast<std::uint8_t>(v | 0x80);
  *p++ = static_cast<std::uint8_t>(v);
  return p;
}

std::uint8_t* PutDouble(int field, double d, std::uint8_t* p) {
  if (Bits(d) == 0) return p;
  *p++ = Tag(field, kFixed64);
  std::memcpy(p, &d, 8);
  return p + 8;
}

std::uint8_t* PutVec3(int field, const Vec3& v, std::uint8_t* p) {
  if (AllBitsZero(v)) return p;
  *p++ = Tag(field, kLen);
  *p++ = static_cast<std::uint8_t>(Vec3Size(v));
  p = PutDouble(1, v.x, p);
  p = PutDouble(2, v.y, p);
  return PutDouble(3, v.z, p);
}

std::uint8_t* PutResult(const PairResult& r, std::uint8_t* p) {
  if (r.hit) {
    *p++ = Tag(1, kVarint);
    *p++ = 1;
  }
  p = PutDouble(2, r.distance, p);
  p = PutVec3(3, r.point_a, p);
  p = PutVec3(4, r.point_b, p);
  p = PutVec3(5, r.normal, p);
  if (const int status = ToProto(r.status); status != 0) {
    *p++ = Tag(6, kVarint);
    p = PutVarint(static_cast<std::uint64_t>(status), p);
  }
  return p;
}

}  // namespace

bool DecodeQueryPairsWire(std::span<const std::uint8_t> bytes, std::size_t max_pairs, PairBatch& out) {
  WireReader r(bytes.data(), bytes.data() + bytes.size());
  out.a.clear();
  out.b.clear();
  out.arena.Clear();
  out.scratch.clear();
  bool has_level = false;
  while (!r.done()) {
    std::uint8_t tag;
    WireReader contents;
    if (!r.Tag(tag)) return false;
    if (tag == Tag(1, kVarint)) {
      std::uint64_t level;
      if (!r.Varint(level) || level < 1 || level > 3) return false;
      out.level = *LevelFromProto(static_cast<int>(level));
      has_level = true;
    } else if (tag == Tag(2, kLen)) {
      if (out.a.size() == max_pairs || !r.Message(contents)) return false;
      out.a.emplace_back();
      out.b.emplace_back();
      if (!ReadPair(contents, out.a.back(), out.b.back(), out.scratch)) return false;
    } else {
      return false;
    }
  }
  return has_level && !out.a.empty();
}

void EncodeQueryPairsResponseWire(std::span<const PairResult> results, std::string& out) {
  std::size_t total = 0;
  for (const PairResult& r : results) {
    const std::size_t n = ResultSize(r);
    total += 1 + VarintSize(n) + n;
  }
  out.resize(total);
  std::uint8_t* p = reinterpret_cast<std::uint8_t*>(out.data());
  for (const PairResult& r : results) {
    *p++ = Tag(1, kLen);  // QueryPairsResponse.results
    p = PutVarint(ResultSize(r), p);
    p = PutResult(r, p);
  }
}

}  // namespace collide::convert
