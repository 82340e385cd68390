// Collide shapes as Bullet (double precision) convex shapes, shared by the
// pair and sweep benchmarks' Bullet peers.
#ifndef COLLIDE_BENCH_BULLET_SHAPES_H_
#define COLLIDE_BENCH_BULLET_SHAPES_H_

#include <btBulletCollisionCommon.h>

#include <memory>

#include "collide/shapes.h"

namespace collide::bench {

btVector3 ToBullet(const Vec3& v);

struct BulletShape {
  std::unique_ptr<btConvexShape> shape;
  btTransform transform;
};

// The Bullet shape for a collide shape (sphere, capsule, boxes, triangle,
// hull; any other kind aborts), with its world transform. Polytopes get
// margin 0, so that Bullet answers for the exact shape.
BulletShape MakeShape(const Shape& shape);

}  // namespace collide::bench

#endif  // COLLIDE_BENCH_BULLET_SHAPES_H_
