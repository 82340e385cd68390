// The same consumer through the package's ES module entry point, which must
// export every name the CommonJS one does.
import * as esm from 'collide-client';
import {Client, shapes, version} from 'collide-client';
import {createRequire} from 'node:module';

const require = createRequire(import.meta.url);
const missing = Object.keys(require('collide-client')).filter((name) => !(name in esm));
if (missing.length) {
  console.error(`index.mjs does not export ${missing.join(', ')}`);
  process.exit(1);
}
const {play} = require('./play.cjs');
try {
  process.exit((await play({Client, shapes, version}, process.argv[2], 'esm')) ? 0 : 1);
} catch (e) {
  console.error(e);
  process.exit(1);
}
