#include "convert/world_explain.h"

#include <string>

#include "convert/shapes.h"
#include "convert/world_encode.h"
#include "convert/world_results.h"

namespace collide::convert {
namespace {

void ToProto(const Time& in, v1::WorldTime* out) {
  out->set_tick(in.tick);
  out->set_fraction(in.fraction);
}

Shape ShapeFromProto(const v1::Shape& in) {
  Shape out;
  DecodeArena arena;  // Parts are never hulls: nothing is kept in it.
  std::vector<Violation> ignored;
  convert::FromProto(in, out, arena, ignored);
  return out;
}

}  // namespace

BodiesQuery FromProto(const v1::GetBodiesRequest& in) {
  BodiesQuery out;
  if (in.has_at()) out.at = Time{in.at().tick(), in.at().fraction()};
  out.ids.assign(in.body_ids().begin(), in.body_ids().end());
  return out;
}

void ToProto(const PosedBody& in, v1::PosedBody* out) {
  out->set_id(in.id);
  ToProto(in.pose, out->mutable_pose());
  for (const PosedPart& p : in.parts) {
    v1::PosedPart* part = out->add_parts();
    part->set_id(p.id);
    ToProto(p.shape, part->mutable_shape());
  }
  out->set_category(in.category);
  ToProto(in.eye, out->mutable_eye());
}

void ToProto(const ShotExplanation& in, v1::ShotExplanation* out) {
  ToProto(in.command_at, out->mutable_command_at());
  if (in.shooter) ToProto(*in.shooter, out->mutable_shooter());
  if (in.ray) ToProto(*in.ray, out->mutable_ray());
  if (in.claimed_rewound) ToProto(*in.claimed_rewound, out->mutable_claimed_rewound());
  if (in.claimed_latest) ToProto(*in.claimed_latest, out->mutable_claimed_latest());
  out->set_tolerance(in.tolerance);
  out->set_nearest_claimed_part(in.nearest_claimed_part);
  out->set_nearest_claimed_distance(in.nearest_claimed_distance);
}

void ToProto(const MoveExplanation& in, v1::MoveExplanation* out) {
  ToProto(in.from, out->mutable_from());
  ToProto(in.to, out->mutable_to());
  if (in.shape) ToProto(*in.shape, out->mutable_shape());
  for (const MoveSweep& s : in.sweeps) {
    v1::MoveSweep* sweep = out->add_sweeps();
    ToProto(s.from, sweep->mutable_from());
    ToProto(s.to, sweep->mutable_to());
    sweep->set_purpose(s.purpose);
  }
  for (const MoveContact& c : in.contacts) {
    v1::MoveContact* contact = out->add_contacts();
    contact->set_sweep(c.sweep);
    contact->set_t(c.t);
    ToProto(c.position, contact->mutable_position());
    ToProto(c.normal, contact->mutable_normal());
    ToProto(c.target, contact->mutable_target());
  }
  out->set_reason(in.reason);
  out->set_grounded_at_start(in.grounded_at_start);
  out->set_horizontal_limit(in.horizontal_limit);
  out->set_lowest_z(in.lowest_z);
  out->set_highest_z(in.highest_z);
}

void ToProto(const BodiesResult& in, v1::GetBodiesResponse* out) {
  ToProto(in.time, out->mutable_time());
  for (const PosedBody& b : in.bodies) ToProto(b, out->add_bodies());
  for (const std::int64_t id : in.missing) out->add_missing(id);
}

void ToProto(const std::optional<Time>& at, std::span<const std::int64_t> ids, v1::GetBodiesRequest* out) {
  if (at) ToProto(*at, out->mutable_at());
  for (const std::int64_t id : ids) out->add_body_ids(id);
}

PosedBody FromProto(const v1::PosedBody& in) {
  PosedBody out;
  out.id = in.id();
  out.pose = FromProto(in.pose());
  for (const v1::PosedPart& p : in.parts()) out.parts.push_back({p.id(), ShapeFromProto(p.shape())});
  out.category = in.category();
  out.eye = FromProto(in.eye());
  return out;
}

ShotExplanation FromProto(const v1::ShotExplanation& in) {
  ShotExplanation out;
  out.command_at = {in.command_at().tick(), in.command_at().fraction()};
  if (in.has_shooter()) out.shooter = FromProto(in.shooter());
  if (in.has_ray()) {
    const v1::Ray& r = in.ray();
    out.ray = Ray{FromProto(r.origin()), FromProto(r.direction()),
                  r.has_max_distance() ? r.max_distance() : kInfinity};
  }
  if (in.has_claimed_rewound()) out.claimed_rewound = FromProto(in.claimed_rewound());
  if (in.has_claimed_latest()) out.claimed_latest = FromProto(in.claimed_latest());
  out.tolerance = in.tolerance();
  out.nearest_claimed_part = in.nearest_claimed_part();
  out.nearest_claimed_distance = in.nearest_claimed_distance();
  return out;
}

MoveExplanation FromProto(const v1::MoveExplanation& in) {
  MoveExplanation out;
  out.from = FromProto(in.from());
  out.to = FromProto(in.to());
  if (in.has_shape()) out.shape = ShapeFromProto(in.shape());
  for (const v1::MoveSweep& s : in.sweeps())
    out.sweeps.push_back({FromProto(s.from()), FromProto(s.to()), s.purpose()});
  for (const v1::MoveContact& c : in.contacts()) {
    out.contacts.push_back(
        {c.sweep(), c.t(), FromProto(c.position()), FromProto(c.normal()), FromProto(c.target())});
  }
  out.reason = in.reason();
  out.grounded_at_start = in.grounded_at_start();
  out.horizontal_limit = in.horizontal_limit();
  out.lowest_z = in.lowest_z();
  out.highest_z = in.highest_z();
  return out;
}

BodiesResult FromProto(const v1::GetBodiesResponse& in) {
  BodiesResult out;
  out.time = FromProto(in.time());
  for (const v1::PosedBody& b : in.bodies()) out.bodies.push_back(FromProto(b));
  out.missing.assign(in.missing().begin(), in.missing().end());
  return out;
}

}  // namespace collide::convert
