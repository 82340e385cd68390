#include "server/arena_allocator.h"

#include <gtest/gtest.h>

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
  EXPECT_EQ(holder->response()->GetArena(), arena);
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

}  // namespace
}  // namespace collide::server
