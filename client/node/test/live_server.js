'use strict';
// Starts a collide-server ($COLLIDE_SERVER) on a free loopback port for a
// test, and stops it (SIGTERM, then SIGKILL after 10 s) or restarts it.
const {spawn} = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const {before, after} = require('node:test');

const LISTENING = /listening on 127\.0\.0\.1:(\d+)/;

async function startServer(extraArgs = [], timeoutMs = 30000) {
  const binary = process.env.COLLIDE_SERVER;
  if (!binary) throw new Error('set COLLIDE_SERVER to the collide-server binary (ctest does)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'collide-node-'));
  const logPath = path.join(dir, 'server.log');
  const log = fs.openSync(logPath, 'w');
  const child = spawn(binary, ['--host=127.0.0.1', '--port=0', ...extraArgs], {stdio: ['ignore', log, log]});
  fs.closeSync(log);
  let exited = false;
  child.on('exit', () => (exited = true));
  const stop = async () => {
    if (!exited) {
      const done = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10000);
      await done;
      clearTimeout(timer);
    }
    fs.rmSync(dir, {recursive: true, force: true});
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = LISTENING.exec(fs.readFileSync(logPath, 'utf8'));
    if (match) {
      const server = {target: `127.0.0.1:${match[1]}`, stop};
      // A replica restart: stops this server and starts another with the same
      // arguments on the same port (every world is lost).
      server.restart = async () => {
        await server.stop();
        const next = await startServer([...extraArgs, `--port=${match[1]}`], timeoutMs);
        server.stop = next.stop;  // restart stays this one, which stops the current server
      };
      return server;
    }
    if (exited || Date.now() > deadline) {
      const text = fs.readFileSync(logPath, 'utf8');
      await stop();
      throw new Error(`collide-server did not start:\n${text}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// Hooks of the enclosing suite (or file) that start a server (serverArgs)
// and a Client on it before its tests, and stop both after them: use
// `live.server` and `live.client` in the tests. Nothing starts when skip.
function liveClient(serverArgs = [], skip = false) {
  const {Client} = require('..');
  const live = {server: null, client: null};
  before(async () => {
    if (skip) return;
    live.server = await startServer(serverArgs);
    live.client = new Client(live.server.target, {deadlineMs: 30000});
  });
  after(async () => {
    if (live.client) live.client.close();
    if (live.server) await live.server.stop();
  });
  return live;
}

module.exports = {startServer, liveClient};
