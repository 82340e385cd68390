// A bounded list of request violations with full field paths, as the
// google.rpc.BadRequest of an INVALID_ARGUMENT status reports them.
#ifndef COLLIDE_CONVERT_VIOLATIONS_H_
#define COLLIDE_CONVERT_VIOLATIONS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "collide/validate.h"

namespace collide::convert {

// Keeps the first `max_kept` violations and counts every one, so a request
// with a million bad fields costs a million increments, not a million strings
// in the reply. Paths use the proto's field names: "pairs[3].b.capsule.radius",
// "a.data[41]", "level".
class ViolationList {
 public:
  static constexpr std::size_t kDefaultMaxKept = 100;

  explicit ViolationList(std::size_t max_kept = kDefaultMaxKept) : max_kept_(max_kept) {}

  void Add(std::string field, std::string description);
  // Moves every violation of `relative` (paths relative to `prefix`, as the
  // core's Validate reports them) here under `prefix`, and clears `relative`.
  // An empty relative path names the prefix itself.
  void AddUnder(std::string_view prefix, std::vector<Violation>& relative);

  bool empty() const { return total_ == 0; }
  // Every violation found, kept or not.
  std::size_t total() const { return total_; }
  const std::vector<Violation>& kept() const { return kept_; }
  void Clear();

 private:
  std::size_t max_kept_;
  std::size_t total_ = 0;
  std::vector<Violation> kept_;
};

// prefix + "." + relative, or prefix + relative when relative starts with
// '[', or prefix alone when relative is empty.
std::string JoinPath(std::string_view prefix, std::string_view relative);

}  // namespace collide::convert

#endif  // COLLIDE_CONVERT_VIOLATIONS_H_
