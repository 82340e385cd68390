#include "support/quake_movement.h"

#include <algorithm>
#include <cmath>

#include "collide/query.h"
#include "collide/sweep.h"

namespace collide::testing {
namespace {

// Planes a slide move clips against at most (MAX_CLIP_PLANES) and traces it
// makes (numbumps).
constexpr int kMaxClipPlanes = 5;
constexpr int kSlideTraces = 4;
// How far below the feet the ground is looked for (PM_GroundTrace).
constexpr double kGroundProbe = 0.25;
// A walking step counts when it lifts the player more than this (the game's
// EV_STEP).
constexpr double kStepEvent = 2.0;

// PM_ClipVelocity: the part of `in` along the plane, pushed out by overclip.
Vec3 Clip(const Vec3& in, const Vec3& normal, double overclip) {
  double backoff = Dot(in, normal);
  backoff = backoff < 0 ? backoff * overclip : backoff / overclip;
  return in - normal * backoff;
}

Vec3 Normalized(const Vec3& v) {
  const double l = Length(v);
  return l > 0 ? v / l : Vec3{};
}

// The per-command state of pml_t.
struct Ground {
  bool plane = false;    // something under the feet (groundPlane).
  bool walking = false;  // ... that is walkable.
  Vec3 normal;
};

class Mover {
 public:
  Mover(const TriangleMesh& mesh, const QuakeMovementParams& params, const QuakeCommand& cmd, QuakePlayer& p)
      : mesh_(mesh), params_(params), cmd_(cmd), p_(p) {}

  void Run() {
    const double up = cmd_.jump ? 127.0 : cmd_.crouch ? -127.0 : 0.0;
    if (up < 10) p_.jump_held = false;
    Unstick();
    CheckDuck();
    GroundTrace();
    if (ground_.walking) {
      WalkMove(up);
    } else {
      AirMove(up);
    }
    GroundTrace();
  }

 private:
  Aabb Box(const Vec3& origin) const { return PlayerBox(params_, origin, p_.crouched); }
  QuakeTrace Trace(const Vec3& from, const Vec3& to) const { return TraceBox(mesh_, Box(from), from, to); }

  // Pushes the box out of whatever it touches closer than half the trace gap
  // (rounding can leave a box touching after a slide along an edge; the game
  // has PM_CorrectAllSolid for its own cases).
  void Unstick() {
    for (int k = 0; k < 4; ++k) {
      const MeshPairResult c = QueryMesh(QueryLevel::kContact, Box(p_.origin), mesh_);
      if (!c.found || c.result.distance >= kTraceGap / 2) return;
      p_.origin = p_.origin - c.result.normal * (kTraceGap - c.result.distance);
      ++p_.unstuck;
    }
  }

  // PM_CheckDuck: crouch while asked; stand up only where the standing box fits.
  void CheckDuck() {
    if (cmd_.crouch) {
      p_.crouched = true;
    } else if (p_.crouched) {
      const Aabb standing = PlayerBox(params_, p_.origin, false);
      if (!ShapeCast(standing, Vec3{}, mesh_).sweep.hit) p_.crouched = false;
    }
  }

  // PM_GroundTrace: what is kGroundProbe below the feet.
  void GroundTrace() {
    const QuakeTrace t = Trace(p_.origin, p_.origin - Vec3{0, 0, kGroundProbe});
    ground_ = {};
    if (t.fraction == 1.0 && !t.start_solid) {
      p_.on_ground = false;
      return;
    }
    // Moving up and away from the plane: a jump leaving the ground.
    if (p_.velocity.z > 0 && Dot(p_.velocity, t.normal) > 10) {
      p_.on_ground = false;
      return;
    }
    ground_.plane = true;
    ground_.normal = t.normal;
    ground_.walking = t.normal.z >= params_.min_walk_normal;
    p_.on_ground = ground_.walking;
    p_.ground_normal = t.normal;
  }

  // PM_CmdScale: the wish speed of a command whose moves are not all full.
  double CmdScale(double up) const {
    const double max = std::max({std::abs(cmd_.forward), std::abs(cmd_.side), std::abs(up)});
    if (max == 0) return 0;
    const double total = std::sqrt(cmd_.forward * cmd_.forward + cmd_.side * cmd_.side + up * up);
    return params_.speed * max / (127.0 * total);
  }

  // PM_Friction: on walkable ground only.
  void Friction() {
    Vec3 v = p_.velocity;
    if (ground_.walking) v.z = 0;
    const double speed = Length(v);
    if (speed < 1) {
      p_.velocity.x = p_.velocity.y = 0;
      return;
    }
    double drop = 0;
    if (ground_.walking) drop = std::max(speed, params_.stop_speed) * params_.friction * cmd_.seconds;
    const double scale = std::max(0.0, speed - drop) / speed;
    p_.velocity = p_.velocity * scale;
  }

