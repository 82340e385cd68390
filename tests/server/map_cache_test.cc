// MapCache: one mesh per key while a world holds it, loaded again once none
// does; failed loads are returned and not cached.
#include "server/map_cache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>
#include <vector>

namespace collide::server {
namespace {

MeshData OneTriangle(double x) { return {{{x, 0, 0}, {x, 1, 0}, {x, 0, 1}}, {{0, 1, 2}}}; }

TEST(MapCacheTest, SharesAMeshWhileHeldAndReloadsAfter) {
  MapCache cache;
  int loads = 0;
  const auto load = [&](double x) {
    return [&loads, x]() -> absl::StatusOr<MeshData> {
      ++loads;
      return OneTriangle(x);
    };
  };
  auto a = cache.Get("a", load(1));
  auto again = cache.Get("a", load(2));  // Not loaded: the first mesh.
  auto b = cache.Get("b", load(3));
  ASSERT_TRUE(a.ok() && again.ok() && b.ok());
  EXPECT_EQ(a->get(), again->get());
  EXPECT_NE(a->get(), b->get());
  EXPECT_EQ((*again)->triangle(0).a.x, 1.0);
  EXPECT_EQ(loads, 2);
  EXPECT_EQ(cache.live(), 2u);
  a->reset();
  again->reset();
  EXPECT_EQ(cache.live(), 1u);
  auto fresh = cache.Get("a", load(4));  // Nobody held "a": read afresh.
  ASSERT_TRUE(fresh.ok());
  EXPECT_EQ((*fresh)->triangle(0).a.x, 4.0);
  EXPECT_EQ(loads, 3);
}

TEST(MapCacheTest, FailedLoadsAreNotCached) {
  MapCache cache;
  auto failed =
      cache.Get("a", []() -> absl::StatusOr<MeshData> { return absl::NotFoundError("no such map"); });
  EXPECT_EQ(failed.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(cache.live(), 0u);
  auto ok = cache.Get("a", [] { return absl::StatusOr<MeshData>(OneTriangle(1)); });
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ((*ok)->triangle_count(), 1u);
}

// Concurrent first loads of one key: every caller gets a mesh (several may
// have built one), one of them stays cached and later calls get it.
TEST(MapCacheTest, ConcurrentGetsEndWithOneCachedMesh) {
  MapCache cache;
  std::vector<std::shared_ptr<const TriangleMesh>> got(8);
  {
    std::vector<std::jthread> threads;
    for (std::size_t i = 0; i < got.size(); ++i) {
      threads.emplace_back(
          [&, i] { got[i] = *cache.Get("k", [] { return absl::StatusOr<MeshData>(OneTriangle(1)); }); });
    }
  }
  const auto later =
      cache.Get("k", []() -> absl::StatusOr<MeshData> { return absl::InternalError("not again"); });
  ASSERT_TRUE(later.ok());
  for (const auto& m : got) ASSERT_NE(m, nullptr);
  EXPECT_NE(std::find(got.begin(), got.end(), *later), got.end());
  EXPECT_EQ(cache.live(), 1u);
}

}  // namespace
}  // namespace collide::server
