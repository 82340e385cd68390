'use strict';
// Usage: node example.js [host:port]   (a collide-server must be running)
const {Client, shapes} = require('.');

async function main() {
  const client = new Client(process.argv[2] || '127.0.0.1:50051', {deadlineMs: 5000});
  try {
    const [r] = await client.queryPairs('contact', [[shapes.sphere([0, 0, 0], 1), shapes.capsule([1.5, -1, 0], [1.5, 1, 0], 0.25)]]);
    console.log(`hit=${r.hit} distance=${r.distance} normal=${r.normal}`);
    const packed = await client.queryPairsPacked('intersect', 'sphere', [0, 0, 0, 1, 5, 0, 0, 1], [0.5, 0, 0, 0.1, 9, 0, 0, 0.1]);
    console.log('packed hits:', packed.hit);
    const [h] = await client.castRays([[shapes.ray([-5, 0, 0], [1, 0, 0]), shapes.aabb([-1, -1, -1], [1, 1, 1])]]);
    console.log(`ray hit at ${h.distance}, point ${h.point}`);
  } finally {
    client.close();
  }
}

main().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
