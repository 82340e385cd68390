#include "support/move_corpus.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "collide/import/map_import.h"
#include "collide/query.h"
#include "import_test_util.h"

namespace collide::testing {
namespace {

constexpr std::int64_t kCheaterBody = 1'000'000;
constexpr Quat kIdentity{1, 0, 0, 0};

std::string Percent(const CheatTally& t) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.1f %% (%lld)", 100.0 * t.Share(), static_cast<long long>(t.cases));
  return buf;
}

void DumpPlayer(const char* name, const QuakePlayer& p) {
  std::fprintf(stderr,
               "  %s origin (%.3f, %.3f, %.3f) velocity (%.1f, %.1f, %.1f) %s%s steps %lld jumps %lld\n",
               name, p.origin.x, p.origin.y, p.origin.z, p.velocity.x, p.velocity.y, p.velocity.z,
               p.on_ground ? "ground" : "air", p.crouched ? " crouched" : "",
               static_cast<long long>(p.step_ups), static_cast<long long>(p.jumps));
}

void DumpVerdict(std::size_t bot, std::size_t tick, const QuakePlayer& a, const QuakePlayer& b,
                 const MoveVerdict& v) {
  const Vec3 d = b.origin - a.origin;
  std::fprintf(stderr, "bot %zu tick %zu: %s across %.3f up %.3f t %.3f allowed (%.3f, %.3f, %.3f)%s\n", bot,
               tick, std::string(MoveCodeName(v.code)).c_str(), std::hypot(d.x, d.y), d.z, v.t,
               v.allowed_position.x, v.allowed_position.y, v.allowed_position.z,
               v.grounded ? " grounded" : "");
  DumpPlayer("from", a);
  DumpPlayer("to  ", b);
}

}  // namespace

MapCorpus MakeMapCorpus(const std::string& map, const BotRunOptions& bots, std::string& error) {
  MapCorpus c;
  c.map = map;
  importer::ImportOptions options;
  options.map = map;
  options.categories = importer::kPlayerCollision;
  auto imported = importer::ImportMap(kOpenArenaPak, options);
  if (!imported.ok()) {
    error = std::string(imported.status().message());
    return c;
  }
  c.entities = ReadBspEntities(ReadOpenArenaMap(map));
  if (c.entities.spawns.empty()) {
    error = map + ": no spawn point in the entity lump";
    return c;
  }
  c.mesh = std::make_shared<const TriangleMesh>(std::move(imported->mesh));
  c.tracks = RunBots(*c.mesh, c.entities.spawns, c.entities.hurt, c.params, bots);
  return c;
}

CorpusStats MeasureCorpus(const MapCorpus& corpus) {
  CorpusStats s;
  for (const BotTrack& t : corpus.tracks) {
    for (const BotSample& sample : t.samples) {
      const QuakePlayer& p = sample.after;
      ++s.commands;
      s.airborne += !p.on_ground;
      s.crouched += p.crouched;
      s.respawns += sample.respawned;
      s.max_horizontal_speed = std::max(s.max_horizontal_speed, std::hypot(p.velocity.x, p.velocity.y));
      s.max_fall_speed = std::max(s.max_fall_speed, -p.velocity.z);
      const MeshPairResult c =
          QueryMesh(QueryLevel::kContact, PlayerBox(corpus.params, p.origin, p.crouched), *corpus.mesh);
      if (c.found) s.deepest_overlap = std::max(s.deepest_overlap, -c.result.distance);
    }
    if (!t.samples.empty()) {
      s.step_ups += t.samples.back().after.step_ups;
      s.jumps += t.samples.back().after.jumps;
      s.unstuck += t.samples.back().after.unstuck;
    }
  }
  return s;
}

std::string_view MoveShapeName(MoveShapeKind kind) { return kind == MoveShapeKind::kBox ? "box" : "capsule"; }

Shape MovementShape(const QuakeMovementParams& params, MoveShapeKind kind, bool crouched) {
  const Aabb box = PlayerBox(params, Vec3{}, crouched);
  if (kind == MoveShapeKind::kBox) return box;
  const double r = params.maxs.x;
  return Capsule{{0, 0, box.min.z + r}, {0, 0, box.max.z - r}, r};
}

