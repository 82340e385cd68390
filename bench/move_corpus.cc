// Prints the move corpus table of docs/move-corpus.md: Quake-style bots and
// cheats on OpenArena maps, judged by World::ValidateMoves at 16 and 48 ms
// server ticks with the box and the capsule movement shape.
//
//   move_corpus [--bots N] [--seconds S] [--cheats N] [--max-speed V] [--model] [--tick 16|48] [--shape
//   box|capsule] [--dump N] [--trace BOT T0 T1] [MAP...]
//
// Defaults: 16 bots x 60 s on aggressor, oa_ctf2 and am_underworks2, 200
// cheats of each kind, the straight sweep with a 3-D limit of 1.1 x 320
// units/s; --model judges with the Quake movement model instead; --dump N
// prints the first N rejected legitimate moves of each judge to stderr;
// --trace prints every verdict of one bot between two ticks (with the
// rule's reason); --tick and --shape judge one tick length or shape only.
#include "support/move_corpus.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace collide::testing;

int main(int argc, char** argv) {
  BotRunOptions bots;
  JudgeSetup base;
  std::vector<std::string> maps;
  int only_tick = 0;       // 16 or 48: only that tick length
  std::string only_shape;  // box or capsule: only that shape
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto next = [&] { return i + 1 < argc ? std::atof(argv[++i]) : 0.0; };
    if (a == "--bots") {
      bots.bots = static_cast<int>(next());
    } else if (a == "--seconds") {
      bots.seconds = next();
    } else if (a == "--cheats") {
      base.cheats_per_kind = static_cast<int>(next());
    } else if (a == "--max-speed") {
      base.max_speed = next();
    } else if (a == "--model") {
      base.movement_model = true;
    } else if (a == "--tick") {
      only_tick = static_cast<int>(next());
    } else if (a == "--shape") {
      only_shape = i + 1 < argc ? argv[++i] : "";
    } else if (a == "--trace") {
      base.trace_bot = static_cast<int>(next());
      base.trace_from = static_cast<std::size_t>(next());
      base.trace_to = static_cast<std::size_t>(next());
    } else if (a == "--dump") {
      base.dump_rejected = static_cast<int>(next());
    } else if (a.starts_with("--")) {
      std::fprintf(stderr,
                   "usage: move_corpus [--bots N] [--seconds S] [--cheats N] [--max-speed V] [--model] "
                   "[--tick 16|48] [--shape box|capsule] [--dump N] [--trace BOT T0 T1] [MAP...]\n");
      return 2;
    } else {
      maps.push_back(a);
    }
  }
  if (maps.empty()) maps = {"aggressor", "oa_ctf2", "am_underworks2"};
  std::vector<std::string> rows;
  for (const std::string& map : maps) {
    std::string error;
    const MapCorpus corpus = MakeMapCorpus(map, bots, error);
    if (!corpus.mesh) {
      std::fprintf(stderr, "%s\n", error.c_str());
      return 1;
    }
    const CorpusStats s = MeasureCorpus(corpus);
    std::printf(
        "%s: %zu triangles, %zu spawns, %zu trigger_hurt, %d bots x %.0f s: %lld commands, %lld step-ups, "
        "%lld jumps, "
        "%.1f %% airborne, %.1f %% crouched, %lld respawns, %lld unstuck, max horizontal speed %.0f, "
        "max fall speed %.0f, deepest overlap %.4f\n",
        map.c_str(), corpus.mesh->triangle_count(), corpus.entities.spawns.size(),
        corpus.entities.hurt.size(), bots.bots, bots.seconds, static_cast<long long>(s.commands),
        static_cast<long long>(s.step_ups), static_cast<long long>(s.jumps),
        100.0 * static_cast<double>(s.airborne) / static_cast<double>(s.commands),
        100.0 * static_cast<double>(s.crouched) / static_cast<double>(s.commands),
        static_cast<long long>(s.respawns), static_cast<long long>(s.unstuck), s.max_horizontal_speed,
        s.max_fall_speed, s.deepest_overlap);
    std::fflush(stdout);
    for (std::size_t cpt : {1, 3}) {
      for (MoveShapeKind shape : {MoveShapeKind::kBox, MoveShapeKind::kCapsule}) {
        if ((only_tick != 0 && only_tick != static_cast<int>(16 * cpt)) ||
            (!only_shape.empty() && only_shape != MoveShapeName(shape))) {
          continue;
        }
        JudgeSetup setup = base;
        setup.commands_per_tick = cpt;
        setup.shape = shape;
        rows.push_back(TableRow(map, setup, JudgeCorpus(corpus, setup)));
      }
    }
  }
  std::printf("\n%s\n", TableHeader().c_str());
  for (const std::string& row : rows) std::printf("%s\n", row.c_str());
  return 0;
}
