// Bullet 3.24 (double build) as a mesh peer: a btBvhTriangleMeshShape
// (quantized AABB tree, Bullet's static-mesh shape) in a btCollisionWorld;
// rays through rayTest (ClosestRayResultCallback; line of sight with a
// callback that stops at the first hit by returning fraction 0), capsules
// through contactTest of a btCapsuleShapeZ (every contact point counted) and
// convexSweepTest (ClosestConvexResultCallback, no allowed penetration).
#include <btBulletCollisionCommon.h>

#include <vector>

#include "bullet_mesh.h"
#include "mesh_peers.h"

namespace collide::bench {
namespace {

// Infinite rays end this far away (Bullet's rays are segments).
constexpr double kFar = 1e6;

class Bullet : public MeshPeer {
 public:
  explicit Bullet(const MeshData& m)
      : triangles_(m.vertices, m.triangles),
        dispatcher_(&config_),
        world_(&dispatcher_, &broadphase_, &config_) {
    mesh_.setCollisionShape(triangles_.shape());
    world_.addCollisionObject(&mesh_);
    capsule_shape_ = std::make_unique<btCapsuleShapeZ>(15.0, 26.0);
    capsule_.setCollisionShape(capsule_shape_.get());
  }
  ~Bullet() override { world_.removeCollisionObject(&mesh_); }

  double Closest(const Ray& r) override {
    const btVector3 from(r.origin.x, r.origin.y, r.origin.z);
    const double len = r.max_distance == kInfinity ? kFar : r.max_distance;
    const btVector3 to = from + btVector3(r.direction.x, r.direction.y, r.direction.z) * len;
    btCollisionWorld::ClosestRayResultCallback cb(from, to);
    world_.rayTest(from, to, cb);
    return cb.hasHit() ? cb.m_closestHitFraction * len : -1.0;
  }
  bool Occluded(const Ray& r) override {
    struct FirstHit : btCollisionWorld::RayResultCallback {
      btScalar addSingleResult(btCollisionWorld::LocalRayResult&, bool) override {
        m_closestHitFraction = 0;
        m_collisionObject = reinterpret_cast<const btCollisionObject*>(1);  // hasHit()
        return 0;                                                           // nothing farther is of interest.
      }
    } cb;
    const btVector3 from(r.origin.x, r.origin.y, r.origin.z);
    const btVector3 to = from + btVector3(r.direction.x, r.direction.y, r.direction.z) * r.max_distance;
    world_.rayTest(from, to, cb);
    return cb.hasHit();
  }
  int CapsuleOverlap(const Capsule& c) override {
    // btCapsuleShapeZ(radius, height): segment of length height centred on
    // the origin along z; the bench's capsules are vertical, of one size.
    const Vec3 mid = (c.a + c.b) * 0.5;
    capsule_.setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(mid.x, mid.y, mid.z)));
    struct Count : btCollisionWorld::ContactResultCallback {
      int n = 0;
      btScalar addSingleResult(btManifoldPoint& p, const btCollisionObjectWrapper*, int, int,
                               const btCollisionObjectWrapper*, int, int) override {
        n += p.getDistance() <= 0;
        return 0;
      }
    } cb;
    world_.contactTest(&capsule_, cb);
    return cb.n;
  }
  double CapsuleSweep(const Capsule& c, const Vec3& v) override {
    const Vec3 mid = (c.a + c.b) * 0.5;
    const btVector3 from(mid.x, mid.y, mid.z), to = from + btVector3(v.x, v.y, v.z);
    btCollisionWorld::ClosestConvexResultCallback cb(from, to);
    world_.convexSweepTest(capsule_shape_.get(), btTransform(btQuaternion::getIdentity(), from),
                           btTransform(btQuaternion::getIdentity(), to), cb);
    return cb.hasHit() ? cb.m_closestHitFraction : -1.0;
  }

 private:
  BulletTriangleMesh triangles_;
  btDefaultCollisionConfiguration config_;
  btCollisionDispatcher dispatcher_;
  btDbvtBroadphase broadphase_;
  btCollisionWorld world_;
  btCollisionObject mesh_;
  std::unique_ptr<btCapsuleShapeZ> capsule_shape_;
  btCollisionObject capsule_;
};

}  // namespace

std::unique_ptr<MeshPeer> MakeBullet(const MeshData& mesh) { return std::make_unique<Bullet>(mesh); }

}  // namespace collide::bench
