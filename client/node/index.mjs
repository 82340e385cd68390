// The ES module entry point ("exports" -> "import"): the CommonJS client
// (index.js) under named exports, and as the default export.
import collide from './index.js';

// Every name of index.js's module.exports (the node_package test checks).
export const {
  Client, World, CollideError, shapes, PACKED_STRIDES, WORLD_HEADER, LATEST_TICK, status, version,
} = collide;
export default collide;
