// `collide world replay FILE [--maps_dir DIR] [--target ADDR]`: re-judges a
// match recording (docs/replay.md). Offline (the default) the world is
// rebuilt from the header with the core this binary holds and each call is
// run by the server's own world calls (record/replay.h); with a --target
// (other than the default; --live for that one), a live server gets the world under a fresh id and the
// same calls on one Tick stream, then the world is deleted. Each answer is
// compared with the recorded one, field by field. Exit 0 when every answer
// is identical, 1 when any differs or a call fails, 2 for a file that is
// not a whole recording (bad, truncated) or bad arguments.
#include <unistd.h>

#include <chrono>
#include <iostream>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/flags/reflection.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "collide/world_client_proto.h"
#include "commands.h"
#include "record/compare.h"
#include "record/recording_file.h"
#include "record/replay.h"
#include "world_arena.h"

ABSL_DECLARE_FLAG(std::string, maps_dir);
ABSL_DECLARE_FLAG(std::string, target);
ABSL_FLAG(bool, live, false,
          "world replay: re-judge on the server at --target (implied by any other --target)");

namespace collide::cli {
namespace {

// The answers of the recorded requests from a live server: the world under
// a fresh id, its calls on one stream numbered 1, 2, ... (a recording's
// unary calls have none), each answer given back its recorded sequence.
absl::StatusOr<std::vector<v1::TickResponse>> LiveAnswers(const record::Recording& recording) {
  absl::StatusOr<Client> channel = MakeClient();
  if (!channel.ok()) return channel.status();
  WorldClient client(*channel, {.recreate_lost_worlds = false});
  v1::CreateWorldRequest create = recording.header.create();
  const std::string id = absl::StrCat("replay-", getpid(), "-",
                                      std::chrono::system_clock::now().time_since_epoch().count() % 1000000);
  create.set_world_id(id);
  create.clear_journal();
  if (absl::StatusOr<WorldInfo> info = CreateWorld(client, create); !info.ok()) return info.status();
  const DeleteOnExit deleter{client, id};
  std::vector<v1::TickRequest> requests;
  requests.reserve(recording.calls.size());
  for (std::size_t i = 0; i < recording.calls.size(); ++i) {
    requests.push_back(recording.calls[i].request());
    requests.back().set_sequence(static_cast<std::int64_t>(i + 1));
  }
  absl::StatusOr<std::vector<v1::TickResponse>> answers = SendTickMessages(client, id, requests);
  if (!answers.ok()) return answers.status();
  for (std::size_t i = 0; i < answers->size(); ++i) {
    (*answers)[i].set_sequence(recording.calls[i].request().sequence());
  }
  return answers;
}

}  // namespace

int RunWorldReplay(const std::vector<std::string>& args) {
  if (args.size() != 1) {
    std::cerr << "usage: collide world replay FILE [--maps_dir DIR] [--target ADDR]\n";
    return 2;
  }
  absl::StatusOr<record::Recording> recording = record::ReadRecording(args[0]);
  if (!recording.ok()) {
    std::cerr << "world replay: " << recording.status().message() << "\n";
    return 2;
  }
  if (!recording->stopped.empty()) {
    std::cerr << "world replay: " << args[0] << ": " << recording->stopped << "\n";
    return 2;
  }
  // This absl keeps "specified on the command line" private: a --target
  // other than the default, or --live for the default one.
  const bool live = absl::GetFlag(FLAGS_live) ||
                    absl::GetFlag(FLAGS_target) != absl::FindCommandLineFlag("target")->DefaultValue();
  std::cout << absl::StrFormat("recording %s: world %s by %s, %d calls; re-judged %s\n", args[0],
                               recording->header.create().world_id(), recording->header.writer(),
                               recording->calls.size(),
                               live ? absl::StrCat("by the server at ", absl::GetFlag(FLAGS_target))
                                    : std::string("offline with this build's core"));
  absl::StatusOr<record::AnswerCheck> check;
  if (live) {
    absl::StatusOr<std::vector<v1::TickResponse>> answers = LiveAnswers(*recording);
    if (!answers.ok()) {
      std::cerr << "world replay: " << DescribeStatus(answers.status()) << "\n";
      return 1;
    }
    std::size_t next = 0;
    check =
        record::CheckAnswers(recording->calls, [&](const v1::TickRequest&) { return (*answers)[next++]; });
  } else {
    absl::StatusOr<std::unique_ptr<record::Replayer>> replayer =
        record::Replayer::Create(recording->header, absl::GetFlag(FLAGS_maps_dir));
    if (!replayer.ok()) {
      std::cerr << "world replay: " << replayer.status().message() << "\n";
      return 1;
    }
    check = record::CheckAnswers(recording->calls, [&](const v1::TickRequest& request) {
      return absl::StatusOr<v1::TickResponse>((*replayer)->Run(request));
    });
  }
  if (!check.ok()) {
    std::cerr << "world replay: " << DescribeStatus(check.status()) << "\n";
    return 1;
  }
  std::cout << absl::StrFormat("compared %d calls, %d verdicts: %d differ\n", check->calls, check->verdicts,
                               check->differing_calls);
  for (const record::AnswerCheck::Differing& d : check->first_differing) {
    std::cout << absl::StrFormat("call %d (sequence %d):\n", d.call,
                                 recording->calls[d.call].request().sequence());
    for (std::size_t k = 0; k < d.lines.size() && k < 5; ++k) std::cout << "  " << d.lines[k] << "\n";
    if (d.lines.size() > 5) std::cout << "  ... " << d.lines.size() - 5 << " more\n";
  }
  return check->differing_calls == 0 ? 0 : 1;
}

}  // namespace collide::cli
