// FCL 0.7 as a peer: the same pairs converted to fcl::CollisionObjectd before
// timing, queried with fcl::collide / fcl::distance and FCL's default solver
// (libccd GJK/EPA plus its specialized sphere/box/capsule routines).
//
// Asymmetries with collide, noted where they matter:
// - Contact level: fcl::collide with enable_contact reports depth, normal and
//   point only for overlapping pairs; a separated pair costs one boolean test.
//   collide's kContact also returns the signed distance and witness points of
//   separated pairs, so it does more work per miss.
// - Triangles: FCL's collision matrix has no shape-vs-TriangleP entry; the
//   narrowest FCL API for a sphere, capsule or box against one triangle is the
//   narrow-phase solver's shapeTriangleIntersect / shapeTriangleDistance
//   (the routines its mesh traversal calls per triangle), used directly here.
// - Hulls: fcl::Convexd over the hull's vertices with no faces; below 32
//   vertices FCL's support function scans the vertices, like collide's.
#include <benchmark/benchmark.h>
#include <fcl/fcl.h>
#include <fcl/narrowphase/detail/gjk_solver_libccd.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <variant>

#include "pairs.h"

namespace collide::bench {
namespace {

fcl::Vector3d ToFcl(const Vec3& v) { return {v.x, v.y, v.z}; }

fcl::Transform3d Translation(const Vec3& c) {
  fcl::Transform3d tf = fcl::Transform3d::Identity();
  tf.translation() = ToFcl(c);
  return tf;
}

// The FCL object for a collide shape, with its transform set (outside the
// timed loop, as a broadphase would have done).
std::unique_ptr<fcl::CollisionObjectd> MakeObject(const Shape& shape) {
  using Geometry = std::shared_ptr<fcl::CollisionGeometryd>;
  fcl::Transform3d tf = fcl::Transform3d::Identity();
  Geometry geometry;
  if (const auto* s = std::get_if<Sphere>(&shape)) {
    geometry = std::make_shared<fcl::Sphered>(s->radius);
    tf = Translation(s->center);
  } else if (const auto* c = std::get_if<Capsule>(&shape)) {
    // fcl::Capsule is z-aligned, centered, with the full segment length.
    const Vec3 axis = c->b - c->a;
    const double length = Length(axis);
    geometry = std::make_shared<fcl::Capsuled>(c->radius, length);
    tf = Translation((c->a + c->b) * 0.5);
    if (length > 0.0) {
      tf.linear() =
          Eigen::Quaterniond::FromTwoVectors(fcl::Vector3d::UnitZ(), ToFcl(axis / length)).toRotationMatrix();
    }
  } else if (const auto* box = std::get_if<Aabb>(&shape)) {
    geometry = std::make_shared<fcl::Boxd>(ToFcl(box->max - box->min));
    tf = Translation((box->min + box->max) * 0.5);
  } else if (const auto* obb = std::get_if<Obb>(&shape)) {
    geometry = std::make_shared<fcl::Boxd>(ToFcl(obb->half_extents * 2.0));
    tf = Translation(obb->center);
    for (int i = 0; i < 3; ++i) tf.linear().col(i) = ToFcl(obb->rotation.col[i]);
  } else if (const auto* hull = std::get_if<ConvexHull>(&shape)) {
    auto vertices = std::make_shared<std::vector<fcl::Vector3d>>();
    for (const Vec3& v : hull->vertices) vertices->push_back(ToFcl(v));
    geometry = std::make_shared<fcl::Convexd>(vertices, 0, std::make_shared<std::vector<int>>());
  } else {
    std::fprintf(stderr, "peer_fcl: shape kind %d not converted\n", static_cast<int>(shape.index()));
    std::abort();
  }
  auto object = std::make_unique<fcl::CollisionObjectd>(geometry, tf);
  object->computeAABB();
  return object;
}

class FclPeer final : public IndexedPeer<FclPeer> {
 public:
  explicit FclPeer(const PairSet& set) {
    triangles_ = set.kind.b == ShapeKind::kTriangle;
    const bool box = set.kind.a == ShapeKind::kAabb || set.kind.a == ShapeKind::kObb;
    const bool capsule = set.kind.a == ShapeKind::kCapsule;
    if (triangles_ && set.kind.a != ShapeKind::kSphere && !box && !capsule) {
      std::fprintf(stderr, "peer_fcl: only sphere-, capsule- and box-triangle are wired\n");
      std::abort();
    }
    for (int i = 0; i < static_cast<int>(set.a.size()); ++i) {
      a_.push_back(MakeObject(set.a[i]));
      if (triangles_) {
        const auto& t = std::get<Triangle>(set.b[i]);
        if (box) {
          boxes_.push_back(static_cast<const fcl::Boxd&>(*a_.back()->collisionGeometry()));
        } else if (capsule) {
          capsules_.push_back(static_cast<const fcl::Capsuled&>(*a_.back()->collisionGeometry()));
        } else {
          spheres_.emplace_back(std::get<Sphere>(set.a[i]).radius);
        }
        tri_.push_back({ToFcl(t.a), ToFcl(t.b), ToFcl(t.c)});
      } else {
        b_.push_back(MakeObject(set.b[i]));
      }
    }
  }

