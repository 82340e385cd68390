// ValidateMesh, and what a TriangleMesh keeps out of queries and reports.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "collide/mesh.h"
#include "mesh/bvh.h"  // the depth bound, node layout.
#include "mesh/bvh_traverse.h"
#include "support/case_count.h"
#include "support/synthetic_meshes.h"

namespace collide::testing {
namespace {

MeshData Square() { return {{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, {{0, 1, 2}, {0, 2, 3}}}; }

TEST(ValidateMesh, AcceptsAValidMesh) {
  std::vector<Violation> v;
  EXPECT_TRUE(ValidateMesh(Square(), v));
  EXPECT_TRUE(v.empty());
  EXPECT_TRUE(ValidateMesh(MeshData{}, v));
}

TEST(ValidateMesh, NamesBadVerticesAndIndices) {
  MeshData m = Square();
  m.vertices[2].x = std::numeric_limits<double>::quiet_NaN();
  m.vertices[3].z = std::numeric_limits<double>::infinity();
  m.vertices[1].y = 2e12;
  m.triangles.push_back({0, 4, 1});
  m.triangles.push_back({7, 0, 99});
  std::vector<Violation> v;
  EXPECT_FALSE(ValidateMesh(m, v));
  std::vector<std::string> fields;
  for (const Violation& x : v) fields.push_back(x.field);
  EXPECT_EQ(fields, (std::vector<std::string>{"vertices[1].y", "vertices[2].x", "vertices[3].z",
                                              "triangles[2][1]", "triangles[3][0]", "triangles[3][2]"}));
  EXPECT_NE(v[1].description.find("NaN"), std::string::npos);
  EXPECT_NE(v[4].description.find("got 7"), std::string::npos);
}

TEST(ValidateMesh, ListsAtMostTheCapAndSaysSo) {
  MeshData m = Square();
  for (int i = 0; i < 500; ++i) m.triangles.push_back({100, 0, 1});
  std::vector<Violation> v;
  EXPECT_FALSE(ValidateMesh(m, v));
  ASSERT_EQ(v.size(), kMaxMeshViolations + 1);
  EXPECT_NE(v.back().description.find("left out"), std::string::npos);
}

TEST(TriangleMesh, CountsDegenerateAndInvalidTrianglesAndKeepsThemOutOfQueries) {
  MeshData m = Square();
  m.vertices.push_back({2, 2, 0});                                         // 4: collinear with 0 and 2.
  m.vertices.push_back({std::numeric_limits<double>::quiet_NaN(), 0, 0});  // 5
  m.triangles.push_back({0, 2, 4});                                        // zero area.
  m.triangles.push_back({1, 1, 3});                                        // zero area.
  m.triangles.push_back({0, 1, 5});                                        // invalid vertex.
  m.triangles.push_back({0, 1, 9});                                        // index out of range.
  const TriangleMesh mesh(m);
  EXPECT_EQ(mesh.triangle_count(), 6u);
  EXPECT_EQ(mesh.degenerate_count(), 2u);
  EXPECT_EQ(mesh.invalid_count(), 2u);
  EXPECT_EQ(mesh.bounds(), (Aabb{{0, 0, 0}, {1, 1, 0}}));
  // A ray along the zero-area triangle's line, off the square: no hit.
  EXPECT_FALSE(RayCastAny(mesh, {{3, 3, 0}, {-1, -1, 0}, 1.0}).hit);
  const MeshRayHit hit = RayCastClosest(mesh, {{0.5, 0.25, 1}, {0, 0, -1}});
  ASSERT_TRUE(hit.hit);
  EXPECT_EQ(hit.triangle, 0u);
  EXPECT_EQ(hit.distance, 1.0);
  EXPECT_EQ(hit.normal, (Vec3{0, 0, 1}));
}

TEST(TriangleMesh, MemoryIsWithinBudgetPerTriangle) {
  const TriangleMesh mesh(MakeTerrain(100, 100.0, 1));  // 20,000 triangles.
  ASSERT_EQ(mesh.triangle_count(), 20000u);
  EXPECT_LE(mesh.memory_bytes(), 80u * mesh.triangle_count());
  EXPECT_GE(mesh.memory_bytes(), 40u * mesh.triangle_count());  // at least indices, vertices, BVH triangles.
}

TEST(TriangleMesh, IdenticalTrianglesBuildAShallowTree) {
  // Every centroid equal: the build falls back to median splits.
  MeshData m;
  m.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  m.triangles.assign(100000, {0, 1, 2});
  const TriangleMesh mesh(m);
  EXPECT_LE(mesh.bvh().depth, 50);
  std::vector<MeshRayHit> hits;
  EXPECT_EQ(RayCastAll(mesh, {{0.25, 0.25, 1}, {0, 0, -1}}, 10, hits), 100000u);
  EXPECT_EQ(hits.size(), 10u);
  EXPECT_EQ(hits[0].triangle, 0u);
  EXPECT_EQ(hits[9].triangle, 9u);
}

TEST(TriangleMesh, SubnormalCentroidSpreadBuildsAndAnswers) {
  // mesh_fuzz found it: centroids spread over a float-subnormal extent made
  // the SAH bin scale infinite (UBSan: inf converted to int). 64 tiny
  // triangles, each 3e-45 wide, shifted by multiples of 1.5e-45.
  MeshData m;
  constexpr double d = 1.5e-45;
  for (std::uint32_t i = 0; i < 64; ++i) {
    const double x = d * i;
    m.vertices.push_back({x, 0, 0});
    m.vertices.push_back({x + 2 * d, 0, 0});
    m.vertices.push_back({x, 2 * d, 0});
    m.triangles.push_back({3 * i, 3 * i + 1, 3 * i + 2});
  }
  const TriangleMesh mesh(m);
  EXPECT_EQ(mesh.triangle_count(), 64u);
  // A ray down through the first triangle's interior hits it (and only the
  // first few overlap that point).
  const MeshRayHit hit = RayCastClosest(mesh, {{0.5 * d, 0.5 * d, 1}, {0, 0, -1}});
  ASSERT_TRUE(hit.hit);
  EXPECT_EQ(hit.distance, 1.0);
  EXPECT_EQ(hit.triangle, 0u);
}

// The node layout the traversals rely on: child references that cover every
// leaf record once (leaf counts 1 to kBvhMaxLeafSize), and unused lanes that
// are empty boxes no ray's slab test passes (the ray traversal has no lane
// mask), whatever the ray's direction, including axis-parallel ones.
TEST(Bvh, ChildReferencesCoverTheLeavesAndUnusedLanesMeetNoRay) {
  for (const MeshData& data : {MakeSoup(1000, 100.0, 5.0, 7), MakeTerrain(20, 100.0, 3)}) {
    const TriangleMesh mesh(data);
    const internal::Bvh& bvh = mesh.bvh();
    std::vector<int> seen(bvh.triangles.size(), 0);
    int unused_lanes = 0;
    for (const internal::BvhNode& node : bvh.nodes) {
      ASSERT_GE(node.num_children, 2);
      for (int i = 0; i < node.num_children; ++i) {
        const std::uint32_t ref = node.child[i], count = internal::LeafCount(ref);
        if (count == 0) {
          EXPECT_LT(ref, bvh.nodes.size());
          continue;
        }
        EXPECT_LE(count, static_cast<std::uint32_t>(internal::kBvhMaxLeafSize));
        for (std::uint32_t k = internal::LeafFirst(ref); k < internal::LeafFirst(ref) + count; ++k)
          ++seen.at(k);
      }
      for (int i = node.num_children; i < internal::kBvhWidth; ++i, ++unused_lanes) {
        EXPECT_EQ(node.min_x[i], kInfinity);
        EXPECT_EQ(node.max_z[i], -kInfinity);
      }
    }
    for (const int n : seen) EXPECT_EQ(n, 1);
    ASSERT_GT(unused_lanes, 0);  // else the lane check below tests nothing.
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> u(-150.0, 150.0);
    const int cases = CaseCount(2000);
    for (int c = 0; c < cases; ++c) {
      Vec3 d{u(rng), u(rng), u(rng)};
      if (c % 4 == 1) d.x = d.y = 0.0;  // axis-parallel: reciprocals of 1e-30.
      if (c % 4 == 2) d.z = 0.0;
      if (LengthSquared(d) == 0.0) continue;
      const Vec3 o{u(rng), u(rng), u(rng)};
      const internal::RayBoxes r = internal::SetUpRayBoxes(o, NormalizedOr(d, {1, 0, 0}), 1e3);
      const internal::RayLanes lanes = internal::Splat(r);
      for (const internal::BvhNode& node : bvh.nodes) {
        float near[internal::kBvhWidth];
        const int mask = internal::HitChildren(node, lanes, internal::Splat8(kInfinity), near);
        ASSERT_EQ(mask >> node.num_children, 0) << "ray " << c;
      }
    }
  }
}

// The float bounds every box and ray test relies on (bvh.h): RoundDown(x) is
// the largest float <= x and RoundUp(x) the smallest >= x, RoundOutward gives
// both, and NextFloatDown is std::nextafter toward -infinity; on exact
// floats, zeros, subnormals, values past the float range and random doubles
// of every magnitude, both signs.
TEST(Bvh, OutwardRoundingGivesTheAdjacentFloats) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  constexpr double kFloatMax = std::numeric_limits<float>::max();
  std::vector<double> xs = {0.0,       -0.0,       1.0,    -1.0,       0.1,          -0.1,
                            1e-50,     -1e-50,     1e39,   -1e39,      kFloatMax,    -kFloatMax,
                            0x1p-149,  -0x1p-149,  0x1p-149 * 1.5, 0x1p-126 * (1 - 0x1p-30)};
  std::mt19937_64 rng(16);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  std::uniform_int_distribution<int> exponent(-155, 132);
  for (int i = 0; i < CaseCount(100000); ++i) {
    const double x = std::ldexp(mantissa(rng), exponent(rng)) * (i % 2 == 0 ? 1 : -1);
    xs.push_back(x);
    if (std::isfinite(static_cast<float>(x))) xs.push_back(static_cast<float>(x));  // an exact float.
  }
  for (const double x : xs) {
    SCOPED_TRACE(::testing::Message() << std::hexfloat << x);
    const float lo = internal::RoundDown(x), hi = internal::RoundUp(x);
    ASSERT_LE(static_cast<double>(lo), x);
    ASSERT_GT(static_cast<double>(std::nextafter(lo, kInf)), x);
    ASSERT_GE(static_cast<double>(hi), x);
    ASSERT_LT(static_cast<double>(std::nextafter(hi, -kInf)), x);
    float both_lo, both_hi;
    internal::RoundOutward(x, both_lo, both_hi);
    ASSERT_EQ(std::bit_cast<std::uint32_t>(both_lo), std::bit_cast<std::uint32_t>(lo));
    ASSERT_EQ(std::bit_cast<std::uint32_t>(both_hi), std::bit_cast<std::uint32_t>(hi));
    const float f = static_cast<float>(x);
    if (f != -kInf) {
      ASSERT_EQ(internal::NextFloatDown(f), std::nextafter(f, -kInf));
    }
  }
}

TEST(HugePageAllocator, AlignsLargeBlocksToHugePages) {
  void* big = internal::AllocateHugePageBlock(std::size_t{3} << 20);
  void* small = internal::AllocateHugePageBlock(100);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(big) % (std::size_t{2} << 20), 0u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(small) % 64, 0u);
  static_cast<char*>(big)[(std::size_t{3} << 20) - 1] = 1;  // usable to its end.
  internal::FreeHugePageBlock(big);
  internal::FreeHugePageBlock(small);
}

}  // namespace
}  // namespace collide::testing
