// The movement model's rules (collide/movement.h; docs/moves.md): speeds,
// the path with steps, the ground, and the airborne arc.
#include "world/move_model.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "world/arc.h"
#include "world/ground.h"
#include "world/move_sweep.h"

namespace collide::internal {
namespace {

// Rise per unit of horizontal travel on the steepest walkable slope.
double SlopeRise(const MovementModel& model) {
  const double w = model.walkable_normal_z;
  return std::sqrt(std::max(0.0, 1.0 - w * w)) / w;
}

// Whether the step path is clear: up by the rise (and two skins of
// clearance), across, and down onto `to` (PM_StepSlideMove's up, across and
// down traces, up only as far as the step needs).
bool StepPathIsClear(const Scene& scene, const ModelMove& m, const Vec3& to, double skin,
                     std::vector<Shape>& shapes) {
  const Vec3 from = m.from;
  const double lift = std::max(to.z - from.z, 0.0) + 2.0 * skin;
  const Vec3 up{from.x, from.y, from.z + lift};
  const Vec3 over{to.x, to.y, up.z};
  PlaceMoving(*m.body, &m.stance->shape, from, shapes);
  if (SweepPath(scene, shapes, from, up - from, m.mask, skin, 0).blocked) return false;
  PlaceMoving(*m.body, &m.stance->shape, up, shapes);
  if (SweepPath(scene, shapes, up, over - up, m.mask, skin, 0).blocked) return false;
  PlaceMoving(*m.body, &m.stance->shape, over, shapes);
  return !SweepPath(scene, shapes, over, to - over, m.mask, skin, 0).blocked;
}

// The highest point of the arc `s` (take-off speed v) between air times t0
// and t1, above its take-off height.
double HighestBetween(const Arc& arc, double v, double t0, double t1) {
  const double apex = std::clamp(v / arc.gravity, t0, t1);
  return arc.Height(v, apex);
}

// The take-off speeds of `s` that also put the body at height z after
// `elapsed` more seconds (within tolerance; a landing up to `step` above the
// arc: a step up on landing). Empty when lo > hi; need_lo/need_hi are the
// speeds this move alone asks.
struct Fit {
  double lo, hi, need_lo, need_hi;
  bool ok() const { return lo <= hi; }
};
Fit FitArc(const Arc& arc, const MoveState& s, double elapsed, double z, double tolerance, double step) {
  const double t = s.air_time + elapsed, dz = z - s.z0;
  Fit f;
  f.need_lo = arc.SpeedFor(dz - tolerance - step, t);
  f.need_hi = arc.SpeedFor(dz + tolerance, t);
  f.lo = std::max(s.v_lo, f.need_lo);
  f.hi = std::min(s.v_hi, f.need_hi);
  return f;
}

}  // namespace

void JudgeWithModel(const World& world, const MoveRequest& move, const ModelMove& m,
                    std::optional<MoveState>& state, MoveVerdict& v) {
  const MovementModel& model = *m.model;
  const double skin = world.settings().skin_width, tolerance = model.tolerance, elapsed = move.elapsed;
  const Vec3 from = m.from, to = move.to, delta = to - from;
  const Scene scene = SceneAccess::At(world, std::nullopt);
  const Arc arc{model.gravity, model.max_fall_speed};
  std::vector<Shape> shapes;
  PlaceMoving(*m.body, &m.stance->shape, from, shapes);
  if (!state) {  // Unknown: airborne with any speed unless on the ground.
    state = MoveState{};
    if (!FindGround(scene, shapes, model.ground_probe + skin, model.walkable_normal_z, m.mask).walkable) {
      state = MoveState{true, 0.0, from.z, -model.max_fall_speed, model.jump_speed};
    }
  }
  const bool grounded_start = !state->airborne;

  // Speeds: horizontal by where the move starts; vertical bounds that hold
  // on any path (a step, the steepest slope, a jump; a fall at the terminal
  // speed).
  const double across = std::hypot(delta.x, delta.y);
  if (across > (grounded_start ? m.stance->max_speed : model.air_speed) * elapsed + tolerance) {
    v.code = MoveCode::kTooFastHorizontal;
    return;
  }
  const double slope = across * SlopeRise(model);
  const double jump = HighestBetween(arc, model.jump_speed, 0.0, elapsed);
  if (delta.z > model.step_height + slope + jump + tolerance ||
      delta.z < -(model.step_height + slope + model.max_fall_speed * elapsed + tolerance)) {
    v.code = MoveCode::kTooFastVertical;
    return;
  }

  // The start pose and the path: straight, or up a step.
  const StaticSet& statics = *scene.statics;
  if (!SweptBoxesAreClear(statics, shapes, delta, m.mask)) {
    if (const Penetration p = DeepestStart(statics, shapes, m.mask, skin); p.found) {
      v.code = MoveCode::kStartPenetrating;
      v.depth = p.depth;
      v.normal = p.normal;
      v.target = p.target;
      return;
    }
    const PathSweep direct = SweepPath(scene, shapes, from, delta, m.mask, skin, 0);
    std::vector<Shape> scratch;
    if (direct.blocked && (delta.z > model.step_height + skin || !StepPathIsClear(scene, m, to, skin, scratch))) {
      v.code = grounded_start && delta.z > model.step_height + skin ? MoveCode::kStepTooHigh : MoveCode::kBlocked;
      v.t = direct.t;
      v.normal = direct.normal;
      v.target = direct.target;
      v.allowed_position = direct.allowed;
      v.slid_position = move.slide
                            ? SweepPath(scene, shapes, from, delta, m.mask, skin, world.settings().slide_iterations).slid
                            : direct.allowed;
      return;
    }
  }

  // The ground at `to`, and the arc when airborne at either end.
  PlaceMoving(*m.body, &m.stance->shape, to, shapes);
  const Ground ground = FindGround(scene, shapes, model.ground_probe + skin, model.walkable_normal_z, m.mask);
  v.grounded = ground.walkable;
  v.allowed_position = v.slid_position = to;
  if (!model.airborne_envelope || (grounded_start && ground.walkable)) {
    state = ground.walkable ? MoveState{} : MoveState{true, 0.0, to.z, -model.max_fall_speed, model.jump_speed};
    return;
  }
  MoveState s = *state;
  if (grounded_start) s = {true, 0.0, from.z, -m.stance->max_speed * SlopeRise(model), model.jump_speed};
  const double landing = ground.walkable ? model.step_height : 0.0;
  Fit fit = FitArc(arc, s, elapsed, to.z, tolerance, landing);
  if (!fit.ok() && fit.need_hi < s.v_lo) {
    // Below every arc: a ceiling met on the way up stops the rise (vz = 0).
    const double top = s.z0 + HighestBetween(arc, s.v_hi, s.air_time, s.air_time + elapsed);
    PlaceMoving(*m.body, &m.stance->shape, from, shapes);
    if (Cast(scene, shapes, {0, 0, std::max(top - from.z, 0.0) + tolerance}, m.mask).hit) {
      s = {true, 0.0, from.z, -model.max_fall_speed, 0.0};
      fit = FitArc(arc, s, elapsed, to.z, tolerance, landing);
    }
  }
  if (!fit.ok()) {
    const bool above = fit.need_lo > s.v_hi;
    const bool steep = ground.probe.hit && !ground.walkable && ground.probe.normal.z > 0.0;
    v.code = above ? (steep ? MoveCode::kTooSteep : MoveCode::kFlying) : MoveCode::kTooFastVertical;
    // Where the arc allows: `to` at the nearest height of the arc (not
    // swept); the body's arc goes on from there.
    const double speed = above ? s.v_hi : s.v_lo;
    v.allowed_position = v.slid_position = {to.x, to.y, s.z0 + arc.Height(speed, s.air_time + elapsed)};
    state = MoveState{true, s.air_time + elapsed, s.z0, speed, speed};
    return;
  }
  state = ground.walkable ? MoveState{} : MoveState{true, s.air_time + elapsed, s.z0, fit.lo, fit.hi};
}

}  // namespace collide::internal
