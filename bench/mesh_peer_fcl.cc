// FCL 0.7 as a mesh peer: BVHModel<OBBRSS> (its recommended model for
// distance) against a Capsule: fcl::collide (boolean, first contact) and
// fcl::distance (separation; 0 when they touch).
#include <fcl/fcl.h>

#include "mesh_peers.h"

namespace collide::bench {
namespace {

class Fcl : public MeshPeer {
 public:
  explicit Fcl(const MeshData& m) {
    auto model = std::make_shared<fcl::BVHModel<fcl::OBBRSSd>>();
    std::vector<fcl::Vector3d> v;
    for (const Vec3& p : m.vertices) v.emplace_back(p.x, p.y, p.z);
    std::vector<fcl::Triangle> t;
    for (const auto& tri : m.triangles) t.emplace_back(tri[0], tri[1], tri[2]);
    model->beginModel(static_cast<int>(t.size()), static_cast<int>(v.size()));
    model->addSubModel(v, t);
    model->endModel();
    mesh_ = std::make_unique<fcl::CollisionObjectd>(model);
    capsule_ = std::make_unique<fcl::CollisionObjectd>(std::make_shared<fcl::Capsuled>(15.0, 26.0));
  }

  int CapsuleOverlap(const Capsule& c) override {
    Place(c);
    fcl::CollisionRequestd request;
    fcl::CollisionResultd result;
    fcl::collide(capsule_.get(), mesh_.get(), request, result);
    return result.isCollision() ? 1 : 0;
  }
  double CapsuleDistance(const Capsule& c) override {
    Place(c);
    fcl::DistanceRequestd request;
    fcl::DistanceResultd result;
    fcl::distance(capsule_.get(), mesh_.get(), request, result);
    return std::max(result.min_distance, 0.0);
  }

 private:
  void Place(const Capsule& c) {
    // fcl::Capsule(radius, lz): segment of length lz centred on the origin along z.
    const Vec3 mid = (c.a + c.b) * 0.5;
    capsule_->setTranslation(fcl::Vector3d(mid.x, mid.y, mid.z));
    capsule_->computeAABB();
  }
  std::unique_ptr<fcl::CollisionObjectd> mesh_, capsule_;
};

}  // namespace

std::unique_ptr<MeshPeer> MakeFcl(const MeshData& mesh) { return std::make_unique<Fcl>(mesh); }

}  // namespace collide::bench