  // PM_Accelerate: adds speed along wishdir up to wishspeed.
  void Accelerate(const Vec3& wishdir, double wishspeed, double accel) {
    const double add = wishspeed - Dot(p_.velocity, wishdir);
    if (add <= 0) return;
    p_.velocity += wishdir * std::min(accel * cmd_.seconds * wishspeed, add);
  }

  // The horizontal forward and right vectors of the yaw (AngleVectors at
  // pitch 0).
  void Axes(Vec3& forward, Vec3& right) const {
    forward = {std::cos(cmd_.yaw), std::sin(cmd_.yaw), 0};
    right = {std::sin(cmd_.yaw), -std::cos(cmd_.yaw), 0};
  }

  // PM_CheckJump.
  bool CheckJump(double up) {
    if (up < 10 || p_.jump_held) return false;
    ground_ = {};
    p_.on_ground = false;
    p_.jump_held = true;
    p_.velocity.z = params_.jump_velocity;
    ++p_.jumps;
    return true;
  }

  void WalkMove(double up) {
    if (CheckJump(up)) {
      AirMove(up);
      return;
    }
    Friction();
    const double scale = CmdScale(up);
    Vec3 forward, right;
    Axes(forward, right);
    forward = Normalized(Clip(forward, ground_.normal, params_.overclip));
    right = Normalized(Clip(right, ground_.normal, params_.overclip));
    const Vec3 wishvel = forward * cmd_.forward + right * cmd_.side;
    const Vec3 wishdir = Normalized(wishvel);
    double wishspeed = Length(wishvel) * scale;
    if (p_.crouched) wishspeed = std::min(wishspeed, params_.speed * params_.crouch_scale);
    Accelerate(wishdir, wishspeed, params_.accelerate);
    // Slide along the ground without losing speed up or down a slope.
    const double speed = Length(p_.velocity);
    p_.velocity = Normalized(Clip(p_.velocity, ground_.normal, params_.overclip)) * speed;
    if (p_.velocity.x == 0 && p_.velocity.y == 0) return;
    StepSlideMove(false);
  }

  void AirMove(double up) {
    Friction();
    const double scale = CmdScale(up);
    Vec3 forward, right;
    Axes(forward, right);
    Vec3 wishvel = forward * cmd_.forward + right * cmd_.side;
    wishvel.z = 0;
    const Vec3 wishdir = Normalized(wishvel);
    Accelerate(wishdir, Length(wishvel) * scale, params_.air_accelerate);
    // A steep plane under the feet: slide along it.
    if (ground_.plane) p_.velocity = Clip(p_.velocity, ground_.normal, params_.overclip);
    StepSlideMove(true);
  }

  // PM_SlideMove: moves along the velocity for the command's time, clipping
  // it against up to kMaxClipPlanes planes met; true when anything was hit.
  bool SlideMove(bool gravity) {
    Vec3 end_velocity = p_.velocity;
    if (gravity) {
      // Half the gravity now (the average over the command), the rest after.
      end_velocity.z -= params_.gravity * cmd_.seconds;
      p_.velocity.z = (p_.velocity.z + end_velocity.z) * 0.5;
      if (ground_.plane) p_.velocity = Clip(p_.velocity, ground_.normal, params_.overclip);
    }
    double time_left = cmd_.seconds;
    Vec3 planes[kMaxClipPlanes];
    int count = 0;
    if (ground_.plane) planes[count++] = ground_.normal;
    // Never turn against the original velocity.
    planes[count++] = Normalized(p_.velocity);
    int bump = 0;
    for (; bump < kSlideTraces; ++bump) {
      const QuakeTrace t = Trace(p_.origin, p_.origin + p_.velocity * time_left);
      if (t.start_solid) {
        p_.velocity.z = 0;  // all solid (the game's answer); Unstick frees the box next command.
        return true;
      }
      if (t.fraction > 0) p_.origin = t.end;
      if (t.fraction == 1) break;
      time_left -= time_left * t.fraction;
      if (count >= kMaxClipPlanes) {
        p_.velocity = {};
        return true;
      }
      // The same plane again: nudge out along it (a float issue in the game;
      // an edge case here too).
      int i = 0;
      for (; i < count; ++i) {
        if (Dot(t.normal, planes[i]) > 0.99) {
          p_.velocity += t.normal;
          break;
        }
      }
      if (i < count) continue;
      planes[count++] = t.normal;
      // Clip the velocity so that it runs along every plane met.
      for (i = 0; i < count; ++i) {
        if (Dot(p_.velocity, planes[i]) >= 0.1) continue;
        Vec3 clip = Clip(p_.velocity, planes[i], params_.overclip);
        Vec3 end_clip = Clip(end_velocity, planes[i], params_.overclip);
        bool stop = false;
        for (int j = 0; j < count && !stop; ++j) {
          if (j == i || Dot(clip, planes[j]) >= 0.1) continue;
          clip = Clip(clip, planes[j], params_.overclip);
          end_clip = Clip(end_clip, planes[j], params_.overclip);
          if (Dot(clip, planes[i]) >= 0) continue;
          // Into both planes: move along their crease.
          const Vec3 dir = Normalized(Cross(planes[i], planes[j]));
          clip = dir * Dot(dir, p_.velocity);
          end_clip = dir * Dot(dir, end_velocity);
          for (int k = 0; k < count; ++k) {
            if (k == i || k == j || Dot(clip, planes[k]) >= 0.1) continue;
            stop = true;  // a third plane: stuck in a corner.
            break;
          }
        }
        if (stop) {
          p_.velocity = {};
          return true;
        }
        p_.velocity = clip;
        end_velocity = end_clip;
        break;
      }
    }
    if (gravity) p_.velocity = end_velocity;
    return bump != 0;
  }

