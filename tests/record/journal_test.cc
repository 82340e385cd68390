// CreateWorldRequest.journal through an in-process server: a recorded match
// on an OpenArena map (frames, shots plain and packed, model moves, an
// invalid batch; unary calls and a Tick stream) re-judged offline by
// record::Replayer with identical answers, and a flipped verdict found; the
// audit trail's JSON lines (one per verdict, rotation within its bound), its
// binary form read back as the same lines, WatchAudit until the world is
// deleted; FAILED_PRECONDITION naming the flag without it.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "collide/import/map_import.h"
#include "convert/world_encode.h"
#include "google/protobuf/util/json_util.h"
#include "record/audit_file.h"
#include "record/compare.h"
#include "record/json_line.h"
#include "record/recording_file.h"
#include "record/replay.h"
#include "support/player_hitboxes.h"
#include "tests/server/test_server.h"
#include "tests/server/world_fixtures.h"

namespace collide::server::testing {
namespace {

constexpr char kMapsDir[] = "/usr/share/games/openarena/baseoa";
constexpr char kMapFile[] = "pak6-patch088.pk3";
constexpr int kBots = 8;

std::string FreshDir(const std::string& stem) {
  const std::string dir = (std::filesystem::temp_directory_path() /
                           (stem + "-" + std::to_string(::getpid()) + "-" +
                            std::to_string(std::chrono::steady_clock::now().time_since_epoch().count())))
                              .string();
  std::filesystem::create_directories(dir);
  return dir;
}

Options JournalOptions(const std::string& audit_dir, const std::string& recordings_dir) {
  Options options;
  options.maps_dir = kMapsDir;
  options.journal.audit_dir = audit_dir;
  options.journal.recordings_dir = recordings_dir;
  return options;
}

v1::CreateWorldRequest MapWorld(const std::string& id, bool audit, bool record) {
  v1::CreateWorldRequest create;
  create.set_world_id(id);
  v1::StaticElement* map = create.add_statics();
  map->set_id(1);
  map->mutable_map_file()->set_name(kMapFile);
  map->mutable_map_file()->set_map("aggressor");
  create.mutable_policy()->mutable_movement()->set_preset(v1::MOVEMENT_PRESET_QUAKE);
  create.mutable_journal()->set_audit(audit);
  create.mutable_journal()->set_record(record);
  return create;
}

// Bots walking about the map's bounds, shooting at each other's heads, their
// moves judged by the world's Quake model: the calls of a short match.
class Match {
 public:
  Match() {
    importer::ImportOptions options;
    options.map = "aggressor";
    auto imported = importer::ImportMap(std::string(kMapsDir) + "/" + kMapFile, options);
    EXPECT_TRUE(imported.ok()) << imported.status();
    for (const Vec3& v : imported->mesh.vertices) {
      bounds_.min = {std::min(bounds_.min.x, v.x), std::min(bounds_.min.y, v.y),
                     std::min(bounds_.min.z, v.z)};
      bounds_.max = {std::max(bounds_.max.x, v.x), std::max(bounds_.max.y, v.y),
                     std::max(bounds_.max.z, v.z)};
    }
    for (int b = 0; b < kBots; ++b) position_.push_back(Point());
  }
  Frame NextFrame() {
    Frame f{++tick_, {}, {}};
    for (int b = 0; b < kBots; ++b) {
      position_[b] += Vec3{Uniform(-8, 8), Uniform(-8, 8), 0};
      BodyUpdate u;
      u.id = b + 1;
      u.pose = Pose{position_[b], {}};
      if (tick_ == 1) {
        u.parts = collide::testing::PlayerHitboxes();
        u.movement_shape = Shape{Capsule{{0, 0, -8}, {0, 0, 8}, 15}};
      }
      f.bodies.push_back(std::move(u));
    }
    return f;
  }
  std::vector<ShotRequest> Shots() {
    std::vector<ShotRequest> shots;
    for (int b = 0; b < kBots; ++b) {
      const int target = (b + 1 + static_cast<int>(rng_() % (kBots - 1))) % kBots;
      const Vec3 eye = position_[b] + Vec3{0, 0, 26};
      const Vec3 head = position_[target] + Vec3{Uniform(-4, 4), Uniform(-4, 4), 30};
      ShotRequest s;
      s.shooter = b + 1;
      s.origin = eye;
      s.direction = head - eye;
      s.at = Time{std::max<std::int64_t>(1, tick_ - static_cast<std::int64_t>(rng_() % 3)), Uniform(0, 0.9)};
      s.claim = ShotClaim{target + 1, 0};
      shots.push_back(s);
    }
    return shots;
  }
  std::vector<MoveRequest> Moves() {
    std::vector<MoveRequest> moves;
    for (int b = 0; b < kBots; ++b) {
      MoveRequest m;
      m.body = b + 1;
      m.to = position_[b] + Vec3{Uniform(-6, 6), Uniform(-6, 6), Uniform(-2, 2)};
      m.elapsed = 1.0 / 64;
      m.slide = b % 2 == 0;
      m.stance = static_cast<int>(rng_() % 2);
      moves.push_back(m);
    }
    return moves;
  }

