'use strict';
// The tick loop of one world on one WorldService.Tick stream (world.proto
// TickRequest): each message carries any of a frame, a query, packed rays,
// shots, packed shots, moves, projectiles, melee, visibility and bodies, run
// by the server in that order, and a message sent after a frame sees it. send() writes a message at once and
// returns a promise of its answer, so a game loop may pipeline several
// ticks; answers are matched by sequence number.
//
// A message that fails alone (its google.rpc.Status) rejects its promise
// with a CollideError whose `answer` holds the parts that ran before the
// failing one; the stream goes on. A message answered WORLD_NOT_FOUND is
// sent again once after the World handle re-created its world (as for the
// unary calls): first every message already in flight is answered, and those
// sent meanwhile wait, so that none runs on a world re-created but not yet
// given its state (whether one would depended on the server's speed); then
// the lost one and each other that found the world missing go again, in
// order, before the waiting ones. The stream's end: end() half-closes and
// resolves once every answer arrived; a stream error (UNAVAILABLE when the
// server shuts down) rejects every pending message and end().
const grpc = require('@grpc/grpc-js');

class TickStream {
  constructor(world, metadata, options = {}) {
    this._world = world;
    this._client = world._client;
    this._budgetMs = options.budgetMs || 0;
    this._sequence = 0;
    this._pending = new Map();  // sequence -> {message, losses, retried, resolve, reject}
    this._ended = null;
    this._failure = null;
    // While a lost world is restored: {cause, losses, again, held, started}
    // (again: messages to send once more; held: sends made meanwhile).
    this._recovery = null;
    this._halfClose = false;
    this._call = this._client._worlds.Tick(this._client._withAuth(metadata));
    this._done = new Promise((resolve, reject) => {
      this._call.on('data', (response) => this._answer(response));
      this._call.on('error', (err) => {
        this._failure = this._client._errors.fromCallError(err);
        for (const p of this._pending.values()) p.reject(this._failure);
        this._pending.clear();
        if (this._recovery) for (const p of [...this._recovery.again, ...this._recovery.held]) p.reject(this._failure);
        reject(this._failure);
      });
      this._call.on('status', (s) => {
        if (s.code === grpc.status.OK) resolve();
      });
    });
    this._done.catch(() => {});  // surfaced through end() and the pending promises
  }

  // parts: {frame, query, shots, moves, projectiles, melee, shots_packed,
  // rays_packed, visibility, bodies} as the World methods take them (shots,
  // moves, projectiles and melee as arrays; shots_packed as
  // validateShotsPacked's object; rays_packed {rays, filter}; visibility as
  // getVisibility's options, {} for every observer's set; bodies as
  // getBodies').
  // options.budgetMs: how long the message may wait on the server before it
  // is answered DEADLINE_EXCEEDED unrun (default: the stream's).
  send(parts, options = {}) {
    if (this._failure) return Promise.reject(this._failure);
    const message = this._message(parts, options.budgetMs === undefined ? this._budgetMs : options.budgetMs);
    return new Promise((resolve, reject) => {
      const pending = {message, losses: this._world._losses, retried: false, resolve, reject};
      if (this._recovery) this._recovery.held.push(pending);
      else this._write(pending);
    });
  }

  // Half-closes (after the sends a restoration holds); resolves when the
  // server ended the stream OK.
  end() {
    if (!this._ended) {
      this._halfClose = true;
      if (!this._recovery) this._call.end();
      this._ended = this._done;
    }
    return this._ended;
  }

  // Cancels the stream (pending messages reject CANCELLED).
  cancel() {
    this._call.cancel();
  }

  _write(pending) {
    this._sequence += 1;
    pending.message.sequence = this._sequence;
    this._pending.set(this._sequence, pending);
    this._call.write(pending.message);
  }

