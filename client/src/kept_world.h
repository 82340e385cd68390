// What a WorldClient keeps of a world it created, to re-create it when the
// server lost it (world_client.h, "Lost worlds"): the creation request, and
// every body's latest state folded from the frames the server accepted.
#ifndef COLLIDE_CLIENT_SRC_KEPT_WORLD_H_
#define COLLIDE_CLIENT_SRC_KEPT_WORLD_H_

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "collide/v1/world.pb.h"
#include "collide/world.h"

namespace collide {

class KeptBodies {
 public:
  // Folds an accepted frame in, with the frame semantics of world.h: a body
  // not mentioned keeps its state; a non-empty part list replaces the part
  // set; part poses, category and movement shape replace what they name;
  // removals drop bodies. Frames with a tick not after the latest are
  // ignored (the server accepted them in tick order).
  void Apply(const Frame& frame);
  // One frame at the latest tick holding every body whole (pose, parts with
  // their current local poses, category, movement shape), in id order;
  // nullopt before the first frame.
  std::optional<Frame> Snapshot() const;
  std::size_t size() const { return bodies_.size(); }

 private:
  struct Body {
    Pose pose;
    std::vector<BodyPart> parts;
    std::optional<Shape> movement_shape;
    std::optional<CategoryMask> category;
  };
  std::optional<std::int64_t> latest_tick_;
  std::map<std::int64_t, Body> bodies_;
};

struct KeptWorld {
  v1::CreateWorldRequest request;
  KeptBodies bodies;
};

}  // namespace collide

#endif  // COLLIDE_CLIENT_SRC_KEPT_WORLD_H_