  // PM_StepSlideMove: a slide move, and where it was clipped the same move
  // from step_size higher, pushed back down onto what is below.
  void StepSlideMove(bool gravity) {
    const Vec3 start_o = p_.origin, start_v = p_.velocity;
    if (!SlideMove(gravity)) return;
    const Vec3 step{0, 0, params_.step_size};
    const QuakeTrace below = Trace(start_o, start_o - step);
    // Never step up while still going up, unless onto walkable ground.
    if (p_.velocity.z > 0 && (below.fraction == 1.0 || below.normal.z < params_.min_walk_normal)) return;
    const QuakeTrace lift = Trace(start_o, start_o + step);
    if (lift.start_solid) return;
    const double lifted = lift.end.z - start_o.z;
    p_.origin = lift.end;
    p_.velocity = start_v;
    SlideMove(gravity);
    const QuakeTrace down = Trace(p_.origin, p_.origin - Vec3{0, 0, lifted});
    if (!down.start_solid) p_.origin = down.end;
    if (down.fraction < 1.0) p_.velocity = Clip(p_.velocity, down.normal, params_.overclip);
    if (!gravity && p_.origin.z - start_o.z > kStepEvent) ++p_.step_ups;
  }

  const TriangleMesh& mesh_;
  const QuakeMovementParams& params_;
  const QuakeCommand& cmd_;
  QuakePlayer& p_;
  Ground ground_;
};

}  // namespace

Aabb PlayerBox(const QuakeMovementParams& params, const Vec3& origin, bool crouched) {
  Vec3 maxs = params.maxs;
  if (crouched) maxs.z = params.crouch_maxs_z;
  return {origin + params.mins, origin + maxs};
}

QuakeTrace TraceBox(const TriangleMesh& mesh, const Aabb& box_at_start, const Vec3& start, const Vec3& end) {
  QuakeTrace out;
  out.end = end;
  const Vec3 d = end - start;
  const MeshSweepResult r = ShapeCast(box_at_start, d, mesh);
  if (!r.sweep.hit) {
    if (r.sweep.status == QueryStatus::kNotConverged) {
      // A grazing path the sweep gave up on: stop where it is known free.
      out.fraction = r.sweep.t;
      out.end = start + d * r.sweep.t;
      out.normal = -Normalized(d);
    }
    return out;
  }
  out.normal = -r.sweep.normal;  // the game's plane normal faces the player.
  const double closing = Dot(d, r.sweep.normal);
  if ((r.sweep.t == 0 && r.sweep.depth > 0) || closing <= 0) {
    // Inside, or touching and not moving in: the game's trace would start
    // solid or ignore the plane; here the caller stays put and Unstick
    // separates the box next command.
    out.start_solid = r.sweep.depth > 0;
    out.fraction = 0;
    out.end = start;
    return out;
  }
  // Stop kTraceGap before the plane (the game's DIST_EPSILON).
  out.fraction = std::max(0.0, r.sweep.t - kTraceGap / closing);
  out.end = start + d * out.fraction;
  return out;
}

void QuakeMove(const TriangleMesh& mesh, const QuakeMovementParams& params, const QuakeCommand& cmd,
               QuakePlayer& player) {
  Mover(mesh, params, cmd, player).Run();
}

}  // namespace collide::testing
