// The C++ conformance runners' check of a golden error: the status code, the
// BadRequest field paths (as a set, when the golden lists them) and the
// ErrorInfo reason (when it names one).
#ifndef COLLIDE_TESTS_CONFORMANCE_EXPECT_ERROR_H_
#define COLLIDE_TESTS_CONFORMANCE_EXPECT_ERROR_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "collide/client.h"
#include "collide/world_client.h"

namespace collide::conformance {

template <typename J>
void ExpectError(const absl::Status& s, const J& want) {
  EXPECT_EQ(absl::StatusCodeToString(s.code()), want["code"].template get<std::string>())
      << DescribeStatus(s);
  if (want.contains("field_violations")) {
    std::vector<std::string> got_fields, want_fields = want["field_violations"];
    for (const Violation& v : FieldViolations(s)) got_fields.push_back(v.field);
    std::sort(got_fields.begin(), got_fields.end());
    std::sort(want_fields.begin(), want_fields.end());
    EXPECT_EQ(got_fields, want_fields) << DescribeStatus(s);
  }
  if (want.contains("reason")) {
    EXPECT_EQ(IsWorldNotFound(s), want["reason"] == "WORLD_NOT_FOUND") << DescribeStatus(s);
  }
}

}  // namespace collide::conformance

#endif  // COLLIDE_TESTS_CONFORMANCE_EXPECT_ERROR_H_
