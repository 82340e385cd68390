'use strict';
// A few seconds of a deathmatch on a map the server loads, judged by a
// collide world through its Tick stream: players run between walls (move
// validation, with slide), shoot each other with 100 ms of lag (line of
// sight and shot validation at the time the shooter saw), and the verdicts
// are counted.
//
// Usage: node examples/arena.js [host:port] [--seconds=3] [--map=pak6-patch088.pk3:aggressor]
// The server needs the map in its --maps_dir, e.g.
//   collide-server --maps_dir=/usr/share/games/openarena/baseoa   (Debian's openarena-088-data)
const {Client, shapes} = require('..');

const TICK_RATE = 20;        // ticks per second
const RUN_SPEED = 300;       // Quake units per second
const LAG_TICKS = 2;         // how far behind the shooters see
// Player spawn points of OpenArena's aggressor (its info_player_deathmatch entities).
const SPAWNS = [[-576, 192, 152], [-640, 320, -40], [608, 352, 152], [64, 64, 328], [200, -24, 152],
  [-256, -336, -40], [-552, 320, -40], [160, 80, 328]];
// Hitboxes about a Quake player's origin (its box spans z -24 .. 32).
const HITBOXES = [
  {id: 0, shape: shapes.sphere([0, 0, 22], 6)},                    // head
  {id: 1, shape: shapes.capsule([0, 0, -2], [0, 0, 12], 12)},      // torso
  {id: 2, shape: shapes.capsule([0, 0, -20], [0, 0, -6], 8)},      // legs
];
const EYE = 22;

// A seeded generator (mulberry32), so that a run is repeatable.
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function parseArgs(argv) {
  const args = {target: '127.0.0.1:50051', seconds: 3, map: 'pak6-patch088.pk3:aggressor'};
  for (const a of argv) {
    const m = /^--(\w+)=(.*)$/.exec(a);
    if (m) args[m[1]] = m[1] === 'seconds' ? Number(m[2]) : m[2];
    else args.target = a;
  }
  return args;
}

const count = (counts, code) => counts.set(code, (counts.get(code) || 0) + 1);

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const [file, mapName = ''] = args.map.split(':');
  const rand = random(17);
  const client = new Client(args.target, {deadlineMs: 30000});
  const world = await client.createWorld({
    world_id: `arena-${process.pid}`,
    statics: [{id: 1, map_file: {name: file, map: mapName}}],
    history_ticks: 32,
    policy: {max_rewind_ticks: 8, max_origin_offset: 32, default_max_speed: RUN_SPEED * 1.1},
  });
  world.on('recreated', (e) => console.log(`world lost and re-created at tick ${e.latestTick}`));
  console.log(`world ${world.id}: ${world.created.triangles} triangles from ${args.map}`);

  const players = SPAWNS.map((p, i) => ({id: i + 1, position: p, heading: rand() * 2 * Math.PI, past: []}));
  const shotCounts = new Map();
  const moveCounts = new Map();
  const ticks = Math.max(1, Math.round(args.seconds * TICK_RATE));
  const started = Date.now();
  // The tick loop on the world's stream: per tick one message with the
  // frame and the shooters' line-of-sight rays, then one with the shots and
  // the moves (a batch sent after a frame sees it).
  const stream = world.tick();
  for (let tick = 1; tick <= ticks; ++tick) {
    // This tick's poses: the positions the last move verdicts allowed.
    const bodies = players.map((p) => ({
      id: p.id,
      pose: {position: p.position, rotation: [Math.cos(p.heading / 2), 0, 0, Math.sin(p.heading / 2)]},
      ...(tick === 1 && {parts: HITBOXES, movement_shape: shapes.capsule([0, 0, -6], [0, 0, 14], 14)}),
    }));
    for (const p of players) p.past.unshift(p.position.slice());

    // Two shooters fire from where they are now at someone as their client
    // showed them LAG_TICKS ago: a player in sight if there is one (a ray to
    // each other player's chest), claiming the head a third of the time,
    // with a little aim spread.
    const seen = Math.max(1, tick - LAG_TICKS);
    const back = tick - seen;
    const chest = (p) => [p.past[back][0], p.past[back][1], p.past[back][2] + 5];
    const shooters = [0, 1].map(() => players[Math.floor(rand() * players.length)]);
    const sights = shooters.map((shooter) => {
      const eye = [shooter.past[0][0], shooter.past[0][1], shooter.past[0][2] + EYE];  // the present eye
      return {shooter, eye, others: players.filter((p) => p !== shooter)};
    });
    const rayCasts = sights.flatMap(({shooter, eye, others}) => others.map((p) => ({
      ray: shapes.ray(eye, chest(p).map((c, k) => c - eye[k])),
      filter: {at: {tick: seen}, ignore_bodies: [shooter.id]},
    })));
    const {query} = await stream.send({frame: {tick, bodies}, query: {ray_casts: rayCasts}});
    let ray = 0;
    const shots = sights.map(({shooter, eye, others}) => {
      const visible = others.filter((p) => {
        const hit = query.rayCasts[ray++].hits[0];
        return hit && hit.target.kind === 'body' && hit.target.bodyId === p.id;
      });
      const pool = visible.length ? visible : others;
      const target = pool[Math.floor(rand() * pool.length)];
      const head = rand() < 1 / 3;
      const aim = chest(target).map((c, k) => c + (k === 2 && head ? 17 : 0) - eye[k] + (rand() - 0.5) * 8);
      return {shooter_id: shooter.id, origin: eye, direction: aim, at: {tick: seen},
        claimed: {body_id: target.id, part_id: head ? 0 : 1}, tolerance: 1};
    });

    // Every player asks to run on; one in 50 with a speed hack. A blocked
    // player slides along the wall and turns.
    const moves = players.map((p) => {
      if (rand() < 0.05) p.heading += (rand() - 0.5) * 2;
      const step = (RUN_SPEED / TICK_RATE) * (rand() < 0.02 ? 3 : 1);
      const to = [p.position[0] + step * Math.cos(p.heading), p.position[1] + step * Math.sin(p.heading), p.position[2]];
      return {body_id: p.id, from: p.position, to, elapsed: 1 / TICK_RATE, slide: true};
    });
    const verdicts = await stream.send({shots, moves});
    for (const v of verdicts.shots) count(shotCounts, v.code.replace('SHOT_CODE_', ''));
    verdicts.moves.forEach((v, i) => {
      const p = players[i];
      count(moveCounts, v.code.replace('MOVE_CODE_', ''));
      if (v.code === 'MOVE_CODE_OK') p.position = moves[i].to;
      else if (v.code === 'MOVE_CODE_BLOCKED') {
        p.position = v.slidPosition;
        p.heading += Math.PI / 2 + rand() * Math.PI;
      }
    });
  }
  await stream.end();
  const seconds = (Date.now() - started) / 1000;
  const info = await world.info();
  console.log(`${ticks} ticks (${ticks / TICK_RATE} s of play) in ${seconds.toFixed(2)} s; ` +
      `history ticks ${info.oldestTick}..${info.latestTick}, ${info.bodies} players`);
  console.log('shots:', Object.fromEntries([...shotCounts].sort()));
  console.log('moves:', Object.fromEntries([...moveCounts].sort()));
  await world.delete();
  client.close();
}

main().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