 private:
  double Uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }
  Vec3 Point() {
    return {Uniform(bounds_.min.x, bounds_.max.x), Uniform(bounds_.min.y, bounds_.max.y),
            Uniform(bounds_.min.z, bounds_.max.z)};
  }
  std::mt19937_64 rng_{36};
  Aabb bounds_{{kInfinity, kInfinity, kInfinity}, {-kInfinity, -kInfinity, -kInfinity}};
  std::vector<Vec3> position_;
  std::int64_t tick_ = 0;
};

// Runs `ticks` ticks of the match on `id`: even ticks by unary calls (frame,
// shots, moves), odd ones as one Tick message (frame, packed shots, moves);
// tick 5 also sends an all_or_nothing batch with a bad shot (refused, and
// recorded so). Returns the verdicts answered.
int PlayMatch(v1::WorldService::Stub& stub, const std::string& id, int ticks) {
  Match match;
  grpc::ClientContext tick_context;
  tick_context.AddMetadata("collide-world", id);
  auto stream = stub.Tick(&tick_context);
  int verdicts = 0;
  for (int t = 1; t <= ticks; ++t) {
    const Frame frame = match.NextFrame();
    const std::vector<ShotRequest> shots = match.Shots();
    const std::vector<MoveRequest> moves = match.Moves();
    if (t % 2 == 0) {
      v1::PushFrameRequest push;
      push.set_world_id(id);
      convert::ToProto(frame, push.mutable_frame());
      v1::PushFrameResponse pushed;
      EXPECT_TRUE(stub.PushFrame(Ctx(id).get(), push, &pushed).ok());
      v1::ValidateShotsRequest s;
      s.set_world_id(id);
      for (const ShotRequest& shot : shots) convert::ToProto(shot, s.add_shots());
      v1::ValidateShotsResponse judged;
      EXPECT_TRUE(stub.ValidateShots(Ctx(id).get(), s, &judged).ok());
      verdicts += judged.verdicts_size();
      v1::ValidateMovesRequest m;
      m.set_world_id(id);
      for (const MoveRequest& move : moves) convert::ToProto(move, m.add_moves());
      v1::ValidateMovesResponse moved;
      EXPECT_TRUE(stub.ValidateMoves(Ctx(id).get(), m, &moved).ok());
      verdicts += moved.verdicts_size();
    } else {
      v1::TickRequest message;
      message.set_sequence(t);
      convert::ToProto(frame, message.mutable_frame());
      convert::EncodePacked(shots, message.mutable_shots_packed());
      for (const MoveRequest& move : moves) convert::ToProto(move, message.mutable_moves()->add_moves());
      v1::TickResponse answer;
      EXPECT_TRUE(stream->Write(message) && stream->Read(&answer));
      EXPECT_FALSE(answer.has_status()) << answer.status().message();
      verdicts += answer.shots_packed().verdicts_size() + answer.moves().verdicts_size();
    }
    if (t == 5) {
      v1::ValidateShotsRequest bad;
      bad.set_world_id(id);
      bad.set_all_or_nothing(true);
      ShotRequest shot = shots[0];
      shot.direction = {0, 0, 0};
      convert::ToProto(shot, bad.add_shots());
      v1::ValidateShotsResponse refused;
      EXPECT_EQ(stub.ValidateShots(Ctx(id).get(), bad, &refused).error_code(),
                grpc::StatusCode::INVALID_ARGUMENT);
    }
  }
  stream->WritesDone();
  EXPECT_TRUE(stream->Finish().ok());
  return verdicts;
}

void Delete(v1::WorldService::Stub& stub, const std::string& id) {
  v1::DeleteWorldRequest request;
  request.set_world_id(id);
  v1::DeleteWorldResponse deleted;
  ASSERT_TRUE(stub.DeleteWorld(Ctx(id).get(), request, &deleted).ok());
}

std::vector<std::string> Lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// A binary trail file's records (the read must succeed).
std::vector<v1::AuditRecord> BinaryRecords(const std::string& path) {
  std::vector<v1::AuditRecord> records;
  const absl::Status read =
      record::ReadAuditFile(path, [&](const v1::AuditRecord& r) { records.push_back(r); });
  EXPECT_TRUE(read.ok()) << read;
  return records;
}

Options JsonlOptions(const std::string& audit_dir) {
  Options options = JournalOptions(audit_dir, "");
  options.journal.audit_format = AuditFormat::kJsonl;
  return options;
}

TEST(JournalTest, WithoutTheFlagsIsFailedPreconditionNamingThem) {
  TestServer server(JournalOptions("", ""));
  auto stub = v1::WorldService::NewStub(server.channel);
  for (const auto& [audit, flag] : {std::pair{true, "--audit_dir"}, std::pair{false, "--recordings_dir"}}) {
    const v1::CreateWorldRequest create = MapWorld("unjournaled", audit, !audit);
    v1::WorldInfo info;
    const grpc::Status status = stub->CreateWorld(Ctx(create.world_id()).get(), create, &info);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
    EXPECT_NE(status.error_message().find(flag), std::string::npos) << status.error_message();
  }
  v1::ListWorldsResponse list;
  ASSERT_TRUE(stub->ListWorlds(Ctx("").get(), {}, &list).ok());
  EXPECT_EQ(list.worlds_size(), 0);  // Not created.
}

TEST(JournalTest, ServerRecordingReplaysIdenticallyAndAFlippedVerdictIsFound) {
  const std::string recordings = FreshDir("collide-recordings");
  int verdicts = 0;
  {
    TestServer server(JournalOptions("", recordings));
    auto stub = v1::WorldService::NewStub(server.channel);
    const v1::CreateWorldRequest create = MapWorld("recorded", false, true);
    v1::WorldInfo info;
    ASSERT_TRUE(stub->CreateWorld(Ctx("recorded").get(), create, &info).ok());
    verdicts = PlayMatch(*stub, "recorded", 24);
    Delete(*stub, "recorded");
  }
  absl::StatusOr<record::Recording> recording = record::ReadRecording(recordings + "/_/recorded.collide-rec");
  ASSERT_TRUE(recording.ok()) << recording.status();
  EXPECT_EQ(recording->stopped, "");
  EXPECT_NE(recording->header.writer().find("collide-server"), std::string::npos);
  ASSERT_EQ(recording->header.map_files_size(), 1);
  EXPECT_EQ(recording->header.map_files(0).name(), kMapFile);
  EXPECT_FALSE(recording->header.create().has_journal());
  // 12 unary ticks of 3 calls, 12 Tick messages, the refused batch, the empty
  // message that opened nothing (none: the stream's first is tick 1).
  EXPECT_EQ(recording->calls.size(), 12u * 3 + 12 + 1);

  absl::StatusOr<std::unique_ptr<record::Replayer>> replayer =
      record::Replayer::Create(recording->header, kMapsDir);
  ASSERT_TRUE(replayer.ok()) << replayer.status();
  const auto rejudge = [&](const v1::TickRequest& request) {
    return absl::StatusOr<v1::TickResponse>((*replayer)->Run(request));
  };
  absl::StatusOr<record::AnswerCheck> check = record::CheckAnswers(recording->calls, rejudge);
  ASSERT_TRUE(check.ok()) << check.status();
  EXPECT_EQ(check->differing_calls, 0)
      << (check->first_differing.empty() ? "" : check->first_differing[0].lines[0]);
  EXPECT_EQ(check->calls, static_cast<std::int64_t>(recording->calls.size()));
  EXPECT_EQ(check->verdicts, verdicts);
  EXPECT_GT(verdicts, 0);
  // The refused batch is recorded as its Tick part's error.
  int refused = 0;
  for (const v1::RecordedCall& call : recording->calls) {
    if (call.response().has_status()) {
      ++refused;
      EXPECT_EQ(call.response().status().code(), grpc::StatusCode::INVALID_ARGUMENT);
      EXPECT_TRUE(call.response().status().message().starts_with("shots: "))
          << call.response().status().message();
    }
  }
  EXPECT_EQ(refused, 1);
  // The replayed world holds the match's bodies.
  EXPECT_EQ((*replayer)->world().body_count(), static_cast<std::size_t>(kBots));

  // A verdict flipped in the recording: found, at its call and field.
  std::size_t flipped = 0;
  while (recording->calls[flipped].response().moves().verdicts_size() == 0) ++flipped;
  v1::MoveVerdict* verdict =
      recording->calls[flipped].mutable_response()->mutable_moves()->mutable_verdicts(0);
  verdict->set_code(verdict->code() == v1::MOVE_CODE_OK ? v1::MOVE_CODE_BLOCKED : v1::MOVE_CODE_OK);
  absl::StatusOr<std::unique_ptr<record::Replayer>> again =
      record::Replayer::Create(recording->header, kMapsDir);
  ASSERT_TRUE(again.ok());
  check = record::CheckAnswers(recording->calls, [&](const v1::TickRequest& request) {
    return absl::StatusOr<v1::TickResponse>((*again)->Run(request));
  });
  ASSERT_TRUE(check.ok());
  EXPECT_EQ(check->differing_calls, 1);
  ASSERT_EQ(check->first_differing.size(), 1u);
  EXPECT_EQ(check->first_differing[0].call, flipped);
  EXPECT_NE(check->first_differing[0].lines[0].find("moves.verdicts[0].code"), std::string::npos)
      << check->first_differing[0].lines[0];
  std::filesystem::remove_all(recordings);
}

TEST(JournalTest, ARecordingIsClosedAtItsMaximumSize) {
  const std::string recordings = FreshDir("collide-recordings");
  {
    Options options = JournalOptions("", recordings);
    options.journal.recording_max_bytes = 16384;
    TestServer server(options);
    auto stub = v1::WorldService::NewStub(server.channel);
    v1::WorldInfo info;
    ASSERT_TRUE(stub->CreateWorld(Ctx("capped").get(), MapWorld("capped", false, true), &info).ok());
    PlayMatch(*stub, "capped", 24);  // Calls go on after the recording is closed.
    Delete(*stub, "capped");
  }
  const std::string path = recordings + "/_/capped.collide-rec";
  absl::StatusOr<record::Recording> recording = record::ReadRecording(path);
  ASSERT_TRUE(recording.ok()) << recording.status();
  EXPECT_EQ(recording->stopped, "");  // Closed whole, not cut.
  EXPECT_GT(recording->calls.size(), 0u);
  EXPECT_LT(recording->calls.size(), 12u * 3 + 12 + 1);
  // It stops at the call that reached the size: within one call of it.
  EXPECT_GE(std::filesystem::file_size(path), 16384u);
  EXPECT_LT(std::filesystem::file_size(path), 16384u + 8192u);
  // What it holds replays identically.
  absl::StatusOr<std::unique_ptr<record::Replayer>> replayer =
      record::Replayer::Create(recording->header, kMapsDir);
  ASSERT_TRUE(replayer.ok()) << replayer.status();
  absl::StatusOr<record::AnswerCheck> check = record::CheckAnswers(
      recording->calls,
      [&](const v1::TickRequest& r) { return absl::StatusOr<v1::TickResponse>((*replayer)->Run(r)); });
  ASSERT_TRUE(check.ok());
  EXPECT_EQ(check->differing_calls, 0);
  std::filesystem::remove_all(recordings);
}

TEST(JournalTest, EvictionClosesTheRecordingAndEndsTheWatch) {
  const std::string audit = FreshDir("collide-audit");
  const std::string recordings = FreshDir("collide-recordings");
  Options options = JournalOptions(audit, recordings);
  options.world_limits.idle_ttl = absl::Milliseconds(300);
  TestServer server(options);
  auto stub = v1::WorldService::NewStub(server.channel);
  v1::WorldInfo info;
  ASSERT_TRUE(stub->CreateWorld(Ctx("idle").get(), MapWorld("idle", true, true), &info).ok());
  const int verdicts = PlayMatch(*stub, "idle", 4);
  grpc::ClientContext context;
  context.AddMetadata("collide-world", "idle");
  v1::WatchAuditRequest request;
  request.set_world_id("idle");
  auto reader = stub->WatchAudit(&context, request);
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  v1::ListWorldsResponse list;  // Sweeps the idle world out.
  ASSERT_TRUE(stub->ListWorlds(Ctx("").get(), {}, &list).ok());
  EXPECT_EQ(list.worlds_size(), 0);
  v1::AuditRecord record;
  EXPECT_FALSE(reader->Read(&record));  // The watch ends with the world, no record after its start.
  EXPECT_TRUE(reader->Finish().ok());
  absl::StatusOr<record::Recording> recording = record::ReadRecording(recordings + "/_/idle.collide-rec");
  ASSERT_TRUE(recording.ok()) << recording.status();
  EXPECT_EQ(recording->stopped, "");
  EXPECT_EQ(recording->calls.size(), 2u * 3 + 2);
  EXPECT_EQ(static_cast<int>(BinaryRecords(audit + "/_/idle.audit.bin").size()), verdicts);
  std::filesystem::remove_all(audit);
  std::filesystem::remove_all(recordings);
}

TEST(JournalTest, ReplayRefusesAnotherMapUnderTheSameName) {
  const std::string recordings = FreshDir("collide-recordings");
  {
    TestServer server(JournalOptions("", recordings));
    auto stub = v1::WorldService::NewStub(server.channel);
    v1::WorldInfo info;
    ASSERT_TRUE(stub->CreateWorld(Ctx("pinned").get(), MapWorld("pinned", false, true), &info).ok());
  }  // Closed at shutdown.
  absl::StatusOr<record::Recording> recording = record::ReadRecording(recordings + "/_/pinned.collide-rec");
  ASSERT_TRUE(recording.ok()) << recording.status();
  EXPECT_EQ(recording->calls.size(), 0u);
  recording->header.mutable_map_files(0)->set_crc32(recording->header.map_files(0).crc32() ^ 1);
  absl::StatusOr<std::unique_ptr<record::Replayer>> replayer =
      record::Replayer::Create(recording->header, kMapsDir);
  ASSERT_FALSE(replayer.ok());
  EXPECT_EQ(replayer.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(replayer.status().message().find("another map under the same name"), std::string::npos)
      << replayer.status();
  std::filesystem::remove_all(recordings);
}

TEST(JournalTest, AuditTrailHasOneJsonLinePerVerdict) {
  const std::string audit = FreshDir("collide-audit");
  int verdicts = 0;
  {
    TestServer server(JsonlOptions(audit));
    auto stub = v1::WorldService::NewStub(server.channel);
    v1::WorldInfo info;
    ASSERT_TRUE(stub->CreateWorld(Ctx("audited").get(), MapWorld("audited", true, false), &info).ok());
    verdicts = PlayMatch(*stub, "audited", 6);
    Delete(*stub, "audited");
  }  // The server's audit writer has written everything queued.
  const std::vector<std::string> lines = Lines(audit + "/_/audited.audit.jsonl");
  ASSERT_EQ(static_cast<int>(lines.size()), verdicts);
  int shots = 0, packed = 0, moves = 0;
  for (const std::string& line : lines) {
    v1::AuditRecord record;
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(line, &record).ok()) << line;
    EXPECT_EQ(record.world_id(), "audited");
    EXPECT_GT(record.unix_micros(), 0);
    EXPECT_GE(record.latest_tick(), 1);
    EXPECT_GT(record.batch_micros(), 0);
    EXPECT_GE(record.index(), 0);
    EXPECT_LT(record.index(), kBots);
    if (record.has_shot()) {
      EXPECT_EQ(record.shot().shot().shooter_id(), record.index() + 1);
      EXPECT_TRUE(record.shot().verdict().code() != v1::SHOT_CODE_UNSPECIFIED) << line;
      (record.call() == "ValidateShots" ? shots : packed) += 1;
    } else {
      ASSERT_TRUE(record.has_move()) << line;
      EXPECT_EQ(record.call(), "ValidateMoves");
      EXPECT_EQ(record.move().move().body_id(), record.index() + 1);
      ++moves;
    }
  }
  EXPECT_EQ(shots, 3 * kBots);   // Ticks 2, 4, 6 by ValidateShots.
  EXPECT_EQ(packed, 3 * kBots);  // Ticks 1, 3, 5 in Tick messages, re-expressed as Shot.
  EXPECT_EQ(moves, 6 * kBots);
  std::filesystem::remove_all(audit);
}

TEST(JournalTest, AuditTrailRotatesWithinItsBound) {
  const std::string audit = FreshDir("collide-audit");
  {
    Options options = JsonlOptions(audit);
    options.journal.audit_max_bytes = 4096;
    options.journal.audit_max_files = 3;
    TestServer server(options);
    auto stub = v1::WorldService::NewStub(server.channel);
    v1::WorldInfo info;
    ASSERT_TRUE(stub->CreateWorld(Ctx("rotated").get(), MapWorld("rotated", true, false), &info).ok());
    PlayMatch(*stub, "rotated", 12);  // ~190 lines of ~600 bytes: many rotations.
  }
  std::vector<std::string> files;
  std::uintmax_t total = 0;
  for (const auto& entry : std::filesystem::directory_iterator(audit + "/_")) {
    files.push_back(entry.path().filename().string());
    EXPECT_LE(entry.file_size(), 4096u) << entry.path();
    total += entry.file_size();
    for (const std::string& line : Lines(entry.path().string())) {
      v1::AuditRecord record;
      EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(line, &record).ok()) << line;
    }
  }
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"rotated.audit.jsonl", "rotated.audit.jsonl.1",
                                             "rotated.audit.jsonl.2"}));
  EXPECT_LE(total, 3u * 4096);
  std::filesystem::remove_all(audit);
}

