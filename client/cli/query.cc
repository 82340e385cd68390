// `collide query FILE.json`: runs the pairs and casts of a JSON file and
// prints the answers. The file is the proto's JSON mapping (field names as in
// proto/collide/v1/*.proto, snake_case or lowerCamelCase; a Vec3 is
// {"x": .., "y": .., "z": ..}, unset fields are 0):
//
//   {"level": "contact",                  // or intersect, distance, QUERY_LEVEL_CONTACT
//    "pairs": [ShapePair, ...],           // as in QueryPairsRequest
//    "casts": [RayCast, ...]}             // as in CastRaysRequest
//
// "pairs" go in one QueryPairs call, "casts" in one CastRays call; either may
// be absent. The server validates everything: a bad field comes back as
// INVALID_ARGUMENT with its path ("pairs[3].b.capsule.radius: ..."), which
// is printed to stderr with exit code 1.
#include <google/protobuf/util/json_util.h>

#include <fstream>
#include <initializer_list>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "absl/flags/flag.h"
#include "absl/strings/str_format.h"
#include "collide/client_proto.h"
#include "commands.h"

ABSL_FLAG(std::string, format, "text", "query: output format, text or json");

namespace collide::cli {
namespace {

namespace pb = ::collide::v1;
using nlohmann::json;
using nlohmann::ordered_json;

// Accepts the short level names beside the proto enum's.
std::string ProtoLevelName(const std::string& level) {
  if (level == "intersect" || level == "distance" || level == "contact") {
    std::string upper = level;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return "QUERY_LEVEL_" + upper;
  }
  return level;
}

// Parses `j` (a JSON object) as `message` under the proto's JSON mapping.
absl::Status ParseMessage(const json& j, google::protobuf::Message& message) {
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  const auto status = google::protobuf::util::JsonStringToMessage(j.dump(), &message, options);
  if (!status.ok()) return absl::InvalidArgumentError(std::string(status.message()));
  return absl::OkStatus();
}

// The proto JSON of a result message with every field present: the printer
// leaves out unset messages, and an all-zero Vec3 is sent unset.
ordered_json ToJson(const google::protobuf::Message& message, std::initializer_list<const char*> vectors) {
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  options.always_print_primitive_fields = true;
  std::string text;
  (void)google::protobuf::util::MessageToJsonString(message, &text, options);
  ordered_json out = ordered_json::parse(text);
  for (const char* field : vectors) {
    if (!out.contains(field)) out[field] = ordered_json{{"x", 0.0}, {"y", 0.0}, {"z", 0.0}};
  }
  return out;
}

std::string Vec(const pb::Vec3& v) { return absl::StrFormat("(%.10g, %.10g, %.10g)", v.x(), v.y(), v.z()); }

void PrintPair(int i, const pb::PairResult& r, pb::QueryLevel level) {
  std::cout << absl::StrFormat("pairs[%d]  %-4s", i, r.hit() ? "hit" : "miss");
  if (level != pb::QUERY_LEVEL_INTERSECT) {
    std::cout << absl::StrFormat("  distance %.10g  point_a %s  point_b %s  normal %s", r.distance(),
                                 Vec(r.point_a()), Vec(r.point_b()), Vec(r.normal()));
  }
  if (r.status() != pb::RESULT_STATUS_OK) std::cout << "  " << pb::ResultStatus_Name(r.status());
  std::cout << "\n";
}

void PrintHit(int i, const pb::RayHit& h) {
  std::cout << absl::StrFormat("casts[%d]  %-4s", i, h.hit() ? "hit" : "miss");
  if (h.hit()) {
    std::cout << absl::StrFormat("  distance %.10g  point %s  normal %s", h.distance(), Vec(h.point()),
                                 Vec(h.normal()));
  }
  if (h.status() != pb::RESULT_STATUS_OK) std::cout << "  " << pb::ResultStatus_Name(h.status());
  std::cout << "\n";
}

}  // namespace

int RunQuery(const std::vector<std::string>& args) {
  const std::string format = absl::GetFlag(FLAGS_format);
  if (args.size() != 1 || (format != "text" && format != "json")) {
    std::cerr << "usage: collide query FILE.json [--format=text|json] [--target=HOST:PORT]\n";
    return 2;
  }
  std::ifstream file(args[0]);
  if (!file) {
    std::cerr << "query: cannot read " << args[0] << "\n";
    return 2;
  }
  json input = json::parse(file, nullptr, /*allow_exceptions=*/false, /*ignore_comments=*/true);
  if (!input.is_object()) {
    std::cerr << "query: " << args[0] << " is not a JSON object\n";
    return 2;
  }
  // Split the file into the two requests; every other key is an error.
  json pairs_json = json::object();
  json casts_json = json::object();
  for (auto& [key, value] : input.items()) {
    if (key == "level") {
      pairs_json["level"] = value.is_string() ? json(ProtoLevelName(value.get<std::string>())) : value;
    } else if (key == "pairs") {
      pairs_json["pairs"] = value;
    } else if (key == "casts") {
      casts_json["casts"] = value;
    } else {
      std::cerr << "query: " << args[0] << ": unknown key \"" << key << "\" (expected level, pairs, casts)\n";
      return 2;
    }
  }
  pb::QueryPairsRequest pairs_request;
  pb::CastRaysRequest casts_request;
  for (auto [j, message, name] :
       {std::tuple<json&, google::protobuf::Message&, const char*>{pairs_json, pairs_request, "level/pairs"},
        {casts_json, casts_request, "casts"}}) {
    if (absl::Status s = ParseMessage(j, message); !s.ok()) {
      std::cerr << "query: " << args[0] << ": " << name << ": " << s.message() << "\n";
      return 2;
    }
  }
  const bool has_pairs = pairs_request.pairs_size() > 0;
  const bool has_casts = casts_request.casts_size() > 0;
  if (!has_pairs && !has_casts) {
    std::cerr << "query: " << args[0] << " has no pairs and no casts\n";
    return 2;
  }

  absl::StatusOr<Client> client = MakeClient();
  if (!client.ok()) {
    std::cerr << DescribeStatus(client.status()) << "\n";
    return 1;
  }
  pb::QueryPairsResponse pairs_response;
  pb::CastRaysResponse casts_response;
  if (has_pairs) {
    if (absl::Status s = CallQueryPairs(*client, pairs_request, pairs_response); !s.ok()) {
      std::cerr << "QueryPairs: " << DescribeStatus(s) << "\n";
      return 1;
    }
  }
  if (has_casts) {
    if (absl::Status s = CallCastRays(*client, casts_request, casts_response); !s.ok()) {
      std::cerr << "CastRays: " << DescribeStatus(s) << "\n";
      return 1;
    }
  }

  if (format == "json") {
    ordered_json out = ordered_json::object();
    if (has_pairs) {
      out["level"] = pb::QueryLevel_Name(pairs_request.level());
      out["pairs"] = ordered_json::array();
      for (const pb::PairResult& r : pairs_response.results()) {
        out["pairs"].push_back(ToJson(r, {"point_a", "point_b", "normal"}));
      }
    }
    if (has_casts) {
      out["casts"] = ordered_json::array();
      for (const pb::RayHit& h : casts_response.hits())
        out["casts"].push_back(ToJson(h, {"point", "normal"}));
    }
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  for (int i = 0; i < pairs_response.results_size(); ++i) {
    PrintPair(i, pairs_response.results(i), pairs_request.level());
  }
  for (int i = 0; i < casts_response.hits_size(); ++i) PrintHit(i, casts_response.hits(i));
  return 0;
}

}  // namespace collide::cli
