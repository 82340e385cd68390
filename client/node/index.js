'use strict';
// Node.js client of the collide collision query service (collide.v1).
//
// The .proto files are loaded at run time from the package's proto/ (bundled
// when it is packed), the repository's proto/ in a checkout, or `protoDir`:
// no generated code. Shapes are plain objects in the proto's form with
// camelCase field names ({obb: {center, halfExtents}}; the proto's
// snake_case names are accepted too), where any vector may also be an
// [x, y, z] array; the `shapes` helpers build them.
// Results use camelCase and [x, y, z] arrays. Every method returns a Promise
// and rejects with a CollideError. Worlds (world.proto): createWorld and
// world() give a World handle (world.js).

const fs = require('fs');
const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const protobuf = require('protobufjs');
const {CollideError, ErrorDecoder} = require('./errors');
const {toProto, fromProto} = require('./proto_view');
const {World, WORLD_HEADER, LATEST_TICK} = require('./world');
const {defaultProtoDir} = require('./proto_files');

// The package's bundled proto/ or, in a checkout, the repository's (proto_files.js).
const DEFAULT_PROTO_DIR = defaultProtoDir();
const PROTO_FILES = [
  'collide/v1/collide.proto',
  'collide/v1/world.proto',
  'grpc/health/v1/health.proto',
  'google/rpc/status.proto',
  'google/rpc/error_details.proto',
];
// keepCase: field names as in the .proto; enums as their names; int64
// counters as Numbers (they stay far below 2^53).
const LOADER_OPTIONS = {keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true};

// Doubles per shape in the packed encoding (collide.proto, PackedShapeKind).
const PACKED_STRIDES = Object.freeze({
  point: 3, segment: 6, sphere: 4, capsule: 7, aabb: 6, obb: 10, triangle: 9, halfspace: 4,
});

const vec3 = (v) => (Array.isArray(v) ? {x: v[0], y: v[1], z: v[2]} : v);
const arr3 = (v) => (v ? [v.x, v.y, v.z] : [0, 0, 0]);

// Builders of the shape objects the client sends.
const shapes = Object.freeze({
  point: (position) => ({point: {position: vec3(position)}}),
  segment: (a, b) => ({segment: {a: vec3(a), b: vec3(b)}}),
  sphere: (center, radius) => ({sphere: {center: vec3(center), radius}}),
  capsule: (a, b, radius) => ({capsule: {a: vec3(a), b: vec3(b), radius}}),
  aabb: (min, max) => ({aabb: {min: vec3(min), max: vec3(max)}}),
  // rotation: unit quaternion [w, x, y, z]; omitted: the identity.
  obb: (center, halfExtents, rotation) => ({
    obb: {
      center: vec3(center),
      halfExtents: vec3(halfExtents),
      ...(rotation && {rotation: {w: rotation[0], x: rotation[1], y: rotation[2], z: rotation[3]}}),
    },
  }),
  triangle: (a, b, c) => ({triangle: {a: vec3(a), b: vec3(b), c: vec3(c)}}),
  convexHull: (vertices) => ({convexHull: {vertices: vertices.map(vec3)}}),
  halfspace: (normal, offset) => ({halfspace: {normal: vec3(normal), offset}}),
  // maxDistance omitted or Infinity: unbounded.
  ray: (origin, direction, maxDistance) => ({
    origin: vec3(origin),
    direction: vec3(direction),
    ...(maxDistance !== undefined && Number.isFinite(maxDistance) && {maxDistance}),
  }),
});

function pairResult(r) {
  return {
    hit: r.hit,
    distance: r.distance,
    pointA: arr3(r.point_a),
    pointB: arr3(r.point_b),
    normal: arr3(r.normal),
    status: r.status,
  };
}

function rayHit(h) {
  return {hit: h.hit, distance: h.distance, point: arr3(h.point), normal: arr3(h.normal), status: h.status};
}

