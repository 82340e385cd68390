'use strict';
// Between the client's plain objects and the proto messages, guided by the
// protobufjs reflection of the .proto files (no generated code).
//
// Requests: field names in camelCase (as the typings give them) or as in the
// proto (snake_case); any Vec3 may be [x, y, z], any Quaternion [w, x, y, z],
// any repeated number field a typed array (Float64Array, BigInt64Array...);
// int64 fields take Numbers, decimal strings or bigints (sent as strings, so
// ids past Number.MAX_SAFE_INTEGER keep every digit). Results: camelCase field names, vectors as
// [x, y, z], enums as their names, int64 as Numbers (ids must stay within
// Number.MAX_SAFE_INTEGER), unset messages null, and a hit's Target flattened
// to {kind: 'static', elementId, triangle} or {kind: 'body', bodyId, partId}.
const protobuf = require('protobufjs');

const VEC3 = '.collide.v1.Vec3';
const QUATERNION = '.collide.v1.Quaternion';
const TARGET = '.collide.v1.Target';

function messageType(field) {
  const sub = field.resolve().resolvedType;
  return sub instanceof protobuf.Type ? sub : null;
}

const snake = (name) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
// A bigint (an int64 past 2^53) as the decimal string protobufjs encodes.
const scalar = (v) => (typeof v === 'bigint' ? v.toString() : v);

// A request object as the proto loader encodes it.
function toProto(value, type) {
  if (Array.isArray(value) && (type.fullName === VEC3 || type.fullName === QUATERNION)) {
    const keys = type.fullName === VEC3 ? ['x', 'y', 'z'] : ['w', 'x', 'y', 'z'];
    return Object.fromEntries(keys.map((k, i) => [k, value[i]]));
  }
  if (value === null || typeof value !== 'object') return scalar(value);
  const out = {};
  for (const [key, v] of Object.entries(value)) {
    const field = type.fields[key] || type.fields[snake(key)];
    const name = field ? field.name : key;
    const sub = field && messageType(field);
    if (field && field.repeated && ArrayBuffer.isView(v)) out[name] = Array.from(v, scalar);
    else if (!sub || v === null || v === undefined) out[name] = Array.isArray(v) ? v.map(scalar) : scalar(v);
    else if (field.repeated) out[name] = v.map((item) => toProto(item, sub));
    else out[name] = toProto(v, sub);
  }
  return out;
}

const camel = (name) => name.replace(/_([a-z0-9])/g, (m, c) => c.toUpperCase());

function target(t) {
  if (t.static_element) return {kind: 'static', elementId: t.static_element.element_id, triangle: t.static_element.triangle};
  if (t.body) return {kind: 'body', bodyId: t.body.body_id, partId: t.body.part_id};
  return null;
}

// A decoded response message (proto loader objects: keepCase, defaults) as
// the client returns it.
function fromProto(value, type) {
  if (value === null || value === undefined) return null;
  if (type.fullName === VEC3) return [value.x, value.y, value.z];
  if (type.fullName === TARGET) return target(value);
  const out = {};
  for (const field of type.fieldsArray) {
    const v = value[field.name];
    const sub = messageType(field);
    if (!sub) out[camel(field.name)] = v === undefined ? null : v;
    else if (field.repeated) out[camel(field.name)] = (v || []).map((item) => fromProto(item, sub));
    else out[camel(field.name)] = fromProto(v, sub);
  }
  return out;
}

module.exports = {toProto, fromProto};
