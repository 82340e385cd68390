#include "kept_world.h"

#include <algorithm>

namespace collide {

void KeptBodies::Apply(const Frame& frame) {
  if (latest_tick_ && frame.tick <= *latest_tick_) return;
  latest_tick_ = frame.tick;
  for (const BodyUpdate& u : frame.bodies) {
    Body& b = bodies_[u.id];
    if (u.pose) b.pose = *u.pose;
    if (!u.parts.empty()) b.parts = u.parts;
    for (const PartPose& p : u.part_poses) {
      const auto part =
          std::find_if(b.parts.begin(), b.parts.end(), [&p](const BodyPart& q) { return q.id == p.part; });
      if (part != b.parts.end()) part->local = p.local;
    }
    if (u.movement_shape) b.movement_shape = u.movement_shape;
    if (u.category) b.category = u.category;
  }
  for (std::int64_t id : frame.removals) bodies_.erase(id);
}

std::optional<Frame> KeptBodies::Snapshot() const {
  if (!latest_tick_) return std::nullopt;
  Frame out{*latest_tick_, {}, {}};
  out.bodies.reserve(bodies_.size());
  for (const auto& [id, b] : bodies_) {
    BodyUpdate u;
    u.id = id;
    u.pose = b.pose;
    u.parts = b.parts;
    u.movement_shape = b.movement_shape;
    u.category = b.category;
    out.bodies.push_back(std::move(u));
  }
  return out;
}

}  // namespace collide
