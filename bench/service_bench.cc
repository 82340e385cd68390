// The server's own CPU cost per request, without gRPC and independent of the
// network. Packed: each iteration parses a serialized QueryPairsPackedRequest
// onto an arena of the service's message allocator (as gRPC does on
// arrival), calls HandleRequest (validation, conversion, the batch, the
// response) and serializes the response (as gRPC does before sending).
// Readable: the request's bytes go to HandleQueryPairsBytes, which is what
// the served QueryPairs runs (it reads and writes wire bytes itself). The request bytes
// are built once, outside the timed loop; they are what `collide bench`
// sends: OBB-OBB pairs from ShapeFactory(seed 1), 13% hits.
//
// Two measures: Google Benchmark's CPU time per pair (noisy on a shared
// machine), and with --instructions under `valgrind --tool=callgrind` one
// request per case, counted alone on every thread (the batch runs partly on
// the runner's workers) and dumped under the case's name: instructions per
// pair, which do not depend on the machine's load (bench/README.md,
// "Service").
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "collide/query.h"
#include "convert/packed.h"
#include "convert/shapes.h"
#include "server/arena_allocator.h"
#include "server/batch_runner.h"
#include "server/service.h"
#include "support/random_shapes.h"
#include "valgrind/callgrind.h"

namespace collide::bench {
namespace {

using server::ArenaMessageAllocator;
using server::BatchRunner;
using server::CallControl;
using server::HandleRequest;
using server::ServiceConfig;

struct Case {
  const char* name;
  bool packed;
  QueryLevel level;
  int pairs;
};

// The cases of the table in bench/README.md ("Service"), plus the single-pair call.
constexpr Case kCases[] = {
    {"packed/intersect/4096", true, QueryLevel::kIntersect, 4096},
    {"packed/contact/4096", true, QueryLevel::kContact, 4096},
    {"readable/intersect/4096", false, QueryLevel::kIntersect, 4096},
    {"readable/contact/4096", false, QueryLevel::kContact, 4096},
    {"packed/contact/1", true, QueryLevel::kContact, 1},
    {"readable/contact/1", false, QueryLevel::kContact, 1},
};

// The serialized request of a case: the same pairs as `collide bench --kind=obb --seed=1`.
std::string SerializedRequest(const Case& c) {
  testing::ShapeFactory factory(1);
  std::vector<Shape> a, b;
  for (int i = 0; i < c.pairs; ++i) {
    a.push_back(factory.Make(ShapeKind::kObb));
    b.push_back(factory.Make(ShapeKind::kObb));
  }
  if (c.packed) {
    v1::QueryPairsPackedRequest request;
    request.set_level(convert::ToProto(c.level));
    convert::PackShapes(a, request.mutable_a());
    convert::PackShapes(b, request.mutable_b());
    return request.SerializeAsString();
  }
  v1::QueryPairsRequest request;
  request.set_level(convert::ToProto(c.level));
  for (int i = 0; i < c.pairs; ++i) {
    v1::ShapePair* pair = request.add_pairs();
    convert::ToProto(a[i], pair->mutable_a());
    convert::ToProto(b[i], pair->mutable_b());
  }
  return request.SerializeAsString();
}

// One request as the service handles it; returns the response's byte count
// (0 on an error status, which the sanity check reports).
template <typename Request, typename Response>
class Handler {
 public:
  explicit Handler(BatchRunner& runner) : runner_(runner) {}

  std::size_t Handle(std::string_view bytes) {
    grpc::MessageHolder<Request, Response>* holder = allocator_.AllocateMessages();
    std::size_t size = 0;
    if (holder->request()->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
      const auto never = [] { return false; };
      std::size_t items = 0;
      const grpc::Status status =
          HandleRequest(*holder->request(), holder->response(), config_, runner_, CallControl{never}, items);
      if (status.ok()) {
        // As gRPC does: size, then serialize into buffer space (not
        // zero-filled; gRPC's slices are reused here by one buffer).
        size = holder->response()->ByteSizeLong();
        if (out_.size() < size) out_.resize(size);
        holder->response()->SerializeWithCachedSizesToArray(out_.data());
      }
    }
    holder->Release();
    return size;
  }

 private:
  BatchRunner& runner_;
  ServiceConfig config_;
  ArenaMessageAllocator<Request, Response> allocator_;
  std::vector<std::uint8_t> out_;
};

// The worker threads of `collide-server --worker_threads=2` (its default on
// this machine): the runner's split is part of the cost measured.
BatchRunner& Runner() {
  static BatchRunner runner(2);
  return runner;
}

template <typename Request, typename Response>
std::size_t HandleOnce(const std::string& bytes) {
  static Handler<Request, Response> handler(Runner());
  return handler.Handle(bytes);
}

// The served readable QueryPairs: its bytes straight to HandleQueryPairsBytes
// (the wire fast path for these requests), which writes the response's bytes.
std::size_t HandleReadableOnce(const std::string& bytes) {
  static std::string response;
  const auto never = [] { return false; };
  std::size_t items = 0;
  const grpc::Status status =
      server::HandleQueryPairsBytes({reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()},
                                    response, ServiceConfig{}, Runner(), CallControl{never}, items);
  return status.ok() ? response.size() : 0;
}

std::size_t HandleCase(const Case& c, const std::string& bytes) {
  return c.packed ? HandleOnce<v1::QueryPairsPackedRequest, v1::QueryPairsPackedResponse>(bytes)
                  : HandleReadableOnce(bytes);
}

void BM_Handle(benchmark::State& state, const Case& c) {
  const std::string bytes = SerializedRequest(c);
  if (HandleCase(c, bytes) == 0) {
    state.SkipWithError("the request failed");
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(HandleCase(c, bytes));
  state.counters["pair_time"] = benchmark::Counter(static_cast<double>(state.iterations() * c.pairs),
                                                   benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["request_bytes"] = static_cast<double>(bytes.size());
}

// --instructions mode (see the file comment): warms each case up once (the
// arenas and scratch reach their steady size), then counts one request.
int CountInstructions() {
  if (!RUNNING_ON_VALGRIND) std::fprintf(stderr, "--instructions: not under callgrind, nothing is counted\n");
  for (const Case& c : kCases) {
    const std::string bytes = SerializedRequest(c);
    HandleCase(c, bytes);
    // Zeroing and dumping cover every thread, where toggling collection
    // would cover the calling thread only; the idle workers add nothing.
    CALLGRIND_ZERO_STATS;
    const std::size_t size = HandleCase(c, bytes);
    CALLGRIND_DUMP_STATS_AT(c.name);
    std::printf("%s pairs=%d response_bytes=%zu\n", c.name, c.pairs, size);
  }
  return 0;
}

}  // namespace
}  // namespace collide::bench

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--instructions") == 0) return collide::bench::CountInstructions();
  }
  for (const collide::bench::Case& c : collide::bench::kCases) {
    benchmark::RegisterBenchmark(c.name, collide::bench::BM_Handle, c)->Unit(benchmark::kMicrosecond);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
