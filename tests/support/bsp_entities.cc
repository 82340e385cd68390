#include "support/bsp_entities.h"

#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace collide::testing {
namespace {

std::uint32_t Le32(std::string_view s, std::size_t at) {
  std::uint32_t v = 0;
  for (int k = 3; k >= 0; --k) v = (v << 8) | static_cast<unsigned char>(s[at + k]);
  return v;
}

// Lump `i` of the header (17 lumps of offset, length after "IBSP" and the
// version), or empty when out of the file.
std::string_view Lump(std::string_view bsp, int i) {
  const std::int64_t offset = static_cast<std::int32_t>(Le32(bsp, 8 + 8 * i));
  const std::int64_t length = static_cast<std::int32_t>(Le32(bsp, 12 + 8 * i));
  if (offset < 0 || length < 0 || offset + length > static_cast<std::int64_t>(bsp.size())) return {};
  return bsp.substr(static_cast<std::size_t>(offset), static_cast<std::size_t>(length));
}

bool IsSpawn(const std::string& classname) {
  return classname == "info_player_deathmatch" || classname == "info_player_start" ||
         (classname.starts_with("team_CTF_") &&
          (classname.ends_with("player") || classname.ends_with("spawn")));
}

}  // namespace

BspEntities ReadBspEntities(std::string_view bsp) {
  BspEntities out;
  if (bsp.size() < 8 + 17 * 8 || bsp.substr(0, 4) != "IBSP" || Le32(bsp, 4) != 46) return out;
  const std::string_view text = Lump(bsp, 0), models = Lump(bsp, 7);
  constexpr std::size_t kModelBytes = 40;
  const auto model_bounds = [&](int m, Aabb& box) {
    if (m < 0 || (static_cast<std::size_t>(m) + 1) * kModelBytes > models.size()) return false;
    double v[6];
    for (int k = 0; k < 6; ++k) v[k] = std::bit_cast<float>(Le32(models, m * kModelBytes + 4 * k));
    box = {{v[0], v[1], v[2]}, {v[3], v[4], v[5]}};
    return true;
  };
  std::vector<std::string> tokens;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '{') {
      tokens.clear();
    } else if (c == '"') {
      const std::size_t end = text.find('"', i + 1);
      if (end == std::string_view::npos) break;
      tokens.emplace_back(text.substr(i + 1, end - i - 1));
      i = end;
    } else if (c == '}') {
      std::string classname, origin, model;
      for (std::size_t k = 0; k + 1 < tokens.size(); k += 2) {
        if (tokens[k] == "classname") classname = tokens[k + 1];
        if (tokens[k] == "origin") origin = tokens[k + 1];
        if (tokens[k] == "model") model = tokens[k + 1];
      }
      Vec3 p;
      Aabb box;
      if (IsSpawn(classname) && std::sscanf(origin.c_str(), "%lf %lf %lf", &p.x, &p.y, &p.z) == 3) {
        out.spawns.push_back(p);
      } else if (classname == "trigger_hurt" && model.starts_with("*") &&
                 model_bounds(std::atoi(model.c_str() + 1), box)) {
        out.hurt.push_back(box);
      }
    }
  }
  return out;
}

}  // namespace collide::testing
