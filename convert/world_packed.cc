#include "convert/world_packed.h"

#include <string>

#include "convert/packed.h"

namespace collide::convert {
namespace {

std::string Element(std::string_view array, std::size_t i) {
  return std::string(array) + "[" + std::to_string(i) + "]";
}

// A packed array must hold `n` entries (times `stride`).
bool CheckSize(std::string_view array, int size, std::size_t n, int stride, ViolationList& violations) {
  if (static_cast<std::size_t>(size) == n * static_cast<std::size_t>(stride)) return true;
  violations.Add(std::string(array), "holds " + std::to_string(size) + " values; " + std::to_string(n) +
                                         " items need " +
                                         std::to_string(n * static_cast<std::size_t>(stride)));
  return false;
}

// Offset within a shot's doubles of a core ShotRequest field ("origin.y" ->
// 1, "max_distance" -> 6); -1 for fields not in the doubles.
int ShotFieldOffset(std::string_view field) {
  const auto axis = [&field] { return field.ends_with(".y") ? 1 : field.ends_with(".z") ? 2 : 0; };
  if (field.starts_with("origin")) return axis();
  if (field.starts_with("direction")) return 3 + axis();
  if (field == "max_distance" || field == "max_range") return 6;
  if (field == "at.fraction") return 7;
  if (field == "tolerance") return 8;
  if (field == "max_skew_ticks") return 9;
  return -1;
}

}  // namespace

bool DecodePacked(const v1::CastWorldRaysPackedRequest& in, std::vector<RayQuery>& out,
                  ViolationList& violations) {
  const std::size_t before = violations.total();
  const std::size_t n = static_cast<std::size_t>(in.rays_size()) / kPackedRayStride;
  if (!CheckSize("rays", in.rays_size(), n, kPackedRayStride, violations)) return false;
  const v1::SceneFilter& f = in.filter();
  std::optional<Time> at;
  if (f.has_at()) {
    at = Time{f.at().tick(), f.at().fraction()};
    if (!(at->fraction >= 0.0 && at->fraction < 1.0))
      violations.Add("filter.at.fraction", "must be in [0, 1)");
  }
  const QueryFilter filter{f.category_mask() == 0 ? kAllCategories : f.category_mask(),
                           {f.ignore_bodies().begin(), f.ignore_bodies().end()}};
  out.assign(n, RayQuery{});
  std::vector<Violation> relative;
  for (std::size_t i = 0; i < n; ++i) {
    RayQuery& q = out[i];
    if (!UnpackRay(in.rays().data() + i * kPackedRayStride, q.ray, relative)) {
      for (const Violation& v : relative) {
        violations.Add(Element("rays", i * kPackedRayStride + PackedRayFieldOffset(v.field)), v.description);
      }
      relative.clear();
    }
    q.at = at;
    q.filter = filter;
  }
  return violations.total() == before;
}

void EncodePacked(std::span<const RayQueryResult> results, v1::CastWorldRaysPackedResponse* out) {
  const int n = static_cast<int>(results.size());
  out->mutable_hit()->Resize(n, false);
  out->mutable_distance()->Resize(n, 0.0);
  out->mutable_point()->Resize(3 * n, 0.0);
  out->mutable_normal()->Resize(3 * n, 0.0);
  out->mutable_target_kind()->Resize(n, 0);
  out->mutable_target_id()->Resize(n, 0);
  out->mutable_target_index()->Resize(n, 0);
  for (int i = 0; i < n; ++i) {
    if (results[i].hits.empty()) continue;
    const WorldRayHit& h = results[i].hits.front();
    out->set_hit(i, true);
    out->set_distance(i, h.distance);
    for (int k = 0; k < 3; ++k) {
      out->set_point(3 * i + k, h.point[k]);
      out->set_normal(3 * i + k, h.normal[k]);
    }
    const bool body = h.target.kind == HitTarget::Kind::kBody;
    out->set_target_kind(i, body ? 2 : 1);
    out->set_target_id(i, h.target.id);
    out->set_target_index(i, body ? h.target.part : static_cast<std::int64_t>(h.target.triangle));
  }
  if (!results.empty()) {
    const TimeUsed& t = results.front().time;
    out->mutable_time()->mutable_at()->set_tick(t.used.tick);
    out->mutable_time()->mutable_at()->set_fraction(t.used.fraction);
    out->mutable_time()->set_clamped(t.clamped);
  }
}

bool DecodePacked(const v1::ValidateShotsPackedRequest& in, std::vector<ShotRequest>& out,
                  ViolationList& violations) {
  const std::size_t n = static_cast<std::size_t>(in.shooter_ids_size());
  bool ok = CheckSize("doubles", in.doubles_size(), n, kPackedShotStride, violations);
  ok &= CheckSize("ticks", in.ticks_size(), n, 1, violations);
  ok &= CheckSize("claimed_body_ids", in.claimed_body_ids_size(), n, 1, violations);
  ok &= CheckSize("claimed_part_ids", in.claimed_part_ids_size(), n, 1, violations);
  // The optional arrays: empty, or one entry per shot.
  const auto optional = [&](std::string_view array, int size) {
    return size == 0 || CheckSize(array, size, n, 1, violations);
  };
  ok &= optional("command_ticks", in.command_ticks_size());
  ok &= optional("expected_ticks", in.expected_ticks_size());
  ok &= optional("category_masks", in.category_masks_size());
  ok &= optional("ignore_counts", in.ignore_counts_size());
  std::int64_t ignored = 0;
  for (int i = 0; i < in.ignore_counts_size(); ++i) {
    if (in.ignore_counts(i) < 0) {
      violations.Add(Element("ignore_counts", static_cast<std::size_t>(i)), "must be >= 0");
      ok = false;
    }
    ignored += in.ignore_counts(i);
  }
  if (ok && ignored != in.ignore_body_ids_size()) {
    violations.Add("ignore_body_ids", "holds " + std::to_string(in.ignore_body_ids_size()) +
                                          " ids; ignore_counts add up to " + std::to_string(ignored));
    ok = false;
  }
  if (!ok) return false;
  out.assign(n, ShotRequest{});
  for (std::size_t i = 0; i < n; ++i) {
    const double* d = in.doubles().data() + i * kPackedShotStride;
    ShotRequest& s = out[i];
    s.shooter = in.shooter_ids(static_cast<int>(i));
    s.origin = {d[0], d[1], d[2]};
    s.direction = {d[3], d[4], d[5]};
    s.max_range = d[6];
    if (in.ticks(static_cast<int>(i)) != kPackedLatestTick) s.at = Time{in.ticks(static_cast<int>(i)), d[7]};
    s.tolerance = d[8];
    s.explain = in.explain();
    const std::int64_t body = in.claimed_body_ids(static_cast<int>(i));
    const std::int32_t part = in.claimed_part_ids(static_cast<int>(i));
    if (body != -1 || part != -1) s.claim = ShotClaim{body, part};
    const int j = static_cast<int>(i);
    if (in.command_ticks_size() > 0 && in.command_ticks(j) != kPackedLatestTick) {
      s.command_at = Time{in.command_ticks(j), 0.0};
    }
    if (in.expected_ticks_size() > 0 && in.expected_ticks(j) != kPackedLatestTick) {
      s.expected_at = Time{in.expected_ticks(j), 0.0};
    }
    s.max_skew_ticks = d[9];
    if (in.category_masks_size() > 0 && in.category_masks(j) != 0) s.mask = in.category_masks(j);
  }
  const std::int64_t* ids = in.ignore_body_ids().data();
  for (std::size_t i = 0; i < n && in.ignore_counts_size() > 0; ++i) {
    const int count = in.ignore_counts(static_cast<int>(i));
    out[i].ignored_bodies.assign(ids, ids + count);
    ids += count;
  }
  return true;
}

void AddPackedShotProblems(std::size_t i, std::vector<Violation>& problems, ViolationList& violations) {
  for (Violation& v : problems) {
    const int offset = ShotFieldOffset(v.field);
    const std::string_view array = v.field == "at.tick"                 ? "ticks"
                                   : v.field == "claim.body"            ? "claimed_body_ids"
                                   : v.field.starts_with("command_at")  ? "command_ticks"
                                   : v.field.starts_with("expected_at") ? "expected_ticks"
                                                                        : "shooter_ids";
    violations.Add(offset < 0 ? Element(array, i)
                              : Element("doubles", i * kPackedShotStride + static_cast<std::size_t>(offset)),
                   v.field + ": " + v.description);
  }
  problems.clear();
}

}  // namespace collide::convert
