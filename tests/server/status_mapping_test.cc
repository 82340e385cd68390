#include "server/status_mapping.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>

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

google::rpc::BadRequest BadRequestOf(const grpc::Status& status) {
  google::rpc::Status details;
  google::rpc::BadRequest bad_request;
  EXPECT_TRUE(details.ParseFromString(status.error_details()));
  EXPECT_EQ(details.details_size(), 1);
  if (details.details_size() == 1) EXPECT_TRUE(details.details(0).UnpackTo(&bad_request));
  return bad_request;
}

// The rule collide.proto promises: at most kMaxListedViolations and
// kMaxViolationBytes of field + description, in order, then "..." with the
// count of the rest. Short violations hit the count bound, long ones the
// byte bound.
TEST(StatusMappingTest, ListsAtMostTheCountAndTheBytesThenASummary) {
  for (const bool long_text : {false, true}) {
    convert::ViolationList violations(1000);
    for (int i = 0; i < 1000; ++i) {
      violations.Add(
          long_text ? "pairs[" + std::to_string(i) + "].b.capsule.radius" : "a[" + std::to_string(i) + "]",
          long_text ? "must be finite and >= 0, got -1" : "x");
    }
    const google::rpc::BadRequest bad_request =
        BadRequestOf(ToGrpcStatus({RequestError::Kind::kInvalidRequest, "bad", &violations}));
    const int listed = bad_request.field_violations_size() - 1;
    ASSERT_GT(listed, 0);
    EXPECT_LE(static_cast<std::size_t>(listed), kMaxListedViolations);
    std::size_t bytes = 0;
    for (int i = 0; i < listed; ++i) {
      const auto& v = bad_request.field_violations(i);
      EXPECT_EQ(v.field(), violations.kept()[i].field);
      bytes += v.field().size() + v.description().size();
    }
    EXPECT_LE(bytes, kMaxViolationBytes);
    if (long_text) {
      // The next violation would not have fit.
      EXPECT_GT(bytes + violations.kept()[listed].field.size() + violations.kept()[listed].description.size(),
                kMaxViolationBytes);
    } else {
      EXPECT_EQ(static_cast<std::size_t>(listed), kMaxListedViolations);
    }
    const auto& summary = bad_request.field_violations(listed);
    EXPECT_EQ(summary.field(), "...");
    EXPECT_EQ(summary.description(), std::to_string(1000 - listed) + " more violations not listed");
  }
}

// Clients read the rule from the proto: its Errors comment must name both
// bounds the code applies.
TEST(StatusMappingTest, ProtoCommentStatesTheListBounds) {
  std::ifstream in(COLLIDE_SOURCE_DIR "/proto/collide/v1/collide.proto");
  ASSERT_TRUE(in) << "cannot read collide.proto";
  std::stringstream text;
  text << in.rdbuf();
  std::string comment = text.str().substr(0, text.str().find("syntax ="));
  comment = std::regex_replace(comment, std::regex(R"(\n//\s*)"), " ");
  EXPECT_NE(comment.find("at most " + std::to_string(kMaxListedViolations) + " of them"), std::string::npos)
      << comment;
  EXPECT_NE(comment.find("at most " + std::to_string(kMaxViolationBytes) + " bytes"), std::string::npos)
      << comment;
}

TEST(StatusMappingTest, LongMessagesAreTruncated) {
  const grpc::Status status = ToGrpcStatus({RequestError::Kind::kInvalidRequest, std::string(5000, 'x')});
  EXPECT_EQ(status.error_message().size(), kMaxStatusMessageBytes);
  EXPECT_TRUE(status.error_message().ends_with("..."));
}

