// Move validation (docs/worlds.md, "Verdicts"): speed, then the start pose
// against the statics, then a sweep of the movement shape with up to
// slide_iterations slides along the contact planes (the character
// controller loop of Quake's PM_SlideMove and Jolt's CharacterVirtual, on
// planes only: no step-up, no ground snapping).
//
// skin_width is a tolerance band: a start overlap up to it is allowed, and a
// sweep registers a contact only where the shape would go deeper than it
// (a body on a floor crosses the floor triangles' shared edges, which it
// touches but never enters). The verdict reports the first contact (signed
// distance 0) with the static that blocks, and an allowed position at a gap
// of skin_width from it.
#include <algorithm>
#include <span>
#include <vector>

#include "collide/query.h"
#include "mesh/mesh_broadphase.h"
#include "shapes/shape_bounds.h"
#include "world/body_tree.h"
#include "world/scene_query.h"

namespace collide {
namespace {

// The deepest overlap of `shapes` with the statics in `mask`, deeper than
// `allowed` (a start inside geometry); found is false when none.
struct Penetration {
  bool found = false;
  double depth = 0.0;
  Vec3 normal;
  HitTarget target;
};
Penetration DeepestStart(const internal::StaticSet& statics, std::span<const Shape> shapes, CategoryMask mask,
                         double allowed) {
  Penetration deepest;
  std::vector<std::uint32_t> triangles;
  const auto offer = [&](const Shape& s, const Shape& other, const HitTarget& target) {
    const PairResult c = Contact(s, other);
    if (!c.hit || -c.distance <= allowed) return;
    if (!deepest.found || -c.distance > deepest.depth) deepest = {true, -c.distance, c.normal, target};
  };
  for (const Shape& s : shapes) {
    const Aabb box = internal::BoundsOf(s);
    for (std::size_t i = 0; i < statics.elements.size(); ++i) {
      const StaticElement& e = statics.elements[i];
      if ((e.category & mask) == 0 || !internal::Overlaps(statics.bounds[i], box)) continue;
      if (const TriangleMesh* mesh = statics.MeshOf(i)) {
        OverlapTriangles(*mesh, s, mesh->triangle_count(), triangles);
        for (std::uint32_t t : triangles) offer(s, mesh->triangle(t), {HitTarget::Kind::kStatic, e.id, t, 0});
      } else {
        offer(s, *statics.ShapeOf(i), {HitTarget::Kind::kStatic, e.id, 0, 0});
      }
    }
  }
  return deepest;
}

// Whether nothing static in `mask` is near `shape` moved by `translation`: no
// element's bounds and no mesh triangle's box touch the swept box, the box
// CastShape filters the first sweep by (the same arithmetic). The start box
// lies inside it, so DeepestStart would test nothing either: the move is OK
// without running them. Most moves in a match are (81% of a 64-player match
// on OpenArena's aggressor), and their cost was two BVH traversals with
// nothing at the end.
bool SweptBoxIsClear(const internal::StaticSet& statics, const Shape& shape, const Vec3& translation,
                     CategoryMask mask) {
  const Aabb start = internal::BoundsOf(shape);
  const Aabb box{Min(start.min, start.min + translation), Max(start.max, start.max + translation)};
  for (std::size_t i = 0; i < statics.elements.size(); ++i) {
    if ((statics.elements[i].category & mask) == 0 || !internal::Overlaps(statics.bounds[i], box)) continue;
    const TriangleMesh* mesh = statics.MeshOf(i);
    if (mesh == nullptr || internal::AnyTriangleBoxTouches(*mesh, box)) return false;
  }
  return true;
}

// The earliest contact deeper than `skin` of any of `shapes` moved by
// `translation`, and which shape made it.
struct Contact {
  internal::SceneCast cast;
  std::size_t shape = 0;
};
Contact FirstContact(const internal::Scene& scene, std::span<const Shape> shapes, const Vec3& translation,
                     const QueryFilter& filter, double skin) {
  internal::SweepOptions options;
  options.margin = skin;
  options.start_contacts_block = false;
  Contact best;
  for (std::size_t k = 0; k < shapes.size(); ++k) {
    const internal::SceneCast c = internal::CastShape(scene, shapes[k], translation, filter, false, options);
    if (c.sweep.hit && (!best.cast.sweep.hit || c.sweep.t < best.cast.sweep.t)) best = {c, k};
  }
  return best;
}

// Where `shape` moved by `translation` first touches (signed distance 0) the
// static that it enters skin deep at contact.sweep.t: an exact sweep against
// that element alone (the contact itself if rounding finds no earlier touch).
SweepResult FirstTouch(const internal::StaticSet& statics, const Shape& shape, const Vec3& translation,
                       const internal::SceneCast& contact) {
  const TriangleMesh* mesh = statics.MeshOf(contact.element);
  const Shape target = mesh != nullptr ? Shape{mesh->triangle(contact.target.triangle)}
                                       : *statics.ShapeOf(contact.element);
  const SweepResult touch = ShapeCast(shape, translation, target);
  return touch.hit && touch.t <= contact.sweep.t ? touch : contact.sweep;
}

// The position a body starting a move without `from` is taken from: its
// position in the frame before the latest, or in the latest when it is new
// there, teleported there, or only one frame is kept.
Vec3 DefaultFrom(const World& world, const internal::BodyState& latest_state) {
  const auto& history = internal::SceneAccess::History(world);
  const internal::BodyState* before =
      history.size() >= 2 && !latest_state.teleported ? history[history.size() - 2]->Find(latest_state.id) : nullptr;
  return (before != nullptr ? before : &latest_state)->pose.position;
}

MoveVerdict Judge(const World& world, const MoveRequest& move) {
  MoveVerdict v;
  if (move.from && !IsValidNumber(*move.from)) v.problems.push_back({"from", "not a valid number"});
  if (!IsValidNumber(move.to)) v.problems.push_back({"to", "not a valid number"});
  if (!(move.elapsed > 0.0) || !IsValidNumber(move.elapsed))
    v.problems.push_back({"elapsed", "must be > 0 seconds"});
  if (move.max_speed && (!(*move.max_speed >= 0.0) || !IsValidNumber(*move.max_speed))) {
    v.problems.push_back({"max_speed", "must be a valid number >= 0"});
  }
  if (!v.problems.empty()) {
    v.code = MoveCode::kInvalid;
    return v;
  }
  const internal::Snapshot* latest = internal::SceneAccess::Latest(world);
  const internal::BodyState* body = latest != nullptr ? latest->Find(move.body) : nullptr;
  if (body == nullptr) {
    v.code = MoveCode::kUnknownBody;
    return v;
  }
  const WorldSettings& settings = world.settings();
  const Vec3 from = move.from ? *move.from : DefaultFrom(world, *body);
  const Vec3 delta = move.to - from;
  v.allowed_position = v.slid_position = from;
  v.speed = Length(delta) / move.elapsed;
  const double max_speed = move.max_speed.value_or(settings.default_max_speed);
  if (v.speed > max_speed * (1.0 + 1e-12)) {
    v.code = MoveCode::kTooFast;
    return v;
  }
  // The moving shapes at `from`, with the body's latest orientation.
  // (A movement shape without a vector: one malloc less per move.)
  const Pose start{from, body->pose.rotation};
  Shape movement;
  std::vector<Shape> parts;
  if (body->movement) {
    movement = PlaceShape(*body->movement, start);
  } else {
    for (std::size_t k = 0; k < body->parts->shapes.size(); ++k) {
      parts.push_back(PlaceShape(body->parts->shapes[k], Compose(start, (*body->part_poses)[k])));
    }
  }
  const std::span<const Shape> shapes = body->movement ? std::span<const Shape>(&movement, 1) : parts;
  const internal::StaticSet& statics = internal::SceneAccess::Statics(world);
  if (std::all_of(shapes.begin(), shapes.end(),
                  [&](const Shape& s) { return SweptBoxIsClear(statics, s, delta, move.mask); })) {
    v.allowed_position = v.slid_position = move.to;
    return v;
  }
  if (const Penetration p = DeepestStart(statics, shapes, move.mask, settings.skin_width); p.found) {
    v.code = MoveCode::kStartPenetrating;
    v.depth = p.depth;
    v.normal = p.normal;
    v.target = p.target;
    return v;
  }
  const internal::Scene scene = internal::SceneAccess::At(world, std::nullopt);
  QueryFilter filter;
  filter.mask = move.mask;
  Vec3 position = from;
  Vec3 remaining = delta;
  const int sweeps = move.slide ? settings.slide_iterations + 1 : 1;
  std::vector<Shape> moved;
  for (int k = 0; k < sweeps && LengthSquared(remaining) > 0.0; ++k) {
    moved.clear();
    for (const Shape& s : shapes) moved.push_back(internal::TranslateShape(s, position - from, nullptr));
    const Contact contact = FirstContact(scene, moved, remaining, filter, settings.skin_width);
    const internal::SceneCast& c = contact.cast;
    if (!c.sweep.hit) {
      position += remaining;
      remaining = {};
      break;
    }
    // The shape is skin deep at c.sweep.t; its signed distance along the
    // motion is convex with slope -closing there, so backing off by
    // 2 skin / closing leaves a gap of at least skin (exactly skin against a
    // face), at most back to the start of this sweep.
    const double closing = Dot(remaining, c.sweep.normal);
    const double t =
        closing > 0.0 ? std::max(0.0, c.sweep.t - 2.0 * settings.skin_width / closing) : c.sweep.t;
    if (v.code != MoveCode::kBlocked) {  // The first sweep: `remaining` is the whole move.
      v.code = MoveCode::kBlocked;
      const SweepResult touch = FirstTouch(statics, moved[contact.shape], remaining, c);
      v.t = touch.t;
      v.normal = touch.normal;
      v.target = c.target;
      v.allowed_position = position + remaining * t;
    }
    position += remaining * t;
    remaining = remaining * (1.0 - t);
    // Slide: drop the part of the rest of the move that goes into the plane.
    const double into = Dot(remaining, c.sweep.normal);
    if (into > 0.0) remaining -= c.sweep.normal * into;
  }
  if (v.code == MoveCode::kBlocked) {
    v.slid_position = move.slide ? position : v.allowed_position;
  } else {
    v.allowed_position = v.slid_position = move.to;
  }
  return v;
}

}  // namespace

std::vector<MoveVerdict> World::ValidateMoves(std::span<const MoveRequest> moves) const {
  std::vector<MoveVerdict> out;
  out.reserve(moves.size());
  for (const MoveRequest& move : moves) out.push_back(Judge(*this, move));
  return out;
}

}  // namespace collide
