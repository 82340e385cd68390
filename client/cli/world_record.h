// `collide world demo --record FILE`: a CallRecorder that writes the calls a
// WorldClient runs on one world as a match recording (record/
// recording_file.h), its header from the world's CreateWorldRequest.
#ifndef COLLIDE_CLIENT_CLI_WORLD_RECORD_H_
#define COLLIDE_CLIENT_CLI_WORLD_RECORD_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "absl/status/status.h"
#include "collide/world_client.h"
#include "record/recording_file.h"

namespace collide::cli {

class FileRecorder final : public CallRecorder {
 public:
  // Writes `path` once the world is created; map files the creation names
  // are pinned (size, CRC-32) from `maps_dir` when it is not empty (else a
  // replay of a map world refuses them).
  FileRecorder(std::string path, std::string maps_dir)
      : path_(std::move(path)), maps_dir_(std::move(maps_dir)) {}

  void Created(const v1::CreateWorldRequest& request) override;
  void Called(std::string_view world_id, const v1::TickRequest& request,
              const v1::TickResponse& response) override;

  // Closes the file: the first error of any write, or OK.
  absl::Status Close();
  std::int64_t calls() const;

 private:
  const std::string path_;
  const std::string maps_dir_;
  mutable std::mutex mu_;
  std::string world_id_;  // The recorded world (the first created).
  std::unique_ptr<record::RecordingWriter> writer_;
  absl::Status failure_;
  std::int64_t calls_ = 0;
};

}  // namespace collide::cli

#endif  // COLLIDE_CLIENT_CLI_WORLD_RECORD_H_