// The same match on a server writing binary (the default) and on one
// writing JSON Lines: the binary trail read back and printed is the JSON
// trail line for line, given the JSON line's server times (unixMicros,
// batchMicros differ from run to run).
TEST(JournalTest, BinaryTrailReadsBackAsTheJsonTrail) {
  const std::string binary = FreshDir("collide-audit-bin"), json = FreshDir("collide-audit-json");
  int verdicts = 0;
  for (const bool jsonl : {false, true}) {
    TestServer server(jsonl ? JsonlOptions(json) : JournalOptions(binary, ""));
    auto stub = v1::WorldService::NewStub(server.channel);
    v1::WorldInfo info;
    ASSERT_TRUE(stub->CreateWorld(Ctx("same").get(), MapWorld("same", true, false), &info).ok());
    verdicts = PlayMatch(*stub, "same", 6);
    Delete(*stub, "same");
  }
  EXPECT_FALSE(std::filesystem::exists(binary + "/_/same.audit.jsonl"));
  const std::vector<std::string> lines = Lines(json + "/_/same.audit.jsonl");
  const std::vector<v1::AuditRecord> records = BinaryRecords(binary + "/_/same.audit.bin");
  ASSERT_EQ(static_cast<int>(records.size()), verdicts);
  ASSERT_EQ(lines.size(), records.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    v1::AuditRecord from_json;
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(lines[i], &from_json).ok()) << lines[i];
    v1::AuditRecord record = records[i];
    EXPECT_GT(record.unix_micros(), 0);
    EXPECT_GT(record.batch_micros(), 0);
    record.set_unix_micros(from_json.unix_micros());
    record.set_batch_micros(from_json.batch_micros());
    std::string line;
    record::AppendJson(record, line);
    EXPECT_EQ(line, lines[i]) << "line " << i;
  }
  std::filesystem::remove_all(binary);
  std::filesystem::remove_all(json);
}

