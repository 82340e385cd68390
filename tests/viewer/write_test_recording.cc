// viewer_test_recording OUT: writes the viewer tests' recording
// (test_recording.h) to OUT.
#include <iostream>

#include "test_recording.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: viewer_test_recording OUT\n";
    return 2;
  }
  const absl::Status written =
      collide::testing::WriteTestRecording(collide::testing::MakeTestRecording(), argv[1]);
  if (!written.ok()) {
    std::cerr << written.message() << "\n";
    return 1;
  }
  return 0;
}
