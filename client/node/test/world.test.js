'use strict';
// The world API (world.js) against a live collide-server ($COLLIDE_SERVER):
// a floor, a wall and three players whose answers a reader can work out.
const {test, describe} = require('node:test');
const assert = require('node:assert/strict');
const grpc = require('@grpc/grpc-js');
const {Client, CollideError, LATEST_TICK, WORLD_HEADER, shapes, status} = require('..');
const {WorldState} = require('../world_state');
const {startServer, liveClient} = require('./live_server');

const near = (got, want, what) => assert.ok(Math.abs(got - want) < 1e-9, `${what}: ${got} != ${want}`);

test('the kept state folds frames as the core does', () => {
  const s = new WorldState();
  assert.equal(s.frame(), null);
  const head = {id: 0, shape: shapes.sphere([0, 0, 0], 1)};
  const torso = {id: 1, shape: shapes.sphere([0, 0, 0], 2)};
  s.apply({tick: 1, bodies: [{id: 1, pose: {position: {x: 1}}, parts: [head, torso]}, {id: 2, pose: {}, parts: [head]}]});
  s.apply({tick: 4, bodies: [{id: 1, part_poses: [{part: 1, local: {position: {z: 3}}}], category: 2}], removals: [2]});
  assert.deepEqual(s.frame(), {
    tick: 4,
    bodies: [{id: 1, pose: {position: {x: 1}}, category: 2, parts: [head, {...torso, local: {position: {z: 3}}}]}],
  });
  s.apply({tick: 5, bodies: [{id: 1, parts: [head]}]});  // a new part set drops the old poses
  assert.deepEqual(s.frame().bodies[0].parts, [head]);
});

// Players: origin at the feet, head sphere (part 0) and torso capsule (part 1).
const player = (id, x, extra = {}) => ({
  id,
  pose: {position: [x, 0, 0]},
  parts: [
    {id: 0, shape: shapes.sphere([0, 0, 1.7], 0.15)},
    {id: 1, shape: shapes.capsule([0, 0, 0.9], [0, 0, 1.4], 0.3)},
  ],
  movement_shape: shapes.capsule([0, 0, 0.5], [0, 0, 1.5], 0.4),
  ...extra,
});
// A floor (element 1, z = 0) and a wall (element 2, x in [10, 11]).
const arena = (worldId, policy = {}) => ({
  world_id: worldId,
  statics: [
    {id: 1, mesh: {vertices: new Float64Array([-50, -50, 0, 50, -50, 0, 50, 50, 0, -50, 50, 0]), indices: new Uint32Array([0, 1, 2, 0, 2, 3])}},
    {id: 2, shape: shapes.aabb([10, -50, 0], [11, 50, 20])},
  ],
  history_ticks: 16,
  policy: {default_max_speed: 10, ...policy},
});

