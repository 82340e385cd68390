'use strict';
// The client's TLS and token options against a collide-server started with
// mutual TLS and a bearer token (--tls_cert_file, --tls_key_file,
// --tls_client_ca_file, --auth_token_file) on 127.0.0.1, with certificates
// made by tests/support/test_pki.sh at test time: unary calls and the Tick
// stream judge shots with the right CA, client certificate and token;
// without the token (or with another) a call is UNAUTHENTICATED; with
// another CA, without a client certificate or over plaintext it never
// reaches the server (UNAVAILABLE).
const {test, describe, before, after} = require('node:test');
const assert = require('node:assert/strict');
const {execFileSync} = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const {Client, shapes, version} = require('..');
const {startServer} = require('./live_server');

const PKI_SCRIPT = path.join(__dirname, '..', '..', '..', 'tests', 'support', 'test_pki.sh');
const TOKEN = 's3cret-token-for-tests';
const head = [{id: 0, shape: shapes.sphere([0, 0, 0], 0.2), local: {position: [0, 0, 1.7]}}];
const frame = {tick: 1, bodies: [[0, 0], [2, 0], [6, 2]].map(([x, y], i) => ({id: i + 1, pose: {position: [x, y, 0]}, parts: head}))};
const shots = [
  {shooter_id: 1, origin: [0, 0, 1.7], direction: [1, 0, 0], at: {tick: 1}, claimed: {body_id: 2, part_id: 0}},  // in the open
  {shooter_id: 1, origin: [0, 0, 1.7], direction: [6, 2, 0], at: {tick: 1}, claimed: {body_id: 3, part_id: 0}},  // through the wall
];
const wall = {id: 2, shape: shapes.aabb([4, -3, 0], [4.5, 3, 3])};

function hasOpenssl() {
  try {
    execFileSync('openssl', ['version'], {stdio: 'ignore'});
    return true;
  } catch {
    return false;
  }
}

describe('TLS and tokens against a live server',
    {skip: (!process.env.COLLIDE_SERVER || !hasOpenssl()) && 'needs COLLIDE_SERVER and openssl'}, () => {
      let pki;
      let server;
      const file = (name) => path.join(pki, name);
      const client = (overrides = {}) => new Client(server.target, {
        tlsCaFile: file('ca.pem'), tlsCertFile: file('client.pem'), tlsKeyFile: file('client.key'), token: TOKEN,
        deadlineMs: 10000, ...overrides});

      before(async () => {
        pki = fs.mkdtempSync(path.join(os.tmpdir(), 'collide-pki-'));
        execFileSync('bash', [PKI_SCRIPT, pki]);
        fs.writeFileSync(file('tokens'), `# test token\n${TOKEN}\n`);
        server = await startServer([`--tls_cert_file=${file('server.pem')}`, `--tls_key_file=${file('server.key')}`,
          `--tls_client_ca_file=${file('ca.pem')}`, `--auth_token_file=${file('tokens')}`]);
      });
      after(async () => {
        if (server) await server.stop();
        fs.rmSync(pki, {recursive: true, force: true});
      });

      test('shots over mutual TLS with the token, unary and on the Tick stream', async () => {
        const c = client();
        try {
          assert.equal((await c.serverInfo()).version, version);
          const world = await c.createWorld({world_id: 'tls-node', statics: [wall]});
          await world.pushFrame(frame);
          const verdicts = await world.validateShots(shots);
          assert.deepEqual(verdicts.map((v) => v.code), ['SHOT_CODE_CONFIRMED', 'SHOT_CODE_BLOCKED']);
          const stream = world.tick();
          const answer = await stream.send({shots});
          assert.deepEqual(answer.shots.map((v) => v.code), ['SHOT_CODE_CONFIRMED', 'SHOT_CODE_BLOCKED']);
          await stream.end();
          await world.delete();
        } finally {
          c.close();
        }
      });

      test('the server name override', async () => {
        const named = client({tlsServerName: 'localhost'});  // in the certificate
        const wrong = client({tlsServerName: 'not-in-the-certificate'});
        try {
          assert.equal(await named.health(), 'SERVING');
          await assert.rejects(wrong.serverInfo(), (e) => e.codeName === 'UNAVAILABLE');
        } finally {
          named.close();
          wrong.close();
        }
      });

      test('without the token or with another: UNAUTHENTICATED', async () => {
        for (const token of [undefined, 'wrong-token']) {
          const c = client({token});
          try {
            await assert.rejects(c.createWorld({world_id: 'tls-no-token', statics: [wall]}),
                (e) => e.codeName === 'UNAUTHENTICATED');
          } finally {
            c.close();
          }
        }
      });

      test('another CA, no client certificate or plaintext never reach the server', async () => {
        const cases = {
          'another CA': {tlsCaFile: file('other_ca.pem')},
          'no client certificate': {tlsCertFile: undefined, tlsKeyFile: undefined},
          'plaintext': {tlsCaFile: undefined, tlsCertFile: undefined, tlsKeyFile: undefined},
        };
        for (const [name, overrides] of Object.entries(cases)) {
          const c = client(overrides);
          try {
            await assert.rejects(c.serverInfo(), (e) => e.codeName === 'UNAVAILABLE', name);
          } finally {
            c.close();
          }
        }
        assert.throws(() => new Client(server.target, {tlsCertFile: file('client.pem')}), /go together/);
      });
    });