JudgeResult JudgeCorpus(const MapCorpus& corpus, const JudgeSetup& setup) {
  WorldSettings settings;
  settings.history_ticks = 4;
  settings.max_rewind_ticks = 2;
  settings.skin_width = setup.skin_width;
  settings.default_max_speed = setup.max_speed;
  if (setup.movement_model) {
    settings.movement = MovementModel::Quake();
    for (std::size_t s = 0; s < settings.movement->stances.size(); ++s) {
      settings.movement->stances[s].shape = MovementShape(corpus.params, setup.shape, s == 1);
    }
  }
  World world(settings, {{1, kAllCategories, corpus.mesh}});
  const std::size_t cpt = setup.commands_per_tick;
  const double tick_seconds = static_cast<double>(cpt) * kCommandSeconds;
  const auto& tracks = corpus.tracks;
  std::size_t ticks = tracks.empty() ? 0 : TickCount(tracks[0], cpt);
  for (const BotTrack& t : tracks) ticks = std::min(ticks, TickCount(t, cpt));
  const auto shape = [&](bool crouched) { return MovementShape(corpus.params, setup.shape, crouched); };
  const auto push = [&](const Frame& f) {
    if (const FrameError e = world.PushFrame(f); !e.ok())
      throw std::runtime_error("frame rejected: " + e.message);
  };

  JudgeResult r;
  std::vector<bool> shape_crouched(tracks.size(), false);
  std::vector<MoveRequest> moves;
  std::vector<std::size_t> movers;
  for (std::size_t tick = 0; tick < ticks; ++tick) {
    Frame f{static_cast<std::int64_t>(tick), {}, {}};
    moves.clear();
    movers.clear();
    for (std::size_t b = 0; b < tracks.size(); ++b) {
      const QuakePlayer& now = StateAtTick(tracks[b], cpt, tick);
      BodyUpdate u;
      u.id = static_cast<std::int64_t>(b) + 1;
      u.pose = Pose{now.origin, kIdentity};
      // The stance a server sees in the frame: the move's at `to` (the
      // model takes a change since the last move as a crouch or stand-up
      // within the tick).
      const bool crouched = now.crouched;
      if (tick == 0) u.parts = {BodyPart{0, shape(false), Pose{{}, kIdentity}}};
      if (tick == 0 || crouched != shape_crouched[b]) {
        u.movement_shape = shape(crouched);
        shape_crouched[b] = crouched;
      }
      const bool respawned = tick > 0 && RespawnedBefore(tracks[b], cpt, tick);
      u.teleport = respawned;
      f.bodies.push_back(std::move(u));
      if (tick > 0 && !respawned) {
        MoveRequest m;
        m.body = static_cast<std::int64_t>(b) + 1;
        m.to = now.origin;  // from: the body's position in the frame before
        m.elapsed = tick_seconds;
        m.stance = crouched ? 1 : 0;
        m.explain = static_cast<int>(b) == setup.trace_bot;  // the trace prints the rule's reason
        moves.push_back(m);
        movers.push_back(b);
      }
    }
    push(f);
    const std::vector<MoveVerdict> verdicts = world.ValidateMoves(moves);
    for (std::size_t k = 0; k < verdicts.size(); ++k) {
      if (static_cast<int>(movers[k]) == setup.trace_bot && tick >= setup.trace_from &&
          tick <= setup.trace_to) {
        DumpVerdict(movers[k], tick, StateAtTick(tracks[movers[k]], cpt, tick - 1),
                    StateAtTick(tracks[movers[k]], cpt, tick), verdicts[k]);
        if (verdicts[k].explanation)
          std::fprintf(stderr, "  why: %s [z %.3f..%.3f]\n", verdicts[k].explanation->reason.c_str(),
                       verdicts[k].explanation->lowest_z, verdicts[k].explanation->highest_z);
      }
      ++r.legit.moves;
      if (verdicts[k].code == MoveCode::kOk) continue;
      ++r.legit.rejected;
      ++r.legit.by_code[static_cast<std::size_t>(verdicts[k].code)];
      const QuakePlayer& a = StateAtTick(tracks[movers[k]], cpt, tick - 1);
      const QuakePlayer& b = StateAtTick(tracks[movers[k]], cpt, tick);
      r.legit.rejected_step += b.step_ups > a.step_ups;
      r.legit.rejected_airborne += !a.on_ground || !b.on_ground;
      if (r.legit.rejected <= setup.dump_rejected) DumpVerdict(movers[k], tick, a, b, verdicts[k]);
    }
  }

  // The cheats, each from a body of its own (`from` given), new in one more
  // frame: no cheat inherits another's movement state.
  const std::vector<CheatTrajectory> cheats =
      MakeCheats(*corpus.mesh, corpus.params, tracks, cpt, setup.cheats_per_kind, setup.cheat_seed);
  moves.clear();
  std::vector<const CheatTrajectory*> judged;
  Frame cheaters{static_cast<std::int64_t>(ticks), {}, {}};
  for (const CheatTrajectory& c : cheats) {
    // Into solid is made with the game's box; a capsule judge sees the
    // player as its capsule, which may end clear of a wall the box's corner
    // entered: those are not cheats for it.
    if (c.kind == CheatKind::kIntoSolid) {
      const Shape end = PlaceShape(shape(false), Pose{c.positions.back(), kIdentity});
      const MeshPairResult inside = QueryMesh(QueryLevel::kContact, end, *corpus.mesh);
      if (!inside.found || inside.result.distance > -kIntoSolidDepth) continue;
    }
    judged.push_back(&c);
    const std::int64_t id = kCheaterBody + static_cast<std::int64_t>(judged.size());
    BodyUpdate cheater;
    cheater.id = id;
    cheater.pose = Pose{c.positions.front(), kIdentity};
    cheater.parts = {BodyPart{0, shape(false), Pose{{}, kIdentity}}};
    cheater.movement_shape = shape(false);
    cheaters.bodies.push_back(std::move(cheater));
    for (std::size_t k = 0; k + 1 < c.positions.size(); ++k) {
      MoveRequest m;
      m.body = id;
      m.from = c.positions[k];
      m.to = c.positions[k + 1];
      m.elapsed = tick_seconds;
      moves.push_back(m);
    }
  }
  push(cheaters);
  const std::vector<MoveVerdict> verdicts = world.ValidateMoves(moves);
  std::size_t next = 0;
  for (const CheatTrajectory* c : judged) {
    bool caught = false;
    for (std::size_t k = 0; k + 1 < c->positions.size(); ++k)
      caught |= verdicts[next++].code != MoveCode::kOk;
    if (!caught && setup.dump_rejected > 0) {
      std::fprintf(stderr, "uncaught %s:", std::string(CheatName(c->kind)).c_str());
      for (const Vec3& p : c->positions) std::fprintf(stderr, " (%.2f, %.2f, %.2f)", p.x, p.y, p.z);
      std::fprintf(stderr, "\n");
    }
    CheatTally& t = r.cheats[static_cast<std::size_t>(c->kind)];
    ++t.cases;
    t.caught += caught;
  }
  return r;
}

