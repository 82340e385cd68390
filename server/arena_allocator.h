// A gRPC callback-API message allocator that puts each call's request and
// response on a protobuf Arena and recycles the arenas.
#ifndef COLLIDE_SERVER_ARENA_ALLOCATOR_H_
#define COLLIDE_SERVER_ARENA_ALLOCATOR_H_

#include <algorithm>
#include <bit>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "google/protobuf/arena.h"
#include "grpcpp/support/message_allocator.h"
#include "server/tsan_annotations.h"

namespace collide::server {

// Parsing a readable 4096-pair request creates ~50,000 sub-messages; on an
// arena that is a pointer bump each instead of a malloc, and the whole tree
// is freed at once. Each holder owns an initial block that Arena::Reset()
// keeps, and grows it (up to kMaxInitialBlockBytes) to the arena's size when
// a call needed more, so that a recycled holder serves a steady stream of
// calls like the ones before with no malloc at all (a readable 4096-pair
// contact call needs about 3 MB; more blocks would be malloc'd and freed
// with every call, each time faulting their pages in again).
//
// A protobuf Arena serves allocations from its initial block only on the
// thread that constructed or last Reset it (the owner of its first
// SerialArena); any other thread gets blocks of its own from malloc. gRPC
// parses the request on the thread that calls AllocateMessages, but Release
// runs on whichever thread ends the call, and a posted call writes its
// response on a CallExecutor thread. So the request and the response have
// arenas of their own, both rebound to the parsing thread in
// AllocateMessages, and only the request's arena (written on that thread
// alone) follows the growth rule. One shared arena rebound in Release would
// parse into fresh malloc'd blocks whenever another thread took the holder,
// and count the response's blocks (another thread's) as the initial block
// being too small: every holder would grow to kMaxInitialBlockBytes, and
// under overload with shedding (thousands of calls/s, each taking a holder)
// so would the server's RSS, by hundreds of MB.
template <typename Request, typename Response>
class ArenaMessageAllocator final : public grpc::MessageAllocator<Request, Response> {
 public:
  using RequestType = Request;
  using ResponseType = Response;

  // Initial block of a new holder's request arena, bytes: holds a 4096-pair
  // packed OBB request (655 KB of doubles).
  static constexpr std::size_t kInitialBlockBytes = 1 << 20;
  // Largest initial block a request arena grows to, bytes.
  static constexpr std::size_t kMaxInitialBlockBytes = 8 << 20;
  // Initial block of the response arena, bytes (fixed): the response of a
  // call run on the parsing thread (one chunk, BatchRunner::kChunkItems
  // items: ~25 KB packed) fits; a posted call's response is written on
  // another thread, into blocks that Reset frees.
  static constexpr std::size_t kResponseBlockBytes = 64 << 10;
  // Largest further block of either arena, bytes.
  static constexpr std::size_t kMaxBlockBytes = 8 << 20;
  // Initial blocks (both arenas) of the holders kept for reuse, bytes at
  // most; more concurrent calls allocate fresh holders, freed after them.
  // A holder is taken for every call gRPC parses, admitted or shed (the
  // request is parsed before the handler runs), so the holders in use follow
  // the calls the clients have in flight, not --max_concurrent_calls: a
  // bound in bytes rather than in holders keeps the pool's worst case fixed
  // (eight 8 MB holders) while it covers the load test's overload (32 calls
  // in flight, 1 MB holders). A cap in holders instead (say 16) mallocs and
  // frees the excess holders with every call, which holds the RSS higher.
  static constexpr std::size_t kMaxPooledBytes = 64 << 20;

  // Bytes of the initial blocks of the holders in the pool.
  std::size_t pooled_bytes() {
    std::lock_guard lock(mu_);
    return pooled_bytes_;
  }

  // gRPC has released every holder before grpc::Server::Wait returns (the
  // server counts each call until its OnDone, the holder's Release and the
  // call's own cleanup have run), and the service owning this allocator
  // outlives the server; gRPC's count is an atomic inside uninstrumented
  // libgrpc++: TsanAcquire here pairs with the TsanRelease in Recycle.
  ~ArenaMessageAllocator() override { TsanAcquire(this); }

