#include "server/world_metrics.h"

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "spdlog/spdlog.h"

namespace collide::server {
namespace {

// "CONFIRMED" of SHOT_CODE_CONFIRMED: the enum name after its prefix.
std::string CodeLabel(const std::string& name, std::string_view prefix) {
  return name.starts_with(prefix) ? name.substr(prefix.size()) : name;
}

template <typename Verdicts, typename ByCode>
void CountCodes(const Verdicts& verdicts, ByCode& by_code) {
  for (const auto& v : verdicts) {
    const int code = static_cast<int>(v.code());
    if (code >= 0 && code < static_cast<int>(by_code.size()))
      by_code[code].fetch_add(1, std::memory_order_relaxed);
  }
}

void Family(std::string& out, const char* name, const char* type, const char* help) {
  absl::StrAppend(&out, "# HELP ", name, " ", help, "\n# TYPE ", name, " ", type, "\n");
}

void Sample(std::string& out, const char* name, const char* type, const char* help, std::int64_t value) {
  Family(out, name, type, help);
  absl::StrAppend(&out, name, " ", value, "\n");
}

}  // namespace

std::size_t AnsweredItems(const v1::QueryWorldResponse& r) {
  return static_cast<std::size_t>(r.ray_casts_size() + r.shape_casts_size() + r.overlaps_size());
}
std::size_t AnsweredItems(const v1::CastWorldRaysPackedResponse& r) { return r.hit_size(); }
std::size_t AnsweredItems(const v1::ValidateShotsResponse& r) { return r.verdicts_size(); }
std::size_t AnsweredItems(const v1::ValidateMovesResponse& r) { return r.verdicts_size(); }
std::size_t AnsweredItems(const v1::GetBodiesResponse& r) { return r.bodies_size(); }
std::size_t AnsweredItems(const v1::TickResponse& r) {
  return AnsweredItems(r.query()) + AnsweredItems(r.rays_packed()) + AnsweredItems(r.shots()) +
         AnsweredItems(r.shots_packed()) + AnsweredItems(r.moves()) + AnsweredItems(r.bodies());
}

void WorldMetrics::Count(const v1::PushFrameResponse&) { frames_.fetch_add(1, std::memory_order_relaxed); }
void WorldMetrics::Count(const v1::ValidateShotsResponse& r) { CountCodes(r.verdicts(), shots_); }
void WorldMetrics::Count(const v1::ValidateMovesResponse& r) { CountCodes(r.verdicts(), moves_); }
void WorldMetrics::Count(const v1::TickResponse& r) {
  if (r.has_frame()) Count(r.frame());
  Count(r.shots());
  Count(r.shots_packed());
  Count(r.moves());
}

void WorldMetrics::LogAccess(std::string_view rpc, std::string_view world, std::size_t items,
                             const grpc::Status& status, std::chrono::steady_clock::duration latency) {
  if (!spdlog::should_log(spdlog::level::debug)) return;
  std::int64_t suppressed = 0;
  if (!access_lines_.Admit(absl::Now(), &suppressed)) return;
  if (suppressed > 0) spdlog::debug("world calls: suppressed {} access log lines", suppressed);
  spdlog::debug("{} world={} items={} status={} latency_us={}{}{}", rpc, world, items,
                static_cast<int>(status.error_code()),
                std::chrono::duration_cast<std::chrono::microseconds>(latency).count(),
                status.ok() ? "" : " message=", status.error_message());
}

std::string WorldMetrics::Render() const {
  const WorldRegistryStats s = registry_.Stats();
  std::string out;
  Sample(out, "collide_worlds", "gauge", "Worlds this replica holds.", s.worlds);
  Sample(out, "collide_world_bodies", "gauge", "Bodies in the latest frame of every world.", s.bodies);
  Sample(out, "collide_world_triangles", "gauge", "Triangles of every world's static geometry.", s.triangles);
  Sample(out, "collide_world_memory_bytes", "gauge",
         "Bytes charged to worlds (geometry, BVHs, history) against the budget.", s.used_bytes);
  Sample(out, "collide_world_memory_budget_bytes", "gauge", "--world_memory_budget_bytes.",
         registry_.limits().memory_budget_bytes);
  Sample(out, "collide_worlds_created_total", "counter", "Worlds created.", s.created);
  Sample(out, "collide_worlds_deleted_total", "counter", "Worlds deleted by DeleteWorld.", s.deleted);
  Sample(out, "collide_worlds_evicted_total", "counter", "Worlds evicted, idle past --world_idle_ttl.",
         s.evicted);
  Sample(out, "collide_world_frames_total", "counter", "Frames pushed (PushFrame answered OK).",
         frames_.load(std::memory_order_relaxed));
  const auto verdicts = [&](const char* name, const char* help, const auto& by_code, auto code_name,
                            std::string_view prefix) {
    Family(out, name, "counter", help);
    for (int c = 0; c < static_cast<int>(by_code.size()); ++c) {
      const std::int64_t n = by_code[c].load(std::memory_order_relaxed);
      if (n == 0) continue;  // A series appears with its first count.
      absl::StrAppend(&out, name, "{code=\"", CodeLabel(code_name(c), prefix), "\"} ", n, "\n");
    }
  };
  verdicts(
      "collide_world_shot_verdicts_total", "Shot verdicts answered, by code.", shots_,
      [](int c) { return v1::ShotCode_Name(c); }, "SHOT_CODE_");
  verdicts(
      "collide_world_move_verdicts_total", "Move verdicts answered, by code.", moves_,
      [](int c) { return v1::MoveCode_Name(c); }, "MOVE_CODE_");
  return out;
}

}  // namespace collide::server