describe('worlds against a live server', {skip: !process.env.COLLIDE_SERVER && 'needs COLLIDE_SERVER'}, () => {
  const live = liveClient();

  test('create, get, list, delete, and the errors of each', async () => {
    const world = await live.client.createWorld(arena('life'));
    assert.equal(world.created.worldId, 'life');
    assert.equal(world.created.staticElements, 2);
    assert.equal(world.created.triangles, 2);
    assert.equal(world.created.historyTicks, 16);
    assert.ok((await live.client.listWorlds()).some((w) => w.worldId === 'life'));
    await assert.rejects(live.client.createWorld(arena('life')), (e) => e instanceof CollideError && e.codeName === 'ALREADY_EXISTS');
    await assert.rejects(live.client.createWorld({...arena('bad'), history_ticks: -1}), (e) => {
      assert.equal(e.code, status.INVALID_ARGUMENT);
      assert.deepEqual(e.fields, ['history_ticks']);
      return true;
    });
    await world.delete();
    assert.ok(!(await live.client.listWorlds()).some((w) => w.worldId === 'life'));
    await assert.rejects(world.info(), (e) => {
      assert.equal(e.codeName, 'NOT_FOUND');
      assert.equal(e.reason, 'WORLD_NOT_FOUND');
      assert.equal(e.domain, 'collide.v1');
      return true;
    });
  });

  test('the client sends the collide-world header the server requires', async () => {
    const world = await live.client.createWorld(arena('header'));
    assert.equal((await world.info()).worldId, 'header');
    const raw = (metadata) => live.client._call(live.client._worlds, 'GetWorld', {world_id: 'header'}, metadata);
    await assert.rejects(raw(new grpc.Metadata()), (e) => e.codeName === 'INVALID_ARGUMENT' && e.fields[0] === WORLD_HEADER);
    await world.delete();
  });

  test('frames across a gap, queries at interpolated and clamped times', async () => {
    const world = await live.client.createWorld(arena('queries'));
    await world.pushFrame({tick: 1, bodies: [player(1, 0), player(2, 5), player(3, 15)]});
    assert.deepEqual(await world.pushFrame({tick: 3, bodies: [{id: 2, pose: {position: [7, 0, 0]}}]}), {oldestTick: 1});
    await assert.rejects(world.pushFrame({tick: 3}), (e) => e.codeName === 'FAILED_PRECONDITION');
    await assert.rejects(world.pushFrame({tick: 4, bodies: [{id: 9, pose: {rotation: [2, 0, 0, 0]}}]}), (e) => {
      assert.deepEqual([...e.fields].sort(), ['frame.bodies[0].parts', 'frame.bodies[0].pose.rotation']);
      return true;
    });
    assert.equal(world.latestTick, 3);
    const info = await world.info();
    assert.deepEqual([info.bodies, info.latestTick, info.oldestTick, info.framesKept], [3, 3, 1, 2]);

    const chest = shapes.ray([0, 0, 1.2], [1, 0, 0]);
    const mine = {ignore_bodies: [1]};
    const r = await world.query({
      ray_casts: [
        // T = 1.5 lies a quarter of the way from tick 1 (x = 5) to tick 3 (x = 7).
        {ray: chest, filter: {...mine, at: {tick: 1, fraction: 0.5}}},
        {ray: chest, filter: {...mine, at: {tick: 100}}},
        {ray: chest, filter: mine, mode: 'RAY_MODE_ALL'},
        {ray: chest, filter: mine, mode: 'RAY_MODE_ANY'},
        {ray: shapes.ray([0, 0, 1.2], [0, 1, 0], 40), filter: mine},
      ],
      shape_casts: [{shape: shapes.sphere([0, 0, 10], 0.5), translation: [0, 0, -20], filter: mine}],
      overlaps: [{shape: shapes.sphere([5, 0, 1.2], 0.3), filter: {at: {tick: 1}}, level: 'QUERY_LEVEL_CONTACT'}],
    });
    const [lag, clamped, all, any, miss] = r.rayCasts;
    near(lag.hits[0].distance, 5.5 - 0.3, 'rewound torso');
    assert.deepEqual(lag.hits[0].target, {kind: 'body', bodyId: 2, partId: 1});
    assert.deepEqual(lag.time, {at: {tick: 1, fraction: 0.5}, clamped: false});
    assert.deepEqual(clamped.time, {at: {tick: 3, fraction: 0}, clamped: true});
    near(clamped.hits[0].distance, 7 - 0.3, 'latest torso');
    assert.deepEqual(all.hits.map((h) => h.target), [
      {kind: 'body', bodyId: 2, partId: 1}, {kind: 'static', elementId: 2, triangle: 0}, {kind: 'body', bodyId: 3, partId: 1},
    ]);
    assert.equal(all.totalHits, 3);
    assert.equal(any.hits.length, 1);
    assert.deepEqual(miss.hits, []);
    const [cast] = r.shapeCasts;
    assert.equal(cast.hit, true);
    near(cast.t, 9.5 / 20, 'time of impact');
    assert.deepEqual(cast.target, {kind: 'static', elementId: 1, triangle: cast.target.triangle});
    assert.deepEqual(cast.normal.map((c) => c + 0), [0, 0, -1]);  // + 0: -0 as 0
    const [overlap] = r.overlaps;
    assert.deepEqual(overlap.overlaps.map((o) => o.target), [{kind: 'body', bodyId: 2, partId: 1}]);
    near(overlap.overlaps[0].contact.distance, -0.6, 'overlap depth');

    // The packed form answers as the readable one, from a Float64Array.
    const rays = [[0, 0, 1.2, 1, 0, 0, Infinity], [0, 0, 1.2, 0, 1, 0, 40], [0, 0, 5, 0, 0, -1, Infinity]];
    const packed = await world.castRaysPacked(new Float64Array(rays.flat()), mine);
    const readable = await world.query({
      ray_casts: rays.map((v) => ({ray: shapes.ray(v.slice(0, 3), v.slice(3, 6), v[6]), filter: mine})),
    });
    assert.ok(packed.distance instanceof Float64Array);
    assert.deepEqual(packed.hit, [true, false, true]);
    assert.deepEqual([...packed.targetKind], [2, 0, 1]);
    readable.rayCasts.forEach((rc, i) => {
      if (!rc.hits.length) return;
      assert.equal(packed.distance[i], rc.hits[0].distance);
      assert.deepEqual([...packed.point.slice(3 * i, 3 * i + 3)], rc.hits[0].point);
    });
    assert.deepEqual([packed.targetId[0], packed.targetIndex[0]], [2, 1]);
    await world.delete();
  });

  test('every shot verdict, readable and packed alike', async () => {
    const world = await live.client.createWorld(arena('shots', {max_rewind_ticks: 4, max_origin_offset: 2}));
    await world.pushFrame({tick: 1, bodies: [player(1, 0), player(2, 5), player(3, 15), player(4, 3, {pose: {position: [3, 2, 0]}})]});
    await world.pushFrame({tick: 10, bodies: []});
    const eye = [0, 0, 1.2];
    const shot = (extra) => ({shooter_id: 1, origin: eye, direction: [1, 0, 0], claimed: {body_id: 2, part_id: 1}, ...extra});
    const shots = [
      shot({}),                                                                // CONFIRMED
      shot({claimed: {body_id: 2, part_id: 0}}),                               // HIT_OTHER_PART
      shot({claimed: {body_id: 3, part_id: 1}}),                               // HIT_OTHER_BODY (2 stands in front)
      shot({shooter_id: 4, origin: [3, 2, 1.2], direction: [12, -2, 0], claimed: {body_id: 3, part_id: 1}}),  // BLOCKED by the wall
      shot({direction: [0, -1, 0]}),                                           // MISSED
      shot({at: {tick: 1}}),                                                   // REWIND_TOO_OLD
      shot({at: {tick: 11}}),                                                  // IN_THE_FUTURE
      shot({origin: [0, 9, 1.2]}),                                             // ORIGIN_IMPLAUSIBLE
      shot({shooter_id: 99}),                                                  // UNKNOWN_SHOOTER
      shot({claimed: {body_id: 42, part_id: 1}}),                              // UNKNOWN_TARGET
    ];
    const verdicts = await world.validateShots(shots);
    assert.deepEqual(verdicts.map((v) => v.code.replace('SHOT_CODE_', '')), [
      'CONFIRMED', 'HIT_OTHER_PART', 'HIT_OTHER_BODY', 'BLOCKED', 'MISSED', 'REWIND_TOO_OLD', 'IN_THE_FUTURE',
      'ORIGIN_IMPLAUSIBLE', 'UNKNOWN_SHOOTER', 'UNKNOWN_TARGET',
    ]);
    near(verdicts[0].firstHit.distance, 4.7, 'confirmed distance');
    assert.deepEqual(verdicts[3].firstHit.target, {kind: 'static', elementId: 2, triangle: 0});
    near(verdicts[7].originOffset, Math.hypot(9, 1.2), 'origin offset');  // from the feet

    const doubles = new Float64Array(10 * shots.length);
    shots.forEach((s, i) => doubles.set([...s.origin, ...s.direction, Infinity, 0, 0, 0], 10 * i));
    const packed = await world.validateShotsPacked({
      doubles,
      shooterIds: shots.map((s) => s.shooter_id),
      ticks: shots.map((s) => (s.at ? s.at.tick : LATEST_TICK)),
      claimedBodyIds: shots.map((s) => s.claimed.body_id),
      claimedPartIds: new Int32Array(shots.map((s) => s.claimed.part_id)),
    });
    assert.deepEqual(packed, verdicts);
    await world.delete();
  });

  test('move verdicts', async () => {
    const world = await live.client.createWorld(arena('moves'));
    await world.pushFrame({tick: 1, bodies: [player(1, 0), player(2, 8)]});
    const verdicts = await world.validateMoves([
      {body_id: 1, to: [0.5, 0, 0], elapsed: 0.1},                                        // OK
      {body_id: 1, to: [5, 0, 0], elapsed: 0.1},                                          // TOO_FAST (50 u/s)
      {body_id: 2, to: [12, 0, 0], elapsed: 1, max_speed: 100},                           // BLOCKED by the wall
      {body_id: 2, from: [8, 0, 0], to: [12, 3, 0], elapsed: 1, max_speed: 100, slide: true},
      {body_id: 5, to: [1, 0, 0], elapsed: 1},                                            // UNKNOWN_BODY
    ]);
    assert.deepEqual(verdicts.map((v) => v.code.replace('MOVE_CODE_', '')), ['OK', 'TOO_FAST', 'BLOCKED', 'BLOCKED', 'UNKNOWN_BODY']);
    assert.deepEqual(verdicts[0].allowedPosition, [0.5, 0, 0]);
    near(verdicts[1].speed, 50, 'speed');
    assert.deepEqual(verdicts[2].target, {kind: 'static', elementId: 2, triangle: 0});
    assert.deepEqual(verdicts[2].normal, [1, 0, 0]);
    assert.ok(verdicts[2].allowedPosition[0] < 10 - 0.4 && verdicts[2].allowedPosition[0] > 9.5, `${verdicts[2].allowedPosition}`);
    // Sliding keeps the sideways part of the move along the wall.
    assert.ok(verdicts[3].slidPosition[1] > 2.9, `${verdicts[3].slidPosition}`);
    await world.delete();
  });

  test('a lost world is re-created from the creation request and the latest state, once per loss', async () => {
    const world = await live.client.createWorld(arena('lost'));
    const events = [];
    world.on('recreated', (e) => events.push(e));
    await world.pushFrame({tick: 1, bodies: [player(1, 0), player(2, 5), player(3, 15)]});
    await world.pushFrame({tick: 2, bodies: [{id: 2, pose: {position: [6, 0, 0]}}], removals: [3]});
    await live.client.world('lost').delete();  // what a replica restart does to it

    const unguarded = live.client.world('lost');
    await assert.rejects(unguarded.info(), (e) => e.reason === 'WORLD_NOT_FOUND');
    const [v] = await world.validateShots([{shooter_id: 1, origin: [0, 0, 1.2], direction: [1, 0, 0], claimed: {body_id: 2, part_id: 1}}]);
    assert.equal(v.code, 'SHOT_CODE_CONFIRMED');
    near(v.firstHit.distance, 5.7, 'restored pose');
    assert.equal(events.length, 1);
    assert.equal(events[0].latestTick, 2);
    assert.equal(events[0].cause.reason, 'WORLD_NOT_FOUND');
    const info = await world.info();
    assert.deepEqual([info.bodies, info.latestTick, info.framesKept, world.recreations], [2, 2, 1, 1]);

    const fragile = await live.client.createWorld(arena('fragile'), {recreate: false});
    await live.client.world('fragile').delete();
    await assert.rejects(fragile.pushFrame({tick: 1, bodies: [player(1, 0)]}), (e) => e.codeName === 'NOT_FOUND');
    await world.delete();
  });
});

test('a world lost with a server restart is re-created on the new one',
    {skip: !process.env.COLLIDE_SERVER && 'needs COLLIDE_SERVER'}, async () => {
      let server = await startServer();
      const port = server.target.split(':')[1];
      const client = new Client(server.target, {deadlineMs: 30000});
      try {
        const world = await client.createWorld(arena('restart'));
        await world.pushFrame({tick: 7, bodies: [player(1, 0), player(2, 5)]});
        await server.stop();
        server = await startServer([`--port=${port}`]);
        const lost = new Promise((resolve) => world.once('recreated', resolve));
        await world.pushFrame({tick: 8, bodies: [{id: 2, pose: {position: [4, 0, 0]}}]});
        assert.equal((await lost).latestTick, 7);
        const info = await world.info();
        assert.deepEqual([info.bodies, info.oldestTick, info.latestTick], [2, 7, 8]);
      } finally {
        client.close();
        await server.stop();
      }
    });
