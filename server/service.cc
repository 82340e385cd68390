#include "server/service.h"

#include <algorithm>
#include <chrono>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "collide/query.h"
#include "convert/packed.h"
#include "convert/readable_wire.h"
#include "convert/requests.h"
#include "convert/results.h"
#include "google/protobuf/arena.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "grpcpp/support/proto_buffer_reader.h"
#include "server/arena_allocator.h"
#include "server/request_encoding.h"
#include "server/status_mapping.h"
#include "server/tsan_annotations.h"
#include "spdlog/spdlog.h"

namespace collide::server {

struct CollisionService::Allocators {
  ArenaMessageAllocator<v1::QueryPairsPackedRequest, v1::QueryPairsPackedResponse> query_pairs_packed;
  ArenaMessageAllocator<v1::CastRaysRequest, v1::CastRaysResponse> cast_rays;
  ArenaMessageAllocator<v1::CastRaysPackedRequest, v1::CastRaysPackedResponse> cast_rays_packed;
};

namespace {

// Decoded batches, results and violations of the requests a gRPC thread
// handles, reused from one request to the next so that steady traffic
// allocates nothing per item.
struct Scratch {
  convert::PairBatch pairs;
  convert::RayBatch rays;
  std::vector<PairResult> pair_results;  // Readable requests only.
  std::vector<RayHit> ray_hits;          // Readable requests only.
  std::vector<QueryStatus> statuses;     // Every item's status.
  convert::ViolationList violations;
};

Scratch& ThreadScratch() {
  thread_local Scratch scratch;
  return scratch;
}

// A thread keeps its scratch for calls of up to this many items (a few MB);
// after a larger call it frees it, so that a burst of 65,536-item calls does
// not leave each call thread holding the largest batch it ever decoded
// (docs/operations.md, "Memory").
constexpr std::size_t kKeptScratchItems = 16384;
// Likewise the joined bytes of a readable QueryPairs request.
constexpr std::size_t kKeptJoinedBytes = 4 << 20;

void ReleaseScratchAfter(std::size_t items) {
  if (items > kKeptScratchItems) ThreadScratch() = Scratch();
}

template <typename Request>
constexpr bool kIsPairRequest =
    std::is_same_v<Request, v1::QueryPairsRequest> || std::is_same_v<Request, v1::QueryPairsPackedRequest>;

constexpr const char* kUnsupportedDescription =
    "halfspace vs halfspace has no bounded answer; the library does not support this pair of kinds";

// Names the pairs the library does not answer (collide::IsSupported), before
// any is run.
void FindUnsupported(const v1::QueryPairsRequest&, const convert::PairBatch& batch,
                     convert::ViolationList& violations) {
  for (std::size_t i = 0; i < batch.size(); ++i) {
    if (!IsSupported(KindOf(batch.a[i]), KindOf(batch.b[i]))) {
      violations.Add("pairs[" + std::to_string(i) + "]", kUnsupportedDescription);
    }
  }
}

void FindUnsupported(const v1::QueryPairsPackedRequest&, const convert::PairBatch& batch,
                     convert::ViolationList& violations) {
  // One kind per array: either every pair is supported or none is.
  if (batch.size() > 0 && !IsSupported(KindOf(batch.a[0]), KindOf(batch.b[0]))) {
    violations.Add("b.kind", "all " + std::to_string(batch.size()) + " pairs: " + kUnsupportedDescription);
  }
}

// The path naming item i of a valid request of n items, for errors about a
// whole item: the item's message, or the first double of its packed data.
std::string ItemPath(const v1::QueryPairsRequest&, std::size_t i, std::size_t) {
  return "pairs[" + std::to_string(i) + "]";
}
std::string ItemPath(const v1::CastRaysRequest&, std::size_t i, std::size_t) {
  return "casts[" + std::to_string(i) + "]";
}
std::string ItemPath(const v1::QueryPairsPackedRequest& request, std::size_t i, std::size_t n) {
  return "a.data[" + std::to_string(i * (request.a().data_size() / n)) + "]";
}
std::string ItemPath(const v1::CastRaysPackedRequest&, std::size_t i, std::size_t) {
  return "rays[" + std::to_string(i * convert::kPackedRayStride) + "]";
}

// Items the library reported kUnsupported for although IsSupported
// promised an answer: never a silent miss (style.md), always UNIMPLEMENTED.
template <typename Request>
void FindUnsupportedResults(const Request& request, std::span<const QueryStatus> statuses,
                            convert::ViolationList& violations) {
  for (std::size_t i = 0; i < statuses.size(); ++i) {
    if (statuses[i] == QueryStatus::kUnsupported) {
      violations.Add(ItemPath(request, i, statuses.size()),
                     "the library has no answer for this item's shape kinds");
    }
  }
}

// Runs item i of the decoded batch for i in [0, n) on `runner`: answer(i)
// computes its result, whose status goes to s.statuses[i] and which store(i,
// result) keeps. A packed response's store writes straight into the
// response's arrays (sized once, not zero-filled); a readable one into
// s.*_results, which Finish turns into messages after the batch.
template <typename Answer, typename Store>
bool RunItems(Scratch& s, std::size_t n, BatchRunner& runner, Answer answer, Store store,
              absl::FunctionRef<bool()> should_stop) {
  s.statuses.resize(n);
  QueryStatus* status = s.statuses.data();
  return runner.Run(
      n,
      [&answer, &store, status](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
          const auto result = answer(i);
          status[i] = result.status;
          store(i, result);
        }
      },
      should_stop);
}
template <typename Store>
bool RunPairs(Scratch& s, BatchRunner& runner, Store store, absl::FunctionRef<bool()> should_stop) {
  const convert::PairBatch& batch = s.pairs;
  return RunItems(
      s, batch.size(), runner, [&batch](std::size_t i) { return Query(batch.level, batch.a[i], batch.b[i]); },
      store, should_stop);
}
template <typename Store>
bool RunRays(Scratch& s, BatchRunner& runner, Store store, absl::FunctionRef<bool()> should_stop) {
  const convert::RayBatch& batch = s.rays;
  return RunItems(
      s, batch.size(), runner, [&batch](std::size_t i) { return RayCast(batch.rays[i], batch.shapes[i]); },
      store, should_stop);
}

bool Run(Scratch& s, BatchRunner& runner, v1::QueryPairsResponse*, absl::FunctionRef<bool()> should_stop) {
  s.pair_results.resize(s.pairs.size());
  PairResult* out = s.pair_results.data();
  return RunPairs(
      s, runner, [out](std::size_t i, const PairResult& r) { out[i] = r; }, should_stop);
}
bool Run(Scratch& s, BatchRunner& runner, v1::QueryPairsPackedResponse* response,
         absl::FunctionRef<bool()> should_stop) {
  const convert::PackedPairArrays out = convert::SizePacked(s.pairs.size(), s.pairs.level, response);
  return RunPairs(
      s, runner, [&out](std::size_t i, const PairResult& r) { out.Put(i, r); }, should_stop);
}
bool Run(Scratch& s, BatchRunner& runner, v1::CastRaysResponse*, absl::FunctionRef<bool()> should_stop) {
  s.ray_hits.resize(s.rays.size());
  RayHit* out = s.ray_hits.data();
  return RunRays(
      s, runner, [out](std::size_t i, const RayHit& h) { out[i] = h; }, should_stop);
}
bool Run(Scratch& s, BatchRunner& runner, v1::CastRaysPackedResponse* response,
         absl::FunctionRef<bool()> should_stop) {
  const convert::PackedRayArrays out = convert::SizePacked(s.rays.size(), response);
  return RunRays(
      s, runner, [&out](std::size_t i, const RayHit& h) { out.Put(i, h); }, should_stop);
}

// The bytes of a readable QueryPairs response, written by
// convert::EncodeQueryPairsResponseWire (HandleQueryPairsBytes).
struct QueryPairsResponseBytes {
  std::string* bytes;
  void Clear() { bytes->clear(); }
};

bool Run(Scratch& s, BatchRunner& runner, QueryPairsResponseBytes*, absl::FunctionRef<bool()> should_stop) {
  return Run(s, runner, static_cast<v1::QueryPairsResponse*>(nullptr), should_stop);
}

// Completes the response of a batch that ran wholly.
void Finish(const Scratch& s, v1::QueryPairsResponse* response) { convert::Encode(s.pair_results, response); }
void Finish(const Scratch& s, QueryPairsResponseBytes* response) {
  convert::EncodeQueryPairsResponseWire(s.pair_results, *response->bytes);
}
void Finish(const Scratch& s, v1::QueryPairsPackedResponse* response) {
  convert::ListNotConverged(s.statuses, response);
}
void Finish(const Scratch& s, v1::CastRaysResponse* response) { convert::Encode(s.ray_hits, response); }
void Finish(const Scratch& s, v1::CastRaysPackedResponse* response) {
  convert::ListNotConverged(s.statuses, response);
}

template <typename Request, typename Response>
grpc::Status RunDecoded(const Request& request, Scratch& s, Response* response, BatchRunner& runner,
                        const CallControl& control, std::size_t items);

// Validates, runs and encodes one request; `items` receives its item count.
template <typename Request, typename Response>
grpc::Status Handle(const Request& request, Response* response, const ServiceConfig& config,
                    BatchRunner& runner, const CallControl& control, std::size_t& items) {
  items = convert::ItemCount(request);
  if (items > static_cast<std::size_t>(config.max_items_per_request)) {
    return ToGrpcStatus(TooManyItems(items, config.max_items_per_request));
  }
  Scratch& s = ThreadScratch();
  s.violations.Clear();
  bool valid;
  if constexpr (kIsPairRequest<Request>) {
    valid = convert::Decode(request, s.pairs, s.violations);
  } else {
    valid = convert::Decode(request, s.rays, s.violations);
  }
  if (!valid) return ToGrpcStatus(InvalidFields(s.violations));
  if constexpr (kIsPairRequest<Request>) {
    FindUnsupported(request, s.pairs, s.violations);
    if (!s.violations.empty()) {
      return ToGrpcStatus(UnsupportedItems(s.violations, "pair"));
    }
  }

  return RunDecoded(request, s, response, runner, control, items);
}

// The steps after a request of `items` items was decoded into `s` and found
// valid and supported: runs the batch and completes `response`.
template <typename Request, typename Response>
grpc::Status RunDecoded(const Request& request, Scratch& s, Response* response, BatchRunner& runner,
                        const CallControl& control, std::size_t items) {
  const auto deadline = control.deadline;
  const auto should_stop = [&control, deadline] {
    return control.is_cancelled() || std::chrono::system_clock::now() >= deadline;
  };
  const bool finished = Run(s, runner, response, should_stop);
  if (!finished) {
    response->Clear();  // Partly written.
    if (std::chrono::system_clock::now() >= deadline) {
      return ToGrpcStatus(
          {RequestError::Kind::kDeadlineExceeded,
           "the deadline passed before the batch of " + std::to_string(items) + " items finished"});
    }
    return ToGrpcStatus({RequestError::Kind::kCancelled, "the client cancelled the call"});
  }
  FindUnsupportedResults(request, s.statuses, s.violations);
  if (!s.violations.empty()) {
    response->Clear();
    return ToGrpcStatus(UnsupportedItems(s.violations, "item"));
  }
  Finish(s, response);
  return grpc::Status::OK;
}

// The wire bytes of a readable QueryPairs request (HandleQueryPairsBytes).
struct QueryPairsBytes {
  std::span<const std::uint8_t> bytes;
};

grpc::Status Handle(const QueryPairsBytes& request, std::string* response, const ServiceConfig& config,
                    BatchRunner& runner, const CallControl& control, std::size_t& items) {
  return HandleQueryPairsBytes(request.bytes, *response, config, runner, control, items);
}

}  // namespace

