// An in-process collide server on a free loopback port with a real channel,
// and helpers to read the google.rpc.BadRequest of an error status.
#ifndef COLLIDE_TESTS_SERVER_TEST_SERVER_H_
#define COLLIDE_TESTS_SERVER_TEST_SERVER_H_

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "collide/v1/collide.grpc.pb.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "grpcpp/create_channel.h"
#include "server/server.h"

namespace collide::server::testing {

struct TestServer {
  explicit TestServer(Options options = {}) {
    options.port = 0;
    options.host = "127.0.0.1";
    absl::StatusOr<std::unique_ptr<Server>> started = Server::Start(options);
    EXPECT_TRUE(started.ok()) << started.status();
    server = std::move(*started);
    channel = grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials());
    stub = v1::CollisionService::NewStub(channel);
  }

  std::unique_ptr<Server> server;
  std::shared_ptr<grpc::Channel> channel;
  std::unique_ptr<v1::CollisionService::Stub> stub;
};

// The field paths of the BadRequest in `status`'s details (empty when there
// is none).
inline std::vector<std::string> BadRequestFields(const grpc::Status& status) {
  std::vector<std::string> fields;
  google::rpc::Status details;
  if (!details.ParseFromString(status.error_details())) return fields;
  for (const auto& any : details.details()) {
    google::rpc::BadRequest bad_request;
    if (!any.UnpackTo(&bad_request)) continue;
    for (const auto& v : bad_request.field_violations()) fields.push_back(v.field());
  }
  return fields;
}

}  // namespace collide::server::testing

#endif  // COLLIDE_TESTS_SERVER_TEST_SERVER_H_
