// The movement model's rules (collide/movement.h; docs/moves.md): speeds,
// the path with steps, the ground, and the airborne arc.
#include "world/move_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "shapes/shape_bounds.h"
#include "world/arc.h"
#include "world/ground.h"
#include "world/move_sweep.h"
#include "world/move_walk.h"

namespace collide::internal {

void PlaceBoxes(const ModelMove& m, const Vec3& position, std::vector<Shape>& shapes) {
  PlaceMoving(*m.body, &m.stance->shape, position, shapes);
  for (Shape& s : shapes) s = BoundsOf(s);
}

// Found under the boxes (PlaceBoxes), a few units above what a round
// shape's own curve touches.
Ground GroundUnder(const Scene& scene, const ModelMove& m, const Vec3& position, double probe,
                   std::vector<Shape>& shapes, std::string_view purpose) {
  PlaceBoxes(m, position, shapes);
  const Ground g = FindGround(scene, shapes, probe, m.model->walkable_normal_z, m.mask);
  if (m.trace != nullptr) {
    const int sweep = m.trace->Sweep(position, position - Vec3{0, 0, probe}, purpose);
    if (g.probe.hit) m.trace->Contact(sweep, g.probe.distance / probe, -g.probe.normal, g.probe.target);
  }
  return g;
}

namespace {

// Rise per unit of horizontal travel on the steepest walkable slope.
double SlopeRise(const MovementModel& model) {
  const double w = model.walkable_normal_z;
  return std::sqrt(std::max(0.0, 1.0 - w * w)) / w;
}

// What an explanation calls the three sweeps of a lifted path.
struct LiftedPath {
  const char* up;
  const char* across;
  const char* down;
};
constexpr LiftedPath kStep{"step up", "step across", "step down"};
constexpr LiftedPath kJump{"jump up", "jump across", "jump down"};
constexpr LiftedPath kStairs{"stairs up", "stairs across", "stairs down"};

// Whether the step path is clear: up by the rise (and two skins of
// clearance), across (by way of `via`, at that height, when given), and down
// onto `to` (PM_StepSlideMove's up, across and down traces, up only as far
// as the step needs).
bool StepPathIsClear(const Scene& scene, const ModelMove& m, const Vec3& to, double skin,
                     std::vector<Shape>& shapes, const LiftedPath& names, const Vec3* via = nullptr) {
  const Vec3 from = m.from;
  const double lift = std::max(to.z - from.z, 0.0) + 2.0 * skin;
  Vec3 p{from.x, from.y, from.z + lift};
  PlaceMoving(*m.body, &m.stance->shape, from, shapes);
  if (SweepPath(scene, shapes, from, p - from, m.mask, skin, 0, m.trace, names.up).blocked) return false;
  for (const Vec3* q : {via, &to}) {
    if (q == nullptr) continue;
    const Vec3 next{q->x, q->y, p.z};
    PlaceMoving(*m.body, &m.stance->shape, p, shapes);
    if (SweepPath(scene, shapes, p, next - p, m.mask, skin, 0, m.trace, names.across).blocked) return false;
    p = next;
  }
  PlaceMoving(*m.body, &m.stance->shape, p, shapes);
  return !SweepPath(scene, shapes, p, to - p, m.mask, skin, 0, m.trace, names.down).blocked;
}

// Whether sliding along what it meets brings the body to `to`: up to three
// legs, each a sweep towards `to` with slides, the last one clear (a move of
// several game frames that went round a corner within one server tick).
bool SlidesReach(const Scene& scene, const ModelMove& m, const Vec3& to, double skin, int slides,
                 std::vector<Shape>& shapes) {
  Vec3 p = m.from;
  for (int leg = 0; leg < 3; ++leg) {
    PlaceMoving(*m.body, &m.stance->shape, p, shapes);
    const PathSweep r = SweepPath(scene, shapes, p, to - p, m.mask, skin, slides, m.trace, "slide leg");
    if (!r.blocked) return true;
    if (LengthSquared(r.slid - p) == 0.0) return false;
    p = r.slid;
  }
  return false;
}

// The arc a body in state `s` follows: free fall, or while it slides on a
// steep surface (normal z below walkable_normal_z = w), a fall at least
// g (1 - w^2) (the part of gravity along the steepest such plane).
Arc ArcOf(const MovementModel& model, const MoveState& s) {
  const double w = model.walkable_normal_z;
  return {s.sliding ? model.gravity * (1.0 - w * w) : model.gravity, model.max_fall_speed};
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

// The fastest a stance holds on the ground. With ground_accelerate (Quake's
// PM_Accelerate against PM_Friction), a player turning as it runs gains
// speed across its wish direction: per frame v^2 grows by at most
// 2 a w^2 dt and friction takes 2 f v^2 dt, so v tends to w sqrt(a / f)
// (413 for Quake's 320, accelerate 10, friction 6; its 16 ms frames reach
// 406).
double GroundSpeed(const MovementModel& model, const Stance& stance) {
  if (model.ground_accelerate <= 0.0) return stance.max_speed;
  if (model.ground_friction <= 0.0) return std::numeric_limits<double>::infinity();
  return stance.max_speed * std::sqrt(std::max(1.0, model.ground_accelerate / model.ground_friction));
}

// A ground speed above `limit` after t seconds on the ground: by the same
// bound, v^2 - limit^2 shrinks at least as exp(-2 f t).
double Decayed(double speed, double limit, double friction, double t) {
  if (!(speed > limit)) return speed;
  return std::sqrt(limit * limit + (speed * speed - limit * limit) * std::exp(-2.0 * friction * t));
}

// A surface too steep to stand on under the body (facing up).
bool IsSteep(const Ground& g) { return g.probe.hit && !g.walkable && g.probe.normal.z > 0.0; }

// Whether a grounded body rising more than step_height could have gone up
// stairs by way of `via` (nothing: the straight line): the lifted path (up,
// across, down) is clear, and the ground under the path, sampled at least
// twice per step and every unit, rises by at most a step between samples
// and reaches `to`.
bool StairsAlong(const Scene& scene, const ModelMove& m, const Vec3& to, const Vec3* via, double skin,
                 std::vector<Shape>& shapes) {
  const MovementModel& model = *m.model;
  if (!StepPathIsClear(scene, m, to, skin, shapes, kStairs, via)) return false;
  const Vec3 from = m.from, corner = via != nullptr ? *via : to;
  const double first = std::hypot(corner.x - from.x, corner.y - from.y);
  const double rise = to.z - from.z, across = first + std::hypot(to.x - corner.x, to.y - corner.y);
  const double top = to.z + 2.0 * skin, depth = top - from.z + model.step_height;
  const int n = static_cast<int>(
      std::min(64.0, std::max(2.0 * std::ceil(rise / model.step_height), std::ceil(across))));
  double below = from.z;
  for (int i = 1; i <= n; ++i) {
    // The point a fraction i / n of the way along from -> corner -> to.
    const double along = across * i / n;
    const bool on_first = along <= first && first > 0.0;
    const Vec3 a = on_first ? from : corner, b = on_first ? corner : to;
    const double f = on_first ? along / first : (across > first ? (along - first) / (across - first) : 1.0);
    const Ground g = GroundUnder(scene, m, {a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f, top}, depth, shapes,
                                 "stairs ground probe");
    if (!g.walkable) return false;
    const double ground = top - g.probe.distance;
    if (ground - below > model.step_height + model.tolerance) return false;
    below = ground;
  }
  return below >= to.z - model.tolerance;
}

// Stairs within a tick of several game frames, each stepping up at most
// step_height: along the straight line, or by way of a corner on the body's
// last heading (the game's frames set off along it and turned towards `to`
// where a side blocked them): a third of the move along it, or where it
// meets the line through `to` along either axis (sliding along a wall of
// an axis-aligned map).
bool StairsAreClear(const Scene& scene, const ModelMove& m, const Vec3& to, double elapsed, double skin,
                    std::vector<Shape>& shapes) {
  if (!(m.model->step_height > 0.0)) return false;
  if (StairsAlong(scene, m, to, nullptr, skin, shapes)) return true;
  if (!m.heading) return false;
  const Vec3 from = m.from, h = *m.heading;
  double times[3] = {elapsed / 3.0, -1.0, -1.0};
  for (int k = 0; k < 2; ++k)
    if (h[k] != 0.0) times[k + 1] = (to[k] - from[k]) / h[k];
  for (const double t : times) {
    if (!(t > 0.0 && t < elapsed)) continue;
    const Vec3 via = from + h * t;
    if (StairsAlong(scene, m, to, &via, skin, shapes)) return true;
  }
  return false;
}

// Whether something static is within `margin` of the body's movement
// shapes' bounding boxes at `position`.
bool StaticNear(const Scene& scene, const ModelMove& m, const Vec3& position, double margin) {
  std::vector<Shape> shapes;
  PlaceMoving(*m.body, &m.stance->shape, position, shapes);
  for (Shape& s : shapes) {
    const Aabb b = BoundsOf(s);
    s = Aabb{b.min - Vec3{margin, margin, margin}, b.max + Vec3{margin, margin, margin}};
  }
  return DeepestStart(*scene.statics, shapes, m.mask, 0.0).found;
}

// The first time in [t0, t1] at which the arc of take-off speed v is at or
// below dz, or +infinity (the arc rises until v / g and falls after).
double FirstTimeAtOrBelow(const Arc& arc, double v, double t0, double t1, double dz) {
  if (arc.Height(v, t1) > dz) return std::numeric_limits<double>::infinity();
  double lo = std::max(t0, std::min(t1, v / arc.gravity)), hi = t1;
  if (arc.Height(v, lo) <= dz) return t0 <= lo && arc.Height(v, t0) <= dz ? t0 : lo;
  for (int i = 0; i < 50; ++i) {
    const double mid = 0.5 * (lo + hi);
    (arc.Height(v, mid) <= dz ? hi : lo) = mid;
  }
  return hi;
}

// Whether a body in state `s` could have landed during the move and left
// the ground again (a bunny hop, or walking off an edge, within one server
// tick): walkable ground under `from`, the middle of the move or `to` that
// the lowest arc comes down to (from at most a step below it: an air move
// steps up too) at a time tau, with `to` within a jump from there in the
// time left.
// Returns the earliest such tau (seconds into the move), or nothing.
std::optional<double> LandAndJumpTime(const Scene& scene, const ModelMove& m, const MoveState& s,
                                      double elapsed, const Vec3& from, const Vec3& to, double probe,
                                      std::vector<Shape>& shapes) {
  const MovementModel& model = *m.model;
  const Arc arc = ArcOf(model, s), free{model.gravity, model.max_fall_speed};
  const double lowest = s.z0 + arc.Height(s.v_lo, s.air_time + elapsed) - model.step_height;
  std::optional<double> best;
  for (const Vec3& p : {from, 0.5 * (from + to), to}) {
    const double depth = p.z - lowest + probe;
    if (!(depth > 0.0)) continue;
    const Ground ground = GroundUnder(scene, m, p, depth, shapes, "landing probe");
    if (!ground.walkable) continue;
    const double floor = p.z - ground.probe.distance;
    // Falling onto the floor, or stepping onto it from at most a step below.
    if (s.z0 + arc.Height(s.v_lo, s.air_time) < floor - model.step_height) continue;
    const double landed =
        FirstTimeAtOrBelow(arc, s.v_lo, s.air_time, s.air_time + elapsed, floor - s.z0) - s.air_time;
    if (!(landed <= elapsed)) continue;
    const double rise = HighestBetween(free, model.jump_speed, 0.0, elapsed - landed) + model.tolerance;
    if (to.z <= floor + rise && (!best || landed < *best)) best = landed;
  }
  return best;
}

// The same landing found by walking the game's frames on the lowest arc: a
// landing beside the line (a bevel the body steps onto as it slides along a
// wall). From there it jumps, or walks down the slope it landed on and off
// its edge, falling from rest (or steps down onto ground at `to`: when
// `ends_grounded`): a ledge beside `to` may be too high to get down from in
// time. Costs up to four walks: only for a move about to be rejected.
std::optional<double> WalkedLandAndJumpTime(const Scene& scene, const ModelMove& m, const MoveState& s,
                                            double elapsed, const Vec3& to, double skin, bool ends_grounded,
                                            std::vector<Shape>& shapes) {
  const MovementModel& model = *m.model;
  const Arc arc = ArcOf(model, s), free{model.gravity, model.max_fall_speed};
  const Vec3 from = m.from;
  // Heading for `to`, pressing a tolerance to either side of it (into a
  // wall it slides along: stepping onto a bevel at its foot), or going on
  // as the body's last move went.
  const double v_now = std::max(s.v_lo - arc.gravity * s.air_time, -model.max_fall_speed);
  const Vec3 across{to.x - from.x, to.y - from.y, 0.0};
  const double length = Length(across);
  const Vec3 side = length > 0.0 ? Vec3{-across.y, across.x, 0.0} * (model.tolerance / length) : Vec3{};
  const Vec3 aims[] = {to, to + side, to - side, m.heading ? from + *m.heading * elapsed : to};
  for (const Vec3& aim : aims) {
    const Walk walk = WalkFrames(scene, m, aim, elapsed, false, v_now, skin, shapes);
    for (int k = 0; k < walk.count; ++k) {
      const WalkFrame& f = walk.frames[k];
      if (!f.grounded) continue;
      const double left = elapsed - f.t;
      const double rise = HighestBetween(free, model.jump_speed, 0.0, left) + model.tolerance;
      const Vec3 n = f.floor_normal;
      const double slope = std::hypot(to.x - f.position.x, to.y - f.position.y) * std::hypot(n.x, n.y) / n.z;
      const double drop =
          slope - free.Height(0.0, left) + (ends_grounded ? model.step_height : 0.0) + model.tolerance;
      if (to.z <= f.position.z + rise && to.z >= f.position.z - drop) return f.t;
    }
  }
  return std::nullopt;
}

// Whether the game's frames walk the body to `to` (within tolerance): up
// stairs along a jagged wall, where every straight or one-corner path cuts
// a corner. From the ground it walks; in the air it starts on the arc that
// would reach `to`'s height unhindered (the arc itself is judged later).
bool WalkReaches(const Scene& scene, const ModelMove& m, const Vec3& to, double elapsed, bool grounded,
                 double skin, std::vector<Shape>& shapes) {
  const double vz = grounded ? 0.0 : (to.z - m.from.z) / elapsed + 0.5 * m.model->gravity * elapsed;
  const Walk walk = WalkFrames(scene, m, to, elapsed, grounded, vz, skin, shapes);
  return LengthSquared(walk.end().position - to) <= m.model->tolerance * m.model->tolerance;
}

// The start pose and the path of `m` (the first rule they break fills `v`):
// the start no deeper than skin, then the straight sweep, else within a
// step's rise the step path (up, across, down) or slides, above it stairs
// (ground to ground) or a jump's path (up, across, down).
bool PathIsClear(const World& world, const MoveRequest& move, const ModelMove& m, bool grounded_start,
                 bool ends_grounded, MoveVerdict& v) {
  const MovementModel& model = *m.model;
  const Scene scene = SceneAccess::At(world, std::nullopt);
  const StaticSet& statics = *scene.statics;
  const double skin = world.settings().skin_width;
  const Vec3 from = m.from, delta = move.to - from;
  std::vector<Shape> shapes;
  PlaceMoving(*m.body, &m.stance->shape, from, shapes);
  if (SweptBoxesAreClear(statics, shapes, delta, m.mask)) {
    if (m.trace != nullptr) m.trace->Sweep(from, move.to, "straight");  // nothing static near its bounds.
    return true;
  }
  if (const Penetration p = DeepestStart(statics, shapes, m.mask, skin); p.found) {
    v.code = MoveCode::kStartPenetrating;
    v.depth = p.depth;
    v.normal = p.normal;
    v.target = p.target;
    if (m.trace != nullptr) {
      m.trace->Reason("starts " + Num(p.depth) + " deep in " + m.trace->Name(p.target) + " > skin_width " +
                      Num(skin));
    }
    return false;
  }
  const PathSweep direct = SweepPath(scene, shapes, from, delta, m.mask, skin, 0, m.trace);
  if (!direct.blocked) return true;
  std::vector<Shape> scratch;
  const int slides = world.settings().slide_iterations;
  const bool too_high = delta.z > model.step_height + skin;
  if (!too_high && StepPathIsClear(scene, m, move.to, skin, scratch, kStep)) return true;
  if (!too_high && SlidesReach(scene, m, move.to, skin, slides, scratch)) return true;
  // Higher than a step: a jump (up, across, down; the arc judges the
  // height), or from ground to ground, stairs.
  const bool stairs = grounded_start && ends_grounded;
  if (too_high && (stairs ? StairsAreClear(scene, m, move.to, move.elapsed, skin, scratch)
                          : StepPathIsClear(scene, m, move.to, skin, scratch, kJump))) {
    return true;
  }
  if (WalkReaches(scene, m, move.to, move.elapsed, grounded_start, skin, scratch)) return true;
  v.code = grounded_start && too_high ? MoveCode::kStepTooHigh : MoveCode::kBlocked;
  v.t = direct.t;
  v.normal = direct.normal;
  v.target = direct.target;
  v.allowed_position = direct.allowed;
  v.slid_position =
      move.slide ? SweepPath(scene, shapes, from, delta, m.mask, skin, slides, m.trace, "slide path").slid
                 : direct.allowed;
  if (m.trace != nullptr) {
    m.trace->Reason("the straight sweep meets " + m.trace->Name(direct.target) + " at t " + Num(direct.t) +
                    (too_high ? "; a rise of " + Num(delta.z) + " > step_height " + Num(model.step_height) +
                                    " and the " +
                                    (stairs ? "stairs (the lifted path, the ground under it rising at most a "
                                              "step between samples) do not reach it"
                                            : "jump path (up, across, down) is blocked")
                              : "; neither the step path (step_height " + Num(model.step_height) +
                                    ") nor sliding along it reaches `to`"));
  }
  return false;
}

}  // namespace

void JudgeWithModel(const World& world, const MoveRequest& move, const ModelMove& m,
                    std::optional<MoveState>& state, MoveVerdict& v) {
  const MovementModel& model = *m.model;
  const double skin = world.settings().skin_width, tolerance = model.tolerance, elapsed = move.elapsed;
  const Vec3 from = m.from, to = move.to, delta = to - from;
  const Scene scene = SceneAccess::At(world, std::nullopt);
  const Arc arc{model.gravity, model.max_fall_speed};  // free fall
  const double probe = model.ground_probe + skin;
  std::vector<Shape> shapes;
  const int last_stance = state ? state->stance : -1;
  // The start: grounded when the body was, or when it stands on ground at
  // `from` (a landing the last move did not see: PM_GroundTrace runs every
  // frame); unknown bodies are airborne with any speed unless on ground. A
  // body starting where its last move ended off the ground, in the same
  // stance, has been probed there.
  // A steep surface under `from` (the body met it at the end of its last
  // move: its velocity clipped on it) lets it slide from there.
  bool steep_at_from = false;
  if (!state || state->airborne) {
    const bool probed = state && state->off_ground_at == from && state->stance == move.stance &&
                        state->off_ground_mask == m.mask;
    const Ground start =
        probed ? Ground{} : GroundUnder(scene, m, from, probe, shapes, "ground probe at from");
    steep_at_from = probed ? state->steep_at_end : IsSteep(start);
    if (start.walkable) {
      const double carry = state ? state->carry : 0.0;
      state = MoveState{};
      state->carry = carry;
    } else if (!state) {
      state = MoveState{true, 0.0, from.z, -model.max_fall_speed, model.jump_speed};
    }
  }
  const bool grounded_start = !state->airborne;
  MoveTrace* const trace = m.trace;
  if (trace != nullptr) {
    trace->out().grounded_at_start = grounded_start;
    PlaceMoving(*m.body, &m.stance->shape, from, shapes);
    trace->out().shape = shapes.front();
  }
  // A stance changed since the body's last move (crouched or stood up
  // within the tick): the faster speed, and the path with either shape.
  std::optional<ModelMove> changed;
  if (last_stance >= 0 && last_stance != move.stance &&
      static_cast<std::size_t>(last_stance) < model.stances.size()) {
    changed = m;
    changed->stance = &model.stances[last_stance];
  }

  // Speeds: horizontal by where the move starts; vertical bounds that hold
  // on any path (a step, the steepest slope, a jump; a fall at the terminal
  // speed).
  const double across = std::hypot(delta.x, delta.y);
  const double ground_speed =
      std::max(GroundSpeed(model, *m.stance), changed ? GroundSpeed(model, *changed->stance) : 0.0);
  const double start_speed = std::max(ground_speed, state->carry);
  // The tolerance is a total: how far the body's moves together may run
  // ahead of their speed limits (a 1.5x speed hack gains a little every
  // move), not a slack granted to each move.
  // In the air, strafing gains speed at air_acceleration above air_speed.
  const double air_limit = std::max(model.air_speed, state->carry + model.air_acceleration * elapsed);
  const double horizontal_limit = grounded_start ? start_speed : air_limit;
  const double ahead = std::max(0.0, state->ahead + across - horizontal_limit * elapsed);
  if (trace != nullptr) trace->out().horizontal_limit = horizontal_limit;
  if (ahead > tolerance) {
    v.code = MoveCode::kTooFastHorizontal;
    if (trace != nullptr) {
      trace->Reason("horizontal speed " + Num(across / elapsed) + " > limit " + Num(horizontal_limit) + " (" +
                    (grounded_start ? "ground" : "air") + "): " + Num(ahead) + " ahead of it > tolerance " +
                    Num(tolerance));
    }
    return;
  }
  // Kept with the body's state, whichever way the move ends: the total
  // ahead when it is OK, and whether the probe at `to` met a steep surface.
  struct KeepAhead {
    std::optional<MoveState>& state;
    const MoveVerdict& v;
    double ahead;
    bool steep_at_end = false;
    ~KeepAhead() {
      if (v.code == MoveCode::kOk) state->ahead = ahead;
      state->steep_at_end = steep_at_end;
    }
  } keep_ahead{state, v, ahead};
  const double slope = across * SlopeRise(model);
  const double jump = HighestBetween(arc, model.jump_speed, 0.0, elapsed);
  const double rise_limit = model.step_height + slope + jump + tolerance;
  const double drop_limit = model.step_height + slope + model.max_fall_speed * elapsed + tolerance;
  if (trace != nullptr) {
    trace->out().lowest_z = from.z - drop_limit;
    trace->out().highest_z = from.z + rise_limit;
  }
  if (delta.z > rise_limit || delta.z < -drop_limit) {
    v.code = MoveCode::kTooFastVertical;
    if (trace != nullptr) {
      trace->Reason(delta.z > 0.0
                        ? "rise " + Num(delta.z) + " > step " + Num(model.step_height) + " + slope " +
                              Num(slope) + " + jump " + Num(jump) + " + tolerance " + Num(tolerance)
                        : "drop " + Num(-delta.z) + " > step " + Num(model.step_height) + " + slope " +
                              Num(slope) + " + fall " + Num(model.max_fall_speed * elapsed) +
                              " + tolerance " + Num(tolerance));
    }
    return;
  }

  const Ground ground = GroundUnder(scene, m, to, probe, shapes, "ground probe at to");
  keep_ahead.steep_at_end = IsSteep(ground);
  // The start pose and the path: straight, up a step, or sliding; with
  // either shape when the stance changed (the first shape's failure is the
  // verdict's, and its reason).
  if (const MoveVerdict before = v; !PathIsClear(world, move, m, grounded_start, ground.walkable, v)) {
    const std::string reason = trace != nullptr ? trace->out().reason : std::string();
    if (MoveVerdict other = before;
        !changed || !PathIsClear(world, move, *changed, grounded_start, ground.walkable, other)) {
      if (trace != nullptr) trace->Reason(reason);
      return;
    }
    v = before;
    if (trace != nullptr) trace->Reason("");
  }

  // The arc when airborne at either end.
  v.grounded = ground.walkable;
  v.allowed_position = v.slid_position = to;
  // The horizontal speed carried on: above the ground speed it decays on
  // the ground; in the air it is the move's own (its average, reached half
  // way, plus what strafing gains in the other half).
  const double ground_speed_now = GroundSpeed(model, *m.stance);
  double carry = grounded_start
                     ? Decayed(state->carry, ground_speed_now, model.ground_friction, elapsed)
                     : std::min(across / elapsed + 0.5 * model.air_acceleration * elapsed, air_limit);
  // On the ground, a body that was allowed more than its stance's speed (it
  // crouched, or landed) keeps at most that, decaying towards the ground
  // speed from the move's average half way through it.
  if (grounded_start && ground.walkable) {
    carry = std::max(carry, Decayed(std::min(across / elapsed, start_speed), ground_speed_now,
                                    model.ground_friction, 0.5 * elapsed));
  }
  if (!model.airborne_envelope || (grounded_start && ground.walkable)) {
    state =
        ground.walkable ? MoveState{} : MoveState{true, 0.0, to.z, -model.max_fall_speed, model.jump_speed};
    state->carry = carry;
    return;
  }
  if (grounded_start) {
    // Took off (a jump, a step off a ledge) at some time within the move:
    // the arc starts at `to`, no faster upwards than a jump.
    state = MoveState{true, 0.0, to.z, -model.max_fall_speed, model.jump_speed};
    state->carry = carry;
    return;
  }
  MoveState s = *state;
  const double landing = ground.walkable ? model.step_height : 0.0;
  Fit fit = FitArc(ArcOf(model, s), s, elapsed, to.z, tolerance, landing);
  if (!fit.ok() && fit.need_hi < s.v_lo &&
      StaticNear(scene, m, from, model.air_speed * elapsed + tolerance)) {
    // Below every arc next to something static: what it met on the way (a
    // ceiling, a slanted wall PM_SlideMove clips the velocity on) slowed the
    // body; its arc restarts at `from`, in free fall, no faster upwards than
    // it could be going now.
    const double v_now = std::max(s.v_hi - ArcOf(model, s).gravity * s.air_time, -model.max_fall_speed);
    s = {true, 0.0, from.z, -model.max_fall_speed, v_now};
    fit = FitArc(ArcOf(model, s), s, elapsed, to.z, tolerance, landing);
  }
  // A body that could have landed and jumped again within the move is on a
  // new arc from some time in it: at `to`, no faster upwards than a jump.
  // Only checked when the move leaves the body airborne above the ground.
  const bool above = !fit.ok() && fit.need_lo > s.v_hi;
  if (above || (fit.ok() && !ground.walkable)) {
    std::optional<double> landed = LandAndJumpTime(scene, m, s, elapsed, from, to, probe, shapes);
    if (!landed && above)
      landed = WalkedLandAndJumpTime(scene, m, s, elapsed, to, skin, ground.walkable, shapes);
    if (landed) {
      // At `to` it goes up no faster than a jump, and down no faster than a
      // fall since it landed (it may have walked off an edge) or, when the
      // arc held it, than that arc's vertical speed now.
      const double fell = -model.gravity * (elapsed - *landed);
      const double arc_now = fit.lo - ArcOf(model, s).gravity * (s.air_time + elapsed);
      const double lo = fit.ok() ? std::min(fell, arc_now) : fell;
      state = MoveState{true, 0.0, to.z, std::max(lo, -model.max_fall_speed), model.jump_speed};
      state->carry = carry;
      return;
    }
  }
  if (above) {
    // Above every arc on a steep surface: the surface holds the body up as
    // it slides (its velocity clipped on the plane of normal (s, c) gains up
    // to c s <= 1/2 of its horizontal speed upwards); from `from` it falls
    // no slower than along the steepest unwalkable slope, once per slide.
    if (!s.sliding && (IsSteep(ground) || steep_at_from)) {
      const double v_now = std::max(s.v_hi - ArcOf(model, s).gravity * s.air_time, -model.max_fall_speed);
      const double speed = std::max(across / elapsed, state->carry);
      MoveState slide{true, 0.0, from.z, -model.max_fall_speed, v_now + 0.5 * speed};
      slide.sliding = true;
      const Fit on_slope = FitArc(ArcOf(model, slide), slide, elapsed, to.z, tolerance, landing);
      if (on_slope.ok()) s = slide, fit = on_slope;
    }
  }
  if (trace != nullptr) {
    // The heights the arc allows at `to` (FitArc's bounds on dz).
    const double t = s.air_time + elapsed;
    trace->out().lowest_z = s.z0 + ArcOf(model, s).Height(s.v_lo, t) - tolerance;
    trace->out().highest_z = s.z0 + ArcOf(model, s).Height(s.v_hi, t) + tolerance + landing;
  }
  if (!fit.ok()) {
    const bool steep = IsSteep(ground);
    v.code = above ? (steep ? MoveCode::kTooSteep : MoveCode::kFlying) : MoveCode::kTooFastVertical;
    if (trace != nullptr) {
      trace->Reason("airborne " + Num(s.air_time + elapsed) + " s since take-off at z " + Num(s.z0) + ": z " +
                    Num(to.z) +
                    (above ? " above the highest arc " + Num(trace->out().highest_z)
                           : " below the lowest arc " + Num(trace->out().lowest_z)) +
                    (above && steep ? " on a surface too steep to stand on" : ""));
    }
    // Where the arc allows: `to` at the nearest height of the arc (not
    // swept); the body's arc goes on from there.
    const double speed = above ? s.v_hi : s.v_lo;
    v.allowed_position =
        v.slid_position = {to.x, to.y, s.z0 + ArcOf(model, s).Height(speed, s.air_time + elapsed)};
    const double carried = state->carry;
    state = MoveState{true, s.air_time + elapsed, s.z0, speed, speed};
    state->sliding = s.sliding;
    state->carry = carried;
    return;
  }
  if (ground.walkable) {
    // Landing: clipping the velocity on a slope of normal (s, c)
    // (PM_ClipVelocity) turns up to c s of the fall speed into horizontal
    // speed; c s <= 1/2, at c = 1/sqrt(2); the fall at most what the arc
    // allows.
    const double t = s.air_time + elapsed;
    const double fall = std::clamp(ArcOf(model, s).gravity * t - fit.lo, 0.0, model.max_fall_speed);
    const double c = std::max(model.walkable_normal_z, std::sqrt(0.5));
    state = MoveState{};
    state->carry = carry + fall * c * std::sqrt(1.0 - c * c);
  } else {
    state = MoveState{true, s.air_time + elapsed, s.z0, fit.lo, fit.hi};
    state->sliding = s.sliding;
    state->carry = carry;
  }
}

}  // namespace collide::internal
