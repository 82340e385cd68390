// The process's open-files limit (RLIMIT_NOFILE), raised at startup.
#ifndef COLLIDE_SERVER_OPEN_FILES_LIMIT_H_
#define COLLIDE_SERVER_OPEN_FILES_LIMIT_H_

#include <cstdint>
#include <string>

namespace collide::server {

struct OpenFilesLimit {
  std::uint64_t before = 0;  // Soft limit found at startup.
  std::uint64_t after = 0;   // Soft limit now.
  // "4096", or "1048576 (raised from 1024)" for the startup line.
  std::string Describe() const;
};

// Raises the soft open-files limit to the hard limit. Every connection costs
// the server a descriptor; at the common soft default of 1,024, a flood of
// 1,100 idle connections made gRPC 1.51's accept fail with EMFILE, after
// which its listener never accepted again (docs/operations.md, "The listener").
OpenFilesLimit RaiseOpenFilesLimit();

}  // namespace collide::server

#endif  // COLLIDE_SERVER_OPEN_FILES_LIMIT_H_
