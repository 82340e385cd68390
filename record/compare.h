// Comparing a recorded answer with a re-judged one, field by field.
#ifndef COLLIDE_RECORD_COMPARE_H_
#define COLLIDE_RECORD_COMPARE_H_

#include <string>
#include <vector>

#include "collide/v1/world.pb.h"

namespace collide::record {

// Every difference between two answers, in field order, one per line as
// "modified: shots.verdicts[3].code: SHOT_CODE_HIT -> SHOT_CODE_MISS"
// (then "added:" / "deleted:" for items only one has); empty when they are
// identical. Numbers compare exactly: a replay is bit-identical or wrong.
std::vector<std::string> Differences(const v1::TickResponse& recorded, const v1::TickResponse& replayed);

}  // namespace collide::record

#endif  // COLLIDE_RECORD_COMPARE_H_
