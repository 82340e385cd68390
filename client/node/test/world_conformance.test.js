'use strict';
// Runs every world script of tests/conformance/world_golden.json
// ($COLLIDE_WORLD_GOLDEN; format in tests/conformance/world_cases.h) through
// the Node client's world API against a live collide-server
// ($COLLIDE_SERVER), restarting the server where a script says so.
const {test, before, after} = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const protobuf = require('protobufjs');
const {Client, CollideError} = require('..');
const {startServer} = require('./live_server');
const {mismatch, num} = require('./golden_compare');

const skip = !(process.env.COLLIDE_SERVER && process.env.COLLIDE_WORLD_GOLDEN) && 'needs COLLIDE_SERVER and COLLIDE_WORLD_GOLDEN';
const golden = skip ? {cases: []} : JSON.parse(fs.readFileSync(process.env.COLLIDE_WORLD_GOLDEN, 'utf8'));
let server;
let client;

before(async () => {
  if (skip) return;
  server = await startServer(golden.server_args);
  client = new Client(server.target, {deadlineMs: 30000});
});
after(async () => {
  if (client) client.close();
  if (server) await server.stop();
});

// A result of the client (world.js, proto_view.js) back in golden JSON:
// proto field names, {x, y, z} vectors, the Target oneof, plain arrays.
function golden_(value, type) {
  if (value === null || value === undefined) return null;
  if (type.fullName === '.collide.v1.Vec3') return {x: value[0], y: value[1], z: value[2]};
  if (type.fullName === '.collide.v1.Target') {
    return value.kind === 'static' ?
      {static_element: {element_id: value.elementId, triangle: value.triangle}} :
      {body: {body_id: value.bodyId, part_id: value.partId}};
  }
  const out = {};
  for (const field of type.fieldsArray) {
    const v = value[field.name.replace(/_([a-z0-9])/g, (m, c) => c.toUpperCase())];
    const sub = field.resolve().resolvedType;
    if (!(sub instanceof protobuf.Type)) out[field.name] = ArrayBuffer.isView(v) ? Array.from(v) : v;
    else if (field.repeated) out[field.name] = (v || []).map((item) => golden_(item, sub));
    else out[field.name] = golden_(v, sub);
  }
  return out;
}

const nums = (values) => (values || []).map(num);

// One client and its world handles across a script; counts re-creations.
class Runner {
  constructor() {
    this.worlds = new Map();
    this.recreations = 0;
  }

  world(id) {
    return this.worlds.get(id) || client.world(id);
  }

  async run(rpc, req) {
    const as = (typeName, value) => golden_(value, client._root.lookupType(`collide.v1.${typeName}`));
    const w = this.world(req.world_id || '');
    switch (rpc) {
      case 'CreateWorld': {
        const created = await client.createWorld(req);
        created.on('recreated', () => (this.recreations += 1));
        this.worlds.set(req.world_id, created);
        return as('WorldInfo', created.created);
      }
      case 'GetWorld':
        return as('WorldInfo', await w.info());
      case 'DeleteWorld':
        await w.delete();
        return {};
      case 'ListWorlds': {
        const worlds = (await client.listWorlds()).sort((a, b) => (a.worldId < b.worldId ? -1 : a.worldId > b.worldId));
        return {worlds: worlds.map((i) => as('WorldInfo', i))};
      }
      case 'PushFrame':
        return as('PushFrameResponse', await w.pushFrame(req.frame || {}));
      case 'QueryWorld':
        return as('QueryWorldResponse', await w.query(req));
      case 'CastWorldRaysPacked':
        return as('CastWorldRaysPackedResponse', await w.castRaysPacked(nums(req.rays), req.filter || {}));
      case 'ValidateShots':
        return {verdicts: (await w.validateShots(req.shots || [])).map((v) => as('ShotVerdict', v))};
      case 'ValidateShotsPacked':
        return {
          verdicts: (await w.validateShotsPacked({
            doubles: nums(req.doubles), shooterIds: req.shooter_ids || [], ticks: req.ticks || [],
            claimedBodyIds: req.claimed_body_ids || [], claimedPartIds: req.claimed_part_ids || [],
          })).map((v) => as('ShotVerdict', v)),
        };
      case 'ValidateMoves':
        return {verdicts: (await w.validateMoves(req.moves || [])).map((v) => as('MoveVerdict', v))};
      default:
        throw new Error(`unknown rpc ${rpc}`);
    }
  }
}

test('world scripts', {skip}, async (t) => {
  assert.ok(golden.cases.length > 0);
  let restarts = 0;
  let lost = 0;
  for (const c of golden.cases) {
    await t.test(c.name, async () => {
      const runner = new Runner();
      for (const [i, step] of c.steps.entries()) {
        const where = `step ${i} ${step.rpc || 'restart'}`;
        if (step.restart_server) {
          await server.restart();
          for (let tries = 0; (await client.health().catch(() => '')) !== 'SERVING'; ++tries) {
            assert.ok(tries < 600, 'the restarted server never answered');
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          restarts += 1;
          continue;
        }
        const before = runner.recreations;
        let got;
        let error = null;
        try {
          got = await runner.run(step.rpc, step.request);
        } catch (e) {
          if (!(e instanceof CollideError)) throw e;
          error = e;
        }
        assert.equal(runner.recreations - before, step.history_lost ? 1 : 0, `${where}: re-creations`);
        lost += runner.recreations - before;
        if (error) {
          assert.ok(step.error, `${where}: unexpected ${error.message}`);
          assert.equal(error.codeName, step.error.code, `${where}: ${error.message}`);
          if (step.error.field_violations) {
            assert.deepEqual([...error.fields].sort(), [...step.error.field_violations].sort(), `${where}: ${error.message}`);
          }
          if (step.error.reason) assert.equal(error.reason, step.error.reason, `${where}: ${error.message}`);
          continue;
        }
        assert.ok(!step.error, `${where}: expected ${JSON.stringify(step.error)}, got ${JSON.stringify(got)}`);
        const d = mismatch(got, step.response, golden.tolerance, where);
        assert.equal(d, null, d);
      }
    });
  }
  // The suite holds a restart, and the client re-created a world after it.
  assert.ok(restarts > 0);
  assert.equal(lost, restarts);
});
