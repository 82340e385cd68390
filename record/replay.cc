#include "record/replay.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "convert/world_requests.h"
#include "record/map_files.h"

namespace collide::record {
namespace {

// The replay's own world: no locks, no limits beyond the core's.
class OwnedAccess final : public convert::WorldAccess {
 public:
  explicit OwnedAccess(World& world) : world_(world) {}
  void Read(absl::FunctionRef<void(const World&)> read) override { read(world_); }
  convert::CallOutcome CheckBodyParts(int, int) override { return std::nullopt; }
  convert::CallOutcome PushFrame(const Frame& frame, std::int64_t, std::int64_t& oldest_tick) override {
    FrameError error = world_.PushFrame(frame);
    if (convert::CallOutcome refused = convert::FrameOutcome(error)) return refused;
    oldest_tick = world_.oldest_tick().value_or(frame.tick);
    return std::nullopt;
  }

 private:
  World& world_;
};

// Map files from `maps_dir`, each refused unless it is the file the header
// pinned; `mismatch` says why, for a FAILED_PRECONDITION.
convert::MapLoader PinnedLoader(const v1::RecordingHeader& header, const std::string& maps_dir,
                                std::string& mismatch) {
  return [&header, maps_dir, &mismatch](
             const v1::MapFile& map, const std::string& path,
             convert::ViolationList& violations) -> std::shared_ptr<const TriangleMesh> {
    const std::optional<importer::ImportOptions> options =
        MapImportOptions(map, path, importer::ImportOptions{}.max_triangles, violations);
    if (!options) return nullptr;
    const auto pinned = std::find_if(header.map_files().begin(), header.map_files().end(),
                                     [&](const v1::RecordedMapFile& f) { return f.name() == map.name(); });
    absl::StatusOr<v1::RecordedMapFile> found = DescribeMapFile(maps_dir, map.name());
    if (pinned == header.map_files().end()) {
      mismatch = absl::StrCat(map.name(), ": the recording's header does not pin it (no size or CRC-32)");
    } else if (!found.ok()) {
      mismatch = std::string(found.status().message());
    } else if (found->size_bytes() != pinned->size_bytes() || found->crc32() != pinned->crc32()) {
      mismatch = absl::StrCat(maps_dir, "/", map.name(), " is ", found->size_bytes(), " bytes with CRC-32 ",
                              found->crc32(), "; the recording's was ", pinned->size_bytes(),
                              " bytes with CRC-32 ", pinned->crc32(), " (another map under the same name)");
    }
    if (!mismatch.empty()) {
      violations.Add(path, mismatch);
      return nullptr;
    }
    absl::StatusOr<importer::ImportedMesh> imported =
        importer::ImportMap(maps_dir + "/" + map.name(), *options);
    if (!imported.ok()) {
      violations.Add(path, std::string(imported.status().message()));
      return nullptr;
    }
    return std::make_shared<const TriangleMesh>(std::move(imported->mesh));
  };
}

}  // namespace

absl::StatusOr<std::unique_ptr<Replayer>> Replayer::Create(const v1::RecordingHeader& header,
                                                           const std::string& maps_dir) {
  const v1::CreateWorldRequest& create = header.create();
  convert::ViolationList violations;
  WorldSettings settings;
  const auto refused = [&violations](const char* what) {
    const Violation& first = violations.kept().front();
    return absl::InvalidArgumentError(
        absl::StrCat("the recorded world does not ", what, ": ", first.field, ": ", first.description));
  };
  if (!convert::DecodeSettings(create, /*default_history_ticks=*/64, settings, violations)) {
    return refused("decode");
  }
  convert::DecodeArena arena;
  std::vector<StaticElement> statics;
  std::string mismatch;
  const convert::MapLoader loader = maps_dir.empty() ? nullptr : PinnedLoader(header, maps_dir, mismatch);
  if (!convert::DecodeStatics(create, statics, arena, violations, loader)) {
    if (!mismatch.empty()) return absl::FailedPreconditionError(mismatch);
    return refused(maps_dir.empty() ? "decode (map files need a maps directory)" : "decode");
  }
  return std::unique_ptr<Replayer>(new Replayer(World(settings, std::move(statics))));
}

v1::TickResponse Replayer::Run(const v1::TickRequest& request) {
  v1::TickResponse response;
  response.set_sequence(request.sequence());
  OwnedAccess access(world_);
  if (convert::CallOutcome refused = convert::RunTickParts(access, limits_, request, &response)) {
    *response.mutable_status() = convert::ToRpcStatus(*refused);
  }
  return response;
}

}  // namespace collide::record
