// Writes the conformance goldens from the core library, or checks the
// checked-in ones against it.
//
//   generate_golden --out=tests/conformance/golden.json   (deliberate regeneration;
//                                                          `ninja regenerate_golden`)
//   generate_golden --check=tests/conformance/golden.json (ctest conformance_golden_fresh)
//   generate_golden --world --out=/--check=tests/conformance/world_golden.json (the world
//                                                          scripts, world_cases.h)
//
// --check fails when a checked-in case is no longer produced, or its request
// or answer differs from the core's beyond the suite's tolerance: then either
// the core regressed or the goldens need a deliberate regeneration. Cases the
// core newly answers (a kernel landed) are only reported, so landing a kernel
// never breaks the check; regenerate to put them in the suite.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <string>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "conformance/golden_cases.h"
#include "conformance/world_cases.h"

ABSL_FLAG(std::string, out, "", "Write the goldens to this file.");
ABSL_FLAG(std::string, check, "", "Compare this golden file with the core's answers.");
ABSL_FLAG(bool, world, false, "The world cases (world_cases.h) instead of the pair and ray cases.");

namespace collide::conformance {
namespace {

bool Near(double got, double want) {
  return std::fabs(got - want) <= kAbsTolerance + kRelTolerance * std::fabs(want);
}

// Equal up to the tolerance on numbers (an integer and a double of one value
// compare equal); appends the first difference's path to `where`.
bool Same(const Json& got, const Json& want, const std::string& path, std::string& where) {
  if (got.is_number() && want.is_number()) {
    if (Near(got.get<double>(), want.get<double>())) return true;
  } else if (got.is_array() && want.is_array() && got.size() == want.size()) {
    for (size_t i = 0; i < got.size(); ++i) {
      if (!Same(got[i], want[i], path + "[" + std::to_string(i) + "]", where)) return false;
    }
    return true;
  } else if (got.is_object() && want.is_object() && got.size() == want.size() &&
             std::all_of(want.items().begin(), want.items().end(),
                         [&got](const auto& kv) { return got.contains(kv.key()); })) {
    for (const auto& [key, value] : want.items()) {
      if (!Same(got[key], value, path + "." + key, where)) return false;
    }
    return true;
  } else if (got == want) {
    return true;
  }
  where = path + ": checked-in " + want.dump() + ", core " + got.dump();
  return false;
}

int Check(const std::string& file, const Json& fresh) {
  std::ifstream in(file);
  if (!in) {
    std::cerr << "cannot read " << file << "\n";
    return 2;
  }
  const Json checked_in = Json::parse(in);
  // Case lists: "cases", and the world file's "stream_cases" (world_cases.h).
  const auto each_case = [](const Json& golden, const auto& f) {
    for (const char* list : {"cases", "stream_cases"}) {
      if (golden.contains(list)) {
        for (const Json& c : golden[list]) f(list + std::string(":") + c["name"].get<std::string>(), c);
      }
    }
  };
  std::map<std::string, const Json*> fresh_by_name;
  each_case(fresh, [&](const std::string& name, const Json& c) { fresh_by_name[name] = &c; });

  int failures = 0;
  std::string where;
  if (!Same(checked_in["tolerance"], fresh["tolerance"], "tolerance", where) ||
      checked_in["server_args"] != fresh["server_args"]) {
    std::cerr << "FAIL header: " << where << "\n";
    ++failures;
  }
  std::map<std::string, bool> seen;
  each_case(checked_in, [&](const std::string& name, const Json& c) {
    seen[name] = true;
    const auto it = fresh_by_name.find(name);
    if (it == fresh_by_name.end()) {
      std::cerr << "FAIL " << name << ": the core no longer answers it with status kOk (or it was removed)\n";
      ++failures;
    } else if (!Same(*it->second, c, name, where)) {
      std::cerr << "FAIL " << where << "\n";
      ++failures;
    }
  });
  int added = 0;
  for (const auto& [name, _] : fresh_by_name) added += seen.count(name) ? 0 : 1;
  std::cout << seen.size() << " golden cases checked, " << failures << " differ from the core; " << added
            << " new cases the core now answers"
            << (added ? " (regenerate: ninja -C build regenerate_golden)" : "") << "\n";
  if (failures) {
    std::cerr << "If the core's answers changed on purpose, regenerate deliberately: "
                 "ninja -C build regenerate_golden, and review the diff.\n";
  }
  return failures ? 1 : 0;
}

int Write(const std::string& file, const Json& golden) {
  std::ofstream out(file);
  // One case per line: compact, and a diff names the cases that changed.
  out << "{\"tolerance\": " << golden["tolerance"].dump()
      << ",\n\"server_args\": " << golden["server_args"].dump();
  for (const char* list : {"cases", "stream_cases"}) {
    if (!golden.contains(list)) continue;
    out << ",\n\"" << list << "\": [\n";
    const Json& cases = golden[list];
    for (size_t i = 0; i < cases.size(); ++i) {
      const Json& c = cases[i];
      if (c.contains("steps")) {  // A world script: one step per line.
        out << "{\"name\": " << c["name"].dump() << ", \"steps\": [\n";
        for (size_t j = 0; j < c["steps"].size(); ++j) {
          const Json& step = c["steps"][j];
          if (step.contains("tick")) {  // A Tick stream: one message per line.
            out << "  {\"tick\": [\n";
            for (size_t k = 0; k < step["tick"].size(); ++k)
              out << "    " << step["tick"][k].dump() << (k + 1 < step["tick"].size() ? ",\n" : "\n");
            out << "  ]}";
          } else {
            out << "  " << step.dump();
          }
          out << (j + 1 < c["steps"].size() ? ",\n" : "\n");
        }
        out << "]}";
      } else {
        out << c.dump();
      }
      out << (i + 1 < cases.size() ? ",\n" : "\n");
    }
    out << "]";
  }
  out << "}\n";
  if (!out) {
    std::cerr << "cannot write " << file << "\n";
    return 2;
  }
  std::cout << "wrote " << golden["cases"].size() << " cases to " << file << "\n";
  return 0;
}

}  // namespace
}  // namespace collide::conformance

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  const std::string out = absl::GetFlag(FLAGS_out), check = absl::GetFlag(FLAGS_check);
  if (out.empty() == check.empty()) {
    std::cerr << "usage: generate_golden --out=FILE | --check=FILE\n";
    return 2;
  }
  using namespace collide::conformance;
  const Json golden = absl::GetFlag(FLAGS_world) ? BuildWorldGolden() : BuildGolden();
  return check.empty() ? Write(out, golden) : Check(check, golden);
}
