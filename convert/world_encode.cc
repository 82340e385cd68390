#include "convert/world_encode.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "convert/packed.h"
#include "convert/results.h"
#include "convert/shapes.h"
#include "convert/world_explain.h"
#include "convert/world_movement.h"
#include "convert/world_packed.h"
#include "convert/world_requests.h"

namespace collide::convert {
namespace {

// The wire's 0 means all 64 bits (world.proto), so all is sent as 0.
std::uint64_t WireMask(CategoryMask mask) { return mask == kAllCategories ? 0 : mask; }

void ToProto(const Time& in, v1::WorldTime* out) {
  out->set_tick(in.tick);
  out->set_fraction(in.fraction);
}

}  // namespace

void ToProto(const Quat& in, v1::Quaternion* out) {
  out->set_w(in.w);
  out->set_x(in.x);
  out->set_y(in.y);
  out->set_z(in.z);
}

void ToProto(const Pose& in, v1::Pose* out) {
  ToProto(in.position, out->mutable_position());
  ToProto(in.rotation, out->mutable_rotation());
}

void ToProto(const MeshData& in, v1::Mesh* out) {
  out->mutable_vertices()->Reserve(static_cast<int>(3 * in.vertices.size()));
  for (const Vec3& v : in.vertices) {
    for (int k = 0; k < 3; ++k) out->add_vertices(v[k]);
  }
  out->mutable_indices()->Reserve(static_cast<int>(3 * in.triangles.size()));
  for (const TriangleIndices& t : in.triangles) {
    for (std::uint32_t i : t) out->add_indices(i);
  }
}

void ToProto(const Frame& in, v1::Frame* out) {
  out->set_tick(in.tick);
  out->mutable_bodies()->Reserve(static_cast<int>(in.bodies.size()));
  for (const BodyUpdate& u : in.bodies) {
    v1::BodyUpdate* b = out->add_bodies();
    b->set_id(u.id);
    if (u.pose) ToProto(*u.pose, b->mutable_pose());
    for (const BodyPart& p : u.parts) {
      v1::BodyPart* part = b->add_parts();
      part->set_id(p.id);
      ToProto(p.shape, part->mutable_shape());
      ToProto(p.local, part->mutable_local());
    }
    for (const PartPose& p : u.part_poses) {
      v1::PartPose* pose = b->add_part_poses();
      pose->set_part(p.part);
      ToProto(p.local, pose->mutable_local());
    }
    b->set_teleport(u.teleport);
    if (u.category) b->set_category(*u.category);
    if (u.movement_shape) ToProto(*u.movement_shape, b->mutable_movement_shape());
    if (u.eye) ToProto(*u.eye, b->mutable_eye());
  }
  out->mutable_removals()->Add(in.removals.begin(), in.removals.end());
}

void ToProto(const QueryFilter& filter, const std::optional<Time>& at, v1::SceneFilter* out) {
  if (at) ToProto(*at, out->mutable_at());
  out->set_category_mask(WireMask(filter.mask));
  out->mutable_ignore_bodies()->Add(filter.ignored_bodies.begin(), filter.ignored_bodies.end());
}

void ToProto(const RayQuery& in, v1::WorldRayCast* out) {
  ToProto(in.ray, out->mutable_ray());
  ToProto(in.filter, in.at, out->mutable_filter());
  switch (in.mode) {
    case RayMode::kClosest:
      out->set_mode(v1::RAY_MODE_CLOSEST);
      break;
    case RayMode::kAny:
      out->set_mode(v1::RAY_MODE_ANY);
      break;
    case RayMode::kAll:
      out->set_mode(v1::RAY_MODE_ALL);
      break;
  }
  out->set_max_hits(static_cast<int>(in.max_hits));
}

void ToProto(const ShapeCastQuery& in, v1::WorldShapeCast* out) {
  ToProto(in.shape, out->mutable_shape());
  ToProto(in.translation, out->mutable_translation());
  ToProto(in.filter, in.at, out->mutable_filter());
}

void ToProto(const OverlapQuery& in, v1::WorldOverlap* out) {
  ToProto(in.shape, out->mutable_shape());
  ToProto(in.filter, in.at, out->mutable_filter());
  out->set_max_results(static_cast<int>(in.max_results));
  out->set_level(ToProto(in.level));
}

void ToProto(const ShotRequest& in, v1::Shot* out) {
  out->set_shooter_id(in.shooter);
  ToProto(in.origin, out->mutable_origin());
  ToProto(in.direction, out->mutable_direction());
  if (!std::isinf(in.max_range) || in.max_range < 0) out->set_max_range(in.max_range);
  if (in.at) ToProto(*in.at, out->mutable_at());
  if (in.claim) {
    out->mutable_claimed()->set_body_id(in.claim->body);
    out->mutable_claimed()->set_part_id(in.claim->part);
  }
  out->set_tolerance(in.tolerance);
  if (in.command_at) ToProto(*in.command_at, out->mutable_command_at());
  if (in.expected_at) ToProto(*in.expected_at, out->mutable_expected_at());
  out->set_max_skew_ticks(in.max_skew_ticks);
  out->set_category_mask(WireMask(in.mask));
  out->mutable_ignore_bodies()->Add(in.ignored_bodies.begin(), in.ignored_bodies.end());
}

void ToProto(const MoveRequest& in, v1::Move* out) {
  out->set_body_id(in.body);
  if (in.from) ToProto(*in.from, out->mutable_from());
  ToProto(in.to, out->mutable_to());
  out->set_elapsed(in.elapsed);
  if (in.max_speed) out->set_max_speed(*in.max_speed);
  out->set_slide(in.slide);
  // 0 and all bits both go as 0, the policy's move mask (default all bits):
  // the goldens and JSON clients keep uint64 masks below 2^63.
  out->set_category_mask(WireMask(in.mask));
  out->set_stance(in.stance);
  if (in.movement) ToProto(*in.movement, out->mutable_movement());
}

void EncodePacked(std::span<const ShotRequest> shots, v1::ValidateShotsPackedRequest* out) {
  if (std::ranges::any_of(shots, &ShotRequest::explain)) out->set_explain(true);
  const int n = static_cast<int>(shots.size());
  out->mutable_doubles()->Reserve(out->doubles_size() + kPackedShotStride * n);
  for (const ShotRequest& s : shots) {
    const double fraction = s.at ? s.at->fraction : 0.0;
    for (double d : {s.origin.x, s.origin.y, s.origin.z, s.direction.x, s.direction.y, s.direction.z,
                     s.max_range, fraction, s.tolerance, s.max_skew_ticks}) {
      out->add_doubles(d);
    }
    out->add_shooter_ids(s.shooter);
    out->add_ticks(s.at ? s.at->tick : kPackedLatestTick);
    out->add_claimed_body_ids(s.claim ? s.claim->body : -1);
    out->add_claimed_part_ids(s.claim ? s.claim->part : -1);
  }
  // The optional arrays, only when some shot needs them (the command and
  // expected times at whole ticks, as the packed form carries them).
  const auto any = [&](auto used) { return std::any_of(shots.begin(), shots.end(), used); };
  if (any([](const ShotRequest& s) { return s.command_at.has_value(); })) {
    for (const ShotRequest& s : shots)
      out->add_command_ticks(s.command_at ? s.command_at->tick : kPackedLatestTick);
  }
  if (any([](const ShotRequest& s) { return s.expected_at.has_value(); })) {
    for (const ShotRequest& s : shots)
      out->add_expected_ticks(s.expected_at ? s.expected_at->tick : kPackedLatestTick);
  }
  if (any([](const ShotRequest& s) { return s.mask != kAllCategories; })) {
    for (const ShotRequest& s : shots) out->add_category_masks(WireMask(s.mask));
  }
  if (any([](const ShotRequest& s) { return !s.ignored_bodies.empty(); })) {
    for (const ShotRequest& s : shots) {
      out->add_ignore_counts(static_cast<std::int32_t>(s.ignored_bodies.size()));
      out->mutable_ignore_body_ids()->Add(s.ignored_bodies.begin(), s.ignored_bodies.end());
    }
  }
}

Pose FromProto(const v1::Pose& in) {
  Pose out;
  if (in.has_position()) out.position = FromProto(in.position());
  if (in.has_rotation()) out.rotation = FromProto(in.rotation());
  return out;
}

HitTarget FromProto(const v1::Target& in) {
  HitTarget out;
  if (in.has_body()) {
    out.kind = HitTarget::Kind::kBody;
    out.id = in.body().body_id();
    out.part = in.body().part_id();
  } else {
    out.kind = HitTarget::Kind::kStatic;
    out.id = in.static_element().element_id();
    out.triangle = in.static_element().triangle();
  }
  return out;
}

TimeUsed FromProto(const v1::TimeUsed& in) { return {{in.at().tick(), in.at().fraction()}, in.clamped()}; }

WorldRayHit FromProto(const v1::WorldRayHit& in) {
  return {in.distance(), FromProto(in.point()), FromProto(in.normal()), FromProto(in.target())};
}

RayQueryResult FromProto(const v1::WorldRayResult& in) {
  RayQueryResult out;
  out.time = FromProto(in.time());
  out.hits.reserve(in.hits_size());
  for (const v1::WorldRayHit& h : in.hits()) out.hits.push_back(FromProto(h));
  out.total_hits = static_cast<std::size_t>(in.total_hits());
  return out;
}

ShapeCastResult FromProto(const v1::WorldShapeCastResult& in) {
  ShapeCastResult out;
  out.time = FromProto(in.time());
  out.hit = in.hit();
  if (!out.hit) return out;
  out.t = in.t();
  out.point = FromProto(in.point());
  out.normal = FromProto(in.normal());
  out.depth = in.depth();
  out.target = FromProto(in.target());
  return out;
}

OverlapQueryResult FromProto(const v1::WorldOverlapResult& in) {
  OverlapQueryResult out;
  out.time = FromProto(in.time());
  out.hits.reserve(in.overlaps_size());
  for (const v1::WorldOverlapResult::Overlap& o : in.overlaps()) {
    out.hits.push_back({FromProto(o.target()), FromProto(o.contact())});
  }
  out.total_hits = static_cast<std::size_t>(in.total());
  return out;
}

namespace {
// world_results.cc's mapping reversed: the core's codes shifted past
// UNSPECIFIED (an unknown or unspecified wire code reads as the invalid one).
ShotCode FromProto(v1::ShotCode code) {
  const int c = static_cast<int>(code) - 1;
  return c >= 0 && c <= static_cast<int>(ShotCode::kViewTimeImplausible) ? static_cast<ShotCode>(c)
                                                                         : ShotCode::kInvalid;
}
MoveCode FromProto(v1::MoveCode code) {
  const int c = static_cast<int>(code) - 1;
  return c >= 0 && c <= static_cast<int>(MoveCode::kTimeBudget) ? static_cast<MoveCode>(c)
                                                                : MoveCode::kInvalid;
}
}  // namespace

ShotVerdict FromProto(const v1::ShotVerdict& in) {
  ShotVerdict out;
  out.code = FromProto(in.code());
  out.time = FromProto(in.time());
  if (in.has_first_hit()) out.first_hit = FromProto(in.first_hit());
  out.claim_miss_distance = in.claimed_miss_distance();
  out.origin_offset = in.origin_offset();
  out.origin_allowance = in.origin_allowance();
  out.rewound_across_teleport = in.rewound_across_teleport();
  if (in.has_explanation())
    out.explanation = std::make_shared<const ShotExplanation>(FromProto(in.explanation()));
  for (const v1::ItemViolation& v : in.violations()) out.problems.push_back({v.field(), v.description()});
  return out;
}

MoveVerdict FromProto(const v1::MoveVerdict& in) {
  MoveVerdict out;
  out.code = FromProto(in.code());
  out.speed = in.speed();
  out.t = in.t();
  out.normal = FromProto(in.normal());
  out.depth = in.depth();
  if (in.has_target()) out.target = FromProto(in.target());
  out.allowed_position = FromProto(in.allowed_position());
  out.slid_position = FromProto(in.slid_position());
  out.grounded = in.grounded();
  if (in.has_explanation())
    out.explanation = std::make_shared<const MoveExplanation>(FromProto(in.explanation()));
  for (const v1::ItemViolation& v : in.violations()) out.problems.push_back({v.field(), v.description()});
  return out;
}

void ToProto(const VisibilityRequest& in, v1::GetVisibilityRequest* out) {
  if (in.at) ToProto(*in.at, out->mutable_at());
  out->mutable_observers()->Add(in.observers.begin(), in.observers.end());
  out->set_tick_seconds(in.tick_seconds);
  out->set_latency(in.latency);
  out->set_margin(in.margin);
  out->set_target_category_mask(WireMask(in.target_mask));
}

VisibilityResult FromProto(const v1::GetVisibilityResponse& in) {
  VisibilityResult out;
  out.time = FromProto(in.time());
  for (const v1::VisibilitySet& s : in.sets()) {
    out.sets.push_back({s.observer(), s.found(), {s.visible().begin(), s.visible().end()}});
  }
  out.pairs = in.pairs();
  out.hidden = in.hidden();
  out.reused = in.reused();
  return out;
}

WorldSettings SettingsFromProto(const v1::WorldInfo& in) {
  WorldSettings out;
  out.history_ticks = in.history_ticks();
  ViolationList ignored;  // The server's own policy: valid.
  ApplyPolicy(in.policy(), out, ignored);
  return out;
}

bool DecodePacked(const v1::CastWorldRaysPackedResponse& in, std::size_t n,
                  std::vector<RayQueryResult>& out) {
  const auto sized = [n](int size, std::size_t per) { return static_cast<std::size_t>(size) == per * n; };
  if (!sized(in.hit_size(), 1) || !sized(in.distance_size(), 1) || !sized(in.point_size(), 3) ||
      !sized(in.normal_size(), 3) || !sized(in.target_kind_size(), 1) || !sized(in.target_id_size(), 1) ||
      !sized(in.target_index_size(), 1)) {
    return false;
  }
  const TimeUsed time = FromProto(in.time());
  out.assign(n, RayQueryResult{});
  for (std::size_t i = 0; i < n; ++i) {
    const int j = static_cast<int>(i);
    out[i].time = time;
    if (!in.hit(j)) continue;
    WorldRayHit h;
    h.distance = in.distance(j);
    h.point = {in.point(3 * j), in.point(3 * j + 1), in.point(3 * j + 2)};
    h.normal = {in.normal(3 * j), in.normal(3 * j + 1), in.normal(3 * j + 2)};
    h.target.id = in.target_id(j);
    if (in.target_kind(j) == 2) {
      h.target.kind = HitTarget::Kind::kBody;
      h.target.part = static_cast<std::int32_t>(in.target_index(j));
    } else {
      // A primitive element's index is 0 or -1 (world.proto): triangle 0.
      h.target.triangle = in.target_index(j) < 0 ? 0 : static_cast<std::uint32_t>(in.target_index(j));
    }
    out[i].hits.push_back(h);
    out[i].total_hits = 1;
  }
  return true;
}

}  // namespace collide::convert
