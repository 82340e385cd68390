// Type-checked (not run) against the installed package: its "exports" and
// "types" resolve for a TypeScript consumer, in camelCase.
import {Client, ShotVerdict, shapes, version} from 'collide-client';

export async function check(target: string): Promise<boolean> {
  const client = new Client(target);
  const world = await client.createWorld({worldId: 'ts', statics: [{id: 1n, shape: shapes.sphere([0, 0, 0], 1)}]});
  const verdicts: ShotVerdict[] = await world.validateShots([{shooterId: '1', origin: [0, 0, 0], direction: [1, 0, 0]}]);
  client.close();
  return verdicts.length === 1 && version.length > 0;
}
