#include "import_test_util.h"

#include <unistd.h>
#include <zlib.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "byte_source.h"
#include "zip_archive.h"

namespace collide::testing {
namespace {

void Put16(std::string& s, std::uint32_t v) {
  s.push_back(static_cast<char>(v & 0xff));
  s.push_back(static_cast<char>((v >> 8) & 0xff));
}
void Put32(std::string& s, std::uint32_t v) {
  Put16(s, v & 0xffff);
  Put16(s, v >> 16);
}

std::string RawDeflate(const std::string& data) {
  z_stream z{};
  deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, data.size()), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  if (deflate(&z, Z_FINISH) != Z_STREAM_END) throw std::runtime_error("deflate failed");
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

}  // namespace

std::string ReadOpenArenaMap(const std::string& name) {
  auto source = importer::FileSource(kOpenArenaPak);
  if (!source.ok()) throw std::runtime_error(std::string(source.status().message()));
  auto archive = importer::ZipArchive::Open(*std::move(source));
  if (!archive.ok()) throw std::runtime_error(std::string(archive.status().message()));
  for (const importer::ZipEntry& e : archive->entries()) {
    if (e.name == "maps/" + name + ".bsp") {
      auto bytes = archive->Extract(e, std::uint64_t{64} << 20);
      if (!bytes.ok()) throw std::runtime_error(std::string(bytes.status().message()));
      return *bytes;
    }
  }
  throw std::runtime_error("no map " + name + " in " + kOpenArenaPak);
}

std::string ReadFuzzSeed(const std::string& name) {
  std::ifstream in(std::string(COLLIDE_SOURCE_DIR) + "/tests/fuzz/corpus/import_fuzz/" + name,
                   std::ios::binary);
  if (!in) throw std::runtime_error("no fuzz seed " + name + " (run tests/fuzz/make_import_seeds.py)");
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string MakeZip(const std::vector<ZipFileSpec>& files) {
  std::string zip, directory;
  for (const ZipFileSpec& f : files) {
    const std::string body = !f.raw_compressed.empty() ? f.raw_compressed
                             : f.deflate               ? RawDeflate(f.data)
                                                       : f.data;
    const std::uint32_t crc = static_cast<std::uint32_t>(
        crc32(0, reinterpret_cast<const Bytef*>(f.data.data()), static_cast<uInt>(f.data.size())));
    const std::uint32_t size = f.declared_size >= 0 ? static_cast<std::uint32_t>(f.declared_size)
                                                    : static_cast<std::uint32_t>(f.data.size());
    const std::uint16_t method = f.deflate ? 8 : 0;
    const std::uint32_t offset = static_cast<std::uint32_t>(zip.size());
    Put32(zip, 0x04034b50);
    Put16(zip, 20);
    Put16(zip, 0);
    Put16(zip, method);
    Put32(zip, 0);  // time, date
    Put32(zip, crc);
    Put32(zip, static_cast<std::uint32_t>(body.size()));
    Put32(zip, size);
    Put16(zip, static_cast<std::uint32_t>(f.name.size()));
    Put16(zip, 0);
    zip += f.name;
    zip += body;

    Put32(directory, 0x02014b50);
    Put16(directory, 20);
    Put16(directory, 20);
    Put16(directory, 0);
    Put16(directory, method);
    Put32(directory, 0);
    Put32(directory, crc);
    Put32(directory, static_cast<std::uint32_t>(body.size()));
    Put32(directory, size);
    Put16(directory, static_cast<std::uint32_t>(f.name.size()));
    Put16(directory, 0);
    Put16(directory, 0);
    Put16(directory, 0);
    Put16(directory, 0);
    Put32(directory, 0);
    Put32(directory, offset);
    directory += f.name;
  }
  const std::uint32_t directory_offset = static_cast<std::uint32_t>(zip.size());
  zip += directory;
  Put32(zip, 0x06054b50);
  Put16(zip, 0);
  Put16(zip, 0);
  Put16(zip, static_cast<std::uint32_t>(files.size()));
  Put16(zip, static_cast<std::uint32_t>(files.size()));
  Put32(zip, static_cast<std::uint32_t>(directory.size()));
  Put32(zip, directory_offset);
  Put16(zip, 0);
  return zip;
}

std::string WriteTempFile(const std::string& name, const std::string& bytes) {
  const char* dir = std::getenv("TEST_TMPDIR");
  std::string path = std::string(dir != nullptr ? dir : "/tmp") + "/collide-import-" +
                     std::to_string(::getpid()) + "-" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

}  // namespace collide::testing
