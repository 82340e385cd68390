#include "convert/world_projectiles.h"

#include "convert/shapes.h"
#include "convert/world_encode.h"
#include "convert/world_results.h"

namespace collide::convert {
namespace {

// The helpers below overload these; the headers' stay visible.
using convert::FromProto;
using convert::ToProto;

// The wire's category mask 0 means all 64 bits (world.proto).
CategoryMask Mask(std::uint64_t wire) { return wire == 0 ? kAllCategories : wire; }
std::uint64_t WireMask(CategoryMask mask) { return mask == kAllCategories ? 0 : mask; }

std::optional<Time> TimeFromProto(bool has, const v1::WorldTime& in) {
  if (!has) return std::nullopt;
  return Time{in.tick(), in.fraction()};
}
void ToProto(const Time& in, v1::WorldTime* out) {
  out->set_tick(in.tick);
  out->set_fraction(in.fraction);
}

std::optional<ShotClaim> ClaimFromProto(bool has, const v1::BodyTarget& in) {
  if (!has) return std::nullopt;
  return ShotClaim{in.body_id(), in.part_id()};
}
void ToProto(const std::optional<ShotClaim>& in, v1::BodyTarget* out) {
  out->set_body_id(in->body);
  out->set_part_id(in->part);
}

Capsule FromProto(const v1::Capsule& in) {
  return {convert::FromProto(in.a()), convert::FromProto(in.b()), in.radius()};
}
void ToProto(const Capsule& in, v1::Capsule* out) {
  ToProto(in.a, out->mutable_a());
  ToProto(in.b, out->mutable_b());
  out->set_radius(in.radius);
}

template <typename Verdict>
void AddViolations(const std::vector<Violation>& problems, Verdict* out) {
  for (const Violation& v : problems) {
    v1::ItemViolation* item = out->add_violations();
    item->set_field(ProtoFieldName(v.field));
    item->set_description(v.description);
  }
}
template <typename Verdict>
std::vector<Violation> ViolationsFromProto(const Verdict& in) {
  std::vector<Violation> out;
  for (const v1::ItemViolation& v : in.violations()) out.push_back({v.field(), v.description()});
  return out;
}

void ToProto(const ProjectileContact& in, v1::ProjectileContact* out) {
  out->set_seconds(in.seconds);
  ToProto(in.at, out->mutable_at());
  ToProto(in.position, out->mutable_position());
  ToProto(in.point, out->mutable_point());
  ToProto(in.normal, out->mutable_normal());
  ToProto(in.target, out->mutable_target());
}
ProjectileContact FromProto(const v1::ProjectileContact& in) {
  return {in.seconds(),
          Time{in.at().tick(), in.at().fraction()},
          convert::FromProto(in.position()),
          convert::FromProto(in.point()),
          convert::FromProto(in.normal()),
          convert::FromProto(in.target())};
}

// The wire codes are the core's in the same order, shifted past
// UNSPECIFIED; an unknown or unspecified wire code reads as INVALID.
static_assert(static_cast<int>(ProjectileCode::kInvalid) + 1 == v1::PROJECTILE_CODE_INVALID);
static_assert(static_cast<int>(ProjectileCode::kInFlight) + 1 == v1::PROJECTILE_CODE_IN_FLIGHT);
static_assert(static_cast<int>(ProjectileCode::kOriginImplausible) + 1 ==
              v1::PROJECTILE_CODE_ORIGIN_IMPLAUSIBLE);
static_assert(static_cast<int>(ShotCode::kInvalid) + 1 == v1::SHOT_CODE_INVALID);
template <typename Code>
Code CodeFromProto(int wire, Code last, Code invalid) {
  const int c = wire - 1;
  return c >= 0 && c <= static_cast<int>(last) ? static_cast<Code>(c) : invalid;
}

}  // namespace

std::vector<ProjectileRequest> DecodeProjectiles(const v1::ValidateProjectilesRequest& in) {
  std::vector<ProjectileRequest> out(in.projectiles_size());
  for (int i = 0; i < in.projectiles_size(); ++i) {
    const v1::Projectile& p = in.projectiles(i);
    ProjectileRequest& r = out[i];
    r.shooter = p.shooter_id();
    r.at = TimeFromProto(p.has_at(), p.at());
    r.command_at = TimeFromProto(p.has_command_at(), p.command_at());
    r.origin = convert::FromProto(p.origin());
    r.velocity = convert::FromProto(p.velocity());
    r.gravity = convert::FromProto(p.gravity());
    r.drag = p.drag();
    r.radius = p.radius();
    r.restitution = p.restitution();
    r.max_bounces = p.max_bounces();
    r.time_limit = p.time_limit();
    r.tick_seconds = p.tick_seconds();
    if (p.chord_tolerance() != 0.0) r.chord_tolerance = p.chord_tolerance();
    r.claim = ClaimFromProto(p.has_claimed(), p.claimed());
    r.mask = Mask(p.category_mask());
    r.ignored_bodies.assign(p.ignore_bodies().begin(), p.ignore_bodies().end());
  }
  return out;
}

std::vector<MeleeRequest> DecodeMelee(const v1::ValidateMeleeRequest& in) {
  std::vector<MeleeRequest> out(in.melee_size());
  for (int i = 0; i < in.melee_size(); ++i) {
    const v1::Melee& m = in.melee(i);
    MeleeRequest& r = out[i];
    r.attacker = m.attacker_id();
    r.at = TimeFromProto(m.has_at(), m.at());
    if (m.has_sweep()) {
      r.reach = MeleeSweep{FromProto(m.sweep().from()), FromProto(m.sweep().to())};
    } else {
      // An unset reach is an arc of zero radius: INVALID ("arc.radius").
      const v1::MeleeArc& a = m.arc();
      r.reach =
          MeleeArc{convert::FromProto(a.direction()), convert::FromProto(a.up()), a.radius(), a.angle()};
    }
    r.claim = ClaimFromProto(m.has_claimed(), m.claimed());
    r.tolerance = m.tolerance();
    r.mask = Mask(m.category_mask());
    r.ignored_bodies.assign(m.ignore_bodies().begin(), m.ignore_bodies().end());
  }
  return out;
}

void ToProto(const ProjectileVerdict& in, v1::ProjectileVerdict* out) {
  out->set_code(static_cast<v1::ProjectileCode>(static_cast<int>(in.code) + 1));
  if (in.code == ProjectileCode::kInvalid) return AddViolations(in.problems, out);
  ToProto(in.time, out->mutable_time());
  if (in.hit) ToProto(*in.hit, out->mutable_hit());
  for (const ProjectileContact& c : in.bounces) ToProto(c, out->add_bounces());
  out->set_seconds(in.seconds);
  ToProto(in.end_at, out->mutable_end_at());
  ToProto(in.position, out->mutable_position());
  ToProto(in.velocity, out->mutable_velocity());
  out->set_origin_offset(in.origin_offset);
  out->set_origin_allowance(in.origin_allowance);
}

void ToProto(const MeleeVerdict& in, v1::MeleeVerdict* out) {
  out->set_code(static_cast<v1::ShotCode>(static_cast<int>(in.code) + 1));
  if (in.code == ShotCode::kInvalid) return AddViolations(in.problems, out);
  ToProto(in.time, out->mutable_time());
  ToProto(in.eye, out->mutable_eye());
  for (const MeleeHit& h : in.hits) {
    v1::MeleeHit* w = out->add_hits();
    ToProto(h.target, w->mutable_target());
    ToProto(h.point, w->mutable_point());
    w->set_distance(h.distance);
  }
  if (in.blocker) ToProto(*in.blocker, out->mutable_blocker());
  out->set_claimed_miss_distance(in.claim_miss_distance);
}

void ToProto(const ProjectileRequest& in, v1::Projectile* out) {
  out->set_shooter_id(in.shooter);
  if (in.at) ToProto(*in.at, out->mutable_at());
  ToProto(in.origin, out->mutable_origin());
  ToProto(in.velocity, out->mutable_velocity());
  ToProto(in.gravity, out->mutable_gravity());
  out->set_drag(in.drag);
  out->set_radius(in.radius);
  out->set_restitution(in.restitution);
  out->set_max_bounces(in.max_bounces);
  out->set_time_limit(in.time_limit);
  out->set_tick_seconds(in.tick_seconds);
  out->set_chord_tolerance(in.chord_tolerance);
  if (in.claim) ToProto(in.claim, out->mutable_claimed());
  out->set_category_mask(WireMask(in.mask));
  out->mutable_ignore_bodies()->Add(in.ignored_bodies.begin(), in.ignored_bodies.end());
  if (in.command_at) ToProto(*in.command_at, out->mutable_command_at());
}

void ToProto(const MeleeRequest& in, v1::Melee* out) {
  out->set_attacker_id(in.attacker);
  if (in.at) ToProto(*in.at, out->mutable_at());
  if (const auto* arc = std::get_if<MeleeArc>(&in.reach)) {
    v1::MeleeArc* a = out->mutable_arc();
    ToProto(arc->direction, a->mutable_direction());
    ToProto(arc->up, a->mutable_up());
    a->set_radius(arc->radius);
    a->set_angle(arc->angle);
  } else {
    const auto& sweep = std::get<MeleeSweep>(in.reach);
    ToProto(sweep.from, out->mutable_sweep()->mutable_from());
    ToProto(sweep.to, out->mutable_sweep()->mutable_to());
  }
  if (in.claim) ToProto(in.claim, out->mutable_claimed());
  out->set_tolerance(in.tolerance);
  out->set_category_mask(WireMask(in.mask));
  out->mutable_ignore_bodies()->Add(in.ignored_bodies.begin(), in.ignored_bodies.end());
}

ProjectileVerdict FromProto(const v1::ProjectileVerdict& in) {
  ProjectileVerdict out;
  out.code = CodeFromProto(in.code(), ProjectileCode::kOriginImplausible, ProjectileCode::kInvalid);
  out.problems = ViolationsFromProto(in);
  out.time = convert::FromProto(in.time());
  if (in.has_hit()) out.hit = FromProto(in.hit());
  for (const v1::ProjectileContact& c : in.bounces()) out.bounces.push_back(FromProto(c));
  out.seconds = in.seconds();
  out.end_at = Time{in.end_at().tick(), in.end_at().fraction()};
  out.position = convert::FromProto(in.position());
  out.velocity = convert::FromProto(in.velocity());
  out.origin_offset = in.origin_offset();
  out.origin_allowance = in.origin_allowance();
  return out;
}

MeleeVerdict FromProto(const v1::MeleeVerdict& in) {
  MeleeVerdict out;
  out.code = CodeFromProto(in.code(), ShotCode::kViewTimeImplausible, ShotCode::kInvalid);
  out.problems = ViolationsFromProto(in);
  out.time = convert::FromProto(in.time());
  out.eye = convert::FromProto(in.eye());
  for (const v1::MeleeHit& h : in.hits()) {
    out.hits.push_back({convert::FromProto(h.target()), convert::FromProto(h.point()), h.distance()});
  }
  if (in.has_blocker()) out.blocker = convert::FromProto(in.blocker());
  if (out.code != ShotCode::kInvalid) out.claim_miss_distance = in.claimed_miss_distance();
  return out;
}

}  // namespace collide::convert
