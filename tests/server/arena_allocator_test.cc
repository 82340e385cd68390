#include "server/arena_allocator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <thread>
#include <vector>

#include "collide/v1/collide.pb.h"

namespace collide::server {
namespace {

using Allocator = ArenaMessageAllocator<v1::QueryPairsRequest, v1::QueryPairsResponse>;

// A readable request of n obb pairs, built in `request` (on its arena).
void Fill(v1::QueryPairsRequest* request, int n) {
  for (int i = 0; i < n; ++i) {
    v1::ShapePair* pair = request->add_pairs();
    for (v1::Shape* shape : {pair->mutable_a(), pair->mutable_b()}) {
      v1::Obb* obb = shape->mutable_obb();
      obb->mutable_center()->set_x(i);
      obb->mutable_rotation()->set_w(1);
      obb->mutable_half_extents()->set_y(1);
    }
  }
}

// A call larger than the initial block grows the recycled holder's block,
// so the next call of that size allocates no further block; a small call
// leaves the block as it is.
TEST(ArenaMessageAllocatorTest, RecycledHolderGrowsToTheLargestCall) {
  Allocator allocator;
  grpc::MessageHolder<v1::QueryPairsRequest, v1::QueryPairsResponse>* holder = allocator.AllocateMessages();
  google::protobuf::Arena* arena = holder->request()->GetArena();
  ASSERT_NE(arena, nullptr);
  // The response on an arena of its own (written by another thread when the
  // call is posted: see the next test).
  ASSERT_NE(holder->response()->GetArena(), nullptr);
  EXPECT_NE(holder->response()->GetArena(), arena);
  Fill(holder->request(), 10000);
  const std::uint64_t grown = arena->SpaceAllocated();
  EXPECT_GT(grown, Allocator::kInitialBlockBytes);  // More blocks than the first.
  holder->Release();

  holder = allocator.AllocateMessages();  // The same holder, recycled.
  arena = holder->request()->GetArena();
  const std::uint64_t block = arena->SpaceAllocated();
  EXPECT_GE(block, grown);
  EXPECT_LE(block, Allocator::kMaxInitialBlockBytes);
  Fill(holder->request(), 10000);
  EXPECT_EQ(arena->SpaceAllocated(), block);  // No further block.
  holder->Release();

  holder = allocator.AllocateMessages();
  Fill(holder->request(), 10);
  holder->Release();
  holder = allocator.AllocateMessages();
  EXPECT_EQ(holder->request()->GetArena()->SpaceAllocated(), block);
  holder->Release();
}

// As gRPC uses a holder: AllocateMessages and the parse on one thread, the
// response written on another (a posted call's CallExecutor thread), Release
// on a third (the one running OnDone); then the recycled holder is taken by
// yet another thread. The request arena's initial block must serve that
// thread's parse (a protobuf Arena serves only the thread that last Reset
// it), and the response's blocks, written elsewhere, must not grow it.
// Regression: with one arena rebound in Release, each such call parsed into
// malloc'd blocks and grew the block, so that under overload every holder
// reached kMaxInitialBlockBytes.
TEST(ArenaMessageAllocatorTest, RecycledHolderServesTheParsingThreadFromItsBlock) {
  Allocator allocator;
  grpc::MessageHolder<v1::QueryPairsRequest, v1::QueryPairsResponse>* holder = allocator.AllocateMessages();
  Fill(holder->request(), 1000);
  std::thread([holder] {
    for (int i = 0; i < 20000; ++i) holder->response()->add_results()->set_distance(i);
  }).join();
  std::thread([holder] { holder->Release(); }).join();

  std::uint64_t block = 0;
  std::uint64_t after_parse = 0;
  std::thread([&allocator, &block, &after_parse] {
    auto* recycled = allocator.AllocateMessages();
    google::protobuf::Arena* arena = recycled->request()->GetArena();
    block = arena->SpaceAllocated();
    Fill(recycled->request(), 1000);
    after_parse = arena->SpaceAllocated();
    recycled->Release();
  }).join();
  EXPECT_EQ(block, Allocator::kInitialBlockBytes);  // Not grown by the response.
  EXPECT_EQ(after_parse, block);                    // The parse used the block alone.
}

// The pool keeps released holders up to kMaxPooledBytes of initial blocks,
// so it covers as many concurrent calls as fit (not a fixed count: gRPC takes
// a holder for every call it parses, shed ones included), and frees the rest.
TEST(ArenaMessageAllocatorTest, PoolKeepsHoldersUpToItsBytes) {
  Allocator allocator;
  constexpr std::size_t kHolderBytes = Allocator::kInitialBlockBytes + Allocator::kResponseBlockBytes;
  constexpr std::size_t kHolders = Allocator::kMaxPooledBytes / kHolderBytes + 10;
  std::vector<grpc::MessageHolder<v1::QueryPairsRequest, v1::QueryPairsResponse>*> holders;
  for (std::size_t i = 0; i < kHolders; ++i) holders.push_back(allocator.AllocateMessages());
  EXPECT_EQ(allocator.pooled_bytes(), 0u);
  for (auto* holder : holders) holder->Release();
  EXPECT_LE(allocator.pooled_bytes(), Allocator::kMaxPooledBytes);
  EXPECT_GT(allocator.pooled_bytes(), Allocator::kMaxPooledBytes - kHolderBytes);
  EXPECT_GT(allocator.pooled_bytes(), 16 * kHolderBytes);  // More than the former 16 holders.

  auto* recycled = allocator.AllocateMessages();
  const std::size_t pooled = allocator.pooled_bytes();
  recycled->Release();
  EXPECT_EQ(allocator.pooled_bytes(), pooled + kHolderBytes);
}

}  // namespace
}  // namespace collide::server
