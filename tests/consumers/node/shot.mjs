// The same consumer through the package's ES module entry point.
import {Client, shapes, version} from 'collide-client';
import {createRequire} from 'node:module';

const {play} = createRequire(import.meta.url)('./play.cjs');
try {
  process.exit((await play({Client, shapes, version}, process.argv[2], 'esm')) ? 0 : 1);
} catch (e) {
  console.error(e);
  process.exit(1);
}
