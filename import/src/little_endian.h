// Little-endian field reads from byte buffers whose bounds the caller has
// checked (zip headers and BSP lumps are little-endian on every platform).
#ifndef COLLIDE_IMPORT_LITTLE_ENDIAN_H_
#define COLLIDE_IMPORT_LITTLE_ENDIAN_H_

#include <cstdint>
#include <cstring>

namespace collide::importer {

inline std::uint16_t LoadU16(const char* p) {
  const auto* b = reinterpret_cast<const unsigned char*>(p);
  return static_cast<std::uint16_t>(b[0] | (b[1] << 8));
}
inline std::uint32_t LoadU32(const char* p) {
  const auto* b = reinterpret_cast<const unsigned char*>(p);
  return std::uint32_t{b[0]} | (std::uint32_t{b[1]} << 8) | (std::uint32_t{b[2]} << 16) |
         (std::uint32_t{b[3]} << 24);
}
inline std::int32_t LoadI32(const char* p) { return static_cast<std::int32_t>(LoadU32(p)); }
inline float LoadF32(const char* p) {
  const std::uint32_t bits = LoadU32(p);
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

}  // namespace collide::importer

#endif  // COLLIDE_IMPORT_LITTLE_ENDIAN_H_