  grpc::MessageHolder<Request, Response>* AllocateMessages() override {
    std::unique_ptr<Holder> holder;
    {
      std::lock_guard lock(mu_);
      if (!free_.empty()) {
        holder = std::move(free_.back());
        free_.pop_back();
        pooled_bytes_ -= holder->bytes();
      }
    }
    if (!holder) holder = std::make_unique<Holder>(this);
    holder->Init();
    // gRPC calls Release once, after the call's OnDone, on whichever thread
    // ran it: its (uninstrumented) completion queue orders that after this.
    TsanRelease(holder.get());
    return holder.release();
  }

 private:
  // An arena on an initial block of its own.
  class BlockArena {
   public:
    explicit BlockArena(std::size_t block_size) { Make(block_size); }

    google::protobuf::Arena* get() { return &*arena_; }
    std::size_t block_size() const { return block_size_; }

    // Frees every block but the initial one, which then serves the calling
    // thread (see the class comment). Cheap when the arena holds nothing.
    void Reset() { arena_->Reset(); }
    // Replaces the initial block by one of `block_size` bytes.
    void Make(std::size_t block_size) {
      arena_.reset();
      block_size_ = block_size;
      block_ = std::make_unique_for_overwrite<char[]>(block_size);
      google::protobuf::ArenaOptions options;
      options.initial_block = block_.get();
      options.initial_block_size = block_size;
      options.max_block_size = kMaxBlockBytes;
      arena_.emplace(options);
    }

   private:
    std::size_t block_size_ = 0;
    std::unique_ptr<char[]> block_;
    std::optional<google::protobuf::Arena> arena_;  // Uses block_.
  };

  class Holder final : public grpc::MessageHolder<Request, Response> {
   public:
    explicit Holder(ArenaMessageAllocator* owner)
        : owner_(owner), request_arena_(kInitialBlockBytes), response_arena_(kResponseBlockBytes) {}

    // On the thread that parses the request (gRPC's Deserialize calls
    // AllocateMessages there): both arenas hold nothing (Release reset
    // them), so these Resets only rebind their initial blocks to it.
    void Init() {
      request_arena_.Reset();
      response_arena_.Reset();
      this->set_request(google::protobuf::Arena::CreateMessage<Request>(request_arena_.get()));
      this->set_response(google::protobuf::Arena::CreateMessage<Response>(response_arena_.get()));
    }

    void Release() override {
      TsanAcquire(this);  // Pairs with the TsanRelease in AllocateMessages.
      const std::size_t allocated = request_arena_.get()->SpaceAllocated();
      const std::size_t block = request_arena_.block_size();
      if (allocated > block && block < kMaxInitialBlockBytes) {
        request_arena_.Make(std::min(std::bit_ceil(allocated), kMaxInitialBlockBytes));
      } else {
        request_arena_.Reset();
      }
      response_arena_.Reset();
      owner_->Recycle(this);
    }

    // Bytes of the initial blocks: what the holder keeps while pooled.
    std::size_t bytes() const { return request_arena_.block_size() + response_arena_.block_size(); }

   private:
    ArenaMessageAllocator* owner_;
    BlockArena request_arena_;   // Written by the parsing thread only.
    BlockArena response_arena_;  // Written by the thread that runs the call.
  };

  void Recycle(Holder* holder) {
    {
      std::unique_ptr<Holder> owned(holder);
      std::lock_guard lock(mu_);
      if (pooled_bytes_ + owned->bytes() <= kMaxPooledBytes) {
        pooled_bytes_ += owned->bytes();
        free_.push_back(std::move(owned));
      }
    }
    TsanRelease(this);  // After the last access, the unlock included: see the destructor.
  }

  std::mutex mu_;
  std::vector<std::unique_ptr<Holder>> free_;
  std::size_t pooled_bytes_ = 0;  // Of free_.
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_ARENA_ALLOCATOR_H_
