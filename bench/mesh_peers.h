// The mesh libraries collide is measured against, behind one interface: each
// is built from the same MeshData and answers the same rays and capsules.
#ifndef COLLIDE_BENCH_MESH_PEERS_H_
#define COLLIDE_BENCH_MESH_PEERS_H_

#include <cstddef>
#include <memory>

#include "collide/mesh_data.h"
#include "collide/shapes.h"

namespace collide::bench {

class MeshPeer {
 public:
  virtual ~MeshPeer() = default;
  // Closest hit distance along the ray (unit direction), or -1 for a miss.
  virtual double Closest(const Ray&) { return -1; }
  // True when something blocks the ray within its max_distance.
  virtual bool Occluded(const Ray&) { return false; }
  // The number of contacts (Bullet) or 0/1 (FCL) of a capsule with the mesh.
  virtual int CapsuleOverlap(const Capsule&) { return 0; }
  // The fraction of `translation` at which the capsule first meets the mesh,
  // or -1 for a miss (Bullet's convexSweepTest only).
  virtual double CapsuleSweep(const Capsule&, const Vec3& /*translation*/) { return -1; }
  // Separation of a capsule from the mesh (0 when touching), FCL only.
  virtual double CapsuleDistance(const Capsule&) { return -1; }
  // Bytes the library reports for its acceleration structure (0: unknown).
  virtual std::size_t memory_bytes() const { return 0; }
};

// Embree 3 (float, single thread, default robust-off scene): rays only.
std::unique_ptr<MeshPeer> MakeEmbree(const MeshData& mesh);
// The same pinned to SSE2 (rtcNewDevice "isa=sse2"): 4-wide nodes and tests,
// the instruction set collide is built for.
std::unique_ptr<MeshPeer> MakeEmbreeSse2(const MeshData& mesh);
// Bullet (double build): btBvhTriangleMeshShape in a btCollisionWorld:
// rayTest, and contactTest and convexSweepTest of a btCapsuleShapeZ.
std::unique_ptr<MeshPeer> MakeBullet(const MeshData& mesh);
// FCL 0.7: BVHModel<OBBRSS> against a Capsule: collide and distance.
std::unique_ptr<MeshPeer> MakeFcl(const MeshData& mesh);

}  // namespace collide::bench

#endif  // COLLIDE_BENCH_MESH_PEERS_H_
