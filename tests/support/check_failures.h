// Collects the failures of a property test by check name, so that a run over
// 10,000 random pairs reports how many pairs failed each check and prints
// the first few in full (with inputs at full precision, ready to paste into
// a regression test) instead of 10,000 lines.
#ifndef COLLIDE_TESTS_SUPPORT_CHECK_FAILURES_H_
#define COLLIDE_TESTS_SUPPORT_CHECK_FAILURES_H_

#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace collide::testing {

class CheckFailures {
 public:
  explicit CheckFailures(int examples_per_check = 3) : examples_(examples_per_check) {}

  void Add(const std::string& check, const std::string& detail) {
    Entry& e = by_check_[check];
    if (static_cast<int>(e.examples.size()) < examples_) e.examples.push_back(detail);
    ++e.count;
  }

  int Count(const std::string& check) const {
    const auto it = by_check_.find(check);
    return it == by_check_.end() ? 0 : it->second.count;
  }
  bool Empty() const { return by_check_.empty(); }
  std::vector<std::string> Checks() const {
    std::vector<std::string> out;
    for (const auto& [check, e] : by_check_) out.push_back(check);
    return out;
  }

  // "check: N failures" plus the examples, for one check.
  std::string Report(const std::string& check) const {
    const auto it = by_check_.find(check);
    if (it == by_check_.end()) return check + ": no failures";
    std::string out = check + ": " + std::to_string(it->second.count) + " failure(s); first ones:\n";
    for (const std::string& ex : it->second.examples) out += "  " + ex + "\n";
    return out;
  }

 private:
  struct Entry {
    int count = 0;
    std::vector<std::string> examples;
  };
  int examples_;
  std::map<std::string, Entry> by_check_;
};

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_CHECK_FAILURES_H_
