// The C++ client against the conformance goldens: every case of
// golden.json ($COLLIDE_GOLDEN) sent through collide::Client's wire-level
// calls (client_proto.h: the typed API cannot express an unset oneof or an
// unknown enum) to a collide-server ($COLLIDE_SERVER) that this test starts
// on a free loopback port and stops.
#include <fcntl.h>
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "collide/client.h"
#include "collide/client_proto.h"

extern char** environ;

namespace collide {
namespace {

using Json = nlohmann::json;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// collide-server on 127.0.0.1, port 0; its log goes to a temp file, where
// the "listening on 127.0.0.1:PORT" line gives the port.
class LiveServer {
 public:
  LiveServer(const std::string& binary, const std::vector<std::string>& extra_args) {
    log_ = (std::filesystem::temp_directory_path() /
            ("collide-conformance-" + std::to_string(getpid()) + ".log"))
               .string();
    std::vector<std::string> args = {binary, "--host=127.0.0.1", "--port=0"};
    args.insert(args.end(), extra_args.begin(), extra_args.end());
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    const int err = posix_spawn(&pid_, binary.c_str(), &actions, nullptr, argv.data(), environ);
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
  ~LiveServer() {
    if (pid_ > 0) {
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
    }
    std::filesystem::remove(log_);
  }

  const std::string& target() const { return target_; }
  std::string log() const { return ReadFile(log_); }

 private:
  pid_t pid_ = -1;
  std::string log_;
  std::string target_;
};

template <typename Message>
absl::Status FromJson(const Json& j, Message& m) {
  const auto s = google::protobuf::util::JsonStringToMessage(j.dump(), &m);
  return s.ok() ? absl::OkStatus() : absl::InvalidArgumentError("bad case JSON: " + s.ToString());
}

template <typename Message>
Json ToJson(const Message& m) {
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  options.preserve_proto_field_names = true;
  std::string out;
  (void)google::protobuf::util::MessageToJsonString(m, &out, options);
  return Json::parse(out);
}

// Sends the case's request and returns the response as JSON.
absl::Status RunCase(Client& client, const std::string& rpc, const Json& request, Json& response) {
  absl::Status s;
  if (rpc == "QueryPairs") {
    v1::QueryPairsRequest req;
    v1::QueryPairsResponse resp;
    if (s = FromJson(request, req); s.ok() && (s = CallQueryPairs(client, req, resp)).ok())
      response = ToJson(resp);
  } else if (rpc == "QueryPairsPacked") {
    v1::QueryPairsPackedRequest req;
    v1::QueryPairsPackedResponse resp;
    if (s = FromJson(request, req); s.ok() && (s = CallQueryPairsPacked(client, req, resp)).ok()) {
      response = ToJson(resp);
    }
  } else if (rpc == "CastRays") {
    v1::CastRaysRequest req;
    v1::CastRaysResponse resp;
    if (s = FromJson(request, req); s.ok() && (s = CallCastRays(client, req, resp)).ok())
      response = ToJson(resp);
  } else if (rpc == "CastRaysPacked") {
    v1::CastRaysPackedRequest req;
    v1::CastRaysPackedResponse resp;
    if (s = FromJson(request, req); s.ok() && (s = CallCastRaysPacked(client, req, resp)).ok()) {
      response = ToJson(resp);
    }
  } else if (rpc == "GetServerInfo") {
    absl::StatusOr<ServerInfo> info = client.GetServerInfo();
    s = info.status();
    if (s.ok()) {
      if (info->version.empty() || info->replica.empty())
        return absl::InternalError("empty version or replica");
      response = {{"max_items_per_request", info->max_items_per_request}};
    }
  } else if (rpc == "Health") {
    absl::StatusOr<bool> serving = client.Health(absl::Seconds(10));
    s = serving.status();
    if (s.ok()) response = {{"status", *serving ? "SERVING" : "NOT_SERVING"}};
  } else {
    s = absl::InvalidArgumentError("unknown rpc " + rpc);
  }
  return s;
}

// The first difference ("" when none): numbers within the tolerance, the rest
// exact, every key of `want` compared; an absent message counts as zeros.
std::string Mismatch(const Json& got, const Json& want, double abs, double rel, const std::string& path) {
  const std::string fail = path + ": got " + got.dump() + ", want " + want.dump();
  if (want.is_object()) {
    if (!got.is_object() && !got.is_null()) return fail;
    for (const auto& [key, value] : want.items()) {
      const Json g =
          got.is_object() && got.contains(key) ? got[key] : (value.is_number() ? Json(0.0) : Json());
      if (std::string d = Mismatch(g, value, abs, rel, path + "." + key); !d.empty()) return d;
    }
    return "";
  }
  if (want.is_array()) {
    if (!got.is_array() || got.size() != want.size()) return fail;
    for (size_t i = 0; i < want.size(); ++i) {
      if (std::string d = Mismatch(got[i], want[i], abs, rel, path + "[" + std::to_string(i) + "]");
          !d.empty()) {
        return d;
      }
    }
    return "";
  }
  if (want.is_number() && got.is_number()) {
    const double g = got.get<double>(), w = want.get<double>();
    return std::fabs(g - w) <= abs + rel * std::fabs(w) ? "" : fail;
  }
  return got == want ? "" : fail;
}

TEST(ConformanceTest, EveryGoldenCase) {
  const char* server_binary = std::getenv("COLLIDE_SERVER");
  const char* golden_path = std::getenv("COLLIDE_GOLDEN");
  // ctest always sets both (tests/conformance/CMakeLists.txt); the skip only
  // explains a bare run of the binary, which has no server to test.
  if (!server_binary || !golden_path)
    GTEST_SKIP() << "needs COLLIDE_SERVER and COLLIDE_GOLDEN (ctest sets them)";
  const Json golden = Json::parse(ReadFile(golden_path));
  ASSERT_FALSE(golden["cases"].empty());
  const double abs = golden["tolerance"]["abs"], rel = golden["tolerance"]["rel"];

  LiveServer server(server_binary, golden["server_args"].get<std::vector<std::string>>());
  ASSERT_FALSE(server.target().empty()) << "collide-server did not start:\n" << server.log();
  // One attempt per call: a retry would hide a transport bug.
  absl::StatusOr<Client> client = Client::Create(server.target(), {.max_attempts = 1});
  ASSERT_TRUE(client.ok()) << client.status();

  for (const Json& c : golden["cases"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    Json response;
    const absl::Status s = RunCase(*client, c["rpc"], c["request"], response);
    if (c.contains("error")) {
      const Json& want = c["error"];
      EXPECT_EQ(absl::StatusCodeToString(s.code()), want["code"].get<std::string>()) << DescribeStatus(s);
      if (want.contains("field_violations")) {
        std::vector<std::string> got_fields, want_fields = want["field_violations"];
        for (const Violation& v : FieldViolations(s)) got_fields.push_back(v.field);
        std::sort(got_fields.begin(), got_fields.end());
        std::sort(want_fields.begin(), want_fields.end());
        EXPECT_EQ(got_fields, want_fields) << DescribeStatus(s);
      }
      continue;
    }
    ASSERT_TRUE(s.ok()) << DescribeStatus(s);
    EXPECT_EQ(Mismatch(response, c["response"], abs, rel, "response"), "");
  }
}

}  // namespace
}  // namespace collide
