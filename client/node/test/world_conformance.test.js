'use strict';
// Runs every world script of tests/conformance/world_golden.json
// ($COLLIDE_WORLD_GOLDEN; format in tests/conformance/world_cases.h), unary
// and stream, through the Node client's world API against a live
// collide-server ($COLLIDE_SERVER), restarting the server where a script
// says so.
const {test} = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const protobuf = require('protobufjs');
const {CollideError} = require('..');
const {liveClient} = require('./live_server');
const {mismatch, num} = require('./golden_compare');

const skip = !(process.env.COLLIDE_SERVER && process.env.COLLIDE_WORLD_GOLDEN) && 'needs COLLIDE_SERVER and COLLIDE_WORLD_GOLDEN';
const golden = skip ? {cases: [], stream_cases: []} : JSON.parse(fs.readFileSync(process.env.COLLIDE_WORLD_GOLDEN, 'utf8'));
const live = liveClient(golden.server_args, Boolean(skip));

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

// A GetVisibilityRequest's JSON as World.getVisibility's options.
const visibilityOptions = (req) => ({
  at: req.at, observers: req.observers || [], tickSeconds: req.tick_seconds || 0, latency: req.latency || 0,
  margin: req.margin || 0, targetCategoryMask: req.target_category_mask || 0,
});

// One client and its world handles across a script; counts re-creations.
class Runner {
  constructor() {
    this.worlds = new Map();
    this.recreations = 0;
  }

  world(id) {
    return this.worlds.get(id) || live.client.world(id);
  }

  async run(rpc, req) {
    const as = (typeName, value) => golden_(value, live.client._root.lookupType(`collide.v1.${typeName}`));
    const w = this.world(req.world_id || '');
    switch (rpc) {
      case 'CreateWorld': {
        const created = await live.client.createWorld(req);
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
        const worlds = (await live.client.listWorlds()).sort((a, b) => (a.worldId < b.worldId ? -1 : a.worldId > b.worldId));
        return {worlds: worlds.map((i) => as('WorldInfo', i))};
      }
      case 'PushFrame':
        return as('PushFrameResponse', await w.pushFrame(req.frame || {}));
      case 'QueryWorld':
        return as('QueryWorldResponse', await w.query(req));
      case 'CastWorldRaysPacked':
        return as('CastWorldRaysPackedResponse', await w.castRaysPacked(nums(req.rays), req.filter || {}));
      case 'ValidateShots':
        return {verdicts: (await w.validateShots(req.shots || [], {allOrNothing: Boolean(req.all_or_nothing), explain: Boolean(req.explain)})).map((v) => as('ShotVerdict', v))};
      case 'ValidateShotsPacked':
        return {
          verdicts: (await w.validateShotsPacked({
            doubles: nums(req.doubles), shooterIds: req.shooter_ids || [], ticks: req.ticks || [],
            claimedBodyIds: req.claimed_body_ids || [], claimedPartIds: req.claimed_part_ids || [],
            allOrNothing: Boolean(req.all_or_nothing), explain: Boolean(req.explain),
            commandTicks: req.command_ticks || [], expectedTicks: req.expected_ticks || [],
            categoryMasks: req.category_masks || [], ignoreCounts: req.ignore_counts || [],
            ignoreBodyIds: req.ignore_body_ids || [],
          })).map((v) => as('ShotVerdict', v)),
        };
      case 'ValidateMoves':
        return {verdicts: (await w.validateMoves(req.moves || [], {allOrNothing: Boolean(req.all_or_nothing), explain: Boolean(req.explain)})).map((v) => as('MoveVerdict', v))};
      case 'GetBodies':
        return as('GetBodiesResponse', await w.getBodies({at: req.at, bodyIds: req.body_ids || []}));
      case 'ValidateProjectiles':
        return {verdicts: (await w.validateProjectiles(req.projectiles || [], {allOrNothing: Boolean(req.all_or_nothing)})).map((v) => as('ProjectileVerdict', v))};
      case 'ValidateMelee':
        return {verdicts: (await w.validateMelee(req.melee || [], {allOrNothing: Boolean(req.all_or_nothing)})).map((v) => as('MeleeVerdict', v))};
      case 'GetVisibility':
        return as('GetVisibilityResponse', await w.getVisibility(visibilityOptions(req)));
      default:
        throw new Error(`unknown rpc ${rpc}`);
    }
  }

