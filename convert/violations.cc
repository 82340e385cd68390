#include "convert/violations.h"

#include <utility>

namespace collide::convert {

void ViolationList::Add(std::string field, std::string description) {
  if (kept_.size() < max_kept_) kept_.push_back({std::move(field), std::move(description)});
  ++total_;
}

void ViolationList::AddUnder(std::string_view prefix, std::vector<Violation>& relative) {
  for (Violation& v : relative) {
    if (kept_.size() < max_kept_) {
      kept_.push_back({JoinPath(prefix, v.field), std::move(v.description)});
    }
    ++total_;
  }
  relative.clear();
}

void ViolationList::Clear() {
  total_ = 0;
  kept_.clear();
}

std::string JoinPath(std::string_view prefix, std::string_view relative) {
  std::string path(prefix);
  if (relative.empty()) return path;
  if (!path.empty() && relative.front() != '[') path += '.';
  path += relative;
  return path;
}

}  // namespace collide::convert
