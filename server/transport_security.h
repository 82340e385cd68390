// The server's listening credentials: TLS (optionally requiring client
// certificates) or plaintext, with bearer-token checks on every call, and the
// rule that plaintext beyond loopback must be asked for explicitly.
#ifndef COLLIDE_SERVER_TRANSPORT_SECURITY_H_
#define COLLIDE_SERVER_TRANSPORT_SECURITY_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "grpcpp/security/server_credentials.h"
#include "server/token_auth.h"

namespace collide::server {

struct TlsFiles {
  std::string cert_file;       // PEM certificate chain of the server.
  std::string key_file;        // PEM private key of the server.
  std::string client_ca_file;  // PEM CA bundle; set: client certificates required.
  bool enabled() const { return !cert_file.empty() || !key_file.empty() || !client_ca_file.empty(); }
};

// True for "localhost", 127.0.0.0/8 and ::1 (with or without brackets):
// hosts whose port no other machine can reach.
bool IsLoopbackHost(absl::string_view host);

// The plaintext rule: without TLS, listening on `host` needs `insecure`
// explicitly true unless the host is loopback (where unset means allowed);
// insecure=false forbids plaintext even on loopback. FAILED_PRECONDITION
// with the remedy in the message otherwise.
absl::Status CheckPlaintextAllowed(absl::string_view host, const TlsFiles& tls,
                                   absl::optional<bool> insecure);

// Credentials for ServerBuilder::AddListeningPort: TLS 1.2 or newer from
// `tls` (gRPC 1.51's SSL server credentials have a minimum of TLS 1.2 and no
// knob to lower it), or plaintext when TLS is not enabled. When `tokens` is
// not empty every call but those to kTokenExemptPathPrefix must carry an
// accepted "authorization: Bearer <token>" or fails UNAUTHENTICATED in the
// transport's auth filter, before the call reaches a handler and before its
// request is deserialized. `tokens` must outlive the server. Fails naming
// the file when a PEM file cannot be read.
absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> MakeServerCredentials(const TlsFiles& tls,
                                                                               const TokenSet* tokens);

}  // namespace collide::server

#endif  // COLLIDE_SERVER_TRANSPORT_SECURITY_H_
