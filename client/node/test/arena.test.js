'use strict';
// examples/arena.js for one second (20 ticks) against a server holding
// Debian's OpenArena maps: every shot and move gets one verdict, and some
// shots are confirmed (the example aims at players in sight).
const {test} = require('node:test');
const assert = require('node:assert/strict');
const {execFile} = require('child_process');
const path = require('path');
const {promisify} = require('util');
const {startServer} = require('./live_server');

test('the arena example plays and counts its verdicts', {skip: !process.env.COLLIDE_SERVER && 'needs COLLIDE_SERVER'}, async () => {
  const server = await startServer(['--maps_dir=/usr/share/games/openarena/baseoa']);
  try {
    const example = path.join(__dirname, '..', 'examples', 'arena.js');
    const {stdout} = await promisify(execFile)(process.execPath, [example, server.target, '--seconds=1'], {timeout: 120000});
    const counts = (name) => {
      const line = new RegExp(`^${name}: (.*)$`, 'm').exec(stdout);
      assert.ok(line, `no ${name} line in\n${stdout}`);
      const entries = [...line[1].matchAll(/([A-Z_]+): (\d+)/g)].map((m) => [m[1], Number(m[2])]);
      return {...Object.fromEntries(entries), total: entries.reduce((n, [, c]) => n + c, 0)};
    };
    const shots = counts('shots');
    assert.equal(shots.total, 2 * 20, stdout);
    assert.ok(shots.CONFIRMED > 0, stdout);
    const moves = counts('moves');
    assert.equal(moves.total, 8 * 20, stdout);
    assert.ok(moves.OK > 0, stdout);
  } finally {
    await server.stop();
  }
});
