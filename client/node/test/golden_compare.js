'use strict';
// Comparison of a client's answer with a golden one (tests/conformance:
// golden.json, world_golden.json), shared by the conformance runners.

// proto3 JSON spells non-finite doubles as strings.
const num = (v) => (typeof v === 'string' ? Number(v) : v);

// The first difference or null: numbers within the tolerance, the rest
// exact, every key of `want` compared.
function mismatch(got, want, tol, where = 'response') {
  const fail = `${where}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`;
  if (Array.isArray(want)) {
    if (!Array.isArray(got) || got.length !== want.length) return fail;
    for (let i = 0; i < want.length; ++i) {
      const d = mismatch(got[i], want[i], tol, `${where}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (want !== null && typeof want === 'object') {
    if (got === null || typeof got !== 'object') return fail;
    for (const [key, value] of Object.entries(want)) {
      const d = mismatch(got[key], value, tol, `${where}.${key}`);
      if (d) return d;
    }
    return null;
  }
  if (typeof want === 'number' && typeof got === 'number') {
    return Math.abs(got - want) <= tol.abs + tol.rel * Math.abs(want) ? null : fail;
  }
  return got === want ? null : fail;
}

module.exports = {mismatch, num};
