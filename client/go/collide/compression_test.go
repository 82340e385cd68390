package collide

import (
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/encoding/gzip"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	pb "github.com/collide-dev/collide/client/go/gen/collide/v1"
)

// The server does not inflate requests (docs/operations.md, "Security"), so it advertises
// only identity in grpc-accept-encoding and refuses a gzip request with
// UNIMPLEMENTED naming the accepted encoding, with grpc-accept-encoding:
// identity on the refusal too, on every RPC (gRPC compression spec).
func TestGzipIsNotAdvertisedAndIsRefused(t *testing.T) {
	c, ctx, _ := liveClient(t)

	var header metadata.MD
	if _, err := c.Service().GetServerInfo(ctx, &pb.GetServerInfoRequest{}, grpc.Header(&header)); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(header.Get("grpc-accept-encoding"), ","); got != "identity" {
		t.Errorf("grpc-accept-encoding = %q, want \"identity\"", got)
	}

	gz := grpc.UseCompressor(gzip.Name)
	sphere := &pb.Shape{Shape: &pb.Shape_Sphere{Sphere: &pb.Sphere{Radius: 1}}}
	packed := &pb.PackedShapes{Kind: pb.PackedShapeKind_PACKED_SHAPE_KIND_SPHERE, Data: []float64{0, 0, 0, 1}}
	// The refusal is trailers only: its metadata is the trailer.
	var refusal metadata.MD
	calls := map[string]func() error{
		"QueryPairs": func() error {
			_, err := c.Service().QueryPairs(ctx, &pb.QueryPairsRequest{Pairs: []*pb.ShapePair{{A: sphere, B: sphere}}}, gz)
			return err
		},
		"QueryPairsPacked": func() error {
			_, err := c.Service().QueryPairsPacked(ctx, &pb.QueryPairsPackedRequest{A: packed, B: packed}, gz)
			return err
		},
		"CastRays": func() error {
			_, err := c.Service().CastRays(ctx, &pb.CastRaysRequest{}, gz)
			return err
		},
		"CastRaysPacked": func() error {
			_, err := c.Service().CastRaysPacked(ctx, &pb.CastRaysPackedRequest{Shapes: packed}, gz)
			return err
		},
		"GetServerInfo": func() error {
			_, err := c.Service().GetServerInfo(ctx, &pb.GetServerInfoRequest{}, gz, grpc.Trailer(&refusal))
			return err
		},
		// gRPC's own health service parses its request itself; the server
		// gives it the same refusal (server/request_encoding.cc).
		"Health.Check": func() error {
			_, err := c.health.Check(ctx, &healthpb.HealthCheckRequest{}, gz)
			return err
		},
		"Health.Watch": func() error {
			stream, err := c.health.Watch(ctx, &healthpb.HealthCheckRequest{}, gz)
			if err == nil {
				_, err = stream.Recv()
			}
			return err
		},
	}
	for name, call := range calls {
		s := status.Convert(call())
		want := "the request is compressed with gzip; this server accepts grpc-encoding identity (uncompressed) only"
		if s.Code() != codes.Unimplemented || s.Message() != want {
			t.Errorf("%s with gzip: %v %q, want Unimplemented %q", name, s.Code(), s.Message(), want)
		}
	}
	if got := strings.Join(refusal.Get("grpc-accept-encoding"), ","); got != "identity" {
		t.Errorf("grpc-accept-encoding on the refusal = %q, want \"identity\"", got)
	}
}
