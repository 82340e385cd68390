module collide/client/go

go 1.19

// Dependencies: google.golang.org/grpc, google.golang.org/protobuf and
// google.golang.org/genproto (errdetails). The build here is offline: CMake
// compiles this module in GOPATH mode against Debian's packaged sources
// (golang-google-grpc-dev 1.33, golang-google-protobuf-dev 1.28,
// golang-google-genproto-dev), downloading nothing. With a module proxy,
// `go mod tidy` records the versions instead.
