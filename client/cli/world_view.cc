// `collide world view FILE [--port N] [--maps_dir DIR]`: serves a match
// recording's viewer on http://127.0.0.1:N/ until interrupted: the page
// (client/viewer/, bundled at build time) at / and /viewer.js, the scene
// (viewer/viewer_scene.proto in its JSON mapping, gzip-compressed: a few
// seconds of a match are tens of MB of JSON) at /scene.json.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_format.h"
#include "commands.h"
#include "google/protobuf/io/gzip_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/util/json_util.h"
#include "recording_scene.h"
#include "server/http_endpoint.h"

ABSL_DECLARE_FLAG(std::string, maps_dir);
ABSL_FLAG(int, port, 8080, "world view: the port on 127.0.0.1 the viewer is served on (0: a free one)");
ABSL_FLAG(std::string, viewer_dir, "",
          "world view: the directory of the viewer's page (default: share/collide/viewer beside the "
          "installed binary, else the build tree's)");

namespace collide::cli {
namespace {

// --viewer_dir, else the install tree's (bin/../share/collide/viewer), else
// the build tree's.
std::filesystem::path PageDir() {
  if (const std::string flag = absl::GetFlag(FLAGS_viewer_dir); !flag.empty()) return flag;
  std::error_code error;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
  const std::filesystem::path installed = exe.parent_path().parent_path() / "share/collide/viewer";
  if (!error && std::filesystem::exists(installed / "index.html")) return installed;
  return COLLIDE_VIEWER_PAGE_DIR;
}

absl::StatusOr<std::string> ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  if (!in || !(bytes << in.rdbuf())) {
    return absl::NotFoundError(absl::StrFormat(
        "cannot read %s (the viewer's page is built from client/viewer: run scripts/install-deps.sh, "
        "then build; or pass --viewer_dir)",
        path.string()));
  }
  return bytes.str();
}

std::string Gzip(const std::string& bytes) {
  std::string out;
  google::protobuf::io::StringOutputStream sink(&out);
  google::protobuf::io::GzipOutputStream gzip(&sink);
  void* data;
  int size;
  for (std::size_t done = 0; done < bytes.size() && gzip.Next(&data, &size);) {
    const std::size_t n = std::min<std::size_t>(static_cast<std::size_t>(size), bytes.size() - done);
    std::memcpy(data, bytes.data() + done, n);
    done += n;
    if (n < static_cast<std::size_t>(size)) gzip.BackUp(size - static_cast<int>(n));
  }
  gzip.Close();
  return out;
}

struct Page {
  std::string html;
  std::string script;
  std::string scene_gzip;
};

std::optional<server::HttpAnswer> Serve(const Page& page, std::string_view path) {
  if (path == "/" || path == "/index.html") return server::HttpAnswer{"text/html; charset=utf-8", page.html};
  if (path == "/viewer.js") return server::HttpAnswer{"text/javascript; charset=utf-8", page.script};
  if (path == "/scene.json") return server::HttpAnswer{"application/json", page.scene_gzip, "gzip"};
  return std::nullopt;
}

int Fail(const absl::Status& status) {
  std::cerr << "world view: " << status.message() << "\n";
  return 1;
}

}  // namespace

int RunWorldView(const std::vector<std::string>& args) {
  if (args.size() != 1) {
    std::cerr << "usage: collide world view FILE [--port N] [--maps_dir DIR] [--viewer_dir DIR]\n";
    return 2;
  }
  absl::StatusOr<viewer::Scene> scene = ReadScene(args[0], absl::GetFlag(FLAGS_maps_dir));
  if (!scene.ok()) return Fail(scene.status());
  std::string scene_json;
  if (auto s = google::protobuf::util::MessageToJsonString(*scene, &scene_json); !s.ok()) {
    return Fail(absl::InternalError(std::string(s.message())));
  }
  const std::filesystem::path dir = PageDir();
  absl::StatusOr<std::string> html = ReadFile(dir / "index.html");
  if (!html.ok()) return Fail(html.status());
  absl::StatusOr<std::string> script = ReadFile(dir / "viewer.js");
  if (!script.ok()) return Fail(script.status());

  // Block the stop signals before the endpoint's thread starts (it inherits
  // the mask), then wait for one here.
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);
  const Page page{*std::move(html), *std::move(script), Gzip(scene_json)};
  auto endpoint = server::HttpEndpoint::Start("127.0.0.1", absl::GetFlag(FLAGS_port),
                                              [&page](std::string_view path) { return Serve(page, path); });
  if (!endpoint.ok()) return Fail(endpoint.status());
  std::cout << absl::StrFormat("world view: %s, %d calls%s: %d frames, %d shots, %d moves\n", args[0],
                               scene->calls(), scene->stopped().empty() ? "" : " (" + scene->stopped() + ")",
                               scene->ticks_size(), scene->shots_size(), scene->moves_size())
            << absl::StrFormat("serving http://127.0.0.1:%d/ (Ctrl-C stops)", (*endpoint)->port())
            << std::endl;
  int signal = 0;
  sigwait(&stop, &signal);
  return 0;
}

}  // namespace collide::cli