  // A Tick message's parts (each in its unary request's form) as
  // TickStream.send takes them.
  static tickParts(message) {
    const parts = {};
    for (const [part, req] of Object.entries(message)) {
      if (part === 'frame' || part === 'query') parts[part] = req;
      else if (['shots', 'moves', 'projectiles', 'melee'].includes(part)) parts[part] = req[part] || [];
      else if (part === 'rays_packed') parts.rays_packed = {rays: nums(req.rays), filter: req.filter || {}};
      else if (part === 'shots_packed') {
        parts.shots_packed = {
          doubles: nums(req.doubles), shooterIds: req.shooter_ids || [], ticks: req.ticks || [],
          claimedBodyIds: req.claimed_body_ids || [], claimedPartIds: req.claimed_part_ids || [],
        };
      } else if (part === 'bodies') {
        parts.bodies = {at: req.at, bodyIds: req.body_ids || []};
      } else if (part === 'visibility') {
        parts.visibility = visibilityOptions(req);
      } else {
        throw new Error(`unknown Tick part ${part}`);
      }
    }
    return parts;
  }

  // A TickAnswer as golden JSON (a part that did not run: null).
  static tickAnswer(a) {
    const as = (typeName, value) => (value ? golden_(value, live.client._root.lookupType(`collide.v1.${typeName}`)) : null);
    const verdicts = (list, typeName) => (list ? {verdicts: list.map((v) => as(typeName, v))} : null);
    return {
      frame: as('PushFrameResponse', a.frame), query: as('QueryWorldResponse', a.query),
      rays_packed: as('CastWorldRaysPackedResponse', a.raysPacked), shots: verdicts(a.shots, 'ShotVerdict'),
      shots_packed: verdicts(a.shotsPacked, 'ShotVerdict'), moves: verdicts(a.moves, 'MoveVerdict'),
      bodies: as('GetBodiesResponse', a.bodies),
      projectiles: verdicts(a.projectiles, 'ProjectileVerdict'), melee: verdicts(a.melee, 'MeleeVerdict'),
      visibility: as('GetVisibilityResponse', a.visibility),
    };
  }
}

// Compares one outcome (a step's or a Tick message's) with the golden
// `step` (its "error", or `response`'s, and "history_lost").
function check(where, step, recreations, error, got, response) {
  assert.equal(recreations, step.history_lost ? 1 : 0, `${where}: re-creations`);
  const want = step.error || (response && response.error);
  if (error) {
    assert.ok(want, `${where}: unexpected ${error.message}`);
    assert.equal(error.codeName, want.code, `${where}: ${error.message}`);
    if (want.field_violations) {
      assert.deepEqual([...error.fields].sort(), [...want.field_violations].sort(), `${where}: ${error.message}`);
    }
    if (want.reason) assert.equal(error.reason, want.reason, `${where}: ${error.message}`);
  } else {
    assert.ok(!want, `${where}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
  }
  if (response) {
    const {error: _, ...expected} = response;
    const d = mismatch(got, expected, golden.tolerance, where);
    assert.equal(d, null, d);
  }
}

async function runScripts(t, key) {
  assert.ok(golden[key].length > 0);
  let restarts = 0;
  let lost = 0;
  for (const c of golden[key]) {
    await t.test(c.name, async () => {
      const runner = new Runner();
      for (const [i, step] of c.steps.entries()) {
        const where = `step ${i} ${step.rpc || (step.tick ? 'tick' : 'restart')}`;
        if (step.restart_server) {
          await live.server.restart();
          // Until it answers; the cap is a time (a count of tries would last
          // as long as the machine's speed makes it), a safety net only.
          const deadline = Date.now() + 60000;
          while ((await live.client.health().catch(() => '')) !== 'SERVING') {
            assert.ok(Date.now() < deadline, 'the restarted server never answered');
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          restarts += 1;
        } else if (step.tick) {
          const stream = runner.world(c.steps[0].request.world_id).tick();
          for (const [j, exchange] of step.tick.entries()) {
            const before = runner.recreations;
            let answer;
            let error = null;
            try {
              answer = await stream.send(Runner.tickParts(exchange.message));
            } catch (e) {
              if (!(e instanceof CollideError) || !e.answer) throw e;
              [answer, error] = [e.answer, e];
            }
            lost += runner.recreations - before;
            check(`${where} message ${j}`, exchange, runner.recreations - before, error, Runner.tickAnswer(answer),
                exchange.answer);
          }
          await stream.end();
        } else {
          const before = runner.recreations;
          let got;
          let error = null;
          try {
            got = await runner.run(step.rpc, step.request);
          } catch (e) {
            if (!(e instanceof CollideError)) throw e;
            error = e;
          }
          lost += runner.recreations - before;
          check(where, step, runner.recreations - before, error, got, step.response);
        }
      }
    });
  }
  // The scripts hold a restart, and the client re-created a world after each.
  assert.ok(restarts > 0);
  assert.equal(lost, restarts);
}

test('world scripts', {skip}, (t) => runScripts(t, 'cases'));
test('world stream scripts', {skip}, (t) => runScripts(t, 'stream_cases'));