  _message(parts, budgetMs) {
    const world = this._world;
    const id = world.id;
    const m = {sequence: 0, budget_ms: budgetMs};
    const proto = (value, type) => this._client._toProto(value, type);
    if (parts.frame) m.frame = proto(parts.frame, 'Frame');
    if (parts.query) m.query = proto({...parts.query, world_id: id}, 'QueryWorldRequest');
    const allOrNothing = Boolean(parts.allOrNothing);
    if (parts.shots) m.shots = proto({world_id: id, shots: parts.shots, all_or_nothing: allOrNothing}, 'ValidateShotsRequest');
    if (parts.moves) m.moves = proto({world_id: id, moves: parts.moves, all_or_nothing: allOrNothing}, 'ValidateMovesRequest');
    if (parts.projectiles) {
      m.projectiles = proto({world_id: id, projectiles: parts.projectiles, all_or_nothing: allOrNothing}, 'ValidateProjectilesRequest');
    }
    if (parts.melee) m.melee = proto({world_id: id, melee: parts.melee, all_or_nothing: allOrNothing}, 'ValidateMeleeRequest');
    const shotsPacked = parts.shotsPacked || parts.shots_packed;  // camelCase, or the proto's name
    const raysPacked = parts.raysPacked || parts.rays_packed;
    if (shotsPacked) m.shots_packed = world._shotsPackedRequest(shotsPacked);
    if (raysPacked) m.rays_packed = world._raysPackedRequest(raysPacked);
    if (parts.visibility) m.visibility = world._visibilityRequest(parts.visibility);
    // {at, bodyIds}, as World.getBodies takes them.
    if (parts.bodies) {
      const {at, bodyIds = []} = parts.bodies;
      m.bodies = proto({world_id: id, body_ids: Array.from(bodyIds), ...(at ? {at} : {})}, 'GetBodiesRequest');
    }
    return m;
  }

  _answer(response) {
    const pending = this._pending.get(response.sequence);
    if (!pending) return;
    this._pending.delete(response.sequence);
    const answer = this._view(response);
    // A frame whose response is set was applied: keep its state.
    if (response.frame && pending.message.frame) this._world._state.apply(pending.message.frame);
    if (!response.status || response.status.code === grpc.status.OK) {
      pending.resolve(answer);
    } else {
      const error = this._client._errors.fromStatus(response.status);
      error.answer = answer;
      if (pending.retried || !this._world._recreates(error) || this._failure) {
        pending.reject(error);
      } else {
        if (!this._recovery) this._recovery = {cause: error, losses: pending.losses, again: [], held: [], started: false};
        this._recovery.again.push(pending);
      }
    }
    // Nothing is written while a recovery waits, so an empty _pending means
    // every message in flight when the world was found missing is answered.
    if (this._recovery && !this._recovery.started && this._pending.size === 0) this._recover();
  }

  // Re-creates the world, then sends again the messages that found it
  // missing and the ones held meanwhile, in order.
  async _recover() {
    const r = this._recovery;
    r.started = true;
    let failure = null;
    try {
      await this._world._restore(r.cause, r.losses);
    } catch (e) {
      failure = e;
    }
    this._recovery = null;
    failure = failure || this._failure;
    for (const p of r.again) {
      if (failure) p.reject(failure);
      else this._write({...p, retried: true});
    }
    for (const p of r.held) {
      if (this._failure) p.reject(this._failure);
      else this._write(p);
    }
    if (this._halfClose && !this._failure) this._call.end();
  }

  _view(r) {
    const world = this._world;
    const view = (type, value) => (value ? world._view(type, value) : null);
    return {
      sequence: r.sequence,
      frame: view('PushFrameResponse', r.frame),
      query: view('QueryWorldResponse', r.query),
      shots: r.shots ? view('ValidateShotsResponse', r.shots).verdicts : null,
      moves: r.moves ? view('ValidateMovesResponse', r.moves).verdicts : null,
      projectiles: r.projectiles ? view('ValidateProjectilesResponse', r.projectiles).verdicts : null,
      melee: r.melee ? view('ValidateMeleeResponse', r.melee).verdicts : null,
      shotsPacked: r.shots_packed ? view('ValidateShotsResponse', r.shots_packed).verdicts : null,
      raysPacked: r.rays_packed ? world._raysPackedView(r.rays_packed) : null,
      bodies: view('GetBodiesResponse', r.bodies),
      visibility: view('GetVisibilityResponse', r.visibility),
    };
  }
}

module.exports = {TickStream};
