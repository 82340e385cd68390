// Child processes for tests that drive the real binaries: the server started
// on a free loopback port (--port=0, read back from its log), CLI runs with
// captured output. Every child dies with the test process (PR_SET_PDEATHSIG)
// and is killed in teardown.
#ifndef COLLIDE_TESTS_SUPPORT_SERVER_PROCESS_H_
#define COLLIDE_TESTS_SUPPORT_SERVER_PROCESS_H_

#include <sys/resource.h>
#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace collide::testing {

std::string ReadFile(const std::string& path);
// A new empty file under $TMPDIR (or /tmp) named after `stem`.
std::string TempPath(const std::string& stem);

// fork + exec with stdout and stderr sent to files, and the child's
// RLIMIT_NOFILE set to `open_files` when given.
pid_t Spawn(const std::vector<std::string>& argv, const std::string& out_path, const std::string& err_path,
            std::optional<rlimit> open_files = std::nullopt);
// waitpid with a deadline: the exit code (128 + signal when killed), or
// nullopt when the child still runs after `timeout`.
std::optional<int> WaitExit(pid_t pid, std::chrono::milliseconds timeout);

// What a finished child printed, and its exit code (-1 when it was killed
// after `timeout`).
struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};
// Runs `argv` to its end (at most `timeout`), capturing stdout and stderr.
CommandResult RunCommand(const std::vector<std::string>& argv, std::chrono::milliseconds timeout);

// The collide-server binary at `binary`, listening on 127.0.0.1 at a port it
// picks (port() is 0 when it failed to start: see log()).
class ServerProcess {
 public:
  explicit ServerProcess(const std::string& binary, std::vector<std::string> extra_flags = {},
                         std::optional<rlimit> open_files = std::nullopt);
  ~ServerProcess();
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  std::string target() const { return "127.0.0.1:" + std::to_string(port_); }
  std::string log() const;
  void Terminate() const;  // SIGTERM: drain and exit.
  void Kill();             // SIGKILL and reap: a crashed replica.
  // The exit code, or nullopt if still running after `timeout`.
  std::optional<int> Wait(std::chrono::milliseconds timeout);

 private:
  std::string log_;
  pid_t pid_ = 0;
  int port_ = 0;
};

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_SERVER_PROCESS_H_
