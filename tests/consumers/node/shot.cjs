'use strict';
// A consumer of the packed collide-client, through its CommonJS entry point:
// node shot.cjs HOST:PORT. Creates a world with a wall, pushes a frame and
// validates two shots (one in the open, one through the wall); exits 0 only
// when the verdicts and the server's version are the expected ones.
const {Client, shapes, version} = require('collide-client');
const {play} = require('./play.cjs');

play({Client, shapes, version}, process.argv[2], 'cjs').then(
    (ok) => process.exit(ok ? 0 : 1),
    (e) => {
      console.error(e);
      process.exit(1);
    });
