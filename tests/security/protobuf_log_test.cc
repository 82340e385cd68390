// Protobuf's log lines under a flood of bad requests: the rate limiter
// admits bursts, then counts what it suppressed.
#include "tests/security/security_test_util.h"

namespace collide::server {
namespace {

using namespace ::collide::server::security_testing;  // NOLINT: the helpers of security_test_util.h

TEST(ProtobufLogTest, RateLimiterAdmitsBurstsThenCountsTheSuppressed) {
  LogRateLimiter limiter(3);
  const absl::Time t0 = absl::FromUnixSeconds(1000);
  std::int64_t suppressed = -1;
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(limiter.Admit(t0, &suppressed));
    EXPECT_EQ(suppressed, 0);
  }
  for (int i = 0; i < 5; ++i) EXPECT_FALSE(limiter.Admit(t0, &suppressed));
  EXPECT_FALSE(limiter.Admit(t0 + absl::Milliseconds(100), &suppressed));  // 0.3 of a line refilled.
  EXPECT_TRUE(limiter.Admit(t0 + absl::Milliseconds(400), &suppressed));
  EXPECT_EQ(suppressed, 6);
  EXPECT_TRUE(limiter.Admit(t0 + absl::Seconds(10), &suppressed));
  EXPECT_EQ(suppressed, 0);
}

}  // namespace
}  // namespace collide::server
