// Type declarations of the collide Node.js client (index.js).
import type {ChannelCredentials, ChannelOptions} from '@grpc/grpc-js';
import type {CreateWorldRequest, TickAnswer, World, WorldInfo, WorldOptions} from './world';

/** [x, y, z] or the proto's {x, y, z} (unset components are 0). */
export type Vec3 = [number, number, number] | {x?: number; y?: number; z?: number};
/** A unit quaternion [w, x, y, z] or {w, x, y, z}. */
export type Quaternion = [number, number, number, number] | {w?: number; x?: number; y?: number; z?: number};

/** One shape: exactly one key set (collide/v1/geometry.proto). */
export type Shape =
  | {point: {position?: Vec3}}
  | {segment: {a?: Vec3; b?: Vec3}}
  | {sphere: {center?: Vec3; radius?: number}}
  | {capsule: {a?: Vec3; b?: Vec3; radius?: number}}
  | {aabb: {min?: Vec3; max?: Vec3}}
  | {obb: {center?: Vec3; rotation?: Quaternion; halfExtents?: Vec3}}
  | {triangle: {a?: Vec3; b?: Vec3; c?: Vec3}}
  | {convexHull: {vertices?: Vec3[]}}
  | {halfspace: {normal?: Vec3; offset?: number}};

/** origin + t * direction / |direction|, 0 <= t <= maxDistance (unset: unbounded). */
export interface Ray {
  origin?: Vec3;
  direction?: Vec3;
  maxDistance?: number;
}

export type Level = 'intersect' | 'distance' | 'contact' | string | number;
export type PackedKind =
  | 'point' | 'segment' | 'sphere' | 'capsule' | 'aabb' | 'obb' | 'triangle' | 'halfspace' | string | number;
export type ResultStatus = 'RESULT_STATUS_OK' | 'RESULT_STATUS_NOT_CONVERGED';
export type Triple = [number, number, number];

/** A pair query's answer (collide.proto PairResult); fields a level does not compute are zero. */
export interface PairResult {
  hit: boolean;
  /** DISTANCE: separation >= 0; CONTACT: signed, negative when penetrating. */
  distance: number;
  pointA: Triple;
  pointB: Triple;
  /** Unit, from A towards B (zero at INTERSECT, and at DISTANCE when hit). */
  normal: Triple;
  status: ResultStatus;
}

/** Parallel arrays: pair i at [i] or [3i, 3i+3). INTERSECT fills only `hit`. */
export interface PackedPairResults {
  hit: boolean[];
  distance: number[];
  pointA: number[];
  pointB: number[];
  normal: number[];
  notConverged: number[];
}

export interface RayHit {
  hit: boolean;
  distance: number;
  point: Triple;
  normal: Triple;
  status: ResultStatus;
}

export interface PackedRayHits {
  hit: boolean[];
  distance: number[];
  point: number[];
  normal: number[];
  notConverged: number[];
}

export interface ServerInfo {
  version: string;
  replica: string;
  maxItemsPerRequest: number;
  maxReceiveMessageBytes: number;
  workerThreads: number;
  requestsServed: number;
  itemsServed: number;
}

export interface FieldViolation {
  /** e.g. 'pairs[3].b.capsule.radius' or 'a.data[41]'. */
  field: string;
  description: string;
}

export class CollideError extends Error {
  /** gRPC status code (see `status`). */
  readonly code: number;
  /** e.g. 'INVALID_ARGUMENT'. */
  readonly codeName: string;
  readonly details: string;
  readonly fieldViolations: FieldViolation[];
  readonly fields: string[];
  /** google.rpc.ErrorInfo reason, e.g. 'WORLD_NOT_FOUND'; '' without one. */
  readonly reason: string;
  /** google.rpc.ErrorInfo domain, e.g. 'collide.v1'; '' without one. */
  readonly domain: string;
  /** A failed Tick message: the parts that ran before the failing one. */
  readonly answer?: TickAnswer;
}

export interface ClientOptions {
  /** Directory holding collide/v1/*.proto (default: the repository's proto/). */
  protoDir?: string;
  /** Deadline of every call, in milliseconds from its start. */
  deadlineMs?: number;
  /** Your own channel credentials (wins over the tls* options). */
  credentials?: ChannelCredentials;
  channelOptions?: ChannelOptions;
  /** Dial TLS with the system's root certificates (implied by the other tls* options). */
  tls?: boolean;
  /** PEM root certificates to trust instead of the system's. */
  tlsCaFile?: string;
  /** PEM client certificate chain (mutual TLS); with tlsKeyFile. */
  tlsCertFile?: string;
  /** PEM private key of tlsCertFile. */
  tlsKeyFile?: string;
  /** The name the server's certificate must carry when it is not the target's host (dialling an IP). */
  tlsServerName?: string;
  /** Sent as 'authorization: Bearer <token>' with every call, the Tick stream included. */
  token?: string;
}

export class Client {
  constructor(target?: string, options?: ClientOptions);
  close(): void;
  queryPairs(level: Level, pairs: Array<[Shape | object, Shape | object]>): Promise<PairResult[]>;
  queryPairsPacked(
    level: Level, kind: PackedKind, aFlat: ArrayLike<number>, bFlat: ArrayLike<number>, kindB?: PackedKind,
  ): Promise<PackedPairResults>;
  castRays(casts: Array<[Ray | object, Shape | object]>): Promise<RayHit[]>;
  castRaysPacked(kind: PackedKind, raysFlat: ArrayLike<number>, shapesFlat: ArrayLike<number>): Promise<PackedRayHits>;
  serverInfo(): Promise<ServerInfo>;
  health(service?: string): Promise<string>;
  /** Creates a world; the handle re-creates it when a replica lost it unless options.recreate is false. */
  createWorld(request: CreateWorldRequest, options?: WorldOptions): Promise<World>;
  /** A handle on an existing world (never re-created). */
  world(worldId: string): World;
  /** The caller's worlds on the answering replica. */
  listWorlds(): Promise<WorldInfo[]>;
}

export const shapes: {
  point(position: Vec3): Shape;
  segment(a: Vec3, b: Vec3): Shape;
  sphere(center: Vec3, radius: number): Shape;
  capsule(a: Vec3, b: Vec3, radius: number): Shape;
  aabb(min: Vec3, max: Vec3): Shape;
  obb(center: Vec3, halfExtents: Vec3, rotation?: [number, number, number, number]): Shape;
  triangle(a: Vec3, b: Vec3, c: Vec3): Shape;
  convexHull(vertices: Vec3[]): Shape;
  halfspace(normal: Vec3, offset: number): Shape;
  ray(origin: Vec3, direction: Vec3, maxDistance?: number): Ray;
};

export const PACKED_STRIDES: Readonly<Record<string, number>>;
/** This package's version (package.json): the collide release it belongs to. */
export const version: string;
export const status: typeof import('@grpc/grpc-js').status;

export * from './world';