// The channel credentials and options the security options ask for: TLS
// when tls, tlsCaFile, tlsCertFile or tlsKeyFile is given (tlsCaFile: PEM
// roots instead of the system's; tlsCertFile + tlsKeyFile: a client
// certificate, mutual TLS; tlsServerName: the name the server's certificate
// must carry when it is not the target's host), else plaintext; an explicit
// options.credentials wins.
function channelSecurity(options) {
  const channelOptions = {...options.channelOptions};
  if (options.credentials) return {credentials: options.credentials, channelOptions};
  const {tls, tlsCaFile, tlsCertFile, tlsKeyFile, tlsServerName} = options;
  if (!(tls || tlsCaFile || tlsCertFile || tlsKeyFile)) {
    return {credentials: grpc.credentials.createInsecure(), channelOptions};
  }
  if (!tlsCertFile !== !tlsKeyFile) throw new Error('tlsCertFile and tlsKeyFile go together (mutual TLS)');
  const read = (file) => (file ? fs.readFileSync(file) : null);
  if (tlsServerName) {
    channelOptions['grpc.ssl_target_name_override'] = tlsServerName;
    channelOptions['grpc.default_authority'] = tlsServerName;
  }
  return {credentials: grpc.credentials.createSsl(read(tlsCaFile), read(tlsKeyFile), read(tlsCertFile)),
    channelOptions};
}

class Client {
  // target: 'host:port'. options.protoDir: where collide/v1/*.proto are;
  // options.deadlineMs: per-call deadline; options.channelOptions: grpc-js
  // channel options. Security (the server's --tls_* and --auth_token_file
  // flags, docs/operations.md): options.tls, tlsCaFile, tlsCertFile,
  // tlsKeyFile, tlsServerName (channelSecurity above) or your own
  // options.credentials; options.token sends 'authorization: Bearer
  // <token>' with every call, the Tick stream included.
  constructor(target = '127.0.0.1:50051', options = {}) {
    const protoDir = options.protoDir || DEFAULT_PROTO_DIR;
    const definition = protoLoader.loadSync(PROTO_FILES, {...LOADER_OPTIONS, includeDirs: [protoDir]});
    const loaded = grpc.loadPackageDefinition(definition);
    const {credentials, channelOptions} = channelSecurity(options);
    this._token = options.token || null;
    this._service = new loaded.collide.v1.CollisionService(target, credentials, channelOptions);
    const shared = {...channelOptions, channelOverride: this._service.getChannel()};
    this._health = new loaded.grpc.health.v1.Health(target, credentials, shared);
    this._worlds = new loaded.collide.v1.WorldService(target, credentials, shared);
    this._deadlineMs = options.deadlineMs;
    // A protobufjs view of the same files: to read Vec3 fields given as
    // arrays and to decode the google.rpc status details.
    this._root = new protobuf.Root();
    this._root.resolvePath = (origin, target_) => path.join(protoDir, target_);
    this._root.loadSync(PROTO_FILES, {keepCase: true});
    this._shapeType = this._root.lookupType('collide.v1.Shape');
    this._rayType = this._root.lookupType('collide.v1.Ray');
    this._errors = new ErrorDecoder(this._root);
  }

  close() {
    this._service.close();
  }

  // metadata with the bearer token added (a copy), for every call.
  _withAuth(metadata = new grpc.Metadata()) {
    if (!this._token) return metadata;
    const out = metadata.clone();
    out.set('authorization', `Bearer ${this._token}`);
    return out;
  }

  _call(stub, method, request, metadata = new grpc.Metadata()) {
    const callOptions = this._deadlineMs ? {deadline: Date.now() + this._deadlineMs} : {};
    return new Promise((resolve, reject) => {
      stub[method](request, this._withAuth(metadata), callOptions, (err, response) => {
        if (err) reject(this._errors.fromCallError(err));
        else resolve(response);
      });
    });
  }

  // Request objects in the client's form (proto_view.js) as the proto
  // loader encodes them, and decoded answers in the client's result form.
  _toProto(value, typeName) {
    return toProto(value, this._root.lookupType(`collide.v1.${typeName}`));
  }

  _fromProto(value, typeName) {
    return fromProto(value, this._root.lookupType(`collide.v1.${typeName}`));
  }

