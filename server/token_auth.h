// Bearer-token authentication of calls: the accepted tokens (kept only as
// SHA-256 digests), the check of an "authorization: Bearer <token>" header in
// time independent of where a wrong token differs, and the tenant a token
// names (worlds belong to it).
#ifndef COLLIDE_SERVER_TOKEN_AUTH_H_
#define COLLIDE_SERVER_TOKEN_AUTH_H_

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace collide::server {

// Calls to these method path prefixes need no token: orchestrator probes
// (Kubernetes gRPC probes, Docker HEALTHCHECK) cannot send one.
inline constexpr absl::string_view kTokenExemptPathPrefix = "/grpc.health.v1.Health/";
// Calls to these method path prefixes keep their accepted "authorization"
// header (every other call has it removed), so that the world service can
// tell the caller's tenant (TokenPrincipal): gRPC 1.51's core auth processor
// is handed the connection's auth context, which every call on the
// connection shares, so it has no per-call place to put a principal.
inline constexpr absl::string_view kTenantPathPrefix = "/collide.v1.WorldService/";

class TokenSet {
 public:
  TokenSet() = default;
  // Empty tokens are ignored.
  explicit TokenSet(const std::vector<std::string>& tokens);

  bool empty() const { return digests_.empty(); }
  int size() const { return static_cast<int>(digests_.size()); }

  // Whether `token` is one of the set. The SHA-256 of `token` is compared
  // with every configured digest without early exit (CRYPTO_memcmp, results
  // OR-ed), so the time taken depends neither on the token's length nor on
  // which token or byte differs.
  bool Accepts(absl::string_view token) const;

  // Whether the value of an "authorization" header, "Bearer <token>" (the
  // scheme is case-insensitive, RFC 6750 2.1), carries an accepted token.
  bool AcceptsAuthorization(absl::string_view header_value) const;

 private:
  std::vector<std::array<unsigned char, 32>> digests_;
};

// The token of an "authorization" header value "Bearer <token>" (the scheme
// case-insensitive, RFC 6750 2.1; surrounding whitespace trimmed); nullopt
// for another scheme.
std::optional<absl::string_view> BearerToken(absl::string_view header_value);

// The tenant of the callers presenting `token`: "sha256:" and the lowercase
// hex SHA-256 of the token. The token file names no principals, so each
// token is a tenant of its own; a digest, so that a tenant id in a map or a
// log never reveals a token.
std::string TokenPrincipal(absl::string_view token);

// Tokens from a file (one per line; blank lines and lines starting with '#'
// skipped; surrounding whitespace trimmed; "" = no file) and from a
// comma-separated list (the COLLIDE_AUTH_TOKENS variable; "" = none).
// Fails naming the file when it cannot be read.
absl::StatusOr<std::vector<std::string>> LoadTokens(absl::string_view token_file,
                                                    absl::string_view comma_separated);

}  // namespace collide::server

#endif  // COLLIDE_SERVER_TOKEN_AUTH_H_
