// The move corpus harness (issue 31 item 4, docs/move-corpus.md): an
// OpenArena map's player-collision geometry, bots moving on it by Quake's
// rules, and World::ValidateMoves judging every legitimate move and every
// cheat on a World built from the same geometry. Shared by
// tests/corpus/move_corpus_test.cc (asserts) and bench/move_corpus.cc (the
// published table).
#ifndef COLLIDE_TESTS_SUPPORT_MOVE_CORPUS_H_
#define COLLIDE_TESTS_SUPPORT_MOVE_CORPUS_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "collide/mesh.h"
#include "collide/world.h"
#include "support/bsp_entities.h"
#include "support/move_bots.h"
#include "support/move_cheats.h"
#include "support/quake_movement.h"

namespace collide::testing {

// A map of kOpenArenaPak with its bots' tracks.
struct MapCorpus {
  std::string map;
  std::shared_ptr<const TriangleMesh> mesh;  // importer::kPlayerCollision
  BspEntities entities;                      // spawns and trigger_hurt boxes
  QuakeMovementParams params;
  std::vector<BotTrack> tracks;
};
// Imports `map` (aggressor, oa_ctf2, am_underworks2...) and runs the bots;
// `error` says why not when the mesh is null.
MapCorpus MakeMapCorpus(const std::string& map, const BotRunOptions& bots, std::string& error);

// What the bots did, and whether they stayed out of the geometry.
struct CorpusStats {
  std::int64_t commands = 0;
  std::int64_t step_ups = 0;
  std::int64_t jumps = 0;
  std::int64_t airborne = 0;  // commands ending off the ground
  std::int64_t crouched = 0;
  std::int64_t respawns = 0;
  std::int64_t unstuck = 0;
  double max_horizontal_speed = 0;
  double max_fall_speed = 0;
  double deepest_overlap = 0;  // of any recorded box with the mesh (>= 0)
};
CorpusStats MeasureCorpus(const MapCorpus& corpus);

enum class MoveShapeKind { kBox, kCapsule };
std::string_view MoveShapeName(MoveShapeKind kind);
// The body-frame movement shape of a stance: the player box, or the capsule
// inside it (radius 15, as wide as the box, from its floor to its top).
Shape MovementShape(const QuakeMovementParams& params, MoveShapeKind kind, bool crouched);

// How moves are judged.
struct JudgeSetup {
  std::size_t commands_per_tick = 1;  // 1: 16 ms server ticks, 3: 48 ms.
  MoveShapeKind shape = MoveShapeKind::kBox;
  // Today's rule: one 3-D speed limit for every move (1.1x run speed).
  double max_speed = 1.1 * 320.0;
  double skin_width = kTraceGap;  // Quake units: the game's own collision epsilon.
  int cheats_per_kind = 200;
  std::uint64_t cheat_seed = 7;
  // Judge with the Quake movement model (collide/movement.h), its stances'
  // shapes the setup's, instead of the straight sweep and max_speed.
  bool movement_model = false;
  // Prints up to this many rejected legitimate moves to stderr (the bots'
  // states at both ends and the verdict), for tuning a judge.
  int dump_rejected = 0;
  // Prints every verdict of bot `trace_bot` (>= 0) between these ticks, with
  // the rule's reason and the heights the arc allowed (its moves are explained).
  int trace_bot = -1;
  std::size_t trace_from = 0, trace_to = 0;
};

struct LegitTally {
  std::int64_t moves = 0;
  std::int64_t rejected = 0;
  std::array<std::int64_t, static_cast<std::size_t>(MoveCode::kTimeBudget) + 1> by_code{};  // by MoveCode
  std::int64_t rejected_step = 0;      // of which the move went up a step
  std::int64_t rejected_airborne = 0;  // of which either end was off the ground
  double PerTenThousand() const {
    return moves ? 1e4 * static_cast<double>(rejected) / static_cast<double>(moves) : 0;
  }
};
struct CheatTally {
  std::int64_t cases = 0;
  std::int64_t caught = 0;
  double Share() const { return cases ? static_cast<double>(caught) / static_cast<double>(cases) : 0; }
};
struct JudgeResult {
  LegitTally legit;
  std::array<CheatTally, kCheatKinds> cheats{};
};

// Pushes the bots' server-tick positions as frames (one body per bot with
// the stance's movement shape) and judges each move to the latest frame,
// then the cheats (made for this tick length), each from a body of its own.
JudgeResult JudgeCorpus(const MapCorpus& corpus, const JudgeSetup& setup);

// One row of the published table: "| map | 16 ms | box | moves | ... |".
std::string TableHeader();
std::string TableRow(const std::string& map, const JudgeSetup& setup, const JudgeResult& r);

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_MOVE_CORPUS_H_
