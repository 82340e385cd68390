// Proto messages and the goldens' JSON, for the golden generator and the C++
// runners: proto3 JSON with every primitive field printed, under the proto
// field names (what golden.json and world_golden.json hold).
#ifndef COLLIDE_TESTS_CONFORMANCE_GOLDEN_JSON_H_
#define COLLIDE_TESTS_CONFORMANCE_GOLDEN_JSON_H_

#include <google/protobuf/message.h>
#include <google/protobuf/util/json_util.h>

#include <nlohmann/json.hpp>
#include <string>

namespace collide::conformance {

// `m` in the goldens' form; int64 values stay strings (IntsAsNumbers in
// golden_compare.h makes them numbers). Null when protobuf cannot print it.
inline nlohmann::json GoldenJson(const google::protobuf::Message& m) {
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  options.preserve_proto_field_names = true;
  std::string out;
  if (!google::protobuf::util::MessageToJsonString(m, &out, options).ok()) return nullptr;
  return nlohmann::json::parse(out);
}

// Parses a golden's JSON into `m`: "" when it parses, else protobuf's error.
inline std::string FromGoldenJson(const nlohmann::json& j, google::protobuf::Message& m) {
  const auto status = google::protobuf::util::JsonStringToMessage(j.dump(), &m);
  return status.ok() ? "" : status.ToString();
}

}  // namespace collide::conformance

#endif  // COLLIDE_TESTS_CONFORMANCE_GOLDEN_JSON_H_
