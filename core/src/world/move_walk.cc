#include "world/move_walk.h"

#include <algorithm>
#include <cmath>

#include "world/move_sweep.h"

namespace collide::internal {
namespace {

// A game frame: Quake's clients send 8-16 ms commands; 16 ms frames are the
// fewest sweeps that still step and land where the game's frames do.
constexpr double kFrame = 0.016;
// Planes a frame slides along (PM_SlideMove's four traces).
constexpr int kSlides = 3;

struct Leg {
  Vec3 end;
  bool blocked = false;
};

// The body's boxes (PlaceBoxes) at `p` moved by `delta`, sliding `slides`
// times along what it meets.
Leg Sweep(const Scene& scene, const ModelMove& m, const Vec3& p, const Vec3& delta, double skin, int slides,
          std::vector<Shape>& shapes) {
  PlaceBoxes(m, p, shapes);
  const PathSweep r = SweepPath(scene, shapes, p, delta, m.mask, skin, slides);
  return {r.blocked ? r.slid : p + delta, r.blocked};
}

// One frame of PM_StepSlideMove: slide by `delta`; when blocked, the same
// slide a step higher, then down by as much as it rose (the game keeps the
// stepped result). Rising in the air, it steps only with walkable ground
// within a step below ("never step up when you still have up velocity").
Leg StepSlide(const Scene& scene, const ModelMove& m, const Vec3& p, const Vec3& delta, bool rising,
              double skin, std::vector<Shape>& shapes) {
  const Leg flat = Sweep(scene, m, p, delta, skin, kSlides, shapes);
  if (!flat.blocked) return flat;
  const double step = m.model->step_height;
  if (rising && !GroundUnder(scene, m, p, step, shapes, "walk step probe").walkable) return flat;
  const Vec3 top = Sweep(scene, m, p, {0, 0, step}, skin, 0, shapes).end;
  const Leg across = Sweep(scene, m, top, delta, skin, kSlides, shapes);
  return {Sweep(scene, m, across.end, {0, 0, p.z - top.z}, skin, 0, shapes).end, true};
}

}  // namespace

Walk WalkFrames(const Scene& scene, const ModelMove& traced, const Vec3& aim, double elapsed, bool grounded,
                double vz, double skin, std::vector<Shape>& shapes) {
  // A search, not a rule: its sweeps stay out of the move's explanation.
  ModelMove m = traced;
  m.trace = nullptr;
  const MovementModel& model = *m.model;
  const int n = std::clamp(static_cast<int>(std::lround(elapsed / kFrame)), 1, Walk::kMaxFrames);
  const double dt = elapsed / n, probe = model.ground_probe + skin;
  Vec3 p = m.from, floor_normal{0, 0, 1};
  Walk walk;
  for (int k = 0; k < n; ++k) {
    const double left = elapsed - k * dt;
    Vec3 delta{(aim.x - p.x) * dt / left, (aim.y - p.y) * dt / left, 0.0};
    if (grounded) {
      // PM_WalkMove: along the ground's plane.
      delta.z = -(delta.x * floor_normal.x + delta.y * floor_normal.y) / floor_normal.z;
    } else {
      const double v_end = std::max(vz - model.gravity * dt, -model.max_fall_speed);
      delta.z = 0.5 * (vz + v_end) * dt;
      vz = v_end;
    }
    const Leg leg = StepSlide(scene, m, p, delta, !grounded && vz > 0.0, skin, shapes);
    // A ceiling stops a rise (PM_ClipVelocity).
    if (!grounded && vz > 0.0 && leg.end.z < p.z + delta.z - skin) vz = 0.0;
    p = leg.end;
    // PM_GroundTrace: a body rising off the ground is not on it unless the
    // frame met it (its velocity clipped along the plane).
    const Ground g = GroundUnder(scene, m, p, probe, shapes, "walk ground probe");
    const bool was_grounded = grounded;
    grounded = g.walkable && (vz <= 0.0 || leg.blocked);
    if (grounded) {
      vz = 0.0;
      floor_normal = g.probe.normal;
    } else if (was_grounded) {
      vz = 0.0;  // walked off an edge: falls from rest
    }
    walk.frames[walk.count++] = {(k + 1) * dt, p, grounded, floor_normal};
  }
  return walk;
}

}  // namespace collide::internal
