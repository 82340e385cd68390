// Three.js objects for the scene's pieces (client/viewer/viewer_scene.proto
// in its JSON mapping: fields left at their default are absent, int64s are
// strings). World frame, Z up.
import * as THREE from 'three';

// The colour of a verdict code, by what it means for the shooter or mover.
const kCodeColours = {
  CONFIRMED: 0x2ecc40, OK: 0x2ecc40,
  HIT_OTHER_PART: 0xffaa00, HIT_OTHER_BODY: 0xffaa00,
  BLOCKED: 0xff4136, MISSED: 0xff4136,
};
const kRejected = 0xb10dc9;  // the request, the time, the origin or the speed refused.
export const kLatestColour = 0x3d7eff;

export function codeName(kind, verdict) {
  const prefix = kind === 'shot' ? 'SHOT_CODE_' : 'MOVE_CODE_';
  return (verdict.code ?? 'UNSPECIFIED').replace(prefix, '');
}
export function codeColour(code) { return kCodeColours[code] ?? kRejected; }

export function vec(v) { return new THREE.Vector3(v?.x ?? 0, v?.y ?? 0, v?.z ?? 0); }

function quat(q) {
  // An unset rotation is the identity; a set one omits its zero components.
  return q ? new THREE.Quaternion(q.x ?? 0, q.y ?? 0, q.z ?? 0, q.w ?? 0) : new THREE.Quaternion();
}

// A mesh along the segment a -> b with radius r (a sphere when a == b).
function capsule(a, b, r, material) {
  const axis = new THREE.Vector3().subVectors(b, a);
  const mesh = new THREE.Mesh(new THREE.CapsuleGeometry(Math.max(r, 0.01), axis.length(), 6, 16), material);
  mesh.position.addVectors(a, b).multiplyScalar(0.5);
  if (axis.lengthSq() > 0) mesh.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), axis.normalize());
  return mesh;
}

function box(center, rotation, halfExtents, material) {
  const size = halfExtents.clone().multiplyScalar(2);
  const mesh = new THREE.Mesh(new THREE.BoxGeometry(size.x, size.y, size.z), material);
  mesh.position.copy(center);
  mesh.quaternion.copy(rotation);
  return mesh;
}

// A collide.v1.Shape; null for what is not drawn (hulls, halfspaces).
export function shapeObject(shape, material) {
  if (shape.sphere) return capsule(vec(shape.sphere.center), vec(shape.sphere.center), shape.sphere.radius ?? 0, material);
  if (shape.capsule) return capsule(vec(shape.capsule.a), vec(shape.capsule.b), shape.capsule.radius ?? 0, material);
  if (shape.segment) return capsule(vec(shape.segment.a), vec(shape.segment.b), 0.02, material);
  if (shape.point) return capsule(vec(shape.point.position), vec(shape.point.position), 0.04, material);
  if (shape.obb) return box(vec(shape.obb.center), quat(shape.obb.rotation), vec(shape.obb.halfExtents), material);
  if (shape.aabb) {
    const lo = vec(shape.aabb.min), hi = vec(shape.aabb.max);
    return box(lo.clone().add(hi).multiplyScalar(0.5), new THREE.Quaternion(), hi.sub(lo).multiplyScalar(0.5), material);
  }
  if (shape.triangle) {
    const g = new THREE.BufferGeometry().setFromPoints([vec(shape.triangle.a), vec(shape.triangle.b), vec(shape.triangle.c)]);
    g.computeVertexNormals();
    return new THREE.Mesh(g, material);
  }
  return null;
}

// A collide.v1.PosedBody: its parts, already in the world frame.
export function bodyObject(body, material) {
  const group = new THREE.Group();
  for (const part of body.parts ?? []) {
    const object = shapeObject(part.shape, material);
    if (object) group.add(object);
  }
  return group;
}

// The static elements, cut by `clippingPlanes`.
export function levelObject(level, clippingPlanes) {
  const material =
      new THREE.MeshLambertMaterial({color: 0x8a8f94, side: THREE.DoubleSide, flatShading: true, clippingPlanes});
  const group = new THREE.Group();
  if (level.positions?.length) {
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.Float32BufferAttribute(level.positions, 3));
    g.setIndex(level.indices ?? []);
    g.computeVertexNormals();
    group.add(new THREE.Mesh(g, material));
  }
  for (const shape of level.shapes ?? []) {
    const object = shapeObject(shape, material);
    if (object) group.add(object);
  }
  return group;
}

export function lineObject(points, colour) {
  return new THREE.Line(new THREE.BufferGeometry().setFromPoints(points), new THREE.LineBasicMaterial({color: colour}));
}

export function material(colour, opacity = 1) {
  return new THREE.MeshLambertMaterial({color: colour, transparent: opacity < 1, opacity});
}
