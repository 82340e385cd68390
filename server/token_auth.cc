#include "server/token_auth.h"

#include <openssl/crypto.h>
#include <openssl/sha.h>

#include <fstream>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace collide::server {
namespace {

std::array<unsigned char, 32> Sha256(absl::string_view data) {
  std::array<unsigned char, 32> digest;
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest.data());
  return digest;
}

}  // namespace

TokenSet::TokenSet(const std::vector<std::string>& tokens) {
  for (const std::string& token : tokens) {
    if (!token.empty()) digests_.push_back(Sha256(token));
  }
}

bool TokenSet::Accepts(absl::string_view token) const {
  // Digests have one length whatever the token's, so comparing them leaks
  // neither the length nor a matching prefix of a configured token.
  const std::array<unsigned char, 32> presented = Sha256(token);
  int differs_from_all = 1;
  for (const std::array<unsigned char, 32>& digest : digests_) {
    differs_from_all &= CRYPTO_memcmp(presented.data(), digest.data(), digest.size()) != 0;
  }
  return !digests_.empty() && differs_from_all == 0;
}

std::optional<absl::string_view> BearerToken(absl::string_view header_value) {
  constexpr absl::string_view kScheme = "bearer ";
  if (header_value.size() < kScheme.size() ||
      !absl::EqualsIgnoreCase(header_value.substr(0, kScheme.size()), kScheme)) {
    return std::nullopt;
  }
  return absl::StripAsciiWhitespace(header_value.substr(kScheme.size()));
}

bool TokenSet::AcceptsAuthorization(absl::string_view header_value) const {
  const std::optional<absl::string_view> token = BearerToken(header_value);
  return token.has_value() && Accepts(*token);
}

std::string TokenPrincipal(absl::string_view token) {
  const std::array<unsigned char, 32> digest = Sha256(token);
  return absl::StrCat("sha256:", absl::BytesToHexString(absl::string_view(
                                     reinterpret_cast<const char*>(digest.data()), digest.size())));
}

absl::StatusOr<std::vector<std::string>> LoadTokens(absl::string_view token_file,
                                                    absl::string_view comma_separated) {
  std::vector<std::string> tokens;
  if (!token_file.empty()) {
    std::ifstream in{std::string(token_file)};
    if (!in) return absl::InvalidArgumentError(absl::StrCat("cannot read auth_token_file ", token_file));
    std::string line;
    while (std::getline(in, line)) {
      const absl::string_view token = absl::StripAsciiWhitespace(line);
      if (!token.empty() && token[0] != '#') tokens.emplace_back(token);
    }
    if (tokens.empty()) {
      return absl::InvalidArgumentError(absl::StrCat("auth_token_file ", token_file, " holds no token"));
    }
  }
  for (absl::string_view token : absl::StrSplit(comma_separated, ',')) {
    token = absl::StripAsciiWhitespace(token);
    if (!token.empty()) tokens.emplace_back(token);
  }
  return tokens;
}

}  // namespace collide::server
