// Compiled (not run) by typings.test.js with the strict TypeScript compiler:
// every call of docs/clients.md and the examples, typed through index.d.ts, and
// misuses that must not compile (@ts-expect-error fails when they do).
import {Client, CollideError, LATEST_TICK, MoveVerdict, PackedWorldRayHits, ShotVerdict, World, shapes, status, version} from '../..';

async function usage(): Promise<void> {
  const client = new Client('127.0.0.1:50051', {deadlineMs: 5000});
  const [r] = await client.queryPairs('contact', [[shapes.sphere([0, 0, 0], 1), shapes.sphere([1.5, 0, 0], 1)]]);
  const d: number = r.distance;
  const world: World = await client.createWorld(
      {
        worldId: 'arena',
        statics: [
          {id: 1, mapFile: {name: 'pak6-patch088.pk3', map: 'aggressor'}},
          {id: 2, mesh: {vertices: new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: [0, 1, 2]}},
          {id: 3, shape: shapes.aabb([0, 0, 0], [1, 1, 1])},
        ],
        historyTicks: 64,
        policy: {defaultMaxSpeed: 400},
      },
      {recreate: true});
  world.on('recreated', (e) => console.log(e.worldId, e.latestTick, e.cause.reason));
  const {oldestTick} = await world.pushFrame({
    tick: 1,
    bodies: [{id: 7, pose: {position: [0, 0, 0], rotation: [1, 0, 0, 0]}, parts: [{id: 0, shape: shapes.sphere([0, 0, 0], 1)}]}],
  });
  const q = await world.query({rayCasts: [{ray: shapes.ray([0, 0, 5], [0, 0, -1]), mode: 'RAY_MODE_ALL', filter: {at: {tick: 1}}}]});
  const t = q.rayCasts[0].hits[0].target;
  if (t && t.kind === 'body') console.log(t.bodyId, t.partId);
  if (t && t.kind === 'static') console.log(t.elementId, t.triangle);
  const packed: PackedWorldRayHits = await world.castRaysPacked(new Float64Array(7), {ignoreBodies: [7]});
  const dist: Float64Array = packed.distance;
  const verdicts: ShotVerdict[] = await world.validateShots([{shooterId: 7, origin: [0, 0, 0], direction: [1, 0, 0]}]);
  const same: ShotVerdict[] = await world.validateShotsPacked({
    doubles: new Float64Array(10), shooterIds: [7], ticks: [LATEST_TICK], claimedBodyIds: [-1], claimedPartIds: [-1],
  });
  // 64-bit ids as bigint or decimal strings (world.d.ts: Int64).
  await world.pushFrame({tick: 3n, bodies: [{id: 9007199254740993n, pose: {position: [0, 0, 0]}}], removals: ['9007199254740995']});
  const v: string = version;
  console.log(v);
  const moves: MoveVerdict[] = await world.validateMoves([{bodyId: 7, to: [1, 0, 0], elapsed: 0.05, slide: true}]);
  // Explanations and posed bodies (world.d.ts).
  const explained = await world.validateMoves([{bodyId: 7, to: [1, 0, 0], elapsed: 0.05}], {explain: true});
  const why: string | undefined = explained[0].explanation?.reason;
  const sweeps = explained[0].explanation?.sweeps.map((s) => s.purpose);
  const shotWhy = (await world.validateShots([{shooterId: 7}], {explain: true}))[0].explanation;
  const head = shotWhy?.claimedRewound?.parts[0].shape?.sphere?.center;
  const posed = await world.getBodies({at: {tick: 3, fraction: 0.5}, bodyIds: [7, 8n]});
  console.log(why, sweeps, head, posed.missing.length, posed.bodies[0].eye[2], posed.time?.clamped);
  console.log(d, oldestTick, dist, verdicts[0].code === 'SHOT_CODE_CONFIRMED', same.length, moves[0].slidPosition[2]);
  console.log((await world.info()).latestTick, (await client.listWorlds()).length, world.recreations);
  const stream = world.tick({budgetMs: 50});
  const answer = await stream.send({frame: {tick: 2}, shots: [{shooterId: 7}], raysPacked: {rays: new Float64Array(7)}});
  if (answer.shots) console.log(answer.sequence, answer.shots[0].code, answer.raysPacked && answer.raysPacked.distance[0]);
  const seen = await stream.send({frame: {tick: 4}, visibility: {tickSeconds: 1 / 64, latency: 0.1, margin: 16}});
  if (seen.visibility) console.log(seen.visibility.sets[0].visible, seen.visibility.hidden);
  await stream.end();
  await client.world('other').delete();
  try {
    await world.pushFrame({tick: 1});
  } catch (e) {
    if (e instanceof CollideError && e.code === status.NOT_FOUND) console.log(e.reason, e.fields);
  }
  // @ts-expect-error: a shot verdict code is one of the ShotCode names.
  const bad: ShotVerdict['code'] = 'SHOT_CODE_HEADSHOT';
  // @ts-expect-error: request fields are camelCase in the typings.
  await world.validateShots([{shooter_id: 7}]);
  // @ts-expect-error: a frame needs its tick.
  await world.pushFrame({bodies: []});
  // @ts-expect-error: packed results are Float64Arrays, not strings.
  const wrong: string = packed.point;
  console.log(bad, wrong);
  client.close();
}

usage().catch(console.error);
