// Test hooks: each, when set, runs at one point of a call so that a test can
// hold a call there or learn that it was reached, instead of guessing how
// long that takes. Unset (the default) in every real server. One struct for
// both services, carried by Options, ServiceConfig and WorldServiceConfig.
#ifndef COLLIDE_SERVER_TEST_HOOKS_H_
#define COLLIDE_SERVER_TEST_HOOKS_H_

#include <cstdint>
#include <functional>

#include "grpcpp/support/server_callback.h"

namespace collide::server {

struct TestHooks {
  // CollisionService: runs on the call thread before each posted
  // (multi-chunk) call's batch with the call's context, e.g. to hold a call
  // in flight or until the server has seen it cancelled.
  std::function<void(grpc::CallbackServerContext&)> before_posted_call;
  // WorldService: runs on the call thread before each posted unary world
  // call (CreateWorld, and large calls on a world) with its context, e.g. to
  // hold calls there while others are served.
  std::function<void(grpc::CallbackServerContext&)> before_posted_world_call;
  // WorldService: runs on the thread running each Tick message before it is
  // looked up and run, once admitted (its sequence), e.g. to hold one while
  // the next ones wait.
  std::function<void(std::int64_t)> before_tick_message;
  // WorldService: runs each time a Tick stream has read a message (its read
  // time taken, queued or about to run), so a test can know a message was
  // read while another runs.
  std::function<void()> on_tick_read;
  // WorldService: runs when a Tick stream learns that its call was cancelled.
  std::function<void()> on_tick_cancelled;
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_TEST_HOOKS_H_
