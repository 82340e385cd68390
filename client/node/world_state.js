'use strict';
// What a World handle keeps to re-create its world on a replica that lost
// it: the latest state of every body, folded from the frames the server
// accepted (proto form), so that one frame at the latest tick restores it
// (the history before it is lost). The folding follows the core's frame rule
// (core/src/world/frame.cc): a pose, category or movement shape replaces the
// old one; a new part set replaces the parts and their local poses; part
// poses replace the listed parts' local poses; removals drop the body.
class WorldState {
  constructor() {
    this.latestTick = null;
    this._bodies = new Map();
  }

  apply(frame) {
    for (const id of frame.removals || []) this._bodies.delete(String(id));
    for (const u of frame.bodies || []) {
      const key = String(u.id);
      const body = {...(this._bodies.get(key) || {id: u.id, parts: []})};
      if (u.pose) body.pose = u.pose;
      if (u.category !== undefined && u.category !== null) body.category = u.category;
      if (u.movement_shape) body.movement_shape = u.movement_shape;
      if (u.parts && u.parts.length) body.parts = u.parts;
      if (u.part_poses && u.part_poses.length) {
        const local = new Map(u.part_poses.map((pp) => [pp.part || 0, pp.local]));
        body.parts = body.parts.map((p) => (local.has(p.id || 0) ? {...p, local: local.get(p.id || 0)} : p));
      }
      this._bodies.set(key, body);
    }
    this.latestTick = Number(frame.tick);
  }

  // The frame that restores every body at the latest tick; null before any.
  frame() {
    if (this.latestTick === null) return null;
    return {tick: this.latestTick, bodies: [...this._bodies.values()]};
  }
}

module.exports = {WorldState};