grpc::Status ParseRequest(google::protobuf::io::ZeroCopyInputStream& bytes, std::size_t size,
                          google::protobuf::MessageLite& request) {
  if (request.ParseFromZeroCopyStream(&bytes)) return grpc::Status::OK;
  return ToGrpcStatus({RequestError::Kind::kInvalidRequest, "the request is not a " + request.GetTypeName() +
                                                                ": its " + std::to_string(size) +
                                                                " bytes do not parse"});
}

grpc::Status ParseRequest(const grpc::ByteBuffer& bytes, google::protobuf::MessageLite& request) {
  RequestReader reader(bytes);
  if (grpc::Status encoding = CheckRequestEncoding(reader); !encoding.ok()) return encoding;
  return ParseRequest(reader, bytes.Length(), request);
}

grpc::Status HandleQueryPairsBytes(std::span<const std::uint8_t> request, std::string& response,
                                   const ServiceConfig& config, BatchRunner& runner,
                                   const CallControl& control, std::size_t& items) {
  Scratch& s = ThreadScratch();
  s.violations.Clear();
  // FindUnsupported and RunDecoded take the request only for its type (the
  // paths they name, "pairs[i]", need nothing else).
  const v1::QueryPairsRequest& type_tag = v1::QueryPairsRequest::default_instance();
  if (convert::DecodeQueryPairsWire(request, static_cast<std::size_t>(config.max_items_per_request),
                                    s.pairs)) {
    FindUnsupported(type_tag, s.pairs, s.violations);
    if (s.violations.empty()) {
      items = s.pairs.size();
      QueryPairsResponseBytes out{&response};
      return RunDecoded(type_tag, s, &out, runner, control, items);
    }
    s.violations.Clear();
  }
  // Everything the fast path declines, errors included: protobuf, then the
  // typed handling.
  google::protobuf::Arena arena;
  auto* parsed = google::protobuf::Arena::CreateMessage<v1::QueryPairsRequest>(&arena);
  google::protobuf::io::ArrayInputStream stream(request.data(), static_cast<int>(request.size()));
  if (grpc::Status status = ParseRequest(stream, request.size(), *parsed); !status.ok()) {
    items = 0;
    return status;
  }
  auto* typed_response = google::protobuf::Arena::CreateMessage<v1::QueryPairsResponse>(&arena);
  grpc::Status status = Handle(*parsed, typed_response, config, runner, control, items);
  if (status.ok()) typed_response->SerializeToString(&response);
  return status;
}

