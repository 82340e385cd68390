// What the conformance runners and the golden generator share: the answer
// comparison and the JSON form of int64 values.
#ifndef COLLIDE_TESTS_CONFORMANCE_GOLDEN_COMPARE_H_
#define COLLIDE_TESTS_CONFORMANCE_GOLDEN_COMPARE_H_

#include <cmath>
#include <string>

namespace collide::conformance {

// proto3 JSON prints int64 values as strings; the goldens keep them numbers.
template <typename J>
void IntsAsNumbers(J& j) {
  if (j.is_object() || j.is_array()) {
    for (J& v : j) IntsAsNumbers(v);
  } else if (j.is_string()) {
    const std::string s = j.template get<std::string>();
    const bool integer = !s.empty() && s.find_first_not_of("-0123456789") == std::string::npos &&
                         s.find('-', 1) == std::string::npos && s != "-";
    if (integer) j = std::stoll(s);
  }
}

// The first difference ("" when none): numbers within the tolerance, the rest
// exact, every key of `want` compared; an absent message counts as zeros, and
// a null `want` is a message that must be absent.
template <typename J>
std::string Mismatch(const J& got, const J& want, double abs, double rel, const std::string& path) {
  const std::string fail = path + ": got " + got.dump() + ", want " + want.dump();
  if (want.is_object()) {
    if (!got.is_object() && !got.is_null()) return fail;
    for (const auto& [key, value] : want.items()) {
      const J g = got.is_object() && got.contains(key) ? got[key] : (value.is_number() ? J(0.0) : J());
      if (std::string d = Mismatch(g, value, abs, rel, path + "." + key); !d.empty()) return d;
    }
    return "";
  }
  if (want.is_array()) {
    if (!got.is_array() || got.size() != want.size()) return fail;
    for (size_t i = 0; i < want.size(); ++i) {
      if (std::string d = Mismatch(got[i], want[i], abs, rel, path + "[" + std::to_string(i) + "]");
          !d.empty()) {
        return d;
      }
    }
    return "";
  }
  if (want.is_number() && got.is_number()) {
    const double g = got.template get<double>(), w = want.template get<double>();
    return std::fabs(g - w) <= abs + rel * std::fabs(w) ? "" : fail;
  }
  return got == want ? "" : fail;
}

}  // namespace collide::conformance

#endif  // COLLIDE_TESTS_CONFORMANCE_GOLDEN_COMPARE_H_
