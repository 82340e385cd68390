// `collide world audit FILE...`: a binary audit trail (--audit_format=binary,
// <world>.audit.bin; record/audit_file.h) printed as the JSON Lines the
// server writes with --audit_format=jsonl, one AuditRecord per line, for jq
// and grep. A FILE naming a trail's current file stands for the whole
// trail: its rotated files oldest first (FILE.N ... FILE.1, those present),
// then FILE; a file named twice (a shell glob) is read once. A file that is
// not a whole trail (not binary, truncated, damaged) is reported on stderr
// with its name and byte offset after its whole records are printed, and the
// next file is read. Exit 0 when every file was whole, 1 otherwise, 2 for
// bad arguments. Offline: no server.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "commands.h"
#include "record/audit_file.h"
#include "record/json_line.h"

namespace collide::cli {
namespace {

// `file`'s trail in the order it was written, when `file` is a current
// file (.audit.bin); else `file` alone.
std::vector<std::string> TrailFiles(const std::string& file) {
  if (!file.ends_with(".audit.bin")) return {file};
  std::vector<std::string> files;
  std::error_code ignored;
  for (int k = 1; std::filesystem::exists(absl::StrCat(file, ".", k), ignored); ++k) {
    files.insert(files.begin(), absl::StrCat(file, ".", k));
  }
  files.push_back(file);
  return files;
}

}  // namespace

int RunWorldAudit(const std::vector<std::string>& args) {
  if (args.empty()) {
    std::cerr << "usage: collide world audit FILE.audit.bin...\n";
    return 2;
  }
  std::vector<std::string> files;
  std::set<std::string> seen;
  for (const std::string& arg : args) {
    for (std::string& file : TrailFiles(arg)) {
      if (seen.insert(file).second) files.push_back(std::move(file));
    }
  }
  constexpr std::size_t kOutputChunk = std::size_t{1} << 16;
  std::string out;
  const auto write = [&out] {
    std::fwrite(out.data(), 1, out.size(), stdout);
    out.clear();
  };
  bool whole = true;
  for (const std::string& file : files) {
    const absl::Status read = record::ReadAuditFile(file, [&](const v1::AuditRecord& record) {
      record::AppendJson(record, out);
      out += '\n';
      if (out.size() >= kOutputChunk) write();
    });
    write();
    if (!read.ok()) {
      std::fflush(stdout);
      std::cerr << "world audit: " << read.message() << "\n";
      whole = false;
    }
  }
  std::fflush(stdout);
  return whole ? 0 : 1;
}

}  // namespace collide::cli