grpc::Status HandleRequest(const v1::QueryPairsRequest& request, v1::QueryPairsResponse* response,
                           const ServiceConfig& config, BatchRunner& runner, const CallControl& control,
                           std::size_t& items) {
  return Handle(request, response, config, runner, control, items);
}
grpc::Status HandleRequest(const v1::QueryPairsPackedRequest& request, v1::QueryPairsPackedResponse* response,
                           const ServiceConfig& config, BatchRunner& runner, const CallControl& control,
                           std::size_t& items) {
  return Handle(request, response, config, runner, control, items);
}
grpc::Status HandleRequest(const v1::CastRaysRequest& request, v1::CastRaysResponse* response,
                           const ServiceConfig& config, BatchRunner& runner, const CallControl& control,
                           std::size_t& items) {
  return Handle(request, response, config, runner, control, items);
}
grpc::Status HandleRequest(const v1::CastRaysPackedRequest& request, v1::CastRaysPackedResponse* response,
                           const ServiceConfig& config, BatchRunner& runner, const CallControl& control,
                           std::size_t& items) {
  return Handle(request, response, config, runner, control, items);
}

namespace {

// Answers a call at once with `status`, uncounted (not admitted).
grpc::ServerUnaryReactor* FinishNow(grpc::CallbackServerContext* context, const grpc::Status& status) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  reactor->Finish(status);
  return reactor;
}

}  // namespace

