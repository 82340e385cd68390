// Bearer tokens over plaintext and TLS (every method, reflection included,
// many bad tokens), and TokenSet's parsing. Loopback only.
#include "tests/security/security_test_util.h"

namespace collide::server {
namespace {

using namespace ::collide::server::security_testing;  // NOLINT: the helpers of security_test_util.h

void CheckTokens(const std::string& target, ClientOptions base) {
  EXPECT_EQ(InfoCode(target, base), absl::StatusCode::kUnauthenticated);
  ClientOptions wrong = base;
  wrong.token = "s3cret-but-wrong";
  EXPECT_EQ(InfoCode(target, wrong), absl::StatusCode::kUnauthenticated);
  ClientOptions prefix = base;
  prefix.token = "s3cret";
  EXPECT_EQ(InfoCode(target, prefix), absl::StatusCode::kUnauthenticated);
  for (const std::string token : {"s3cret-token-one", "token-two"}) {
    ClientOptions right = base;
    right.token = token;
    EXPECT_EQ(InfoCode(target, right), absl::StatusCode::kOk) << token;
  }
  // Health is exempt: probes carry no token.
  absl::StatusOr<Client> probe = Client::Create(target, base);
  ASSERT_TRUE(probe.ok());
  absl::StatusOr<bool> serving = probe->Health(absl::Seconds(5));
  ASSERT_TRUE(serving.ok()) << serving.status();
  EXPECT_TRUE(*serving);
}

TEST_F(SecurityTest, TokensOverPlaintext) {
  Options options;
  options.auth_tokens = {"s3cret-token-one", "token-two"};
  std::unique_ptr<Server> server = StartServer(options);
  ASSERT_NE(server, nullptr);
  CheckTokens(server->address(), ClientOptions{});
}

TEST_F(SecurityTest, TokensOverTls) {
  Options options;
  options.tls = ServerTls(false);
  options.auth_tokens = {"s3cret-token-one", "token-two"};
  std::unique_ptr<Server> server = StartServer(options);
  ASSERT_NE(server, nullptr);
  CheckTokens(server->address(), ClientTls("ca"));
}

TEST_F(SecurityTest, ReflectionNeedsTheTokenToo) {
  Options options;
  options.auth_tokens = {"tok"};
  std::unique_ptr<Server> server = StartServer(options);
  ASSERT_NE(server, nullptr);
  auto channel = grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials());
  grpc::GenericStub stub(channel);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
  grpc::CompletionQueue cq;
  // Any method other than health is refused before it is looked up, even
  // one that does not exist.
  auto call = stub.PrepareUnaryCall(&context, "/grpc.reflection.v1alpha.ServerReflection/Nope",
                                    grpc::ByteBuffer(), &cq);
  call->StartCall();
  grpc::ByteBuffer reply;
  grpc::Status status;
  call->Finish(&reply, &status, reinterpret_cast<void*>(1));
  void* tag = nullptr;
  bool ok = false;
  ASSERT_TRUE(cq.Next(&tag, &ok));
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED) << status.error_message();
}

TEST_F(SecurityTest, ManyBadTokensLeaveTheServerHealthy) {
  Options options;
  options.auth_tokens = {"good-token"};
  std::unique_ptr<Server> server = StartServer(options);
  ASSERT_NE(server, nullptr);
  auto channel = grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials());
  auto stub = v1::CollisionService::NewStub(channel);
  int unauthenticated = 0;
  for (int i = 0; i < 1000; ++i) {
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer bad-" + std::to_string(i));
    v1::ServerInfo info;
    if (stub->GetServerInfo(&context, v1::GetServerInfoRequest(), &info).error_code() ==
        grpc::StatusCode::UNAUTHENTICATED) {
      ++unauthenticated;
    }
  }
  EXPECT_EQ(unauthenticated, 1000);
  grpc::ClientContext context;
  context.AddMetadata("authorization", "Bearer good-token");
  v1::ServerInfo info;
  const grpc::Status status = stub->GetServerInfo(&context, v1::GetServerInfoRequest(), &info);
  EXPECT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(info.requests_served(), 0) << "rejected calls must not reach the service";
}

TEST(TokenSetTest, AcceptsExactlyTheConfiguredTokens) {
  const TokenSet tokens({"alpha", "", "beta"});
  EXPECT_EQ(tokens.size(), 2);
  EXPECT_TRUE(tokens.Accepts("alpha"));
  EXPECT_TRUE(tokens.Accepts("beta"));
  EXPECT_FALSE(tokens.Accepts(""));
  EXPECT_FALSE(tokens.Accepts("alph"));
  EXPECT_FALSE(tokens.Accepts("alphaa"));
  EXPECT_TRUE(tokens.AcceptsAuthorization("Bearer alpha"));
  EXPECT_TRUE(tokens.AcceptsAuthorization("bearer beta"));
  EXPECT_FALSE(tokens.AcceptsAuthorization("Basic alpha"));
  EXPECT_FALSE(tokens.AcceptsAuthorization("alpha"));
  EXPECT_FALSE(TokenSet().Accepts(""));
}

TEST(TokenSetTest, LoadsFileAndCommaSeparatedList) {
  char path[] = "/tmp/collide-tokens-XXXXXX";
  close(mkstemp(path));
  std::ofstream(path) << "# comment\n  one \n\ntwo\n";
  absl::StatusOr<std::vector<std::string>> tokens = LoadTokens(path, "three, four,");
  ASSERT_TRUE(tokens.ok()) << tokens.status();
  EXPECT_EQ(*tokens, (std::vector<std::string>{"one", "two", "three", "four"}));
  std::ofstream(path) << "# only a comment\n";
  EXPECT_FALSE(LoadTokens(path, "").ok());
  unlink(path);
  EXPECT_FALSE(LoadTokens("/nonexistent/tokens", "").ok());
}

}  // namespace
}  // namespace collide::server
