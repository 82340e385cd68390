'use strict';
// What both entry points run: camelCase requests, ids as a Number, a
// decimal string and a bigint.
async function play({Client, shapes, version}, target, entry) {
  const client = new Client(target, {deadlineMs: 10000});
  try {
    const info = await client.serverInfo();
    const world = await client.createWorld({
      worldId: `node-consumer-${entry}`,
      historyTicks: 8,
      statics: [{id: 1, shape: shapes.aabb([-2, 4, -2], [2, 5, 2])}],  // a wall between body 1 and body 3
    });
    const body = (id, position, radius) => ({id, pose: {position}, parts: [{id: 0, shape: shapes.sphere([0, 0, 0], radius)}]});
    await world.pushFrame({tick: 1, bodies: [body(1, [0, 0, 0], 0.5), body('2', [10, 0, 0], 1), body(3n, [0, 10, 0], 1)]});
    const shot = (direction, claimed) => ({shooterId: 1n, origin: [0, 0, 0], direction, at: {tick: 1},
      claimed: {bodyId: claimed, partId: 0}});
    const verdicts = await world.validateShots([shot([1, 0, 0], '2'), shot([0, 1, 0], 3)]);
    await world.delete();
    const codes = verdicts.map((v) => v.code);
    const hit = verdicts[0].firstHit && verdicts[0].firstHit.target;
    console.log(`${entry}: collide-client ${version}, server ${info.version}: ${codes.join(' ')}`,
        hit && `first hit body ${hit.bodyId}`);
    return version === info.version && codes[0] === 'SHOT_CODE_CONFIRMED' && codes[1] === 'SHOT_CODE_BLOCKED' &&
        hit !== null && hit.kind === 'body' && hit.bodyId === 2;
  } finally {
    client.close();
  }
}

module.exports = {play};