// The reactor of an admitted query call. The call stops counting as in
// flight when its status is handed to gRPC, not in OnDone: a client calling
// one at a time could otherwise find its previous call still counted (OnDone
// runs after the client may already have the answer). The responses being
// sent are bounded by the transport limits (streams per connection, the
// resource quota).
class CollisionService::CallReactor final : public grpc::ServerUnaryReactor {
 public:
  CallReactor(CollisionService& service, std::size_t items) : service_(service), items_(items) {}

  // May run on the CallExecutor before the handler has returned this reactor
  // to gRPC: ServerUnaryReactor keeps the status until it is bound.
  void FinishCall(grpc::Status status) {
    service_.admission_.Release(items_);
    // gRPC calls OnDone after Finish, on a thread of its own, ordered by its
    // (uninstrumented) completion queue: TsanAcquire in OnDone.
    TsanRelease(this);
    Finish(std::move(status));
  }

  void OnDone() override {
    TsanAcquire(this);
    delete this;
  }

 private:
  CollisionService& service_;
  const std::size_t items_;
};

CollisionService::CollisionService(ServiceConfig config, BatchRunner& runner)
    : config_(std::move(config)),
      runner_(runner),
      allocators_(std::make_unique<Allocators>()),
      admission_(config_.max_concurrent_calls, config_.max_items_in_flight),
      executor_(config_.call_threads) {}

CollisionService::~CollisionService() = default;

