'use strict';
// index.d.ts and world.d.ts kept true: test/typings/usage.ts (every call the
// docs/clients.md and the examples make, and misuses marked @ts-expect-error) must
// compile under the strict TypeScript compiler from the lockfile.
const {test} = require('node:test');
const assert = require('node:assert/strict');
const {spawnSync} = require('child_process');
const path = require('path');

test('typings compile under tsc --strict', () => {
  const tsc = require.resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', path.join(__dirname, 'typings', 'tsconfig.json')], {encoding: 'utf8'});
  assert.equal(r.status, 0, `tsc failed:\n${r.stdout}${r.stderr}`);
});
