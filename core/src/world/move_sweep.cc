// The sweep of a move (docs/worlds.md, "Verdicts"): a sweep of the moving
// shapes with up to `slides` slides along the contact planes (the character
// controller loop of Quake's PM_SlideMove and Jolt's CharacterVirtual).
//
// skin_width is a tolerance band: a start overlap up to it is allowed, and a
// sweep registers a contact only where the shape would go deeper than it
// (a body on a floor crosses the floor triangles' shared edges, which it
// touches but never enters). The verdict reports the first contact (signed
// distance 0) with the static that blocks, and an allowed position at a gap
// of skin_width from it.
#include "world/move_sweep.h"

#include <algorithm>

#include "collide/query.h"
#include "mesh/mesh_broadphase.h"
#include "shapes/shape_bounds.h"
#include "world/body_tree.h"
#include "world/scene_query.h"

namespace collide::internal {
namespace {

// The earliest contact deeper than `skin` of any of `shapes` moved by
// `translation`, and which shape made it.
struct FirstHit {
  SceneCast cast;
  std::size_t shape = 0;
};
FirstHit FirstContact(const Scene& scene, std::span<const Shape> shapes, const Vec3& translation,
                      const QueryFilter& filter, double skin) {
  SweepOptions options;
  options.margin = skin;
  options.start_contacts_block = false;
  FirstHit best;
  for (std::size_t k = 0; k < shapes.size(); ++k) {
    const SceneCast c = CastShape(scene, shapes[k], translation, filter, false, options);
    if (c.sweep.hit && (!best.cast.sweep.hit || c.sweep.t < best.cast.sweep.t)) best = {c, k};
  }
  return best;
}

// Where `shape` moved by `translation` first touches (signed distance 0) the
// static that it enters skin deep at contact.sweep.t: an exact sweep against
// that element alone (the contact itself if rounding finds no earlier touch).
SweepResult FirstTouch(const StaticSet& statics, const Shape& shape, const Vec3& translation,
                       const SceneCast& contact) {
  const TriangleMesh* mesh = statics.MeshOf(contact.element);
  const Shape target =
      mesh != nullptr ? Shape{mesh->triangle(contact.target.triangle)} : *statics.ShapeOf(contact.element);
  const SweepResult touch = ShapeCast(shape, translation, target);
  return touch.hit && touch.t <= contact.sweep.t ? touch : contact.sweep;
}

// Whether nothing static in `mask` is near `shape` moved by `translation`: no
// element's bounds and no mesh triangle's box touch the swept box, the box
// CastShape filters the first sweep by (the same arithmetic). The start box
// lies inside it, so DeepestStart would test nothing either: the move is OK
// without running them. Most moves in a match are (81% of a 64-player match
// on OpenArena's aggressor), and their cost was two BVH traversals with
// nothing at the end.
bool SweptBoxIsClear(const StaticSet& statics, const Shape& shape, const Vec3& translation,
                     CategoryMask mask) {
  const Aabb start = BoundsOf(shape);
  const Aabb box{Min(start.min, start.min + translation), Max(start.max, start.max + translation)};
  for (std::size_t i = 0; i < statics.elements.size(); ++i) {
    if ((statics.elements[i].category & mask) == 0 || !Overlaps(statics.bounds[i], box)) continue;
    const TriangleMesh* mesh = statics.MeshOf(i);
    if (mesh == nullptr || AnyTriangleBoxTouches(*mesh, box)) return false;
  }
  return true;
}

}  // namespace

Penetration DeepestStart(const StaticSet& statics, std::span<const Shape> shapes, CategoryMask mask,
                         double allowed) {
  Penetration deepest;
  std::vector<std::uint32_t> triangles;
  const auto offer = [&](const Shape& s, const Shape& other, const HitTarget& target) {
    const PairResult c = collide::Contact(s, other);
    if (!c.hit || -c.distance <= allowed) return;
    if (!deepest.found || -c.distance > deepest.depth) deepest = {true, -c.distance, c.normal, target};
  };
  for (const Shape& s : shapes) {
    const Aabb box = BoundsOf(s);
    for (std::size_t i = 0; i < statics.elements.size(); ++i) {
      const StaticElement& e = statics.elements[i];
      if ((e.category & mask) == 0 || !Overlaps(statics.bounds[i], box)) continue;
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

bool SweptBoxesAreClear(const StaticSet& statics, std::span<const Shape> shapes, const Vec3& translation,
                        CategoryMask mask) {
  return std::all_of(shapes.begin(), shapes.end(),
                     [&](const Shape& s) { return SweptBoxIsClear(statics, s, translation, mask); });
}

PathSweep SweepPath(const Scene& scene, std::span<const Shape> shapes, const Vec3& from, const Vec3& delta,
                    CategoryMask mask, double skin, int slides, MoveTrace* trace, std::string_view purpose) {
  PathSweep out;
  QueryFilter filter;
  filter.mask = mask;
  Vec3 position = from;
  Vec3 remaining = delta;
  std::vector<Shape> moved;
  for (int k = 0; k <= slides && LengthSquared(remaining) > 0.0; ++k) {
    moved.clear();
    for (const Shape& s : shapes) moved.push_back(TranslateShape(s, position - from, nullptr));
    const FirstHit contact = FirstContact(scene, moved, remaining, filter, skin);
    const SceneCast& c = contact.cast;
    if (trace != nullptr) {
      const int leg = trace->Sweep(position, position + remaining, k == 0 ? purpose : "slide");
      if (c.sweep.hit) trace->Contact(leg, c.sweep.t, c.sweep.normal, c.target);
    }
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
    const double t = closing > 0.0 ? std::max(0.0, c.sweep.t - 2.0 * skin / closing) : c.sweep.t;
    if (!out.blocked) {  // The first sweep: `remaining` is the whole move.
      out.blocked = true;
      const SweepResult touch = FirstTouch(*scene.statics, moved[contact.shape], remaining, c);
      out.t = touch.t;
      out.normal = touch.normal;
      out.target = c.target;
      out.allowed = position + remaining * t;
    }
    position += remaining * t;
    remaining = remaining * (1.0 - t);
    // Slide: drop the part of the rest of the move that goes into the plane.
    const double into = Dot(remaining, c.sweep.normal);
    if (into > 0.0) remaining -= c.sweep.normal * into;
  }
  if (out.blocked) {
    out.slid = slides > 0 ? position : out.allowed;
  } else {
    out.allowed = out.slid = from + delta;
  }
  return out;
}

void PlaceMoving(const BodyState& body, const Shape* shape, const Vec3& position, std::vector<Shape>& out) {
  out.clear();
  const Pose start{position, body.pose.rotation};
  if (shape == nullptr && body.movement) shape = body.movement.get();
  if (shape != nullptr) {
    out.push_back(PlaceShape(*shape, start));
    return;
  }
  for (std::size_t k = 0; k < body.parts->shapes.size(); ++k) {
    out.push_back(PlaceShape(body.parts->shapes[k], Compose(start, (*body.part_poses)[k])));
  }
}

}  // namespace collide::internal