template <typename ServeFn>
grpc::ServerUnaryReactor* CollisionService::Dispatch(const char* method, grpc::CallbackServerContext* context,
                                                     std::size_t items, bool post, ServeFn serve) {
  if (!admission_.Admit(items)) {
    // Load shedding: answer at once rather than queue work the server cannot
    // keep up with (the client may retry, here or elsewhere).
    const grpc::Status status = admission_.RefusedStatus();
    if (spdlog::should_log(spdlog::level::debug)) {
      spdlog::debug("{} peer={} items={} status={} shed", method, context->peer(), items,
                    static_cast<int>(status.error_code()));
    }
    Count(method, status, std::chrono::steady_clock::now());
    return FinishNow(context, status);
  }
  auto* reactor = new CallReactor(*this, items);
  if (!post) {
    // One chunk: microseconds of work, cheaper here than a thread handoff.
    reactor->FinishCall(serve());
  } else {
    executor_.Post([this, context, reactor, serve] {
      if (config_.hooks.before_posted_call) config_.hooks.before_posted_call(*context);
      reactor->FinishCall(serve());
    });
  }
  return reactor;
}

template <typename Allocator>
grpc::ServerUnaryReactor* CollisionService::ServeUnary(const char* method,
                                                       grpc::CallbackServerContext* context,
                                                       const grpc::ByteBuffer* request_bytes,
                                                       grpc::ByteBuffer* response_bytes,
                                                       Allocator& allocator) {
  // Parsed here, on gRPC's thread, as gRPC's own handler did (the holder's
  // request arena serves this thread: see ArenaMessageAllocator). The holder
  // goes back to the pool when the last copy of the call's function is
  // destroyed: after the call ran, or at once when it is shed.
  std::shared_ptr<grpc::MessageHolder<typename Allocator::RequestType, typename Allocator::ResponseType>>
      holder(allocator.AllocateMessages(), [](auto* h) { h->Release(); });
  const auto start = std::chrono::steady_clock::now();
  if (grpc::Status parsed = ParseRequest(*request_bytes, *holder->request()); !parsed.ok()) {
    Count(method, parsed, start);
    if (spdlog::should_log(spdlog::level::debug)) {
      spdlog::debug("{} peer={} status={} message={}", method, context->peer(),
                    static_cast<int>(parsed.error_code()), parsed.error_message());
    }
    return FinishNow(context, parsed);
  }
  // A request over --max_items_per_request is refused by Handle without
  // running anything, so its items do not count.
  const std::size_t items = convert::ItemCount(*holder->request());
  const std::size_t counted = items <= static_cast<std::size_t>(config_.max_items_per_request) ? items : 0;
  return Dispatch(method, context, counted, counted > BatchRunner::kChunkItems,
                  [this, method, context, holder, response_bytes, start] {
                    grpc::Status status =
                        Serve(method, context, *holder->request(), holder->response(), start);
                    bool own_buffer = false;
                    if (status.ok()) {
                      status = grpc::SerializationTraits<typename Allocator::ResponseType>::Serialize(
                          *holder->response(), response_bytes, &own_buffer);
                    }
                    return status;
                  });
}

// Runs one admitted call and records its counters and access log line. The
// context is not used after this returns (the reactor finishes the call).
template <typename Request, typename Response>
grpc::Status CollisionService::Serve(const char* method, grpc::CallbackServerContext* context,
                                     const Request& request, Response* response,
                                     std::chrono::steady_clock::time_point start) {
  std::size_t items = 0;
  const auto is_cancelled = [context] { return context->IsCancelled(); };
  const CallControl control{is_cancelled, context->deadline()};
  const grpc::Status status = Handle(request, response, config_, runner_, control, items);
  ReleaseScratchAfter(items);
  if (status.ok()) {
    requests_served_.fetch_add(1, std::memory_order_relaxed);
    items_served_.fetch_add(static_cast<std::int64_t>(items), std::memory_order_relaxed);
  }
  if (config_.metrics != nullptr) {
    config_.metrics->Record(method, status.error_code(), items, std::chrono::steady_clock::now() - start);
  }
  if (spdlog::should_log(spdlog::level::debug)) {
    const auto micros =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start)
            .count();
    spdlog::debug("{} peer={} items={} status={} latency_us={}{}{}", method, context->peer(), items,
                  static_cast<int>(status.error_code()), micros,
                  status.ok() ? "" : " message=", status.error_message());
  }
  return status;
}

