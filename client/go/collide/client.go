// Package collide is the Go client of the collide collision query service
// (collide.v1): pair queries (readable and packed), ray casts, server info
// and health, and worlds (CreateWorld: a World handle for frames, scene
// queries, shot and move verdicts and the Tick stream), over one gRPC
// connection.
//
//	c, err := collide.Dial("127.0.0.1:50051")
//	res, err := c.QueryPairs(ctx, collide.LevelContact, []collide.Pair{
//		{A: collide.Sphere(collide.Vec3{0, 0, 0}, 1), B: collide.Sphere(collide.Vec3{1.5, 0, 0}, 1)}})
//
// Errors are *Error (errors.As) carrying the gRPC code and the request's
// field violations.
package collide

import (
	"context"

	pb "github.com/collide-dev/collide/client/go/gen/collide/v1"
	"google.golang.org/grpc"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// Query levels (collide.proto QueryLevel).
const (
	LevelIntersect = pb.QueryLevel_QUERY_LEVEL_INTERSECT
	LevelDistance  = pb.QueryLevel_QUERY_LEVEL_DISTANCE
	LevelContact   = pb.QueryLevel_QUERY_LEVEL_CONTACT
)

// Packed shape kinds (collide.proto PackedShapeKind).
const (
	KindPoint     = pb.PackedShapeKind_PACKED_SHAPE_KIND_POINT
	KindSegment   = pb.PackedShapeKind_PACKED_SHAPE_KIND_SEGMENT
	KindSphere    = pb.PackedShapeKind_PACKED_SHAPE_KIND_SPHERE
	KindCapsule   = pb.PackedShapeKind_PACKED_SHAPE_KIND_CAPSULE
	KindAabb      = pb.PackedShapeKind_PACKED_SHAPE_KIND_AABB
	KindObb       = pb.PackedShapeKind_PACKED_SHAPE_KIND_OBB
	KindTriangle  = pb.PackedShapeKind_PACKED_SHAPE_KIND_TRIANGLE
	KindHalfspace = pb.PackedShapeKind_PACKED_SHAPE_KIND_HALFSPACE
)

// Pair is one pair query between shapes A and B.
type Pair struct{ A, B *pb.Shape }

// Cast is one ray cast against a shape.
type Cast struct {
	Ray   *pb.Ray
	Shape *pb.Shape
}

// PairResult answers one pair (collide.proto PairResult): fields a level does
// not compute are zero; Normal is unit, from A towards B.
type PairResult struct {
	Hit            bool
	Distance       float64
	PointA, PointB Vec3
	Normal         Vec3
	Status         pb.ResultStatus
}

// PackedPairResults holds parallel arrays: pair i at [i] (Hit, Distance) or
// [3i:3i+3] (vectors). INTERSECT fills only Hit.
type PackedPairResults struct {
	Hit                    []bool
	Distance               []float64
	PointA, PointB, Normal []float64
	NotConverged           []int32
}

// RayHit is a ray's first contact with a shape; on a miss only Status is set.
type RayHit struct {
	Hit           bool
	Distance      float64
	Point, Normal Vec3
	Status        pb.ResultStatus
}

// PackedRayHits holds parallel arrays as PackedPairResults does.
type PackedRayHits struct {
	Hit           []bool
	Distance      []float64
	Point, Normal []float64
	NotConverged  []int32
}

// Client calls one collide-server (or a balancer in front of several).
type Client struct {
	conn   *grpc.ClientConn
	svc    pb.CollisionServiceClient
	worlds pb.WorldServiceClient
	health healthpb.HealthClient
}

// Dial connects to target ("host:port") in plaintext, with opts added to
// the connection's options; Connect takes the TLS and token options.
func Dial(target string, opts ...grpc.DialOption) (*Client, error) {
	return Connect(target, Options{DialOptions: opts})
}

// Connect connects to target ("host:port") as o says (the zero Options:
// plaintext, no token). The connection is made lazily, on the first call
// (grpc.Dial without WithBlock: Debian's grpc-go 1.33 has no
// grpc.NewClient).
func Connect(target string, o Options) (*Client, error) {
	security, err := o.dialOptions()
	if err != nil {
		return nil, err
	}
	conn, err := grpc.Dial(target, append(security, o.DialOptions...)...)
	if err != nil {
		return nil, err
	}
	return NewClient(conn), nil
}

// NewClient uses an existing connection (which Close then closes).
func NewClient(conn *grpc.ClientConn) *Client {
	return &Client{conn: conn, svc: pb.NewCollisionServiceClient(conn), worlds: pb.NewWorldServiceClient(conn),
		health: healthpb.NewHealthClient(conn)}
}

// Close closes the connection.
func (c *Client) Close() error { return c.conn.Close() }

// Service is the generated stub, for requests built by hand.
func (c *Client) Service() pb.CollisionServiceClient { return c.svc }

// QueryPairs queries every pair at level; result i answers pairs[i].
func (c *Client) QueryPairs(ctx context.Context, level pb.QueryLevel, pairs []Pair) ([]PairResult, error) {
	req := &pb.QueryPairsRequest{Level: level, Pairs: make([]*pb.ShapePair, len(pairs))}
	for i, p := range pairs {
		req.Pairs[i] = &pb.ShapePair{A: p.A, B: p.B}
	}
	resp, err := c.svc.QueryPairs(ctx, req)
	if err != nil {
		return nil, wrapError(err)
	}
	out := make([]PairResult, len(resp.GetResults()))
	for i, r := range resp.GetResults() {
		out[i] = pairResultOf(r)
	}
	return out, nil
}

func pairResultOf(r *pb.PairResult) PairResult {
	return PairResult{r.GetHit(), r.GetDistance(), fromPB(r.GetPointA()), fromPB(r.GetPointB()),
		fromPB(r.GetNormal()), r.GetStatus()}
}

// QueryPairsPacked queries pair i = (a[i], b[i]) with the shapes given as flat
// runs of doubles (PackedStrides; e.g. a sphere is x, y, z, radius).
func (c *Client) QueryPairsPacked(ctx context.Context, level pb.QueryLevel, kindA pb.PackedShapeKind, a []float64,
	kindB pb.PackedShapeKind, b []float64) (*PackedPairResults, error) {
	resp, err := c.svc.QueryPairsPacked(ctx, &pb.QueryPairsPackedRequest{
		Level: level,
		A:     &pb.PackedShapes{Kind: kindA, Data: a},
		B:     &pb.PackedShapes{Kind: kindB, Data: b},
	})
	if err != nil {
		return nil, wrapError(err)
	}
	return &PackedPairResults{resp.GetHit(), resp.GetDistance(), resp.GetPointA(), resp.GetPointB(),
		resp.GetNormal(), resp.GetNotConverged()}, nil
}

// CastRays casts every ray against its shape; hit i answers casts[i].
func (c *Client) CastRays(ctx context.Context, casts []Cast) ([]RayHit, error) {
	req := &pb.CastRaysRequest{Casts: make([]*pb.RayCast, len(casts))}
	for i, cast := range casts {
		req.Casts[i] = &pb.RayCast{Ray: cast.Ray, Shape: cast.Shape}
	}
	resp, err := c.svc.CastRays(ctx, req)
	if err != nil {
		return nil, wrapError(err)
	}
	out := make([]RayHit, len(resp.GetHits()))
	for i, h := range resp.GetHits() {
		out[i] = RayHit{h.GetHit(), h.GetDistance(), fromPB(h.GetPoint()), fromPB(h.GetNormal()), h.GetStatus()}
	}
	return out, nil
}

// CastRaysPacked casts ray i (7 doubles: origin, direction, max_distance;
// math.Inf(1) for unbounded) against shape i of kind.
func (c *Client) CastRaysPacked(ctx context.Context, kind pb.PackedShapeKind, rays, shapes []float64) (*PackedRayHits, error) {
	resp, err := c.svc.CastRaysPacked(ctx, &pb.CastRaysPackedRequest{
		Rays: rays, Shapes: &pb.PackedShapes{Kind: kind, Data: shapes}})
	if err != nil {
		return nil, wrapError(err)
	}
	return &PackedRayHits{resp.GetHit(), resp.GetDistance(), resp.GetPoint(), resp.GetNormal(),
		resp.GetNotConverged()}, nil
}

// ServerInfo returns the answering replica's version, limits and counters.
func (c *Client) ServerInfo(ctx context.Context) (*pb.ServerInfo, error) {
	info, err := c.svc.GetServerInfo(ctx, &pb.GetServerInfoRequest{})
	return info, wrapError(err)
}

// Health returns the grpc.health.v1 status name of service ("" for the
// server): "SERVING", "NOT_SERVING", ...
func (c *Client) Health(ctx context.Context, service string) (string, error) {
	resp, err := c.health.Check(ctx, &healthpb.HealthCheckRequest{Service: service})
	if err != nil {
		return "", wrapError(err)
	}
	return resp.GetStatus().String(), nil
}
