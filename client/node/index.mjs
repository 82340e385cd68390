// The ES module entry point ("exports" -> "import"): the CommonJS client
// (index.js) under named exports, and as the default export.
import collide from './index.js';

export const {Client, World, CollideError, shapes, PACKED_STRIDES, WORLD_HEADER, status, version} = collide;
export default collide;