grpc::ServerUnaryReactor* CollisionService::QueryPairs(grpc::CallbackServerContext* context,
                                                       const grpc::ByteBuffer* request,
                                                       grpc::ByteBuffer* response) {
  // The item count of raw bytes is known only once they are decoded, on the
  // call thread, so admission charges an estimate from the size, which is
  // what the call's memory follows: one item per 64 bytes (a readable pair of
  // two spheres is about 90 bytes, of hulls far more), at most
  // --max_items_per_request so that a lone call always fits. It is posted
  // when its bytes could hold more than a chunk of pairs.
  constexpr std::size_t kBytesPerChargedItem = 64;
  constexpr std::size_t kPostBytes = 16 << 10;
  const std::size_t charged = std::min(request->Length() / kBytesPerChargedItem,
                                       static_cast<std::size_t>(config_.max_items_per_request));
  const auto start = std::chrono::steady_clock::now();
  return Dispatch(
      "QueryPairs", context, charged, request->Length() > kPostBytes,
      [this, context, request, response, start] {
        // The request's bytes in one piece: gRPC hands them over as the slices
        // they arrived in (16 KiB or so each), joined here into a buffer this
        // thread reuses.
        RequestReader reader(*request);
        if (grpc::Status encoding = CheckRequestEncoding(reader); !encoding.ok()) return encoding;
        std::vector<grpc::Slice> slices;
        if (grpc::Status dumped = request->Dump(&slices); !dumped.ok()) return dumped;
        std::span<const std::uint8_t> bytes;
        thread_local std::vector<std::uint8_t> joined;
        if (slices.size() == 1) {
          bytes = {slices[0].begin(), slices[0].size()};
        } else {
          joined.clear();
          for (const grpc::Slice& slice : slices) joined.insert(joined.end(), slice.begin(), slice.end());
          bytes = joined;
        }
        // The response's bytes become the reply's one slice without a copy: the
        // slice owns the string and deletes it once gRPC has sent it.
        auto* out = new std::string;
        const grpc::Status status = Serve("QueryPairs", context, QueryPairsBytes{bytes}, out, start);
        if (joined.capacity() > kKeptJoinedBytes) std::vector<std::uint8_t>().swap(joined);
        if (status.ok()) {
          grpc::Slice slice(
              out->data(), out->size(), [](void* s) { delete static_cast<std::string*>(s); }, out);
          *response = grpc::ByteBuffer(&slice, 1);
        } else {
          delete out;
        }
        return status;
      });
}

grpc::ServerUnaryReactor* CollisionService::QueryPairsPacked(grpc::CallbackServerContext* context,
                                                             const grpc::ByteBuffer* request,
                                                             grpc::ByteBuffer* response) {
  return ServeUnary("QueryPairsPacked", context, request, response, allocators_->query_pairs_packed);
}

grpc::ServerUnaryReactor* CollisionService::CastRays(grpc::CallbackServerContext* context,
                                                     const grpc::ByteBuffer* request,
                                                     grpc::ByteBuffer* response) {
  return ServeUnary("CastRays", context, request, response, allocators_->cast_rays);
}

grpc::ServerUnaryReactor* CollisionService::CastRaysPacked(grpc::CallbackServerContext* context,
                                                           const grpc::ByteBuffer* request,
                                                           grpc::ByteBuffer* response) {
  return ServeUnary("CastRaysPacked", context, request, response, allocators_->cast_rays_packed);
}

grpc::ServerUnaryReactor* CollisionService::GetServerInfo(grpc::CallbackServerContext* context,
                                                          const grpc::ByteBuffer* request,
                                                          grpc::ByteBuffer* response) {
  const auto start = std::chrono::steady_clock::now();
  v1::GetServerInfoRequest parsed;
  if (grpc::Status status = ParseRequest(*request, parsed); !status.ok()) {
    Count("GetServerInfo", status, start);
    return FinishNow(context, status);
  }
  v1::ServerInfo info;
  info.set_version(config_.version);
  info.set_replica(config_.replica);
  info.set_max_items_per_request(config_.max_items_per_request);
  info.set_max_receive_message_bytes(config_.max_receive_message_bytes);
  info.set_worker_threads(runner_.threads());
  info.set_requests_served(requests_served_.load(std::memory_order_relaxed));
  info.set_items_served(items_served_.load(std::memory_order_relaxed));
  bool own_buffer = false;
  const grpc::Status status =
      grpc::SerializationTraits<v1::ServerInfo>::Serialize(info, response, &own_buffer);
  Count("GetServerInfo", status, start);
  return FinishNow(context, status);
}

void CollisionService::Count(const char* method, const grpc::Status& status,
                             std::chrono::steady_clock::time_point start) {
  if (config_.metrics != nullptr) {
    config_.metrics->Record(method, status.error_code(), 0, std::chrono::steady_clock::now() - start);
  }
}

}  // namespace collide::server
