// Bullet 3.24 (double-precision build, libBulletCollision-float64, the same
// precision as collide and FCL) as a peer, in two ways, both on the same
// pairs converted to Bullet convex shapes and transforms before timing:
//
// "bullet": btGjkPairDetector with Bullet's GJK-EPA penetration solver, the
//   narrowest Bullet API that answers all three questions for every pair, and
//   the one its btConvexConvexAlgorithm calls.
// "bt_world": btCollisionWorld::contactPairTest, which adds a dispatcher
//   lookup, an algorithm and a manifold from Bullet's pools, but picks Bullet's
//   specialized algorithms (sphere-sphere, sphere-box, box-box from ODE,
//   sphere-triangle, the capsule-capsule shortcut) where they exist. For those
//   pairs it is Bullet's fastest path; the summary compares with the faster of
//   the two per pair. The result callback's m_closestDistanceThreshold is 0 for
//   intersect (only touching or overlapping pairs report) and BT_LARGE_FLOAT
//   for distance and contact (every pair reports its signed distance).
//
// Asymmetries with collide, noted where they matter:
// - Bullet has no boolean-only query. Intersect passes
//   m_maximumDistanceSquared = (marginA + marginB)^2, as Bullet's dispatcher
//   does (with a zero contact-breaking threshold), so GJK stops as soon as it
//   proves a separation; overlapping pairs still pay for EPA.
// - Distance and contact are the same Bullet call (separation or penetration
//   depth, witness point, normal), so both levels time the same work.
// - Sphere and capsule radii are Bullet margins around a point or a segment
//   core (exact). Boxes, hulls and triangles get margin 0, so they are the
//   exact solids and not Bullet's default 0.04-rounded ones.
#include <BulletCollision/CollisionShapes/btTriangleShape.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpaPenetrationDepthSolver.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkPairDetector.h>
#include <BulletCollision/NarrowPhaseCollision/btPointCollector.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>
#include <benchmark/benchmark.h>
#include <btBulletCollisionCommon.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <variant>

#include "bullet_shapes.h"
#include "pairs.h"

#ifndef BT_USE_DOUBLE_PRECISION
#error "link the double-precision Bullet (BulletConfig-float64.cmake)"
#endif

namespace collide::bench {

btVector3 ToBullet(const Vec3& v) { return {v.x, v.y, v.z}; }

BulletShape MakeShape(const Shape& shape) {
  BulletShape out{nullptr, btTransform::getIdentity()};
  if (const auto* s = std::get_if<Sphere>(&shape)) {
    out.shape = std::make_unique<btSphereShape>(s->radius);
    out.transform.setOrigin(ToBullet(s->center));
  } else if (const auto* c = std::get_if<Capsule>(&shape)) {
    // btCapsuleShape is y-aligned and centered; its `height` is the segment
    // length (half height internally), the radius is its margin.
    const Vec3 axis = c->b - c->a;
    const double length = Length(axis);
    out.shape = std::make_unique<btCapsuleShape>(c->radius, length);
    out.transform.setOrigin(ToBullet((c->a + c->b) * 0.5));
    if (length > 0.0) {
      out.transform.setRotation(shortestArcQuat(btVector3(0, 1, 0), ToBullet(axis / length)));
    }
  } else if (const auto* box = std::get_if<Aabb>(&shape)) {
    out.shape = std::make_unique<btBoxShape>(ToBullet((box->max - box->min) * 0.5));
    out.transform.setOrigin(ToBullet((box->min + box->max) * 0.5));
  } else if (const auto* obb = std::get_if<Obb>(&shape)) {
    out.shape = std::make_unique<btBoxShape>(ToBullet(obb->half_extents));
    out.transform.setOrigin(ToBullet(obb->center));
    const Mat3& r = obb->rotation;  // columns are the box axes: world = R * local.
    out.transform.setBasis(btMatrix3x3(r.col[0].x, r.col[1].x, r.col[2].x,  //
                                       r.col[0].y, r.col[1].y, r.col[2].y,  //
                                       r.col[0].z, r.col[1].z, r.col[2].z));
  } else if (const auto* t = std::get_if<Triangle>(&shape)) {
    out.shape = std::make_unique<btTriangleShape>(ToBullet(t->a), ToBullet(t->b), ToBullet(t->c));
  } else if (const auto* hull = std::get_if<ConvexHull>(&shape)) {
    auto h = std::make_unique<btConvexHullShape>();
    for (const Vec3& v : hull->vertices) h->addPoint(ToBullet(v), /*recalculateLocalAabb=*/false);
    h->recalcLocalAabb();
    out.shape = std::move(h);
  } else {
    std::fprintf(stderr, "peer_bullet: shape kind %d not converted\n", static_cast<int>(shape.index()));
    std::abort();
  }
  const bool round = std::holds_alternative<Sphere>(shape) || std::holds_alternative<Capsule>(shape);
  if (!round) out.shape->setMargin(0.0);  // btBoxShape keeps its half extents when the margin changes.
  return out;
}

namespace {

class BulletPeer final : public IndexedPeer<BulletPeer> {
 public:
  explicit BulletPeer(const PairSet& set) {
    for (int i = 0; i < static_cast<int>(set.a.size()); ++i) {
      a_.push_back(MakeShape(set.a[i]));
      b_.push_back(MakeShape(set.b[i]));
    }
  }

