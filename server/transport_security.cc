#include "server/transport_security.h"

#include <arpa/inet.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace collide::server {
namespace {

absl::StatusOr<std::string> ReadPem(absl::string_view flag, const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  if (!in || !(text << in.rdbuf()) || text.str().find("-----BEGIN ") == std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat(flag, ": cannot read a PEM file from \"", path, "\""));
  }
  return text.str();
}

absl::string_view SliceView(const grpc_slice& slice) {
  return {reinterpret_cast<const char*>(GRPC_SLICE_START_PTR(slice)), GRPC_SLICE_LENGTH(slice)};
}

// gRPC core's auth metadata processor (grpc_security.h), run by the server
// auth filter on each call's initial metadata, before the call is matched to
// a handler. Synchronous: hashing one header is cheaper than a thread hop.
// The C++ AuthMetadataProcessor cannot be used: 1.51's
// InsecureServerCredentials() aborts in SetAuthMetadataProcessor, and tokens
// must work over plaintext too.
void ProcessAuthMetadata(void* state, grpc_auth_context*, const grpc_metadata* md, size_t num_md,
                         grpc_process_auth_metadata_done_cb done, void* user_data) {
  const TokenSet& tokens = *static_cast<const TokenSet*>(state);
  absl::string_view path;
  const grpc_metadata* authorization = nullptr;
  int authorizations = 0;
  for (size_t i = 0; i < num_md; ++i) {
    const absl::string_view key = SliceView(md[i].key);
    if (key == ":path") path = SliceView(md[i].value);
    if (key == "authorization") authorization = &md[i], ++authorizations;
  }
  // The header is checked even for exempt paths, so both take similar time.
  // Exactly one: the world service names the tenant by the header it sees,
  // which must be the one checked here.
  const bool accepted = authorizations == 1 && tokens.AcceptsAuthorization(SliceView(authorization->value));
  if (accepted || absl::StartsWith(path, kTokenExemptPathPrefix)) {
    // Consumed, so that handlers and their logs never see the token, except
    // on world calls, whose handlers derive the tenant from it.
    const bool consume = authorization != nullptr && !(accepted && absl::StartsWith(path, kTenantPathPrefix));
    done(user_data, consume ? authorization : nullptr, consume ? 1 : 0, nullptr, 0, GRPC_STATUS_OK, nullptr);
    return;
  }
  done(user_data, nullptr, 0, nullptr, 0, GRPC_STATUS_UNAUTHENTICATED,
       authorization == nullptr ? "missing \"authorization: Bearer <token>\" metadata"
       : authorizations > 1     ? "more than one \"authorization\" header"
                                : "invalid bearer token");
}

// grpc::ServerCredentials over a core grpc_server_credentials, so that the
// core auth processor can be attached to plaintext credentials as well.
// AddPortToServer is the hook grpc::Server calls to bind a listening port.
class CoreServerCredentials final : public grpc::ServerCredentials {
 public:
  // Takes ownership of `creds`.
  explicit CoreServerCredentials(grpc_server_credentials* creds) : creds_(creds) {}
  ~CoreServerCredentials() override { grpc_server_credentials_release(creds_); }

  void SetAuthMetadataProcessor(const std::shared_ptr<grpc::AuthMetadataProcessor>&) override {
    // The core processor of MakeServerCredentials is the only one.
    std::abort();
  }

 private:
  int AddPortToServer(const std::string& addr, grpc_server* server) override {
    return grpc_server_add_http2_port(server, addr.c_str(), creds_);
  }

  grpc_server_credentials* creds_;
};

}  // namespace

bool IsLoopbackHost(absl::string_view host) {
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (absl::EqualsIgnoreCase(host, "localhost")) return true;
  const std::string text(host);
  in_addr v4;
  if (inet_pton(AF_INET, text.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6;
  return inet_pton(AF_INET6, text.c_str(), &v6) == 1 && std::memcmp(&v6, &in6addr_loopback, sizeof(v6)) == 0;
}

absl::Status CheckPlaintextAllowed(absl::string_view host, const TlsFiles& tls,
                                   absl::optional<bool> insecure) {
  if (tls.enabled()) return absl::OkStatus();
  if (insecure.has_value() && !*insecure) {
    return absl::FailedPreconditionError(
        "--insecure=false but no TLS configured: set --tls_cert_file and --tls_key_file");
  }
  if (!insecure.has_value() && !IsLoopbackHost(host)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "refusing to serve plaintext on non-loopback host \"", host,
        "\": set --tls_cert_file and --tls_key_file (TLS), or --insecure=true (COLLIDE_INSECURE=true) when a "
        "mesh or ingress terminates TLS in front of the server"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> MakeServerCredentials(const TlsFiles& tls,
                                                                               const TokenSet* tokens) {
  grpc_init();  // Balanced below: the credentials object holds its own reference.
  grpc_server_credentials* creds = nullptr;
  if (tls.enabled()) {
    if (tls.cert_file.empty() || tls.key_file.empty()) {
      grpc_shutdown();
      return absl::InvalidArgumentError("TLS needs both --tls_cert_file and --tls_key_file");
    }
    absl::StatusOr<std::string> cert = ReadPem("tls_cert_file", tls.cert_file);
    absl::StatusOr<std::string> key = ReadPem("tls_key_file", tls.key_file);
    absl::StatusOr<std::string> client_ca =
        tls.client_ca_file.empty() ? std::string() : ReadPem("tls_client_ca_file", tls.client_ca_file);
    for (const absl::StatusOr<std::string>* pem : {&cert, &key, &client_ca}) {
      if (!pem->ok()) {
        grpc_shutdown();
        return pem->status();
      }
    }
    grpc_ssl_pem_key_cert_pair pair = {key->c_str(), cert->c_str()};
    // The minimum protocol version of these credentials is TLS 1.2
    // (grpc_ssl_server_credentials' default; 1.51 exposes no setting).
    creds = grpc_ssl_server_credentials_create_ex(
        client_ca->empty() ? nullptr : client_ca->c_str(), &pair, 1,
        client_ca->empty() ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
                           : GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY,
        nullptr);
    if (creds == nullptr) {
      grpc_shutdown();
      return absl::InvalidArgumentError("gRPC rejected the TLS certificate, key or client CA");
    }
  } else {
    creds = grpc_insecure_server_credentials_create();
  }
  if (tokens != nullptr && !tokens->empty()) {
    grpc_server_credentials_set_auth_metadata_processor(
        creds, {ProcessAuthMetadata, nullptr, const_cast<TokenSet*>(tokens)});
  }
  auto result = std::make_shared<CoreServerCredentials>(creds);
  grpc_shutdown();
  return result;
}

}  // namespace collide::server
