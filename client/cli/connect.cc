// The connection every subcommand and the load generator (bench/load/) make:
// MakeClient and its flags (--target, --deadline, --round_robin, the bearer
// token, TLS).
#include <cstdlib>
#include <fstream>
#include <string>

#include "absl/flags/flag.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "commands.h"

ABSL_FLAG(std::string, target, "127.0.0.1:50051",
          "gRPC target: HOST:PORT, dns:///HOST:PORT, or a comma-separated list of IPv4 HOST:PORT");
ABSL_FLAG(absl::Duration, deadline, absl::Seconds(30), "deadline of each call (retries included)");
ABSL_FLAG(bool, round_robin, false, "spread calls over every address of --target");
ABSL_FLAG(
    std::string, token, "",
    "bearer token sent as 'authorization: Bearer <token>' (default: --token_file, then $COLLIDE_TOKEN); "
    "prefer --token_file or COLLIDE_TOKEN: command lines are visible to other users");
ABSL_FLAG(std::string, token_file, "", "file whose first line is the bearer token");
ABSL_FLAG(bool, tls, false, "connect with TLS (implied by any --tls_* flag); system CA roots by default");
ABSL_FLAG(std::string, tls_ca_file, "", "PEM CA bundle the server certificate must chain to");
ABSL_FLAG(std::string, tls_cert_file, "", "PEM client certificate chain, for servers requiring mutual TLS");
ABSL_FLAG(std::string, tls_key_file, "", "PEM private key of --tls_cert_file");
ABSL_FLAG(std::string, tls_server_name, "",
          "name the server certificate must carry, when it differs from the --target host");

namespace collide::cli {

absl::StatusOr<Client> MakeClient() {
  ClientOptions options;
  options.deadline = absl::GetFlag(FLAGS_deadline);
  options.round_robin = absl::GetFlag(FLAGS_round_robin);
  options.token = absl::GetFlag(FLAGS_token);
  if (options.token.empty() && !absl::GetFlag(FLAGS_token_file).empty()) {
    std::ifstream in(absl::GetFlag(FLAGS_token_file));
    if (!in || !std::getline(in, options.token)) {
      return absl::InvalidArgumentError(
          absl::StrCat("cannot read --token_file ", absl::GetFlag(FLAGS_token_file)));
    }
    options.token = std::string(absl::StripAsciiWhitespace(options.token));
  }
  if (options.token.empty()) {
    if (const char* env = std::getenv("COLLIDE_TOKEN")) options.token = env;
  }
  options.tls = absl::GetFlag(FLAGS_tls);
  options.tls_ca_file = absl::GetFlag(FLAGS_tls_ca_file);
  options.tls_cert_file = absl::GetFlag(FLAGS_tls_cert_file);
  options.tls_key_file = absl::GetFlag(FLAGS_tls_key_file);
  options.tls_server_name = absl::GetFlag(FLAGS_tls_server_name);
  return Client::Create(absl::GetFlag(FLAGS_target), options);
}

}  // namespace collide::cli