  int size() const override { return static_cast<int>(a_.size()); }

 private:
  friend class IndexedPeer<BulletPeer>;

  Answer Run(QueryLevel level, int i) {
    const btConvexShape* sa = a_[i].shape.get();
    const btConvexShape* sb = b_[i].shape.get();
    btGjkPairDetector gjk(sa, sb, &simplex_, &epa_);
    btGjkPairDetector::ClosestPointInput input;
    input.m_transformA = a_[i].transform;
    input.m_transformB = b_[i].transform;
    if (level == QueryLevel::kIntersect) {
      const btScalar margins = sa->getMargin() + sb->getMargin();
      input.m_maximumDistanceSquared = margins * margins;
    }
    btPointCollector out;
    gjk.getClosestPoints(input, out, nullptr);
    benchmark::DoNotOptimize(out);
    if (!out.m_hasResult) return {false, std::numeric_limits<double>::quiet_NaN()};
    return {out.m_distance <= 0.0, out.m_distance};
  }

  std::vector<BulletShape> a_;
  std::vector<BulletShape> b_;
  btVoronoiSimplexSolver simplex_;
  btGjkEpaPenetrationDepthSolver epa_;
};

// Keeps the deepest (smallest signed distance) point Bullet reports.
struct DeepestPoint : btCollisionWorld::ContactResultCallback {
  bool reported = false;
  double distance = std::numeric_limits<double>::infinity();
  btScalar addSingleResult(btManifoldPoint& point, const btCollisionObjectWrapper*, int, int,
                           const btCollisionObjectWrapper*, int, int) override {
    reported = true;
    distance = std::min(distance, static_cast<double>(point.getDistance()));
    benchmark::DoNotOptimize(point);
    return 0;
  }
};

class BulletWorldPeer final : public IndexedPeer<BulletWorldPeer> {
 public:
  explicit BulletWorldPeer(const PairSet& set)
      : dispatcher_(&configuration_), world_(&dispatcher_, &broadphase_, &configuration_) {
    for (int i = 0; i < static_cast<int>(set.a.size()); ++i) {
      shapes_.push_back(MakeShape(set.a[i]));
      a_.push_back(MakeObject(shapes_.back()));
      shapes_.push_back(MakeShape(set.b[i]));
      b_.push_back(MakeObject(shapes_.back()));
    }
  }

  int size() const override { return static_cast<int>(a_.size()); }

 private:
  friend class IndexedPeer<BulletWorldPeer>;

  static std::unique_ptr<btCollisionObject> MakeObject(const BulletShape& shape) {
    auto object = std::make_unique<btCollisionObject>();
    object->setCollisionShape(shape.shape.get());
    object->setWorldTransform(shape.transform);
    return object;
  }

  Answer Run(QueryLevel level, int i) {
    DeepestPoint result;
    result.m_closestDistanceThreshold = level == QueryLevel::kIntersect ? 0.0 : BT_LARGE_FLOAT;
    world_.contactPairTest(a_[i].get(), b_[i].get(), result);
    if (!result.reported) return {false, std::numeric_limits<double>::quiet_NaN()};
    return {result.distance <= 0.0, result.distance};
  }

  btDefaultCollisionConfiguration configuration_;
  btCollisionDispatcher dispatcher_;
  btDbvtBroadphase broadphase_;
  btCollisionWorld world_;
  std::vector<BulletShape> shapes_;
  std::vector<std::unique_ptr<btCollisionObject>> a_;
  std::vector<std::unique_ptr<btCollisionObject>> b_;
};

}  // namespace

std::unique_ptr<Peer> MakeBulletPeer(const PairSet& set) { return std::make_unique<BulletPeer>(set); }
std::unique_ptr<Peer> MakeBulletWorldPeer(const PairSet& set) {
  return std::make_unique<BulletWorldPeer>(set);
}

}  // namespace collide::bench