// The kinds the world service and the transport answer with (issue 34: every
// error through this mapping).
TEST(StatusMappingTest, WorldAndTransportKindsHaveTheirCodes) {
  const std::pair<RequestError::Kind, grpc::StatusCode> cases[] = {
      {RequestError::Kind::kUnsupportedEncoding, grpc::StatusCode::UNIMPLEMENTED},
      {RequestError::Kind::kNotFound, grpc::StatusCode::NOT_FOUND},
      {RequestError::Kind::kAlreadyExists, grpc::StatusCode::ALREADY_EXISTS},
      {RequestError::Kind::kFailedPrecondition, grpc::StatusCode::FAILED_PRECONDITION},
      {RequestError::Kind::kUnavailable, grpc::StatusCode::UNAVAILABLE},
  };
  for (const auto& [kind, code] : cases) {
    const grpc::Status status = ToGrpcStatus({kind, "message"});
    EXPECT_EQ(status.error_code(), code);
    EXPECT_EQ(status.error_message(), "message");
    EXPECT_TRUE(status.error_details().empty());
    const google::rpc::Status rpc = ToRpcStatus({kind, "message"});
    EXPECT_EQ(rpc.code(), static_cast<int>(code));
    EXPECT_EQ(rpc.message(), "message");
    EXPECT_EQ(rpc.details_size(), 0);
  }
}

TEST(StatusMappingTest, InvalidFieldsStatesTheCountAndTheFirst) {
  convert::ViolationList violations;
  violations.Add("shots[1].direction", "must be non-zero");
  violations.Add("shots[2].origin.y", "must be finite");
  const RequestError error = InvalidFields(std::move(violations));
  EXPECT_EQ(error.kind, RequestError::Kind::kInvalidRequest);
  EXPECT_EQ(error.message, "2 invalid field(s); first: shots[1].direction: must be non-zero");
  ASSERT_NE(error.violations, nullptr);  // Owned: the list moved in is gone.
  EXPECT_EQ(error.violations->total(), 2u);
  EXPECT_THAT(BadRequestOf(ToGrpcStatus(error)).field_violations(), ::testing::SizeIs(2));
}

// A Tick part's error: the message and every listed path under the part, the
// bounds counted on the paths as the unary call lists them.
TEST(StatusMappingTest, PartPutsTheMessageAndThePathsUnderIt) {
  convert::ViolationList violations(1);
  violations.Add("shots[0].direction", "must be non-zero");
  violations.Add("shots[3].direction", "must be non-zero");
  RequestError error = InvalidFields(violations);
  error.part = "shots";
  const grpc::Status status = ToGrpcStatus(error);
  EXPECT_EQ(status.error_message(), "shots: 2 invalid field(s); first: shots[0].direction: must be non-zero");
  const google::rpc::BadRequest bad_request = BadRequestOf(status);
  ASSERT_EQ(bad_request.field_violations_size(), 2);
  EXPECT_EQ(bad_request.field_violations(0).field(), "shots.shots[0].direction");
  EXPECT_EQ(bad_request.field_violations(1).field(), "shots....");
  const google::rpc::Status rpc = ToRpcStatus(error);
  google::rpc::Status sent;
  ASSERT_TRUE(sent.ParseFromString(status.error_details()));
  EXPECT_EQ(rpc.SerializeAsString(), sent.SerializeAsString());
  EXPECT_EQ(rpc.message(), status.error_message());
}

TEST(StatusMappingTest, ErrorInfoTravelsInTheDetails) {
  const RequestError error{
      .kind = RequestError::Kind::kNotFound,
      .message = "world \"w\" not found on this replica",
      .info = {.reason = "WORLD_NOT_FOUND", .domain = "collide.v1", .metadata = {{"world_id", "w"}}}};
  const grpc::Status status = ToGrpcStatus(error);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  google::rpc::Status details;
  ASSERT_TRUE(details.ParseFromString(status.error_details()));
  EXPECT_EQ(details.code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(details.message(), status.error_message());
  ASSERT_EQ(details.details_size(), 1);
  google::rpc::ErrorInfo info;
  ASSERT_TRUE(details.details(0).UnpackTo(&info));
  EXPECT_EQ(info.reason(), "WORLD_NOT_FOUND");
  EXPECT_EQ(info.domain(), "collide.v1");
  EXPECT_EQ(info.metadata().at("world_id"), "w");
}

}  // namespace
}  // namespace collide::server
