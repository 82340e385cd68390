#!/usr/bin/env bash
# test_pki.sh DIR: a throwaway PKI for the client TLS tests, made by the
# openssl CLI at test time (never committed), as tests/security's C++ tests
# make theirs: ca.pem/ca.key and other_ca.pem/other_ca.key (self-signed CAs),
# server.pem/server.key signed by ca (subjectAltName IP:127.0.0.1 and
# DNS:localhost), client.pem/client.key signed by ca (clientAuth). EC P-256
# keys (quick), valid for one day. Used by client/python/tests/test_tls.py,
# client/node/test/tls.test.js and client/go/collide/tls_test.go.
set -euo pipefail
dir=$1
mkdir -p "$dir"
cd "$dir"
ca() {
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj "/CN=$1" \
    -keyout "$1.key" -out "$1.pem" 2>/dev/null
}
leaf() {
  printf '%s\n' "$3" >"$1.ext"
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=$1" \
    -keyout "$1.key" -out "$1.csr" 2>/dev/null
  openssl x509 -req -days 1 -in "$1.csr" -CA "$2.pem" -CAkey "$2.key" -CAcreateserial -extfile "$1.ext" \
    -out "$1.pem" 2>/dev/null
}
ca ca
ca other_ca
leaf server ca "subjectAltName=IP:127.0.0.1,DNS:localhost"
leaf client ca "extendedKeyUsage=clientAuth"
