'use strict';
// Runs every case of tests/conformance/golden.json through the Node client
// against a live collide-server ($COLLIDE_GOLDEN, $COLLIDE_SERVER).
const {test} = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const {CollideError} = require('..');
const {liveClient} = require('./live_server');
const {mismatch, num} = require('./golden_compare');

const skip = !(process.env.COLLIDE_SERVER && process.env.COLLIDE_GOLDEN) && 'needs COLLIDE_SERVER and COLLIDE_GOLDEN';
const golden = skip ? {cases: []} : JSON.parse(fs.readFileSync(process.env.COLLIDE_GOLDEN, 'utf8'));
const live = liveClient(golden.server_args, Boolean(skip));

const nums = (values) => (values || []).map(num);
const vec = (t) => ({x: t[0], y: t[1], z: t[2]});
const pair = (r) => ({
  hit: r.hit, distance: r.distance, point_a: vec(r.pointA), point_b: vec(r.pointB), normal: vec(r.normal),
  status: r.status,
});
const hit = (h) => ({hit: h.hit, distance: h.distance, point: vec(h.point), normal: vec(h.normal), status: h.status});

// Sends the case's request through the wrapper; the answer as golden JSON.
async function run(rpc, req) {
  switch (rpc) {
    case 'QueryPairs': {
      const pairs = (req.pairs || []).map((p) => [p.a || {}, p.b || {}]);
      return {results: (await live.client.queryPairs(req.level || 0, pairs)).map(pair)};
    }
    case 'QueryPairsPacked': {
      const r = await live.client.queryPairsPacked(
          req.level || 0, req.a.kind || 0, nums(req.a.data), nums(req.b.data), req.b.kind || 0);
      return {
        hit: r.hit, distance: r.distance, point_a: r.pointA, point_b: r.pointB, normal: r.normal,
        not_converged: r.notConverged,
      };
    }
    case 'CastRays': {
      const casts = (req.casts || []).map((c) => [c.ray || {}, c.shape || {}]);
      return {hits: (await live.client.castRays(casts)).map(hit)};
    }
    case 'CastRaysPacked': {
      const shapes = req.shapes || {};
      const r = await live.client.castRaysPacked(shapes.kind || 0, nums(req.rays), nums(shapes.data));
      return {hit: r.hit, distance: r.distance, point: r.point, normal: r.normal, not_converged: r.notConverged};
    }
    case 'GetServerInfo': {
      const info = await live.client.serverInfo();
      assert.ok(info.version && info.replica, JSON.stringify(info));
      return {max_items_per_request: info.maxItemsPerRequest};
    }
    case 'Health':
      return {status: await live.client.health(req.service || '')};
    default:
      throw new Error(`unknown rpc ${rpc}`);
  }
}

test('golden cases', {skip}, async (t) => {
  assert.ok(golden.cases.length > 0);
  for (const c of golden.cases) {
    await t.test(c.name, async () => {
      let got;
      try {
        got = await run(c.rpc, c.request);
      } catch (e) {
        if (!(e instanceof CollideError)) throw e;
        assert.ok(c.error, `unexpected ${e.message}`);
        assert.equal(e.codeName, c.error.code, e.message);
        if (c.error.field_violations) {
          assert.deepEqual([...e.fields].sort(), [...c.error.field_violations].sort(), e.message);
        }
        return;
      }
      assert.ok(!c.error, `expected ${JSON.stringify(c.error)}, got ${JSON.stringify(got)}`);
      const d = mismatch(got, c.response, golden.tolerance);
      assert.equal(d, null, d);
    });
  }
});
