'use strict';
// The Tick stream (tick.js) against a live collide-server ($COLLIDE_SERVER):
// pipelined messages answered by sequence, each equal to the unary calls, an
// error answering its message alone, and a lost world re-created mid-stream.
const {test, describe} = require('node:test');
const assert = require('node:assert/strict');
const {Client, CollideError, LATEST_TICK, shapes} = require('..');
const {liveClient, startServer} = require('./live_server');

const near = (got, want, what) => assert.ok(Math.abs(got - want) < 1e-9, `${what}: ${got} != ${want}`);

const player = (id, x) => ({
  id,
  pose: {position: [x, 0, 0]},
  parts: [{id: 0, shape: shapes.sphere([0, 0, 1.7], 0.15)}, {id: 1, shape: shapes.capsule([0, 0, 0.9], [0, 0, 1.4], 0.3)}],
  movement_shape: shapes.capsule([0, 0, 0.5], [0, 0, 1.5], 0.4),
});
const arena = (worldId) => ({
  world_id: worldId,
  statics: [{id: 2, shape: shapes.aabb([10, -50, 0], [11, 50, 20])}],
  history_ticks: 16,
});
const chestShot = {shooter_id: 1, origin: [0, 0, 1.2], direction: [1, 0, 0], claimed: {body_id: 2, part_id: 1}};

describe('the Tick stream against a live server', {skip: !process.env.COLLIDE_SERVER && 'needs COLLIDE_SERVER'}, () => {
  const live = liveClient();

  test('pipelined messages see the frames sent before them and answer as the unary calls', async () => {
    const world = await live.client.createWorld(arena('tick-order'));
    const stream = world.tick();
    // Sent without waiting: each batch sees the frame of the message before it.
    const answers = await Promise.all([
      stream.send({frame: {tick: 1, bodies: [player(1, 0), player(2, 5)]}}),
      stream.send({shots: [chestShot]}),
      stream.send({frame: {tick: 2, bodies: [{id: 2, pose: {position: [7, 0, 0]}}]}, shots: [chestShot],
        moves: [{body_id: 2, to: [12, 0, 0], elapsed: 1, max_speed: 100}]}),
      stream.send({
        query: {ray_casts: [{ray: shapes.ray([0, 0, 1.2], [1, 0, 0]), filter: {ignore_bodies: [1], at: {tick: 1}}}]},
        rays_packed: {rays: new Float64Array([0, 0, 1.2, 1, 0, 0, Infinity]), filter: {ignore_bodies: [1]}},
        shots_packed: {doubles: [0, 0, 1.2, 1, 0, 0, Infinity, 0, 0, 0], shooterIds: [1], ticks: [LATEST_TICK],
          claimedBodyIds: [2], claimedPartIds: [1]},
      }),
      stream.send({}),  // a ping
    ]);
    assert.deepEqual(answers.map((a) => a.sequence), [1, 2, 3, 4, 5]);
    assert.deepEqual(answers[0].frame, {oldestTick: 1});
    near(answers[1].shots[0].firstHit.distance, 5 - 0.3, 'distance');
    assert.equal(answers[2].frame.oldestTick, 1);
    near(answers[2].shots[0].firstHit.distance, 7 - 0.3, 'distance');
    assert.equal(answers[2].moves[0].code, 'MOVE_CODE_BLOCKED');
    near(answers[3].query.rayCasts[0].hits[0].distance, 5 - 0.3, 'distance');
    assert.ok(answers[3].raysPacked.distance instanceof Float64Array);
    near(answers[3].raysPacked.distance[0], 7 - 0.3, 'distance');
    assert.deepEqual(answers[4], {sequence: 5, frame: null, query: null, shots: null, moves: null, projectiles: null, melee: null,
      shotsPacked: null, raysPacked: null, bodies: null, visibility: null});
    await stream.end();
    // The same requests as unary calls on the world the stream left.
    assert.deepEqual(answers[2].shots, await world.validateShots([chestShot]));
    assert.deepEqual(answers[3].shotsPacked, answers[2].shots);
    assert.deepEqual(answers[2].moves, await world.validateMoves([{body_id: 2, to: [12, 0, 0], elapsed: 1, max_speed: 100}]));
    assert.equal(world.latestTick, 2);
    await world.delete();
  });

  test('an error answers its message alone, with the parts that ran, and the stream goes on', async () => {
    const world = await live.client.createWorld(arena('tick-errors'));
    const stream = world.tick();
    const first = stream.send({frame: {tick: 1, bodies: [player(1, 0), player(2, 5)]}});
    const stale = stream.send({frame: {tick: 1}});
    const half = stream.send({frame: {tick: 3}, shots: [{...chestShot, direction: [0, 0, 0]}], allOrNothing: true});
    const after = stream.send({shots: [chestShot]});
    await first;
    await assert.rejects(stale, (e) => e instanceof CollideError && e.codeName === 'FAILED_PRECONDITION' && e.answer.frame === null);
    await assert.rejects(half, (e) => {
      assert.equal(e.codeName, 'INVALID_ARGUMENT');
      assert.ok(e.fields.every((f) => f.startsWith('shots.shots[0].direction')), e.message);
      assert.deepEqual(e.answer.frame, {oldestTick: 1});  // the frame ran, and was kept
      return true;
    });
    assert.equal((await after).shots[0].code, 'SHOT_CODE_CONFIRMED');
    assert.equal(world.latestTick, 3);
    await stream.end();
    await world.delete();
  });

  test('a world lost mid-stream is re-created and the message sent again', async () => {
    const world = await live.client.createWorld(arena('tick-lost'));
    const events = [];
    world.on('recreated', (e) => events.push(e));
    const stream = world.tick();
    await stream.send({frame: {tick: 1, bodies: [player(1, 0), player(2, 5)]}});
    await stream.send({frame: {tick: 2, bodies: [{id: 2, pose: {position: [6, 0, 0]}}]}});
    await live.client.world('tick-lost').delete();
    // Sent while the world is being restored: held until the lost messages went again.
    let held = null;
    world.once('recreated', () => (held = stream.send({shots: [chestShot]})));
    const [a, b] = await Promise.all([stream.send({shots: [chestShot]}), stream.send({frame: {tick: 3}, shots: [chestShot]})]);
    near(a.shots[0].firstHit.distance, 6 - 0.3, 'distance');
    assert.equal(b.frame.oldestTick, 2);
    const c = await held;
    assert.ok(c.sequence > b.sequence && b.sequence > a.sequence, `${a.sequence} ${b.sequence} ${c.sequence}`);
    near(c.shots[0].firstHit.distance, 6 - 0.3, 'distance');
    assert.equal(events.length, 1);
    assert.equal(events[0].latestTick, 2);
    await stream.end();
    const info = await world.info();
    assert.deepEqual([info.bodies, info.oldestTick, info.latestTick], [2, 2, 3]);
    await world.delete();
  });
});

test('a stream ended by a server shutdown rejects what it has not answered, and end()',
    {skip: !process.env.COLLIDE_SERVER && 'needs COLLIDE_SERVER'}, async () => {
      const server = await startServer();
      const client = new Client(server.target, {deadlineMs: 30000});
      try {
        const world = await client.createWorld(arena('tick-shutdown'));
        const stream = world.tick();
        assert.equal((await stream.send({})).sequence, 1);
        await server.stop();
        await assert.rejects(stream.send({}), (e) => e instanceof CollideError && e.codeName === 'UNAVAILABLE');
        await assert.rejects(stream.end(), (e) => e.codeName === 'UNAVAILABLE');
      } finally {
        client.close();
        await server.stop();
      }
    });
