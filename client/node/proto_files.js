'use strict';
// Where the .proto files are: the package's own proto/ (bundled by
// bundle_protos.js when the package is packed), else the repository's
// proto/ two levels up (a checkout).
const fs = require('fs');
const path = require('path');

function defaultProtoDir() {
  const bundled = path.join(__dirname, 'proto');
  if (fs.existsSync(path.join(bundled, 'collide', 'v1', 'collide.proto'))) return bundled;
  return path.resolve(__dirname, '..', '..', 'proto');
}

module.exports = {defaultProtoDir};
