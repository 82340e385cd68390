// The recording file: what the writer wrote reads back whole; a file cut
// anywhere reads up to its last whole call and says where it stopped; a file
// that is not a recording, or of another format or version, is refused with
// a clear error; Differences names the field path that differs.
#include "record/recording_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "google/protobuf/io/gzip_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl.h"
#include "google/protobuf/util/delimited_message_util.h"
#include "record/compare.h"

namespace collide::record {
namespace {

std::string TempFile(const std::string& stem) {
  return (std::filesystem::temp_directory_path() / (stem + "-" + std::to_string(::getpid()))).string();
}

v1::RecordedCall Call(int i) {
  v1::RecordedCall call;
  call.set_unix_micros(1000 + i);
  call.mutable_request()->set_sequence(i);
  call.mutable_request()->mutable_frame()->set_tick(i);
  call.mutable_response()->set_sequence(i);
  v1::ShotVerdict* verdict = call.mutable_response()->mutable_shots()->add_verdicts();
  verdict->set_code(v1::SHOT_CODE_CONFIRMED);
  verdict->set_origin_offset(0.5 * i);
  return call;
}

// Writes a recording of `calls` calls; its size in bytes.
std::uintmax_t Write(const std::string& path, int calls) {
  v1::RecordingHeader header;
  header.mutable_create()->set_world_id("w");
  header.set_writer("test");
  absl::StatusOr<std::unique_ptr<RecordingWriter>> writer = RecordingWriter::Open(path, header);
  EXPECT_TRUE(writer.ok()) << writer.status();
  for (int i = 0; i < calls; ++i) EXPECT_TRUE((*writer)->Append(Call(i)).ok());
  EXPECT_TRUE((*writer)->Close().ok());
  return std::filesystem::file_size(path);
}

TEST(RecordingFileTest, ReadsBackWhatWasWritten) {
  const std::string path = TempFile("rec-whole");
  Write(path, 50);
  absl::StatusOr<Recording> read = ReadRecording(path);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->header.format(), kRecordingFormat);
  EXPECT_EQ(read->header.version(), kRecordingVersion);
  EXPECT_EQ(read->header.create().world_id(), "w");
  EXPECT_EQ(read->stopped, "");
  ASSERT_EQ(read->calls.size(), 50u);
  for (int i = 0; i < 50; ++i)
    EXPECT_TRUE(Differences(Call(i).response(), read->calls[i].response()).empty());
  std::filesystem::remove(path);
}

TEST(RecordingFileTest, AFileCutShortReadsItsWholeCallsAndSaysWhereItStopped) {
  const std::string path = TempFile("rec-cut");
  const std::uintmax_t size = Write(path, 40);
  std::string bytes(size, '\0');
  std::ifstream(path, std::ios::binary).read(bytes.data(), static_cast<std::streamsize>(size));
  std::size_t previous = 0;
  int stopped = 0;
  for (std::uintmax_t cut = size / 10; cut < size; cut += size / 10) {
    const std::string cut_path = path + ".cut";
    std::ofstream(cut_path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(cut));
    absl::StatusOr<Recording> read = ReadRecording(cut_path);
    ASSERT_TRUE(read.ok()) << cut << ": " << read.status();
    EXPECT_LE(read->calls.size(), 40u);       // A cut past the last flush loses only the gzip trailer.
    EXPECT_GE(read->calls.size(), previous);  // A longer prefix never reads fewer calls.
    previous = read->calls.size();
    for (std::size_t i = 0; i < read->calls.size(); ++i) EXPECT_EQ(read->calls[i].request().sequence(), i);
    if (!read->stopped.empty()) {
      ++stopped;
      EXPECT_EQ(read->stopped.rfind("truncated after " + std::to_string(read->calls.size()) + " calls", 0),
                0u)
          << read->stopped;
    }
    std::filesystem::remove(cut_path);
  }
  EXPECT_GT(stopped, 0);  // Most cuts fall mid-message.
  std::filesystem::remove(path);
}

TEST(RecordingFileTest, RefusesWhatIsNotARecording) {
  const std::string path = TempFile("rec-bad");
  std::ofstream(path) << "this is not gzip at all, nor a recording";
  absl::StatusOr<Recording> read = ReadRecording(path);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("not a collide recording"), std::string::npos) << read.status();

  std::ofstream(path, std::ios::trunc).close();
  read = ReadRecording(path);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("empty"), std::string::npos) << read.status();

  read = ReadRecording(path + ".missing");
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("cannot open"), std::string::npos) << read.status();
  std::filesystem::remove(path);
}

// A gzip stream of delimited messages written by hand, as another writer.
void WriteRaw(const std::string& path, const v1::RecordingHeader& header) {
  std::ofstream out(path, std::ios::binary);
  google::protobuf::io::OstreamOutputStream stream(&out);
  google::protobuf::io::GzipOutputStream gzip(&stream);
  ASSERT_TRUE(google::protobuf::util::SerializeDelimitedToZeroCopyStream(header, &gzip));
  ASSERT_TRUE(gzip.Close());
}

TEST(RecordingFileTest, RefusesAnotherFormatOrAnUnknownVersion) {
  const std::string path = TempFile("rec-version");
  v1::RecordingHeader header;
  header.set_format("something.else");
  header.set_version(1);
  WriteRaw(path, header);
  absl::StatusOr<Recording> read = ReadRecording(path);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("its format is \"something.else\""), std::string::npos)
      << read.status();

  header.set_format(kRecordingFormat);
  header.set_version(2);
  WriteRaw(path, header);
  read = ReadRecording(path);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("version 2 is not one this reader knows"), std::string::npos)
      << read.status();
  std::filesystem::remove(path);
}

TEST(RecordingFileTest, DifferencesNameTheFieldPath) {
  v1::TickResponse recorded = Call(3).response();
  v1::TickResponse replayed = recorded;
  EXPECT_TRUE(Differences(recorded, replayed).empty());
  replayed.mutable_shots()->mutable_verdicts(0)->set_code(v1::SHOT_CODE_BLOCKED);
  std::vector<std::string> lines = Differences(recorded, replayed);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("shots.verdicts[0].code"), std::string::npos) << lines[0];
  // Bit-identical or different: the smallest change of a number counts.
  replayed = recorded;
  replayed.mutable_shots()->mutable_verdicts(0)->set_origin_offset(
      std::nextafter(recorded.shots().verdicts(0).origin_offset(), 10.0));
  lines = Differences(recorded, replayed);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("shots.verdicts[0].origin_offset"), std::string::npos) << lines[0];
}

}  // namespace
}  // namespace collide::record
