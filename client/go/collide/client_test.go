package collide

import (
	"errors"
	"math"
	"sort"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestBuildersSetTheirOneof(t *testing.T) {
	v := Vec3{1, 2, 3}
	shapes := map[string]interface{}{
		"point": Point(v).GetPoint(), "segment": Segment(v, v).GetSegment(), "sphere": Sphere(v, 1).GetSphere(),
		"capsule": Capsule(v, v, 1).GetCapsule(), "aabb": Aabb(v, v).GetAabb(), "obb": Obb(v, v, nil).GetObb(),
		"triangle": Triangle(v, v, v).GetTriangle(), "convex_hull": ConvexHull(v, v).GetConvexHull(),
		"halfspace": Halfspace(v, 1).GetHalfspace(),
	}
	for name, s := range shapes {
		if s == nil {
			t.Errorf("%s builder left its oneof unset", name)
		}
	}
	if Obb(v, v, nil).GetObb().GetRotation() != nil {
		t.Error("a nil rotation must stay unset (the identity)")
	}
	if q := Obb(v, v, &Quat{0, 1, 0, 0}).GetObb().GetRotation(); q.GetX() != 1 || q.GetW() != 0 {
		t.Errorf("rotation %v", q)
	}
	if got := len(ConvexHull(v, v, v).GetConvexHull().GetVertices()); got != 3 {
		t.Errorf("%d vertices", got)
	}
}

func TestRayMaxDistance(t *testing.T) {
	if Ray(Vec3{}, Vec3{1, 0, 0}, math.Inf(1)).MaxDistance != nil {
		t.Error("an unbounded ray leaves max_distance unset")
	}
	if got := Ray(Vec3{}, Vec3{1, 0, 0}, 2.5).GetMaxDistance(); got != 2.5 {
		t.Errorf("max_distance %v", got)
	}
}

func TestWrapErrorDecodesBadRequest(t *testing.T) {
	s, err := status.New(codes.InvalidArgument, "2 violations").WithDetails(&errdetails.BadRequest{
		FieldViolations: []*errdetails.BadRequest_FieldViolation{
			{Field: "pairs[3].b.capsule.radius", Description: "must be >= 0"},
			{Field: "level", Description: "must be set"},
		}})
	if err != nil {
		t.Fatal(err)
	}
	var ce *Error
	if !errors.As(wrapError(s.Err()), &ce) {
		t.Fatal("not an *Error")
	}
	if ce.Code != codes.InvalidArgument || len(ce.FieldViolations) != 2 ||
		ce.FieldViolations[0].Field != "pairs[3].b.capsule.radius" || ce.FieldViolations[1].Description != "must be set" {
		t.Errorf("%+v", ce)
	}
	if status.Code(ce) != codes.InvalidArgument {
		t.Error("status.Code must see through *Error")
	}
	if wrapError(nil) != nil {
		t.Error("nil must stay nil")
	}
}

func TestLiveClient(t *testing.T) {
	c, ctx, _ := liveClient(t)

	if s, err := c.Health(ctx, ""); err != nil || s != "SERVING" {
		t.Errorf("health %q %v", s, err)
	}
	if info, err := c.ServerInfo(ctx); err != nil || info.GetVersion() == "" || info.GetMaxItemsPerRequest() <= 0 {
		t.Errorf("server info %v %v", info, err)
	}

	res, err := c.QueryPairs(ctx, LevelContact, []Pair{{Sphere(Vec3{0, 0, 0}, 1), Sphere(Vec3{1.5, 0, 0}, 1)}})
	if err != nil || len(res) != 1 || !res[0].Hit || math.Abs(res[0].Distance+0.5) > 1e-12 || res[0].Normal != (Vec3{1, 0, 0}) {
		t.Errorf("contact %+v %v", res, err)
	}

	packed, err := c.QueryPairsPacked(ctx, LevelDistance, KindSphere, []float64{0, 0, 0, 1, 10, 0, 0, 1},
		KindPoint, []float64{0.5, 0, 0, 13, 0, 0})
	if err != nil || len(packed.Hit) != 2 || !packed.Hit[0] || packed.Hit[1] || math.Abs(packed.Distance[1]-2) > 1e-12 {
		t.Errorf("packed %+v %v", packed, err)
	}

	hits, err := c.CastRays(ctx, []Cast{{Ray(Vec3{-5, 0, 0}, Vec3{2, 0, 0}, math.Inf(1)), Aabb(Vec3{-1, -1, -1}, Vec3{1, 1, 1})}})
	if err != nil || !hits[0].Hit || math.Abs(hits[0].Distance-4) > 1e-12 || hits[0].Normal != (Vec3{-1, 0, 0}) {
		t.Errorf("ray %+v %v", hits, err)
	}
	packedHits, err := c.CastRaysPacked(ctx, KindSphere, []float64{-5, 0, 0, 1, 0, 0, math.Inf(1)}, []float64{0, 0, 0, 1})
	if err != nil || !packedHits.Hit[0] || math.Abs(packedHits.Distance[0]-4) > 1e-12 {
		t.Errorf("packed ray %+v %v", packedHits, err)
	}

	_, err = c.QueryPairs(ctx, LevelContact, []Pair{
		{Sphere(Vec3{}, -1), Point(Vec3{})}, {Point(Vec3{}), Capsule(Vec3{}, Vec3{1, 0, 0}, math.NaN())}})
	var ce *Error
	if !errors.As(err, &ce) || ce.Code != codes.InvalidArgument {
		t.Fatalf("want INVALID_ARGUMENT, got %v", err)
	}
	fields := ce.Fields()
	sort.Strings(fields)
	if len(fields) != 2 || fields[0] != "pairs[0].a.sphere.radius" || fields[1] != "pairs[1].b.capsule.radius" {
		t.Errorf("fields %q", fields)
	}

	_, err = c.QueryPairs(ctx, LevelIntersect, []Pair{{Halfspace(Vec3{0, 0, 1}, 0), Halfspace(Vec3{1, 0, 0}, 0)}})
	if !errors.As(err, &ce) || ce.Code != codes.Unimplemented {
		t.Errorf("want UNIMPLEMENTED, got %v", err)
	}
}
