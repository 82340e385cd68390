#include "support/server_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include "support/wait_for.h"

namespace collide::testing {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string TempPath(const std::string& stem) {
  const char* tmp = std::getenv("TMPDIR");
  std::string path = std::string(tmp ? tmp : "/tmp") + "/collide-test-" + stem + "-XXXXXX";
  const int fd = mkstemp(path.data());
  if (fd >= 0) close(fd);
  return path;
}

pid_t Spawn(const std::vector<std::string>& argv, const std::string& out_path, const std::string& err_path,
            std::optional<rlimit> open_files) {
  const pid_t pid = fork();
  if (pid != 0) return pid;
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (open_files && setrlimit(RLIMIT_NOFILE, &*open_files) != 0) _exit(126);
  const int out = open(out_path.c_str(), O_WRONLY | O_TRUNC | O_CREAT, 0644);
  const int err = open(err_path.c_str(), O_WRONLY | O_TRUNC | O_CREAT, 0644);
  dup2(out, 1);
  dup2(err, 2);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  execv(args[0], args.data());
  _exit(127);
}

std::optional<int> WaitExit(pid_t pid, std::chrono::milliseconds timeout) {
  std::optional<int> code;
  WaitFor(
      [&] {
        int status = 0;
        const pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid) code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        return code.has_value() || r < 0;  // r < 0: not our child (any more).
      },
      timeout);
  return code;
}

CommandResult RunCommand(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) {
  const std::string out = TempPath("command-out"), err = TempPath("command-err");
  const pid_t pid = Spawn(argv, out, err);
  CommandResult r;
  if (const std::optional<int> code = WaitExit(pid, timeout); code.has_value()) {
    r.exit_code = *code;
  } else {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
  }
  r.out = ReadFile(out);
  r.err = ReadFile(err);
  unlink(out.c_str());
  unlink(err.c_str());
  return r;
}

ServerProcess::ServerProcess(const std::string& binary, std::vector<std::string> extra_flags,
                             std::optional<rlimit> open_files)
    : log_(TempPath("server-log")) {
  std::vector<std::string> argv = {binary, "--host=127.0.0.1", "--port=0"};
  argv.insert(argv.end(), extra_flags.begin(), extra_flags.end());
  pid_ = Spawn(argv, log_, log_ + ".err", open_files);
  const std::regex listening(R"(listening on 127\.0\.0\.1:(\d+))");
  WaitFor(
      [&] {
        const std::string text = log();  // smatch refers into it.
        if (std::smatch m; std::regex_search(text, m, listening)) port_ = std::stoi(m[1]);
        if (port_ == 0 && waitpid(pid_, nullptr, WNOHANG) == pid_) pid_ = 0;  // exited: port() stays 0.
        return port_ != 0 || pid_ == 0;
      },
      kHungAfter, std::chrono::milliseconds(10));
}

ServerProcess::~ServerProcess() {
  Kill();
  unlink(log_.c_str());
  unlink((log_ + ".err").c_str());
}

std::string ServerProcess::log() const { return ReadFile(log_) + ReadFile(log_ + ".err"); }

void ServerProcess::Terminate() const {
  if (pid_ > 0) kill(pid_, SIGTERM);
}

void ServerProcess::Kill() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = 0;
  }
}

std::optional<int> ServerProcess::Wait(std::chrono::milliseconds timeout) {
  std::optional<int> code = WaitExit(pid_, timeout);
  if (code.has_value()) pid_ = 0;
  return code;
}

}  // namespace collide::testing
