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
template <typename Request, typename Response>
class ArenaMessageAllocator final : public grpc::MessageAllocator<Request, Response> {
 public:
  // Initial block of a new holder, bytes: holds a 4096-pair packed OBB
  // request (655 KB of doubles) and its response.
  static constexpr std::size_t kInitialBlockBytes = 1 << 20;
  // Largest initial block a holder grows to, bytes.
  static constexpr std::size_t kMaxInitialBlockBytes = 8 << 20;
  // Largest further block, bytes.
  static constexpr std::size_t kMaxBlockBytes = 8 << 20;
  // Holders kept for reuse; more concurrent calls allocate fresh ones.
  static constexpr std::size_t kMaxPooled = 16;

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
  class Holder final : public grpc::MessageHolder<Request, Response> {
   public:
    explicit Holder(ArenaMessageAllocator* owner) : owner_(owner) { NewArena(kInitialBlockBytes); }

    void Init() {
      this->set_request(google::protobuf::Arena::CreateMessage<Request>(&*arena_));
      this->set_response(google::protobuf::Arena::CreateMessage<Response>(&*arena_));
    }

    void Release() override {
      TsanAcquire(this);  // Pairs with the TsanRelease in AllocateMessages.
      const std::size_t allocated = arena_->SpaceAllocated();
      if (allocated > block_size_ && block_size_ < kMaxInitialBlockBytes) {
        NewArena(std::min(std::bit_ceil(allocated), kMaxInitialBlockBytes));
      } else {
        arena_->Reset();
      }
      owner_->Recycle(this);
    }

   private:
    void NewArena(std::size_t block_size) {
      arena_.reset();
      block_size_ = block_size;
      block_ = std::make_unique_for_overwrite<char[]>(block_size);
      google::protobuf::ArenaOptions options;
      options.initial_block = block_.get();
      options.initial_block_size = block_size;
      options.max_block_size = kMaxBlockBytes;
      arena_.emplace(options);
    }

    ArenaMessageAllocator* owner_;
    std::size_t block_size_ = 0;
    std::unique_ptr<char[]> block_;
    std::optional<google::protobuf::Arena> arena_;  // Uses block_.
  };

  void Recycle(Holder* holder) {
    {
      std::unique_ptr<Holder> owned(holder);
      std::lock_guard lock(mu_);
      if (free_.size() < kMaxPooled) free_.push_back(std::move(owned));
    }
    TsanRelease(this);  // After the last access, the unlock included: see the destructor.
  }

  std::mutex mu_;
  std::vector<std::unique_ptr<Holder>> free_;
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_ARENA_ALLOCATOR_H_
