#include "server/flags_env.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "absl/flags/flag.h"
#include "absl/time/time.h"

ABSL_FLAG(int, collide_test_port, 50051, "test flag");
ABSL_FLAG(absl::Duration, collide_test_timeout, absl::Seconds(10), "test flag");

namespace collide::server {
namespace {

TEST(FlagsEnvTest, VariableNames) {
  EXPECT_EQ(EnvVarForFlag("port"), "COLLIDE_PORT");
  EXPECT_EQ(EnvVarForFlag("max_items_per_request"), "COLLIDE_MAX_ITEMS_PER_REQUEST");
}

TEST(FlagsEnvTest, SetVariablesOverrideDefaults) {
  constexpr std::string_view kNames[] = {"collide_test_port", "collide_test_timeout"};
  unsetenv("COLLIDE_COLLIDE_TEST_TIMEOUT");
  setenv("COLLIDE_COLLIDE_TEST_PORT", "6000", 1);
  ASSERT_TRUE(ApplyEnvironmentOverrides(kNames).ok());
  EXPECT_EQ(absl::GetFlag(FLAGS_collide_test_port), 6000);
  EXPECT_EQ(absl::GetFlag(FLAGS_collide_test_timeout), absl::Seconds(10));
  setenv("COLLIDE_COLLIDE_TEST_TIMEOUT", "250ms", 1);
  ASSERT_TRUE(ApplyEnvironmentOverrides(kNames).ok());
  EXPECT_EQ(absl::GetFlag(FLAGS_collide_test_timeout), absl::Milliseconds(250));
}

TEST(FlagsEnvTest, BadValueNamesTheVariable) {
  constexpr std::string_view kNames[] = {"collide_test_port"};
  setenv("COLLIDE_COLLIDE_TEST_PORT", "not-a-number", 1);
  const absl::Status status = ApplyEnvironmentOverrides(kNames);
  EXPECT_FALSE(status.ok());
  EXPECT_NE(std::string(status.message()).find("COLLIDE_COLLIDE_TEST_PORT"), std::string::npos);
  unsetenv("COLLIDE_COLLIDE_TEST_PORT");
}

}  // namespace
}  // namespace collide::server
