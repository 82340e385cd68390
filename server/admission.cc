#include "server/admission.h"

#include <string>

#include "server/status_mapping.h"

namespace collide::server {

bool Admission::Admit(std::size_t items) {
  const int calls = calls_.fetch_add(1, std::memory_order_relaxed) + 1;
  const std::int64_t total = items_.fetch_add(static_cast<std::int64_t>(items), std::memory_order_relaxed) +
                             static_cast<std::int64_t>(items);
  if ((max_calls_ > 0 && calls > max_calls_) || (max_items_ > 0 && total > max_items_)) {
    Release(items);
    return false;
  }
  return true;
}

void Admission::Release(std::size_t items) {
  items_.fetch_sub(static_cast<std::int64_t>(items), std::memory_order_relaxed);
  calls_.fetch_sub(1, std::memory_order_relaxed);
}

RequestError Admission::Refusal() const {
  return {RequestError::Kind::kLimitExceeded,
          "the server is at its admission limit (" + std::to_string(max_calls_) +
              " calls, --max_concurrent_calls; " + std::to_string(max_items_) +
              " items, --max_items_in_flight); retry later"};
}

}  // namespace collide::server
