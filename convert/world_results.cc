#include "convert/world_results.h"

#include "convert/results.h"
#include "convert/shapes.h"
#include "convert/world_explain.h"
#include "convert/world_movement.h"

namespace collide::convert {

void ToProto(const HitTarget& in, v1::Target* out) {
  if (in.kind == HitTarget::Kind::kStatic) {
    v1::StaticTarget* s = out->mutable_static_element();
    s->set_element_id(in.id);
    s->set_triangle(in.triangle);
  } else {
    v1::BodyTarget* b = out->mutable_body();
    b->set_body_id(in.id);
    b->set_part_id(in.part);
  }
}

void ToProto(const TimeUsed& in, v1::TimeUsed* out) {
  out->mutable_at()->set_tick(in.used.tick);
  out->mutable_at()->set_fraction(in.used.fraction);
  out->set_clamped(in.clamped);
}

void ToProto(const WorldRayHit& in, v1::WorldRayHit* out) {
  out->set_distance(in.distance);
  ToProto(in.point, out->mutable_point());
  ToProto(in.normal, out->mutable_normal());
  ToProto(in.target, out->mutable_target());
}

void ToProto(const RayQueryResult& in, v1::WorldRayResult* out) {
  for (const WorldRayHit& h : in.hits) ToProto(h, out->add_hits());
  out->set_total_hits(static_cast<std::int64_t>(in.total_hits));
  ToProto(in.time, out->mutable_time());
}

void ToProto(const ShapeCastResult& in, v1::WorldShapeCastResult* out) {
  out->set_hit(in.hit);
  ToProto(in.time, out->mutable_time());
  if (!in.hit) return;
  out->set_t(in.t);
  ToProto(in.point, out->mutable_point());
  ToProto(in.normal, out->mutable_normal());
  out->set_depth(in.depth);
  ToProto(in.target, out->mutable_target());
}

void ToProto(const OverlapQueryResult& in, v1::WorldOverlapResult* out) {
  for (const OverlapHit& h : in.hits) {
    v1::WorldOverlapResult::Overlap* o = out->add_overlaps();
    ToProto(h.target, o->mutable_target());
    ToProto(h.result, o->mutable_contact());
  }
  out->set_total(static_cast<std::int64_t>(in.total_hits));
  ToProto(in.time, out->mutable_time());
}

namespace {
// The wire codes are the core's in the same order, shifted past UNSPECIFIED.
v1::ShotCode ToProto(ShotCode code) { return static_cast<v1::ShotCode>(static_cast<int>(code) + 1); }
v1::MoveCode ToProto(MoveCode code) { return static_cast<v1::MoveCode>(static_cast<int>(code) + 1); }
static_assert(static_cast<int>(ShotCode::kInvalid) + 1 == v1::SHOT_CODE_INVALID);
static_assert(static_cast<int>(ShotCode::kViewTimeImplausible) + 1 == v1::SHOT_CODE_VIEW_TIME_IMPLAUSIBLE);
static_assert(static_cast<int>(MoveCode::kInvalid) + 1 == v1::MOVE_CODE_INVALID);
static_assert(static_cast<int>(MoveCode::kTimeBudget) + 1 == v1::MOVE_CODE_TIME_BUDGET);

template <typename Verdict>
void AddViolations(const std::vector<Violation>& problems, Verdict* out) {
  for (const Violation& v : problems) {
    v1::ItemViolation* item = out->add_violations();
    item->set_field(ProtoFieldName(v.field));
    item->set_description(v.description);
  }
}
}  // namespace

std::string ProtoFieldName(std::string_view core_field) {
  if (core_field == "max_distance") return "max_range";
  if (core_field == "claim.body") return "claimed.body_id";
  return std::string(core_field);
}

void ToProto(const ShotVerdict& in, v1::ShotVerdict* out) {
  out->set_code(ToProto(in.code));
  if (in.code == ShotCode::kInvalid) return AddViolations(in.problems, out);
  if (in.first_hit) ToProto(*in.first_hit, out->mutable_first_hit());
  ToProto(in.time, out->mutable_time());
  out->set_claimed_miss_distance(in.claim_miss_distance);
  out->set_origin_offset(in.origin_offset);
  out->set_origin_allowance(in.origin_allowance);
  out->set_rewound_across_teleport(in.rewound_across_teleport);
  if (in.explanation) ToProto(*in.explanation, out->mutable_explanation());
}

void ToProto(const MoveVerdict& in, v1::MoveVerdict* out) {
  out->set_code(ToProto(in.code));
  if (in.code == MoveCode::kInvalid) return AddViolations(in.problems, out);
  ToProto(in.allowed_position, out->mutable_allowed_position());
  out->set_t(in.t);
  ToProto(in.normal, out->mutable_normal());
  if (in.code == MoveCode::kBlocked || in.code == MoveCode::kStartPenetrating) {
    ToProto(in.target, out->mutable_target());
  }
  out->set_depth(in.depth);
  out->set_speed(in.speed);
  ToProto(in.slid_position, out->mutable_slid_position());
  out->set_grounded(in.grounded);
  if (in.explanation) ToProto(*in.explanation, out->mutable_explanation());
}

void ToProto(const VisibilityResult& in, v1::GetVisibilityResponse* out) {
  ToProto(in.time, out->mutable_time());
  for (const VisibilitySet& s : in.sets) {
    v1::VisibilitySet* set = out->add_sets();
    set->set_observer(s.observer);
    set->set_found(s.found);
    set->mutable_visible()->Add(s.visible.begin(), s.visible.end());
  }
  out->set_pairs(in.pairs);
  out->set_hidden(in.hidden);
  out->set_reused(in.reused);
}

void ToProto(const VisibilityGridInfo& in, v1::VisibilityGrid* out) {
  out->set_built(in.built);
  out->set_voxel_size(in.voxel_size);
  out->set_nx(in.nx);
  out->set_ny(in.ny);
  out->set_nz(in.nz);
  out->set_solid_voxels(in.solid_voxels);
  out->set_undecided_voxels(in.undecided_voxels);
  out->set_memory_bytes(static_cast<std::int64_t>(in.memory_bytes));
}

void ToProto(const WorldSettings& in, v1::WorldPolicy* out) {
  out->set_max_rewind_ticks(in.max_rewind_ticks);
  out->set_max_origin_offset(in.max_origin_offset);
  out->set_default_max_speed(in.default_max_speed);
  out->set_skin_width(in.skin_width);
  out->set_slide_iterations(in.slide_iterations);
  out->set_clamp_old_shots(in.clamp_old_shots);
  out->set_max_tick_distance(in.max_tick_distance);
  // Unset when all bits (the default), as masks elsewhere: JSON readers keep
  // uint64 values below 2^63 exact.
  if (in.move_mask != kAllCategories) out->set_move_category_mask(in.move_mask);
  if (in.shot_mask != kAllCategories) out->set_shot_category_mask(in.shot_mask);
  if (in.movement) ToProto(*in.movement, out->mutable_movement());
  if (in.move_budget) ToProto(*in.move_budget, out->mutable_move_budget());
  if (in.visibility.occluder_mask != 0) {
    v1::VisibilityPolicy* v = out->mutable_visibility();
    v->set_occluder_category_mask(in.visibility.occluder_mask);
    v->set_voxel_size(in.visibility.voxel_size);
    v->set_max_voxels(in.visibility.max_voxels);
    v->set_reuse_ticks(in.visibility.reuse_ticks);
  }
}

}  // namespace collide::convert
