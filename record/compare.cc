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

}  // namespace collide::record
