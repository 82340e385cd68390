// The bodies at a time as the verdicts see them (World::Bodies): the rewound
// hitboxes a viewer draws, and the posed bodies of the shot explanations.
#include <algorithm>

#include "world/scene.h"

namespace collide {
namespace internal {

collide::PosedBody PoseBody(const Scene& scene, std::size_t i) {
  std::vector<PlacedPart> placed;
  scene.PlaceParts(i, placed);
  const BodyState& state = scene.body(i);
  collide::PosedBody out;
  out.id = state.id;
  out.pose = scene.BodyPose(i);
  out.category = state.category;
  out.eye = Apply(out.pose, state.eye);
  out.parts.reserve(placed.size());
  for (PlacedPart& p : placed) out.parts.push_back({p.id, std::move(p.shape)});
  return out;
}

std::optional<collide::PosedBody> PoseBodyAt(const World& world, std::int64_t id, std::optional<Time> at) {
  const Scene scene = SceneAccess::At(world, at);
  const std::size_t i = scene.s0 != nullptr ? scene.s0->IndexOf(id) : 0;
  if (i == scene.body_count()) return std::nullopt;
  return PoseBody(scene, i);
}

}  // namespace internal

BodiesResult World::Bodies(std::optional<Time> at, std::span<const std::int64_t> ids) const {
  BodiesResult r;
  const std::optional<internal::Scene> scene = internal::Begin(*this, at, r);
  if (!scene) return r;
  if (ids.empty()) {
    r.bodies.reserve(scene->body_count());
    for (std::size_t i = 0; i < scene->body_count(); ++i) r.bodies.push_back(internal::PoseBody(*scene, i));
    return r;
  }
  std::vector<std::int64_t> wanted(ids.begin(), ids.end());
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  for (const std::int64_t id : wanted) {
    const std::size_t i = scene->s0 != nullptr ? scene->s0->IndexOf(id) : 0;
    if (i == scene->body_count()) {
      r.missing.push_back(id);
    } else {
      r.bodies.push_back(internal::PoseBody(*scene, i));
    }
  }
  return r;
}

}  // namespace collide