  int size() const override { return static_cast<int>(a_.size()); }

 private:
  friend class IndexedPeer<FclPeer>;

  Answer Run(QueryLevel level, int i) {
    if (triangles_) return RunTriangle(level, i);
    switch (level) {
      case QueryLevel::kIntersect: {
        collision_result_.clear();
        fcl::collide(a_[i].get(), b_[i].get(), boolean_request_, collision_result_);
        return {collision_result_.isCollision(), 0.0};
      }
      case QueryLevel::kDistance: {
        distance_result_.clear();  // the result keeps the minimum over calls.
        fcl::distance(a_[i].get(), b_[i].get(), distance_request_, distance_result_);
        benchmark::DoNotOptimize(distance_result_.nearest_points);
        return {distance_result_.min_distance <= 0.0, distance_result_.min_distance};
      }
      case QueryLevel::kContact: {
        collision_result_.clear();
        fcl::collide(a_[i].get(), b_[i].get(), contact_request_, collision_result_);
        if (!collision_result_.isCollision()) return {false, kNaN};
        const fcl::Contactd& contact = collision_result_.getContact(0);
        benchmark::DoNotOptimize(contact.normal);
        benchmark::DoNotOptimize(contact.pos);
        return {true, -contact.penetration_depth};
      }
    }
    return {};
  }

  Answer RunTriangle(QueryLevel level, int i) {
    if (!boxes_.empty()) return RunTriangle(boxes_[i], level, i);
    if (!capsules_.empty()) return RunTriangle(capsules_[i], level, i);
    return RunTriangle(spheres_[i], level, i);
  }
  template <typename S>
  Answer RunTriangle(const S& shape, QueryLevel level, int i) {
    const fcl::Transform3d& tf = a_[i]->getTransform();
    const auto& [p1, p2, p3] = tri_[i];
    switch (level) {
      case QueryLevel::kIntersect:
        return {solver_.shapeTriangleIntersect(shape, tf, p1, p2, p3), 0.0};
      case QueryLevel::kDistance: {
        double distance = 0.0;
        fcl::Vector3d q1, q2;
        const bool apart = solver_.shapeTriangleDistance(shape, tf, p1, p2, p3, &distance, &q1, &q2);
        benchmark::DoNotOptimize(q1);
        benchmark::DoNotOptimize(q2);
        return {!apart, distance};
      }
      case QueryLevel::kContact: {
        fcl::Vector3d point, normal;
        double depth = 0.0;
        const bool hit = solver_.shapeTriangleIntersect(shape, tf, p1, p2, p3, &point, &depth, &normal);
        benchmark::DoNotOptimize(point);
        benchmark::DoNotOptimize(normal);
        return {hit, hit ? -depth : kNaN};
      }
    }
    return {};
  }

  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

  std::vector<std::unique_ptr<fcl::CollisionObjectd>> a_;
  std::vector<std::unique_ptr<fcl::CollisionObjectd>> b_;
  bool triangles_ = false;
  std::vector<fcl::Sphered> spheres_;
  std::vector<fcl::Boxd> boxes_;
  std::vector<fcl::Capsuled> capsules_;
  std::vector<std::array<fcl::Vector3d, 3>> tri_;
  fcl::detail::GJKSolver_libccd<double> solver_;

  const fcl::CollisionRequestd boolean_request_{1, false};
  const fcl::CollisionRequestd contact_request_{1, true};
  const fcl::DistanceRequestd distance_request_{/*enable_nearest_points=*/true};
  fcl::CollisionResultd collision_result_;
  fcl::DistanceResultd distance_result_;
};

}  // namespace

std::unique_ptr<Peer> MakeFclPeer(const PairSet& set) { return std::make_unique<FclPeer>(set); }

}  // namespace collide::bench
