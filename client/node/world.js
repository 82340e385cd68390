'use strict';
// A handle on one world of collide.v1.WorldService (proto/collide/v1/world.proto).
// Every call sends the `collide-world` header (what a proxy routes on). A
// handle made by Client.createWorld keeps the creation request and the
// latest state of every body: when a call fails NOT_FOUND with reason
// WORLD_NOT_FOUND (the replica restarted, or the proxy's ring moved the
// world), it re-creates the world, pushes one frame restoring the bodies at
// the latest tick, retries the call once and emits 'recreated' (the history
// before that tick is lost: rewinds are clamped until it refills).
const {EventEmitter} = require('events');
const grpc = require('@grpc/grpc-js');
const {TickStream} = require('./tick');
const {WorldState} = require('./world_state');

const WORLD_HEADER = 'collide-world';

class World extends EventEmitter {
  // client: the Client; creation: the CreateWorldRequest (proto form) or
  // null for a world this handle cannot re-create.
  constructor(client, worldId, creation, options = {}) {
    super();
    this._client = client;
    this.id = worldId;
    this._creation = creation;
    this._recreate = creation !== null && options.recreate !== false;
    this._metadata = new grpc.Metadata();
    this._metadata.set(WORLD_HEADER, worldId);
    this._state = new WorldState();
    this._recreating = null;
    this._losses = 0;  // restorations done: a call that failed before one need not restore again
    this.recreations = 0;
    // The WorldInfo CreateWorld answered (null for an opened world).
    this.created = null;
  }

  // The latest tick pushed through this handle (null before any).
  get latestTick() {
    return this._state.latestTick;
  }

  _rpc(method, request) {
    return this._client._call(this._client._worlds, method, request, this._metadata);
  }

  async _call(method, request) {
    const losses = this._losses;
    try {
      return await this._rpc(method, request);
    } catch (e) {
      if (!this._recreates(e)) throw e;
      await this._restore(e, losses);
      return this._rpc(method, request);
    }
  }

  _recreates(error) {
    return this._recreate && error.reason === 'WORLD_NOT_FOUND';
  }

  // Re-creates the world once for every call that found it missing at the
  // same time (`losses`: the count of restorations when the call began).
  // ALREADY_EXISTS / FAILED_PRECONDITION: someone restored it first, which
  // is what was wanted.
  async _restore(cause, losses) {
    if (losses !== this._losses) return;
    if (!this._recreating) {
      this._recreating = (async () => {
        try {
          await this._rpc('CreateWorld', this._creation);
        } catch (e) {
          if (e.codeName !== 'ALREADY_EXISTS') throw e;
        }
        const frame = this._state.frame();
        if (frame) {
          try {
            await this._rpc('PushFrame', {world_id: this.id, frame});
          } catch (e) {
            if (e.codeName !== 'FAILED_PRECONDITION') throw e;
          }
        }
        this._losses += 1;
        this.recreations += 1;
        this.emit('recreated', {worldId: this.id, latestTick: this._state.latestTick, cause});
      })().finally(() => {
        this._recreating = null;
      });
    }
    await this._recreating;
  }

  _view(typeName, message) {
    return this._client._fromProto(message, typeName);
  }

  // GetWorld: statistics, latest and oldest kept ticks, policy, replica.
  async info() {
    return this._view('WorldInfo', await this._call('GetWorld', {world_id: this.id}));
  }

  // Deletes the world (never re-created: NOT_FOUND rejects).
  async delete() {
    this._recreate = false;
    await this._rpc('DeleteWorld', {world_id: this.id});
  }

  // frame: {tick, bodies: [{id, pose: {position, rotation}, parts, part_poses,
  // teleport, category, movement_shape}], removals}. Resolves to
  // {oldestTick}.
  async pushFrame(frame) {
    const request = this._client._toProto({world_id: this.id, frame}, 'PushFrameRequest');
    const r = this._view('PushFrameResponse', await this._call('PushFrame', request));
    this._state.apply(request.frame);
    return r;
  }

  // request: {ray_casts, shape_casts, overlaps}. Resolves to {rayCasts,
  // shapeCasts, overlaps}, one result per item in order.
  async query(request) {
    const r = await this._call('QueryWorld', this._client._toProto({...request, world_id: this.id}, 'QueryWorldRequest'));
    return this._view('QueryWorldResponse', r);
  }

  // Closest hits of rays given as 7 doubles each (origin, direction,
  // max_distance; Infinity for unbounded), all with one filter ({at,
  // category_mask, ignore_bodies}). Resolves to flat arrays: ray i at [i]
  // or [3i, 3i + 3); targetKind 0 none, 1 static (targetId element,
  // targetIndex triangle, 0 for a shape), 2 body (targetId body, targetIndex part).
  async castRaysPacked(raysFlat, filter = {}) {
    const r = await this._call('CastWorldRaysPacked', this._raysPackedRequest({rays: raysFlat, filter}));
    return this._raysPackedView(r);
  }

  _raysPackedRequest({rays, filter = {}}) {
    return this._client._toProto({world_id: this.id, rays: Array.from(rays), filter}, 'CastWorldRaysPackedRequest');
  }

  _raysPackedView(r) {
    return {
      hit: r.hit,
      distance: Float64Array.from(r.distance),
      point: Float64Array.from(r.point),
      normal: Float64Array.from(r.normal),
      targetKind: Int32Array.from(r.target_kind),
      targetId: r.target_id,
      targetIndex: r.target_index,
      time: this._view('TimeUsed', r.time),
    };
  }

