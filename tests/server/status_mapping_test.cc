#include "server/status_mapping.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"

namespace collide::server {
namespace {

TEST(StatusMappingTest, EveryKindHasItsCode) {
  const std::pair<RequestError::Kind, grpc::StatusCode> cases[] = {
      {RequestError::Kind::kInvalidRequest, grpc::StatusCode::INVALID_ARGUMENT},
      {RequestError::Kind::kLimitExceeded, grpc::StatusCode::RESOURCE_EXHAUSTED},
      {RequestError::Kind::kUnsupportedPair, grpc::StatusCode::UNIMPLEMENTED},
      {RequestError::Kind::kCancelled, grpc::StatusCode::CANCELLED},
      {RequestError::Kind::kDeadlineExceeded, grpc::StatusCode::DEADLINE_EXCEEDED},
  };
  for (const auto& [kind, code] : cases) {
    const grpc::Status status = ToGrpcStatus({kind, "message"});
    EXPECT_EQ(status.error_code(), code);
    EXPECT_EQ(status.error_message(), "message");
    EXPECT_TRUE(status.error_details().empty());
  }
}

TEST(StatusMappingTest, BadRequestListsKeptViolationsThenACount) {
  convert::ViolationList violations(2);
  violations.Add("pairs[0].a", "shape must be set");
  violations.Add("pairs[1].b.sphere.radius", "must be >= 0");
  violations.Add("pairs[2].b.sphere.radius", "must be >= 0");
  const grpc::Status status = ToGrpcStatus({RequestError::Kind::kInvalidRequest, "bad", &violations});
  google::rpc::Status details;
  ASSERT_TRUE(details.ParseFromString(status.error_details()));
  EXPECT_EQ(details.code(), grpc::StatusCode::INVALID_ARGUMENT);
  ASSERT_EQ(details.details_size(), 1);
  google::rpc::BadRequest bad_request;
  ASSERT_TRUE(details.details(0).UnpackTo(&bad_request));
  ASSERT_EQ(bad_request.field_violations_size(), 3);
  EXPECT_EQ(bad_request.field_violations(0).field(), "pairs[0].a");
  EXPECT_EQ(bad_request.field_violations(1).description(), "must be >= 0");
  EXPECT_EQ(bad_request.field_violations(2).field(), "...");
  EXPECT_EQ(bad_request.field_violations(2).description(), "1 more violations not listed");
}

TEST(StatusMappingTest, LongMessagesAreTruncated) {
  const grpc::Status status = ToGrpcStatus({RequestError::Kind::kInvalidRequest, std::string(5000, 'x')});
  EXPECT_EQ(status.error_message().size(), kMaxStatusMessageBytes);
  EXPECT_TRUE(status.error_message().ends_with("..."));
}

}  // namespace
}  // namespace collide::server
