'use strict';
// npm's prepack step: copies every .proto file of the repository's proto/
// (collide.v1, google.rpc, grpc.health.v1) into this package's proto/, so
// that the packed package carries them (proto_files.js prefers that copy),
// and the repository's LICENSE and NOTICE beside package.json. postpack
// (`node pack_files.js --remove`) deletes the copies again, so that a
// checkout loads the repository's files.
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..', '..');
const source = path.join(root, 'proto');
const bundled = path.join(__dirname, 'proto');
const LEGAL = ['LICENSE', 'NOTICE'];

function copyProtos(from, to) {
  for (const entry of fs.readdirSync(from, {withFileTypes: true})) {
    if (entry.isDirectory()) copyProtos(path.join(from, entry.name), path.join(to, entry.name));
    else if (entry.name.endsWith('.proto')) {
      fs.mkdirSync(to, {recursive: true});
      fs.copyFileSync(path.join(from, entry.name), path.join(to, entry.name));
    }
  }
}

fs.rmSync(bundled, {recursive: true, force: true});
for (const file of LEGAL) fs.rmSync(path.join(__dirname, file), {force: true});
if (process.argv[2] !== '--remove') {
  if (!fs.existsSync(path.join(source, 'collide', 'v1', 'collide.proto'))) {
    console.error(`bundle_protos: no collide/v1/collide.proto under ${source}`);
    process.exit(1);
  }
  copyProtos(source, bundled);
  for (const file of LEGAL) fs.copyFileSync(path.join(root, file), path.join(__dirname, file));
}