  // shots: [{shooter_id, origin, direction, max_range, at, claimed: {body_id,
  // part_id}, tolerance}]. Resolves to one verdict per shot: a bad shot's is
  // SHOT_CODE_INVALID with its violations, unless options.allOrNothing, which
  // rejects the whole call with INVALID_ARGUMENT instead. options.explain:
  // each verdict but INVALID carries its explanation (what the judge used).
  async validateShots(shots, {allOrNothing = false, explain = false} = {}) {
    const request = {world_id: this.id, shots, all_or_nothing: allOrNothing, explain};
    const r = await this._call('ValidateShots', this._client._toProto(request, 'ValidateShotsRequest'));
    return this._view('ValidateShotsResponse', r).verdicts;
  }

  // Shots in flat arrays (world.proto ValidateShotsPackedRequest): doubles
  // (10 per shot), shooterIds, ticks (LATEST_TICK: the latest frame),
  // claimedBodyIds and claimedPartIds (-1: no claim); any array-likes;
  // allOrNothing and explain as validateShots'.
  async validateShotsPacked(shots) {
    const r = await this._call('ValidateShotsPacked', this._shotsPackedRequest(shots));
    return this._view('ValidateShotsResponse', r).verdicts;
  }

  _shotsPackedRequest({doubles, shooterIds, ticks, claimedBodyIds, claimedPartIds, allOrNothing = false, explain = false,
    commandTicks = [], expectedTicks = [], categoryMasks = [], ignoreCounts = [], ignoreBodyIds = []}) {
    return {
      world_id: this.id,
      doubles: Array.from(doubles),
      shooter_ids: Array.from(shooterIds),
      ticks: Array.from(ticks),
      claimed_body_ids: Array.from(claimedBodyIds),
      claimed_part_ids: Array.from(claimedPartIds),
      all_or_nothing: allOrNothing,
      explain,
      command_ticks: Array.from(commandTicks),
      expected_ticks: Array.from(expectedTicks),
      category_masks: Array.from(categoryMasks),
      ignore_counts: Array.from(ignoreCounts),
      ignore_body_ids: Array.from(ignoreBodyIds),
    };
  }

  // Opens the world's Tick stream (tick.js); options.budgetMs: the default
  // budget of its messages.
  tick(options = {}) {
    return new TickStream(this, this._metadata, options);
  }

  // projectiles: [{shooter_id, at, origin, velocity, gravity, drag, radius,
  // restitution, max_bounces, time_limit, tick_seconds, chord_tolerance,
  // claimed, category_mask, ignore_bodies, command_at}] (world.proto Projectile,
  // docs/projectiles.md); options.allOrNothing as validateShots'.
  async validateProjectiles(projectiles, {allOrNothing = false} = {}) {
    const request = {world_id: this.id, projectiles, all_or_nothing: allOrNothing};
    const r = await this._call('ValidateProjectiles', this._client._toProto(request, 'ValidateProjectilesRequest'));
    return this._view('ValidateProjectilesResponse', r).verdicts;
  }

  // melee: [{attacker_id, at, arc: {direction, up, radius, angle} or sweep:
  // {from, to}, claimed, tolerance, category_mask, ignore_bodies}]
  // (world.proto Melee); options.allOrNothing as validateShots'.
  async validateMelee(melee, {allOrNothing = false} = {}) {
    const request = {world_id: this.id, melee, all_or_nothing: allOrNothing};
    const r = await this._call('ValidateMelee', this._client._toProto(request, 'ValidateMeleeRequest'));
    return this._view('ValidateMeleeResponse', r).verdicts;
  }

  // moves: [{body_id, from, to, elapsed, max_speed, slide, category_mask}];
  // options.allOrNothing and explain as validateShots'.
  async validateMoves(moves, {allOrNothing = false, explain = false} = {}) {
    const request = {world_id: this.id, moves, all_or_nothing: allOrNothing, explain};
    const r = await this._call('ValidateMoves', this._client._toProto(request, 'ValidateMovesRequest'));
    return this._view('ValidateMovesResponse', r).verdicts;
  }

  // The bodies at options.at ({tick, fraction}; unset: the latest frame) as
  // the verdicts pose them: those in options.bodyIds (at most the server's
  // --max_items_per_request), or every body. Resolves to {time, bodies
  // (sorted by id), missing}.
  async getBodies({at, bodyIds = []} = {}) {
    const request = {world_id: this.id, body_ids: Array.from(bodyIds)};
    if (at) request.at = at;
    const r = await this._call('GetBodies', this._client._toProto(request, 'GetBodiesRequest'));
    return this._view('GetBodiesResponse', r);
  }

  // Visibility sets (docs/visibility.md): for each observer (empty: every
  // body), the bodies it may see; send each client only those. latency:
  // seconds of look-ahead, with tickSeconds the server's tick length;
  // margin: length units around every region; at: {tick, fraction} (unset:
  // the latest frame). Resolves to {sets: [{observer, found, visible}],
  // pairs, hidden, reused, time}.
  async getVisibility(options = {}) {
    const r = await this._call('GetVisibility', this._visibilityRequest(options));
    return this._view('GetVisibilityResponse', r);
  }

  _visibilityRequest({at, observers = [], tickSeconds = 0, latency = 0, margin = 0, targetCategoryMask = 0} = {}) {
    const request = {world_id: this.id, observers, tick_seconds: tickSeconds, latency, margin,
      target_category_mask: targetCategoryMask};
    if (at !== undefined && at !== null) request.at = at;
    return this._client._toProto(request, 'GetVisibilityRequest');
  }
}

// ticks[i] of a packed shot at the latest frame: INT64_MIN, never a tick
// (exactly representable as a double).
const LATEST_TICK = -(2 ** 63);

module.exports = {World, WORLD_HEADER, LATEST_TICK};