std::string TableHeader() {
  std::string h =
      "| map | tick | shape | legit moves | rejected /10k | TOO_FAST | BLOCKED | START_PEN. | on a step | "
      "airborne |";
  for (int k = 0; k < kCheatKinds; ++k)
    h.append(" ").append(CheatName(static_cast<CheatKind>(k))).append(" |");
  h += "\n|---|---|---|---:|---:|---:|---:|---:|---:|---:|";
  for (int k = 0; k < kCheatKinds; ++k) h += "---:|";
  return h;
}

std::string TableRow(const std::string& map, const JudgeSetup& setup, const JudgeResult& r) {
  const LegitTally& l = r.legit;
  const auto code = [&](MoveCode c) { return std::to_string(l.by_code[static_cast<std::size_t>(c)]); };
  char head[160];
  std::snprintf(
      head, sizeof head, "| %s | %d ms | %s | %lld | %.1f | ", map.c_str(),
      static_cast<int>(std::lround(1000.0 * static_cast<double>(setup.commands_per_tick) * kCommandSeconds)),
      std::string(MoveShapeName(setup.shape)).c_str(), static_cast<long long>(l.moves), l.PerTenThousand());
  std::string row = head;
  for (const std::string& cell :
       {code(MoveCode::kTooFast), code(MoveCode::kBlocked), code(MoveCode::kStartPenetrating),
        std::to_string(l.rejected_step), std::to_string(l.rejected_airborne)}) {
    row.append(cell).append(" | ");
  }
  row.pop_back();
  for (const CheatTally& t : r.cheats) row.append(" ").append(Percent(t)).append(" |");
  // The movement model's codes, when any legitimate move got one.
  for (std::size_t c = static_cast<std::size_t>(MoveCode::kTooFastHorizontal); c < l.by_code.size(); ++c) {
    if (l.by_code[c] > 0) {
      row.append(" ")
          .append(MoveCodeName(static_cast<MoveCode>(c)))
          .append("=")
          .append(std::to_string(l.by_code[c]));
    }
  }
  return row;
}

}  // namespace collide::testing
