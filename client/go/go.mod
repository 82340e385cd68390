module github.com/collide-dev/collide/client/go

go 1.19

// The versions are those of Debian bookworm's Go packages, which the build
// here vendors (vendor.py: golang-google-grpc-dev 1.33.3,
// golang-google-protobuf-dev 1.28.1, golang-google-genproto-dev of
// 2020-04-13, golang-github-golang-protobuf-1-5-dev 1.5.2, golang-golang-x-*)
// and tests against, offline. They are minimums: with a module proxy, a
// consumer's build may select newer ones.
require (
	google.golang.org/genproto v0.0.0-20200413115906-b5235f65be36
	google.golang.org/grpc v1.33.3
	google.golang.org/protobuf v1.28.1
)

require (
	github.com/golang/protobuf v1.5.2 // indirect
	golang.org/x/net v0.7.0 // indirect
	golang.org/x/sys v0.3.0 // indirect
	golang.org/x/text v0.7.0 // indirect
)
