#include "support/player_hitboxes.h"

namespace collide::testing {

std::vector<BodyPart> PlayerHitboxes() {
  std::vector<BodyPart> parts;
  std::int32_t id = 0;
  const auto add = [&](const Shape& s) { parts.push_back({id++, s, Pose{}}); };
  add(Sphere{{0, 0, 50}, 5});
  add(Capsule{{0, 0, 43}, {0, 0, 46}, 3});
  add(Aabb{{-6, -9, 32}, {6, 9, 42}});
  add(Aabb{{-5, -8, 25}, {5, 8, 32}});
  add(Aabb{{-5, -8, 20}, {5, 8, 25}});
  for (double side : {-1.0, 1.0}) {
    add(Capsule{{0, side * 11, 40}, {0, side * 12, 31}, 2.5});
    add(Capsule{{0, side * 12, 31}, {3, side * 12, 23}, 2});
    add(Capsule{{0, side * 4, 20}, {0, side * 4, 11}, 3.5});
    add(Capsule{{0, side * 4, 11}, {0, side * 4, 3}, 3});
    add(Obb::FromQuat({3, side * 4, 1.5}, Quat{}, {4, 2, 1.5}));
  }
  add(Sphere{{4, 12, 21}, 2});
  return parts;
}

}  // namespace collide::testing
