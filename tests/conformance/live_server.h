// A collide-server for the C++ conformance tests: started on 127.0.0.1 with
// the goldens' server_args, stopped (or restarted on the same port, which
// loses every world it held) by the test.
#ifndef COLLIDE_TESTS_CONFORMANCE_LIVE_SERVER_H_
#define COLLIDE_TESTS_CONFORMANCE_LIVE_SERVER_H_

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace collide::conformance {

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// collide-server on 127.0.0.1 (port 0: a free one); its log goes to a temp
// file, where the "listening on 127.0.0.1:PORT" line gives the port. An
// empty target() means it did not start (log() says why).
class LiveServer {
 public:
  LiveServer(std::string binary, std::vector<std::string> extra_args)
      : binary_(std::move(binary)), args_(std::move(extra_args)) {
    log_ = (std::filesystem::temp_directory_path() /
            ("collide-conformance-" + std::to_string(getpid()) + ".log"))
               .string();
    Start("0");
  }
  LiveServer(const LiveServer&) = delete;
  LiveServer& operator=(const LiveServer&) = delete;
  ~LiveServer() {
    Stop();
    std::filesystem::remove(log_);
  }

  // Kills the server (SIGKILL: a replica that dies) and starts it again on
  // the same port: every world it held is lost.
  void Restart() {
    const std::string port = target_.substr(target_.rfind(':') + 1);
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
      pid_ = -1;
    }
    Start(port);
  }

  const std::string& target() const { return target_; }
  std::string log() const { return ReadFile(log_); }

 private:
  void Start(const std::string& port) {
    target_.clear();
    std::vector<std::string> args = {binary_, "--host=127.0.0.1", "--port=" + port};
    args.insert(args.end(), args_.begin(), args_.end());
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    const int err = posix_spawn(&pid_, binary_.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (err != 0) {
      pid_ = -1;
      return;
    }
    const std::regex listening(R"(listening on 127\.0\.0\.1:(\d+))");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
      std::smatch m;
      const std::string text = ReadFile(log_);
      if (std::regex_search(text, m, listening)) {
        target_ = "127.0.0.1:" + m[1].str();
        return;
      }
      if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }

  // SIGTERM (graceful), SIGKILL after 10 s.
  void Stop() {
    if (pid_ <= 0) return;
    kill(pid_, SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (waitpid(pid_, nullptr, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    pid_ = -1;
  }

  std::string binary_;
  std::vector<std::string> args_;
  pid_t pid_ = -1;
  std::string log_;
  std::string target_;
};

}  // namespace collide::conformance

#endif  // COLLIDE_TESTS_CONFORMANCE_LIVE_SERVER_H_