TEST(JournalTest, WatchAuditReceivesRecordsAndEndsWhenTheWorldIsDeleted) {
  const std::string audit = FreshDir("collide-audit");
  TestServer server(JournalOptions(audit, ""));
  auto stub = v1::WorldService::NewStub(server.channel);
  v1::WorldInfo info;
  ASSERT_TRUE(stub->CreateWorld(Ctx("watched").get(), MapWorld("watched", true, false), &info).ok());
  v1::CreateWorldRequest plain = MapWorld("plain", false, false);
  ASSERT_TRUE(stub->CreateWorld(Ctx("plain").get(), plain, &info).ok());

  // A world without journal.audit: FAILED_PRECONDITION.
  {
    grpc::ClientContext context;
    context.AddMetadata("collide-world", "plain");
    v1::WatchAuditRequest request;
    request.set_world_id("plain");
    auto reader = stub->WatchAudit(&context, request);
    v1::AuditRecord record;
    EXPECT_FALSE(reader->Read(&record));
    EXPECT_EQ(reader->Finish().error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  }

  grpc::ClientContext context;
  context.AddMetadata("collide-world", "watched");
  v1::WatchAuditRequest request;
  request.set_world_id("watched");
  auto reader = stub->WatchAudit(&context, request);
  std::atomic<int> received = 0, dropped = 0;
  std::thread watcher([&] {
    for (v1::AuditRecord record; reader->Read(&record);) {
      EXPECT_EQ(record.world_id(), "watched");
      ++received;
      dropped += static_cast<int>(record.dropped_before());
    }
  });
  // The watch starts once the server has the call: shots (on a world
  // without bodies, each still a verdict) until one comes back.
  v1::ValidateShotsRequest probe;
  probe.set_world_id("watched");
  convert::ToProto(ShotRequest{1, {0, 0, 0}, {1, 0, 0}}, probe.add_shots());
  int probes = 0;
  for (; probes < 500 && received == 0; ++probes) {
    v1::ValidateShotsResponse judged;
    ASSERT_TRUE(stub->ValidateShots(Ctx("watched").get(), probe, &judged).ok());
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_GT(received, 0);
  const int verdicts = PlayMatch(*stub, "watched", 6);
  Delete(*stub, "watched");
  watcher.join();  // Ends when the world is deleted.
  EXPECT_TRUE(reader->Finish().ok());
  // Every verdict judged after the watch started: the match's, and the
  // probes' but those before it.
  EXPECT_GE(received + dropped, verdicts);
  EXPECT_LE(received + dropped, verdicts + probes);
  EXPECT_EQ(dropped, 0);  // This reader keeps up.
  std::filesystem::remove_all(audit);
}

}  // namespace
}  // namespace collide::server::testing
