'use strict';
// The error every call rejects with, and the decoding of the google.rpc
// details the server attaches (grpc-status-details-bin).
const grpc = require('@grpc/grpc-js');

const codeName = (code) => Object.keys(grpc.status).find((k) => grpc.status[k] === code) || String(code);

// One failed call: the gRPC code, its message, every google.rpc.BadRequest
// field violation ({field: 'pairs[3].b.capsule.radius', description}) and
// the google.rpc.ErrorInfo reason and domain when there is one (a lost world
// is NOT_FOUND with reason 'WORLD_NOT_FOUND', domain 'collide.v1').
class CollideError extends Error {
  constructor(code, details, fieldViolations = [], errorInfo = null) {
    const name = codeName(code);
    super(`${name}: ${details}` + fieldViolations.map((v) => `\n  ${v.field}: ${v.description}`).join(''));
    this.name = 'CollideError';
    this.code = code;
    this.codeName = name;
    this.details = details;
    this.fieldViolations = fieldViolations;
    this.reason = errorInfo ? errorInfo.reason : '';
    this.domain = errorInfo ? errorInfo.domain : '';
  }

  get fields() {
    return this.fieldViolations.map((v) => v.field);
  }
}

// Reads google.rpc.Status messages with a protobufjs root that has
// google/rpc/status.proto and error_details.proto loaded (keepCase).
class ErrorDecoder {
  constructor(root) {
    this._status = root.lookupType('google.rpc.Status');
    this._badRequest = root.lookupType('google.rpc.BadRequest');
    this._errorInfo = root.lookupType('google.rpc.ErrorInfo');
  }

  // A grpc-js call error as a CollideError.
  fromCallError(err) {
    const buffers = (err.metadata && err.metadata.get('grpc-status-details-bin')) || [];
    const details = buffers.flatMap((buf) => this._status.decode(buf).details);
    return this.fromDetails(err.code, err.details || '', details);
  }

  // A google.rpc.Status object (as the proto loader decodes one: keepCase,
  // `details` of {type_url, value}) as a CollideError.
  fromStatus(status) {
    return this.fromDetails(status.code, status.message || '', status.details || []);
  }

  fromDetails(code, message, anys) {
    const violations = [];
    let errorInfo = null;
    for (const any of anys) {
      if (any.type_url.endsWith('/google.rpc.BadRequest')) {
        for (const v of this._badRequest.decode(any.value).field_violations) {
          violations.push({field: v.field, description: v.description});
        }
      } else if (any.type_url.endsWith('/google.rpc.ErrorInfo')) {
        const info = this._errorInfo.decode(any.value);
        errorInfo = {reason: info.reason, domain: info.domain};
      }
    }
    return new CollideError(code, message, violations, errorInfo);
  }
}

module.exports = {CollideError, ErrorDecoder};