  // level: 'intersect' | 'distance' | 'contact' (or the enum name or number);
  // pairs: [[a, b], ...]. Resolves to one result per pair, in order.
  async queryPairs(level, pairs) {
    const request = {
      level: enumValue('QUERY_LEVEL_', level),
      pairs: pairs.map(([a, b]) => ({a: toProto(a, this._shapeType), b: toProto(b, this._shapeType)})),
    };
    const response = await this._call(this._service, 'QueryPairs', request);
    return response.results.map(pairResult);
  }

  // Pair i is (a[i], b[i]), shapes as flat runs of doubles (PACKED_STRIDES):
  // kind is A's kind ('sphere', ...) and B's too unless kindB is given. Any
  // array-like of numbers works (Array, Float64Array).
  async queryPairsPacked(level, kind, aFlat, bFlat, kindB = kind) {
    const request = {
      level: enumValue('QUERY_LEVEL_', level),
      a: {kind: enumValue('PACKED_SHAPE_KIND_', kind), data: Array.from(aFlat)},
      b: {kind: enumValue('PACKED_SHAPE_KIND_', kindB), data: Array.from(bFlat)},
    };
    const r = await this._call(this._service, 'QueryPairsPacked', request);
    return {
      hit: r.hit, distance: r.distance, pointA: r.point_a, pointB: r.point_b, normal: r.normal,
      notConverged: r.not_converged,
    };
  }

  // casts: [[ray, shape], ...]. Resolves to one hit per cast, in order.
  async castRays(casts) {
    const request = {
      casts: casts.map(([ray, shape]) => ({
        ray: toProto(ray, this._rayType), shape: toProto(shape, this._shapeType),
      })),
    };
    const response = await this._call(this._service, 'CastRays', request);
    return response.hits.map(rayHit);
  }

  // Ray i (7 doubles: origin, direction, max_distance, Infinity for
  // unbounded) against shape i of `kind`.
  async castRaysPacked(kind, raysFlat, shapesFlat) {
    const request = {
      rays: Array.from(raysFlat),
      shapes: {kind: enumValue('PACKED_SHAPE_KIND_', kind), data: Array.from(shapesFlat)},
    };
    const r = await this._call(this._service, 'CastRaysPacked', request);
    return {hit: r.hit, distance: r.distance, point: r.point, normal: r.normal, notConverged: r.not_converged};
  }

  async serverInfo() {
    const r = await this._call(this._service, 'GetServerInfo', {});
    return {
      version: r.version,
      replica: r.replica,
      maxItemsPerRequest: r.max_items_per_request,
      maxReceiveMessageBytes: r.max_receive_message_bytes,
      workerThreads: r.worker_threads,
      requestsServed: r.requests_served,
      itemsServed: r.items_served,
    };
  }

  // Creates a world: request {world_id, statics: [{id, category, mesh:
  // {vertices, indices} | shape | map_file: {name, map}}], history_ticks,
  // policy, journal: {audit, record}}. Resolves to its World handle, which re-creates the world from
  // this request when a replica lost it unless options.recreate is false.
  async createWorld(request, options = {}) {
    const creation = this._toProto(request, 'CreateWorldRequest');
    const world = new World(this, creation.world_id, creation, options);
    world.created = this._fromProto(await world._rpc('CreateWorld', creation), 'WorldInfo');
    return world;
  }

  // A handle on an existing world (not re-created when lost).
  world(worldId) {
    return new World(this, worldId, null);
  }

  // The caller's worlds on the answering replica.
  async listWorlds() {
    const r = await this._call(this._worlds, 'ListWorlds', {});
    return this._fromProto(r, 'ListWorldsResponse').worlds;
  }

  // grpc.health.v1 status name: 'SERVING', 'NOT_SERVING', ...
  async health(service = '') {
    const r = await this._call(this._health, 'Check', {service});
    return r.status;
  }
}

// 'contact' -> 'QUERY_LEVEL_CONTACT'; enum names and numbers pass through
// (the server validates them).
function enumValue(prefix, value) {
  if (typeof value !== 'string') return value;
  const name = value.toUpperCase();
  return name.startsWith(prefix) ? name : prefix + name;
}

// version: this package's (package.json), the collide release it belongs to.
const {version} = require('./package.json');

module.exports = {
  Client, World, CollideError, shapes, PACKED_STRIDES, WORLD_HEADER, LATEST_TICK, status: grpc.status, version,
};
