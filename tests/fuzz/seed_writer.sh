# Sourced by make_request_seeds.sh and make_world_seeds.sh (not run on its
# own): seeds_begin DIR PROTO empties the corpus folder DIR; then each
# `seed BYTE MESSAGE TEXT` writes its next file: the selector byte, then the
# text proto TEXT of collide.v1.MESSAGE (defined in PROTO) encoded by protoc.
seeds_begin() {
  seeds_out="$1"
  seeds_proto="$2"
  n=0
  rm -rf "$seeds_out"
  mkdir -p "$seeds_out"
}
seed() {
  local file="$seeds_out/seed-$(printf %02d $n)"
  printf "\\x$(printf %02x "$1")" >"$file"
  printf '%s\n' "$3" | protoc -I proto --encode="collide.v1.$2" "$seeds_proto" >>"$file"
  n=$((n + 1))
}
