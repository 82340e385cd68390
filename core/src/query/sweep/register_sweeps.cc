// Registers the closed-form sweeps; the table mirrors each one.
#include "query/sweep/sweep_internal.h"
#include "query/sweep/sweep_kernels.h"

namespace collide::internal {

void RegisterBallSweeps(SweepTable& t) {
  t.Register<SweepPointPoint>();
  t.Register<SweepPointSphere>();
  t.Register<SweepSphereSphere>();
  t.Register<SweepPointSegment>();
  t.Register<SweepSphereSegment>();
  t.Register<SweepPointCapsule>();
  t.Register<SweepSphereCapsule>();
  t.Register<SweepPointAabb>();
  t.Register<SweepSphereAabb>();
  t.Register<SweepPointObb>();
  t.Register<SweepSphereObb>();
  t.Register<SweepPointTriangle>();
  t.Register<SweepSphereTriangle>();
  t.Register<SweepPointHalfspace>();
  t.Register<SweepSphereHalfspace>();
}

void RegisterSegmentSweeps(SweepTable& t) {
  t.Register<SweepSegmentSegment>();
  t.Register<SweepSegmentCapsule>();
  t.Register<SweepCapsuleCapsule>();
}

}  // namespace collide::internal
