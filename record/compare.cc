#include "record/compare.h"

#include "absl/strings/str_split.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/util/message_differencer.h"

namespace collide::record {

std::vector<std::string> Differences(const v1::TickResponse& recorded, const v1::TickResponse& replayed) {
  using google::protobuf::util::MessageDifferencer;
  std::string report;
  {
    google::protobuf::io::StringOutputStream out(&report);
    MessageDifferencer::StreamReporter reporter(&out);
    MessageDifferencer differencer;
    differencer.ReportDifferencesTo(&reporter);
    if (differencer.Compare(recorded, replayed)) return {};
  }  // The reporter writes its last line when destroyed.
  std::vector<std::string> lines = absl::StrSplit(report, '\n', absl::SkipEmpty());
  return lines;
}

absl::StatusOr<AnswerCheck> CheckAnswers(
    const std::vector<v1::RecordedCall>& calls,
    absl::FunctionRef<absl::StatusOr<v1::TickResponse>(const v1::TickRequest&)> rejudge,
    std::size_t max_listed) {
  AnswerCheck check;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const v1::TickResponse& recorded = calls[i].response();
    absl::StatusOr<v1::TickResponse> replayed = rejudge(calls[i].request());
    if (!replayed.ok()) return replayed.status();
    ++check.calls;
    check.verdicts += recorded.shots().verdicts_size() + recorded.shots_packed().verdicts_size() +
                      recorded.moves().verdicts_size();
    std::vector<std::string> lines = Differences(recorded, *replayed);
    if (lines.empty()) continue;
    ++check.differing_calls;
    if (check.first_differing.size() < max_listed) check.first_differing.push_back({i, std::move(lines)});
  }
  return check;
}

}  // namespace collide::record
