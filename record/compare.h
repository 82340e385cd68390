// Comparing a recorded answer with a re-judged one, field by field.
#ifndef COLLIDE_RECORD_COMPARE_H_
#define COLLIDE_RECORD_COMPARE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "collide/v1/world.pb.h"

namespace collide::record {

// Every difference between two answers, in field order, one per line as
// "modified: shots.verdicts[3].code: SHOT_CODE_HIT -> SHOT_CODE_MISS"
// (then "added:" / "deleted:" for items only one has); empty when they are
// identical. Numbers compare exactly: a replay is bit-identical or wrong.
std::vector<std::string> Differences(const v1::TickResponse& recorded, const v1::TickResponse& replayed);

// The recorded answers of a recording against re-judged ones.
struct AnswerCheck {
  std::int64_t calls = 0;     // Calls compared.
  std::int64_t verdicts = 0;  // Shot and move verdicts in their recorded answers.
  std::int64_t differing_calls = 0;
  struct Differing {
    std::size_t call;                // Index in the recording.
    std::vector<std::string> lines;  // Differences().
  };
  std::vector<Differing> first_differing;  // The first max_listed of them.
};

// Each call's request re-judged by `rejudge` and its answer compared with
// the recorded one, in order; `rejudge`'s error (a live server's stream
// ending) ends the check with it.
absl::StatusOr<AnswerCheck> CheckAnswers(
    const std::vector<v1::RecordedCall>& calls,
    absl::FunctionRef<absl::StatusOr<v1::TickResponse>(const v1::TickRequest&)> rejudge,
    std::size_t max_listed = 5);

}  // namespace collide::record

#endif  // COLLIDE_RECORD_COMPARE_H_
