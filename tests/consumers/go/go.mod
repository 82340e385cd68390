module example.com/collide-consumer

go 1.19

require github.com/collide-dev/collide/client/go v0.9.0

require (
	github.com/golang/protobuf v1.5.2 // indirect
	golang.org/x/net v0.7.0 // indirect
	golang.org/x/sys v0.3.0 // indirect
	golang.org/x/text v0.7.0 // indirect
	google.golang.org/genproto v0.0.0-20200413115906-b5235f65be36 // indirect
	google.golang.org/grpc v1.33.3 // indirect
	google.golang.org/protobuf v1.28.1 // indirect
)

// A checkout of the collide repository's client/go beside this module
// (tests/packaging/go_package_test.sh copies it there).
replace github.com/collide-dev/collide/client/go => ../collide-go
