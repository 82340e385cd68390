// A small match recording for the viewer's tests, judged by the core: a
// floor, a wall, a shooter and two targets over ticks 1..10, then one call
// with three shots (CONFIRMED on the rewound head, MISSED where the head is
// now but was not at the time shot, BLOCKED by the wall) and two moves (OK,
// BLOCKED by the wall). The moves are recorded with their explanations, the
// shots without.
#ifndef COLLIDE_TESTS_VIEWER_TEST_RECORDING_H_
#define COLLIDE_TESTS_VIEWER_TEST_RECORDING_H_

#include <string>

#include "absl/status/status.h"
#include "record/recording_file.h"

namespace collide::testing {

// The call holding the shots and moves (the calls before push the frames).
inline constexpr int kJudgedCall = 10;

record::Recording MakeTestRecording();
absl::Status WriteTestRecording(const record::Recording& recording, const std::string& path);

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_VIEWER_TEST_RECORDING_H_
