'use strict';
// The Node wrapper: shape builders offline, then every method against a live
// collide-server ($COLLIDE_SERVER).
const {test, describe} = require('node:test');
const assert = require('node:assert/strict');
const {Client, CollideError, shapes, PACKED_STRIDES, status} = require('..');
const {liveClient} = require('./live_server');

test('shape builders produce the proto form, in camelCase', () => {
  assert.deepEqual(shapes.sphere([1, 2, 3], 0.5), {sphere: {center: {x: 1, y: 2, z: 3}, radius: 0.5}});
  assert.deepEqual(shapes.obb([0, 0, 0], [1, 2, 3]), {
    obb: {center: {x: 0, y: 0, z: 0}, halfExtents: {x: 1, y: 2, z: 3}},
  });
  assert.deepEqual(shapes.obb([0, 0, 0], [1, 1, 1], [0, 1, 0, 0]).obb.rotation, {w: 0, x: 1, y: 0, z: 0});
  assert.deepEqual(shapes.convexHull([[0, 0, 0], [1, 0, 0]]).convexHull.vertices.length, 2);
  assert.deepEqual(shapes.ray([0, 0, 0], [1, 0, 0], Infinity), {origin: {x: 0, y: 0, z: 0}, direction: {x: 1, y: 0, z: 0}});
  assert.equal(shapes.ray([0, 0, 0], [1, 0, 0], 2).maxDistance, 2);
  assert.equal(PACKED_STRIDES.obb, 10);
});

describe('against a live server', {skip: !process.env.COLLIDE_SERVER && 'needs COLLIDE_SERVER'}, () => {
  const live = liveClient();

  test('camelCase and the proto\'s snake_case field names ask the same', async () => {
    const camel = await live.client.queryPairs('distance', [
      [{obb: {center: [0, 0, 0], halfExtents: [1, 1, 1]}}, {convexHull: {vertices: [[3, 0, 0], [4, 0, 0], [3, 1, 0]]}}]]);
    const snake = await live.client.queryPairs('distance', [
      [{obb: {center: [0, 0, 0], half_extents: [1, 1, 1]}}, {convex_hull: {vertices: [[3, 0, 0], [4, 0, 0], [3, 1, 0]]}}]]);
    assert.deepEqual(camel, snake);
    assert.ok(Math.abs(camel[0].distance - 2) < 1e-12);
    const [hit] = await live.client.castRays([[{origin: [-5, 0, 0], direction: [1, 0, 0], maxDistance: 3}, shapes.sphere([0, 0, 0], 1)]]);
    assert.equal(hit.hit, false);  // maxDistance 3 stops short of the sphere at 4
  });

  test('health and server info', async () => {
    assert.equal(await live.client.health(), 'SERVING');
    const info = await live.client.serverInfo();
    assert.ok(info.version);
    assert.ok(info.maxItemsPerRequest > 0);
  });

  test('contact between spheres, vectors as arrays or objects', async () => {
    const [r, s] = await live.client.queryPairs('contact', [
      [shapes.sphere([0, 0, 0], 1), shapes.sphere([1.5, 0, 0], 1)],
      [{sphere: {radius: 1}}, {sphere: {center: [1.5, 0, 0], radius: 1}}],
    ]);
    assert.equal(r.hit, true);
    assert.ok(Math.abs(r.distance + 0.5) < 1e-12);
    assert.deepEqual(r.normal, [1, 0, 0]);
    assert.equal(r.status, 'RESULT_STATUS_OK');
    assert.deepEqual(s, r);
  });

  test('packed from a Float64Array keeps order', async () => {
    const spheres = new Float64Array([0, 0, 0, 1, 10, 0, 0, 1]);
    const r = await live.client.queryPairsPacked('DISTANCE', 'sphere', spheres, [0.5, 0, 0, 13, 0, 0], 'point');
    assert.deepEqual(r.hit, [true, false]);
    assert.ok(Math.abs(r.distance[1] - 2) < 1e-12);
    assert.deepEqual(r.pointB.slice(3, 6), [13, 0, 0]);
  });

  test('rays, readable and packed', async () => {
    const [h] = await live.client.castRays([[shapes.ray([-5, 0, 0], [2, 0, 0]), shapes.aabb([-1, -1, -1], [1, 1, 1])]]);
    assert.equal(h.hit, true);
    assert.ok(Math.abs(h.distance - 4) < 1e-12);
    assert.deepEqual(h.normal, [-1, 0, 0]);
    const p = await live.client.castRaysPacked('sphere', [-5, 0, 0, 1, 0, 0, Infinity], [0, 0, 0, 1]);
    assert.deepEqual(p.hit, [true]);
    assert.ok(Math.abs(p.distance[0] - 4) < 1e-12);
  });

  test('INVALID_ARGUMENT lists every violation', async () => {
    await assert.rejects(
        live.client.queryPairs('contact', [
          [shapes.sphere([0, 0, 0], -1), shapes.point([0, 0, 0])],
          [shapes.point([0, 0, 0]), shapes.capsule([0, 0, 0], [1, 0, 0], NaN)],
        ]),
        (e) => {
          assert.ok(e instanceof CollideError);
          assert.equal(e.code, status.INVALID_ARGUMENT);
          assert.deepEqual([...e.fields].sort(), ['pairs[0].a.sphere.radius', 'pairs[1].b.capsule.radius']);
          return true;
        });
  });

  test('halfspace vs halfspace is UNIMPLEMENTED', async () => {
    await assert.rejects(
        live.client.queryPairs('intersect', [[shapes.halfspace([0, 0, 1], 0), shapes.halfspace([1, 0, 0], 0)]]),
        (e) => e instanceof CollideError && e.codeName === 'UNIMPLEMENTED');
  });

  test('gzip requests are refused UNIMPLEMENTED naming the accepted encoding, on every RPC', async () => {
    // The server does not inflate requests (docs/operations.md, "Security") and so does not
    // advertise gzip: a gzip call is refused naming identity, as the gRPC
    // compression spec says.
    const gzip = new Client(live.server.target, {deadlineMs: 30000, channelOptions: {'grpc.default_compression_algorithm': 2}});
    const sphere = shapes.sphere([0, 0, 0], 1);
    const calls = {
      serverInfo: () => gzip.serverInfo(),
      queryPairs: () => gzip.queryPairs('contact', [[sphere, sphere]]),
      queryPairsPacked: () => gzip.queryPairsPacked('DISTANCE', 'sphere', [0, 0, 0, 1], [0, 0, 0, 1]),
      castRays: () => gzip.castRays([[shapes.ray([-5, 0, 0], [1, 0, 0]), sphere]]),
      castRaysPacked: () => gzip.castRaysPacked('sphere', [-5, 0, 0, 1, 0, 0, 9], [0, 0, 0, 1]),
    };
    try {
      for (const [name, call] of Object.entries(calls)) {
        await assert.rejects(call(), (e) => {
          assert.ok(e instanceof CollideError, name);
          assert.equal(e.codeName, 'UNIMPLEMENTED', name);
          assert.match(e.message, /compressed with gzip; this server accepts grpc-encoding identity/, name);
          return true;
        });
      }
    } finally {
      gzip.close();
    }
  });

  test('an unreachable server rejects with UNAVAILABLE', async () => {
    const dead = new Client('127.0.0.1:1', {deadlineMs: 5000});
    await assert.rejects(dead.health(), (e) => e instanceof CollideError && e.code === status.UNAVAILABLE);
    dead.close();
  });
});
