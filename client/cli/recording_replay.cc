#include "recording_replay.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "collide/import/map_import.h"
#include "convert/world_requests.h"

namespace collide::cli {
namespace {

absl::Status Invalid(const std::string& what, const convert::ViolationList& violations) {
  std::string message = what;
  for (const Violation& v : violations.kept()) absl::StrAppend(&message, "; ", v.field, ": ", v.description);
  return absl::InvalidArgumentError(message);
}

}  // namespace

absl::StatusOr<RecordingReplay> RecordingReplay::Create(const v1::RecordingHeader& header,
                                                        const std::string& maps_dir) {
  convert::ViolationList violations;
  WorldSettings settings;
  if (!convert::DecodeSettings(header.create(), WorldSettings{}.history_ticks, settings, violations)) {
    return Invalid("the recording's world settings", violations);
  }
  const convert::MapLoader load_map =
      [&maps_dir](const v1::MapFile& map, const std::string& path,
                  convert::ViolationList& violations) -> std::shared_ptr<const TriangleMesh> {
    const std::optional<std::uint32_t> categories = convert::MapGeometryMask(map, path, violations);
    if (!categories) return nullptr;
    importer::ImportOptions options;
    options.map = map.map();
    options.categories = *categories;
    absl::StatusOr<importer::ImportedMesh> imported =
        importer::ImportMap(maps_dir + "/" + map.name(), options);
    if (!imported.ok()) {
      violations.Add(path, std::string(imported.status().message()));
      return nullptr;
    }
    return std::make_shared<const TriangleMesh>(std::move(imported->mesh));
  };
  std::vector<StaticElement> statics;
  convert::DecodeArena arena;
  if (!convert::DecodeStatics(header.create(), statics, arena, violations, load_map)) {
    return Invalid("the recording's statics", violations);
  }
  RecordingReplay replay;
  replay.world_ = std::make_unique<World>(settings, std::move(statics));
  return replay;
}

absl::StatusOr<bool> RecordingReplay::Run(const v1::RecordedCall& call) {
  if (!call.request().has_frame() || !call.response().has_frame()) return false;
  convert::ViolationList violations;
  convert::DecodeArena arena;
  Frame frame;
  if (!convert::DecodeFrame(call.request().frame(), "frame", frame, arena, violations)) {
    return Invalid("a recorded frame", violations);
  }
  const std::optional<std::int64_t> latest = world_->latest_tick();
  if (const FrameError error = world_->PushFrame(frame); !error.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("a recorded frame (tick ", frame.tick, ") is rejected on replay: ", error.message));
  }
  previous_tick_ = latest;
  for (const BodyUpdate& b : frame.bodies) bodies_.insert(b.id);
  for (std::int64_t id : frame.removals) bodies_.erase(id);
  return true;
}

}  // namespace collide::cli
