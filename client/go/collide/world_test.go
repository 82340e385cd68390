package collide

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"testing"

	pb "github.com/collide-dev/collide/client/go/gen/collide/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
)

func TestWorldStateFoldsFramesAsTheCoreDoes(t *testing.T) {
	var s worldState
	if s.frame() != nil {
		t.Fatal("no frame before the first")
	}
	head, torso := PartOf(0, Sphere(Vec3{}, 1), nil), PartOf(1, Sphere(Vec3{}, 2), nil)
	cat := uint64(2)
	s.apply(&pb.Frame{Tick: 1, Bodies: []*pb.BodyUpdate{
		{Id: 1, Pose: PoseOf(Vec3{1, 0, 0}, nil), Parts: []*pb.BodyPart{head, torso}},
		{Id: 2, Pose: PoseOf(Vec3{}, nil), Parts: []*pb.BodyPart{head}}}})
	s.apply(&pb.Frame{Tick: 4, Removals: []int64{2}, Bodies: []*pb.BodyUpdate{
		{Id: 1, Category: &cat, PartPoses: []*pb.PartPose{{Part: 1, Local: PoseOf(Vec3{0, 0, 3}, nil)}}}}})
	want := &pb.Frame{Tick: 4, Bodies: []*pb.BodyUpdate{{Id: 1, Pose: PoseOf(Vec3{1, 0, 0}, nil), Category: &cat,
		Parts: []*pb.BodyPart{head, PartOf(1, Sphere(Vec3{}, 2), PoseOf(Vec3{0, 0, 3}, nil))}}}}
	if got := s.frame(); !proto.Equal(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	if torso.Local != nil {
		t.Error("the caller's messages must stay untouched")
	}
	s.apply(&pb.Frame{Tick: 5, Bodies: []*pb.BodyUpdate{{Id: 1, Parts: []*pb.BodyPart{head}}}})
	if parts := s.frame().GetBodies()[0].GetParts(); len(parts) != 1 || !proto.Equal(parts[0], head) {
		t.Errorf("a new part set drops the old poses: %v", parts)
	}
}

func TestGoValuesBuildTheMessages(t *testing.T) {
	frame := Frame{Tick: 3, Removals: []int64{9}, Bodies: []Body{typedPlayer(1, 2, 3),
		{ID: 4, Pose: &Pose{Position: Vec3{1, 0, 0}, Rotation: &Quat{W: 1}}, PartPoses: []PartPose{{1, Pose{Position: Vec3{0, 0, 1}}}},
			Teleport: true, Category: Ptr[uint64](2), Eye: &Vec3{0, 0, 1.6}}}}
	want := &pb.Frame{Tick: 3, Removals: []int64{9}, Bodies: []*pb.BodyUpdate{player(1, 2, 3),
		{Id: 4, Pose: PoseOf(Vec3{1, 0, 0}, &Quat{W: 1}), PartPoses: []*pb.PartPose{{Part: 1, Local: PoseOf(Vec3{0, 0, 1}, nil)}},
			Teleport: true, Category: Ptr[uint64](2), Eye: vec(Vec3{0, 0, 1.6})}}}
	if got := frame.Proto(); !proto.Equal(got, want) {
		t.Errorf("frame\n got %v\nwant %v", got, want)
	}
	shot := Shot{Shooter: 1, Origin: Vec3{0, 0, 1}, Direction: Vec3{1, 0, 0}, MaxRange: 50, At: TimeAt(4, 0.5),
		Claimed: &BodyTarget{2, 0}, Tolerance: 0.1, Mask: 6, Ignore: []int64{3}}
	wantShot := &pb.Shot{ShooterId: 1, Origin: vec(Vec3{0, 0, 1}), Direction: vec(Vec3{1, 0, 0}), MaxRange: Ptr(50.0),
		At: At(4, 0.5), Claimed: &pb.BodyTarget{BodyId: 2}, Tolerance: 0.1, CategoryMask: 6, IgnoreBodies: []int64{3}}
	if got := shot.Proto(); !proto.Equal(got, wantShot) {
		t.Errorf("shot\n got %v\nwant %v", got, wantShot)
	}
	if unbounded := (Shot{MaxRange: math.Inf(1)}).Proto(); unbounded.MaxRange != nil {
		t.Errorf("an infinite range is left unset: %v", unbounded)
	}
	if ShotViewTimeImplausible.String() != "VIEW_TIME_IMPLAUSIBLE" || MoveTimeBudget.String() != "TIME_BUDGET" ||
		ShotCode(99).String() != "99" {
		t.Errorf("code names %v %v %v", ShotViewTimeImplausible, MoveTimeBudget, ShotCode(99))
	}
}

// player has its origin at the feet, a head sphere (part 0), a torso capsule
// (part 1) and a movement capsule.
func player(id int64, x, y float64) *pb.BodyUpdate {
	return &pb.BodyUpdate{Id: id, Pose: PoseOf(Vec3{x, y, 0}, nil),
		Parts: []*pb.BodyPart{
			PartOf(0, Sphere(Vec3{0, 0, 1.7}, 0.15), nil),
			PartOf(1, Capsule(Vec3{0, 0, 0.9}, Vec3{0, 0, 1.4}, 0.3), nil)},
		MovementShape: Capsule(Vec3{0, 0, 0.5}, Vec3{0, 0, 1.5}, 0.4)}
}

func moveTo(id int64, x, y float64) *pb.BodyUpdate {
	return &pb.BodyUpdate{Id: id, Pose: PoseOf(Vec3{x, y, 0}, nil)}
}

// arena is a floor (element 1, z = 0) and a wall (element 2, x in [10, 11]).
func arena(id string, policy *pb.WorldPolicy) *pb.CreateWorldRequest {
	if policy == nil {
		policy = &pb.WorldPolicy{}
	}
	speed := 10.0
	policy.DefaultMaxSpeed = &speed
	return &pb.CreateWorldRequest{WorldId: id, HistoryTicks: 16, Policy: policy, Statics: []*pb.StaticElement{
		MeshElement(1, []float64{-50, -50, 0, 50, -50, 0, 50, 50, 0, -50, 50, 0}, []uint32{0, 1, 2, 0, 2, 3}),
		ShapeElement(2, Aabb(Vec3{10, -50, 0}, Vec3{11, 50, 20}))}}
}

// arenaStatics are arena's floor and wall.
func arenaStatics() []*StaticElement { return arena("", nil).GetStatics() }

// typedPlayer is player as a Go value.
func typedPlayer(id int64, x, y float64) Body {
	return Body{ID: id, Pose: &Pose{Position: Vec3{x, y, 0}},
		Parts: []Part{
			{ID: 0, Shape: Sphere(Vec3{0, 0, 1.7}, 0.15)},
			{ID: 1, Shape: Capsule(Vec3{0, 0, 0.9}, Vec3{0, 0, 1.4}, 0.3)}},
		MovementShape: Capsule(Vec3{0, 0, 0.5}, Vec3{0, 0, 1.5}, 0.4)}
}

func near(t *testing.T, got, want float64, what string) {
	t.Helper()
	if math.Abs(got-want) > 1e-9 {
		t.Errorf("%s: %v != %v", what, got, want)
	}
}

func codeOf(err error) string {
	var ce *Error
	if errors.As(err, &ce) {
		return ce.Code.String()
	}
	return fmt.Sprint(err)
}

func bodyTarget(body int64, part int32) *pb.Target {
	return &pb.Target{Target: &pb.Target_Body{Body: &pb.BodyTarget{BodyId: body, PartId: part}}}
}

func staticTarget(element int64, triangle uint32) *pb.Target {
	return &pb.Target{Target: &pb.Target_StaticElement{StaticElement: &pb.StaticTarget{ElementId: element, Triangle: triangle}}}
}

func TestWorlds(t *testing.T) {
	c, ctx, _ := liveClient(t)

	t.Run("lifecycle and errors", func(t *testing.T) {
		w, err := c.CreateWorldFromRequest(ctx, arena("life", nil))
		if err != nil {
			t.Fatal(err)
		}
		if info := w.Messages().Created(); info.GetWorldId() != "life" || info.GetStaticElements() != 2 || info.GetTriangles() != 2 ||
			info.GetHistoryTicks() != 16 {
			t.Errorf("created %v", info)
		}
		if _, err := c.CreateWorldFromRequest(ctx, arena("life", nil)); codeOf(err) != "AlreadyExists" {
			t.Errorf("want AlreadyExists, got %v", err)
		}
		bad := arena("bad", nil)
		bad.HistoryTicks = -1
		_, err = c.CreateWorldFromRequest(ctx, bad)
		var ce *Error
		if !errors.As(err, &ce) || ce.Code != codes.InvalidArgument || !reflect.DeepEqual(ce.Fields(), []string{"history_ticks"}) {
			t.Errorf("want INVALID_ARGUMENT history_ticks, got %v", err)
		}
		worlds, err := c.ListWorlds(ctx)
		if err != nil || len(worlds) != 1 || worlds[0].ID != "life" || worlds[0].Triangles != 2 {
			t.Errorf("list %v %v", worlds, err)
		}
		if err := w.Delete(ctx); err != nil {
			t.Fatal(err)
		}
		_, err = w.Messages().Info(ctx)
		if !IsWorldNotFound(err) || !errors.As(err, &ce) || ce.Domain != "collide.v1" {
			t.Errorf("want WORLD_NOT_FOUND, got %v", err)
		}
	})

	t.Run("the header the server requires", func(t *testing.T) {
		w, err := c.CreateWorldFromRequest(ctx, arena("header", nil))
		if err != nil {
			t.Fatal(err)
		}
		defer w.Delete(ctx)
		if info, err := w.Messages().Info(ctx); err != nil || info.GetWorldId() != "header" {
			t.Errorf("info %v %v", info, err)
		}
		_, err = c.worlds.GetWorld(ctx, &pb.GetWorldRequest{WorldId: "header"}) // no header
		var ce *Error
		if !errors.As(wrapError(err), &ce) || ce.Code != codes.InvalidArgument || ce.Fields()[0] != WorldHeader {
			t.Errorf("want INVALID_ARGUMENT %s, got %v", WorldHeader, err)
		}
	})

	t.Run("frames, queries, packed rays", func(t *testing.T) {
		w, err := c.CreateWorldFromRequest(ctx, arena("queries", nil))
		if err != nil {
			t.Fatal(err)
		}
		defer w.Delete(ctx)
		if _, err := w.Messages().PushFrame(ctx, &pb.Frame{Tick: 1, Bodies: []*pb.BodyUpdate{player(1, 0, 0), player(2, 5, 0), player(3, 15, 0)}}); err != nil {
			t.Fatal(err)
		}
		if r, err := w.Messages().PushFrame(ctx, &pb.Frame{Tick: 3, Bodies: []*pb.BodyUpdate{moveTo(2, 7, 0)}}); err != nil || r.GetOldestTick() != 1 {
			t.Fatalf("push %v %v", r, err)
		}
		if _, err := w.Messages().PushFrame(ctx, &pb.Frame{Tick: 3}); codeOf(err) != "FailedPrecondition" {
			t.Errorf("want FailedPrecondition, got %v", err)
		}
		_, err = w.Messages().PushFrame(ctx, &pb.Frame{Tick: 4, Bodies: []*pb.BodyUpdate{{Id: 9, Pose: PoseOf(Vec3{}, &Quat{2, 0, 0, 0})}}})
		var ce *Error
		if errors.As(err, &ce) {
			fields := ce.Fields()
			sort.Strings(fields)
			if !reflect.DeepEqual(fields, []string{"frame.bodies[0].parts", "frame.bodies[0].pose.rotation"}) {
				t.Errorf("fields %q", fields)
			}
		} else {
			t.Errorf("want INVALID_ARGUMENT, got %v", err)
		}
		if tick, ok := w.LatestTick(); !ok || tick != 3 {
			t.Errorf("latest tick %d %v", tick, ok)
		}
		info, err := w.Messages().Info(ctx)
		if err != nil || info.GetBodies() != 3 || info.GetLatestTick() != 3 || info.GetOldestTick() != 1 || info.GetFramesKept() != 2 {
			t.Errorf("info %v %v", info, err)
		}

		chest := Ray(Vec3{0, 0, 1.2}, Vec3{1, 0, 0}, math.Inf(1))
		filter := func(at *pb.WorldTime) *pb.SceneFilter { return &pb.SceneFilter{At: at, IgnoreBodies: []int64{1}} }
		r, err := w.Messages().Query(ctx, &pb.QueryWorldRequest{
			RayCasts: []*pb.WorldRayCast{
				// T = 1.5 lies a quarter of the way from tick 1 (x = 5) to tick 3 (x = 7).
				{Ray: chest, Filter: filter(At(1, 0.5))},
				{Ray: chest, Filter: filter(At(100, 0))},
				{Ray: chest, Filter: filter(nil), Mode: pb.RayMode_RAY_MODE_ALL},
				{Ray: chest, Filter: filter(nil), Mode: pb.RayMode_RAY_MODE_ANY},
				{Ray: Ray(Vec3{0, 0, 1.2}, Vec3{0, 1, 0}, 40), Filter: filter(nil)}},
			ShapeCasts: []*pb.WorldShapeCast{{Shape: Sphere(Vec3{0, 0, 10}, 0.5), Translation: vec(Vec3{0, 0, -20}), Filter: filter(nil)}},
			Overlaps: []*pb.WorldOverlap{{Shape: Sphere(Vec3{5, 0, 1.2}, 0.3), Filter: &pb.SceneFilter{At: At(1, 0)},
				Level: LevelContact}},
		})
		if err != nil {
			t.Fatal(err)
		}
		rays := r.GetRayCasts()
		near(t, rays[0].GetHits()[0].GetDistance(), 5.5-0.3, "rewound torso")
		if !proto.Equal(rays[0].GetHits()[0].GetTarget(), bodyTarget(2, 1)) || rays[0].GetTime().GetClamped() {
			t.Errorf("rewound %v", rays[0])
		}
		if tu := rays[1].GetTime(); !tu.GetClamped() || tu.GetAt().GetTick() != 3 {
			t.Errorf("clamped %v", tu)
		}
		near(t, rays[1].GetHits()[0].GetDistance(), 7-0.3, "latest torso")
		all := rays[2].GetHits()
		if len(all) != 3 || rays[2].GetTotalHits() != 3 || !proto.Equal(all[0].GetTarget(), bodyTarget(2, 1)) ||
			!proto.Equal(all[1].GetTarget(), staticTarget(2, 0)) || !proto.Equal(all[2].GetTarget(), bodyTarget(3, 1)) {
			t.Errorf("all %v", rays[2])
		}
		if len(rays[3].GetHits()) != 1 || len(rays[4].GetHits()) != 0 {
			t.Errorf("any %v, miss %v", rays[3], rays[4])
		}
		cast := r.GetShapeCasts()[0]
		near(t, cast.GetT(), 9.5/20, "time of impact")
		if !cast.GetHit() || cast.GetTarget().GetStaticElement().GetElementId() != 1 || fromPB(cast.GetNormal()) != (Vec3{0, 0, -1}) {
			t.Errorf("cast %v", cast)
		}
		o := r.GetOverlaps()[0].GetOverlaps()
		if len(o) != 1 || !proto.Equal(o[0].GetTarget(), bodyTarget(2, 1)) {
			t.Fatalf("overlap %v", o)
		}
		near(t, o[0].GetContact().GetDistance(), -0.6, "overlap depth")

		// The packed form answers as the readable one.
		flat := []float64{0, 0, 1.2, 1, 0, 0, math.Inf(1), 0, 0, 1.2, 0, 1, 0, 40, 0, 0, 5, 0, 0, -1, math.Inf(1)}
		packed, err := w.CastRaysPacked(ctx, flat, Filter{Ignore: []int64{1}}) // the typed call
		if err != nil {
			t.Fatal(err)
		}
		readable := &pb.QueryWorldRequest{}
		for i := 0; i < len(flat); i += 7 {
			readable.RayCasts = append(readable.RayCasts, &pb.WorldRayCast{
				Ray: Ray(Vec3{flat[i], flat[i+1], flat[i+2]}, Vec3{flat[i+3], flat[i+4], flat[i+5]}, flat[i+6]), Filter: filter(nil)})
		}
		rr, err := w.Messages().Query(ctx, readable)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(packed.Hit, []bool{true, false, true}) || !reflect.DeepEqual(packed.TargetKind, []int32{2, 0, 1}) ||
			packed.TargetID[0] != 2 || packed.TargetIndex[0] != 1 {
			t.Errorf("packed %+v", packed)
		}
		for i, rc := range rr.GetRayCasts() {
			if len(rc.GetHits()) == 1 && (packed.Distance[i] != rc.GetHits()[0].GetDistance() ||
				fromPB(rc.GetHits()[0].GetPoint()) != (Vec3{packed.Point[3*i], packed.Point[3*i+1], packed.Point[3*i+2]})) {
				t.Errorf("ray %d: packed %v, readable %v", i, packed.Distance[i], rc)
			}
		}
	})

	t.Run("every shot verdict, readable and packed alike", func(t *testing.T) {
		w, err := c.CreateWorld(ctx, WorldSpec{ID: "shots", HistoryTicks: 16, Statics: arenaStatics(),
			Policy: &Policy{MaxRewindTicks: Ptr[int32](4), MaxOriginOffset: Ptr(2.0), DefaultMaxSpeed: Ptr(10.0)}})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Delete(ctx)
		if _, err := w.PushFrame(ctx, Frame{Tick: 1, Bodies: []Body{
			typedPlayer(1, 0, 0), typedPlayer(2, 5, 0), typedPlayer(3, 15, 0), typedPlayer(4, 3, 2)}}); err != nil {
			t.Fatal(err)
		}
		if oldest, err := w.PushFrame(ctx, Frame{Tick: 10}); err != nil || oldest != 1 {
			t.Fatal(oldest, err)
		}
		type shot struct {
			shooter     int64
			origin, dir Vec3
			at          *Time
			body        int64
			part        int32
			want        ShotCode
		}
		eye := Vec3{0, 0, 1.2}
		shots := []shot{
			{1, eye, Vec3{1, 0, 0}, nil, 2, 1, ShotConfirmed},
			{1, eye, Vec3{1, 0, 0}, nil, 2, 0, ShotHitOtherPart},
			{1, eye, Vec3{1, 0, 0}, nil, 3, 1, ShotHitOtherBody},          // 2 stands in front
			{4, Vec3{3, 2, 1.2}, Vec3{12, -2, 0}, nil, 3, 1, ShotBlocked}, // by the wall
			{1, eye, Vec3{0, -1, 0}, nil, 2, 1, ShotMissed},
			{1, eye, Vec3{1, 0, 0}, TimeAt(1, 0), 2, 1, ShotRewindTooOld},
			{1, eye, Vec3{1, 0, 0}, TimeAt(11, 0), 2, 1, ShotInTheFuture},
			{1, Vec3{0, 9, 1.2}, Vec3{1, 0, 0}, nil, 2, 1, ShotOriginImplausible},
			{99, eye, Vec3{1, 0, 0}, nil, 2, 1, ShotUnknownShooter},
			{1, eye, Vec3{1, 0, 0}, nil, 42, 1, ShotUnknownTarget},
		}
		var readable []Shot
		var packed PackedShots
		for _, s := range shots {
			readable = append(readable, Shot{Shooter: s.shooter, Origin: s.origin, Direction: s.dir, At: s.at,
				Claimed: &BodyTarget{s.body, s.part}})
			packed.Add(s.shooter, s.origin, s.dir, math.Inf(1), s.at, s.body, s.part, 0)
		}
		verdicts, err := w.ValidateShots(ctx, readable)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range verdicts {
			if v.Code != shots[i].want {
				t.Errorf("shot %d: %v, want %v", i, v.Code, shots[i].want)
			}
		}
		if verdicts[0].Code.String() != "CONFIRMED" || fmt.Sprint(verdicts[3].Code) != "BLOCKED" {
			t.Errorf("codes print without their prefix: %v %v", verdicts[0].Code, verdicts[3].Code)
		}
		near(t, verdicts[0].FirstHit.Distance, 4.7, "confirmed distance")
		if verdicts[0].FirstHit.Target != (Target{TargetBody, 2, 1}) || verdicts[3].FirstHit.Target != (Target{TargetStatic, 2, 0}) {
			t.Errorf("first hits %+v, %+v", verdicts[0].FirstHit, verdicts[3].FirstHit)
		}
		near(t, verdicts[7].OriginOffset, math.Hypot(9, 1.2), "origin offset from the feet")
		if verdicts[5].Time.Tick != 1 || verdicts[0].Time != (TimeUsed{Tick: 10}) {
			t.Errorf("times used %+v %+v", verdicts[5].Time, verdicts[0].Time)
		}
		fromPacked, err := w.ValidateShotsPacked(ctx, &packed)
		if err != nil || len(fromPacked) != len(verdicts) {
			t.Fatalf("packed %v %v", fromPacked, err)
		}
		for i := range verdicts {
			if !reflect.DeepEqual(fromPacked[i], verdicts[i]) {
				t.Errorf("shot %d: packed %+v, readable %+v", i, fromPacked[i], verdicts[i])
			}
		}
		invalid, err := w.ValidateShots(ctx, []Shot{{Shooter: 1, Origin: eye}})
		if err != nil || invalid[0].Code != ShotInvalid || len(invalid[0].Violations) == 0 {
			t.Errorf("a zero direction: %+v %v", invalid, err)
		}
	})

	t.Run("move verdicts", func(t *testing.T) {
		w, err := c.CreateWorld(ctx, WorldSpec{ID: "moves", HistoryTicks: 16, Statics: arenaStatics(),
			Policy: &Policy{DefaultMaxSpeed: Ptr(10.0)}})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Delete(ctx)
		if _, err := w.PushFrame(ctx, Frame{Tick: 1, Bodies: []Body{typedPlayer(1, 0, 0), typedPlayer(2, 8, 0)}}); err != nil {
			t.Fatal(err)
		}
		verdicts, err := w.ValidateMoves(ctx, []Move{
			{Body: 1, To: Vec3{0.5, 0, 0}, Elapsed: 0.1},
			{Body: 1, To: Vec3{5, 0, 0}, Elapsed: 0.1},
			{Body: 2, To: Vec3{12, 0, 0}, Elapsed: 1, MaxSpeed: Ptr(100.0)},
			{Body: 2, From: &Vec3{8, 0, 0}, To: Vec3{12, 3, 0}, Elapsed: 1, MaxSpeed: Ptr(100.0), Slide: true},
			{Body: 5, To: Vec3{1, 0, 0}, Elapsed: 1},
		})
		if err != nil {
			t.Fatal(err)
		}
		var codes []string
		for _, v := range verdicts {
			codes = append(codes, v.Code.String())
		}
		if !reflect.DeepEqual(codes, []string{"OK", "TOO_FAST", "BLOCKED", "BLOCKED", "UNKNOWN_BODY"}) ||
			verdicts[2].Code != MoveBlocked {
			t.Errorf("codes %v", codes)
		}
		near(t, verdicts[1].Speed, 50, "speed")
		if p := verdicts[2].AllowedPosition; p[0] > 10-0.4 || p[0] < 9.5 ||
			verdicts[2].Target != (Target{TargetStatic, 2, 0}) || verdicts[2].Normal != (Vec3{1, 0, 0}) {
			t.Errorf("blocked %+v", verdicts[2])
		}
		if p := verdicts[3].SlidPosition; p[1] < 2.9 {
			t.Errorf("slid to %v", p)
		}
	})

	t.Run("scene queries as Go values", func(t *testing.T) {
		w, err := c.CreateWorld(ctx, WorldSpec{ID: "typed-query", HistoryTicks: 16, Statics: arenaStatics()})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Delete(ctx)
		if _, err := w.PushFrame(ctx, Frame{Tick: 1, Bodies: []Body{typedPlayer(1, 0, 0), typedPlayer(2, 5, 0)}}); err != nil {
			t.Fatal(err)
		}
		if _, err := w.PushFrame(ctx, Frame{Tick: 2, Bodies: []Body{{ID: 2, Pose: &Pose{Position: Vec3{6, 0, 0}}}}}); err != nil {
			t.Fatal(err)
		}
		r, err := w.Query(ctx, SceneQuery{
			RayCasts: []RayCast{
				{Ray: Ray(Vec3{0, 0, 1.2}, Vec3{1, 0, 0}, math.Inf(1)), Filter: Filter{Ignore: []int64{1}}},
				{Ray: Ray(Vec3{0, 0, 1.2}, Vec3{1, 0, 0}, math.Inf(1)), Filter: Filter{At: TimeAt(1, 0), Ignore: []int64{1}}},
				{Ray: Ray(Vec3{0, 0, 1.2}, Vec3{1, 0, 0}, math.Inf(1)), Filter: Filter{Ignore: []int64{1}}, Mode: RayAll, MaxHits: 8}},
			ShapeCasts: []ShapeCast{{Shape: Sphere(Vec3{0, 0, 1.2}, 0.1), Translation: Vec3{20, 0, 0}, Filter: Filter{Ignore: []int64{1}}}},
			Overlaps:   []Overlap{{Shape: Sphere(Vec3{6, 0, 1}, 0.4), Level: LevelContact}}, // the torso only
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.RayCasts) != 3 || len(r.ShapeCasts) != 1 || len(r.Overlaps) != 1 {
			t.Fatalf("answers %+v", r)
		}
		now, then, all := r.RayCasts[0], r.RayCasts[1], r.RayCasts[2]
		if len(now.Hits) != 1 || now.Hits[0].Target != (Target{TargetBody, 2, 1}) || now.Time.Tick != 2 {
			t.Errorf("now %+v", now)
		}
		near(t, now.Hits[0].Distance, 6-0.3, "the torso now")
		near(t, then.Hits[0].Distance, 5-0.3, "the torso at tick 1")
		if all.TotalHits != 2 || len(all.Hits) != 2 || all.Hits[0].Target != (Target{TargetBody, 2, 1}) ||
			all.Hits[1].Target != (Target{TargetStatic, 2, 0}) {
			t.Errorf("all %+v", all)
		}
		if sc := r.ShapeCasts[0]; !sc.Hit || sc.Target.Kind != TargetBody || sc.Target.ID != 2 {
			t.Errorf("shape cast %+v", sc)
		}
		if o := r.Overlaps[0]; o.Total != 1 || o.Overlaps[0].Target != (Target{TargetBody, 2, 1}) || o.Overlaps[0].Contact == nil ||
			!o.Overlaps[0].Contact.Hit {
			t.Errorf("overlap %+v", o)
		}
		info, err := w.Info(ctx)
		if err != nil || info.ID != "typed-query" || info.Bodies != 2 || info.LatestTick != 2 || info.OldestTick != 1 ||
			info.Triangles != 2 || w.Created().StaticElements != 2 {
			t.Errorf("info %+v %v", info, err)
		}
	})

	t.Run("a lost world is re-created once per loss", func(t *testing.T) {
		var events []RecreatedEvent
		w, err := c.CreateWorldFromRequest(ctx, arena("lost", nil), OnRecreated(func(e RecreatedEvent) { events = append(events, e) }))
		if err != nil {
			t.Fatal(err)
		}
		defer w.Delete(ctx)
		if _, err := w.Messages().PushFrame(ctx, &pb.Frame{Tick: 1, Bodies: []*pb.BodyUpdate{player(1, 0, 0), player(2, 5, 0), player(3, 15, 0)}}); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Messages().PushFrame(ctx, &pb.Frame{Tick: 2, Bodies: []*pb.BodyUpdate{moveTo(2, 6, 0)}, Removals: []int64{3}}); err != nil {
			t.Fatal(err)
		}
		if err := c.World("lost").Delete(ctx); err != nil { // what a replica restart does to it
			t.Fatal(err)
		}
		if _, err := c.World("lost").Info(ctx); !IsWorldNotFound(err) {
			t.Errorf("an opened handle does not re-create: %v", err)
		}
		v, err := w.Messages().ValidateShots(ctx, []*pb.Shot{{ShooterId: 1, Origin: vec(Vec3{0, 0, 1.2}), Direction: vec(Vec3{1, 0, 0}),
			Claimed: &pb.BodyTarget{BodyId: 2, PartId: 1}}})
		if err != nil || v[0].GetCode() != pb.ShotCode_SHOT_CODE_CONFIRMED {
			t.Fatalf("after the loss %v %v", v, err)
		}
		near(t, v[0].GetFirstHit().GetDistance(), 5.7, "restored pose")
		if len(events) != 1 || events[0].LatestTick != 2 || !events[0].Restored || events[0].Cause.Reason != ReasonWorldNotFound {
			t.Errorf("events %+v", events)
		}
		info, err := w.Messages().Info(ctx)
		if err != nil || info.GetBodies() != 2 || info.GetLatestTick() != 2 || info.GetFramesKept() != 1 || w.Recreations() != 1 {
			t.Errorf("restored %v %v, %d recreations", info, err, w.Recreations())
		}

		fragile, err := c.CreateWorldFromRequest(ctx, arena("fragile", nil), WithoutRecreate())
		if err != nil {
			t.Fatal(err)
		}
		if err := c.World("fragile").Delete(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := fragile.Messages().PushFrame(ctx, &pb.Frame{Tick: 1, Bodies: []*pb.BodyUpdate{player(1, 0, 0)}}); !IsWorldNotFound(err) {
			t.Errorf("want WORLD_NOT_FOUND, got %v", err)
		}
	})
}

func TestWorldLostWithARestartIsRecreated(t *testing.T) {
	c, ctx, target := liveClient(t)
	var lost []RecreatedEvent
	w, err := c.CreateWorldFromRequest(ctx, arena("restart", nil), OnRecreated(func(e RecreatedEvent) { lost = append(lost, e) }))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Messages().PushFrame(ctx, &pb.Frame{Tick: 7, Bodies: []*pb.BodyUpdate{player(1, 0, 0), player(2, 5, 0)}}); err != nil {
		t.Fatal(err)
	}
	restartServer(ctx, t, t, c, target)
	if _, err := w.Messages().PushFrame(ctx, &pb.Frame{Tick: 8, Bodies: []*pb.BodyUpdate{moveTo(2, 4, 0)}}); err != nil {
		t.Fatal(err)
	}
	info, err := w.Messages().Info(ctx)
	if err != nil || len(lost) != 1 || lost[0].LatestTick != 7 || info.GetBodies() != 2 || info.GetOldestTick() != 7 ||
		info.GetLatestTick() != 8 {
		t.Errorf("after the restart %v %v, events %+v", info, err, lost)
	}
}

func TestExplanationsAndBodiesReadTheMessages(t *testing.T) {
	posed := &pb.PosedBody{Id: 2, Pose: PoseOf(Vec3{2, -0.5, 0}, &Quat{W: 1}), Category: 8, Eye: vec(Vec3{2, -0.5, 1.7}),
		Parts: []*pb.PosedPart{{Id: 0, Shape: Sphere(Vec3{2, -0.5, 1.7}, 0.15)}}}
	shot := ShotVerdictOf(&pb.ShotVerdict{Code: pb.ShotCode_SHOT_CODE_MISSED, Explanation: &pb.ShotExplanation{
		CommandAt: At(5, 0), Shooter: posed, ClaimedRewound: posed, Tolerance: 0.05, NearestClaimedPart: 0,
		NearestClaimedDistance: 0.09, Ray: Ray(Vec3{0, 0, 1.7}, Vec3{0, 0, 1}, math.Inf(1))}})
	e := shot.Explanation
	if e == nil || e.CommandAt != (Time{5, 0}) || e.ClaimedLatest != nil || e.NearestClaimedDistance != 0.09 {
		t.Fatalf("shot explanation %+v", e)
	}
	if e.Ray == nil || e.Ray.Direction != (Vec3{0, 0, 1}) || !math.IsInf(e.Ray.MaxDistance, 1) {
		t.Errorf("an unbounded ray: %+v", e.Ray)
	}
	want := PosedBody{ID: 2, Pose: Pose{Position: Vec3{2, -0.5, 0}, Rotation: &Quat{W: 1}}, Category: 8,
		Eye: Vec3{2, -0.5, 1.7}, Parts: []PosedPart{{0, Sphere(Vec3{2, -0.5, 1.7}, 0.15)}}}
	if got := *e.ClaimedRewound; got.ID != want.ID || !reflect.DeepEqual(got.Pose, want.Pose) || got.Eye != want.Eye ||
		len(got.Parts) != 1 || !proto.Equal(got.Parts[0].Shape, want.Parts[0].Shape) {
		t.Errorf("posed body\n got %+v\nwant %+v", got, want)
	}
	if plain := ShotVerdictOf(&pb.ShotVerdict{}); plain.Explanation != nil {
		t.Error("no explanation unless asked")
	}
	move := MoveVerdictOf(&pb.MoveVerdict{Code: pb.MoveCode_MOVE_CODE_BLOCKED, Explanation: &pb.MoveExplanation{
		From: vec(Vec3{3.5, 0, 0}), To: vec(Vec3{4.4, 0.9, 0}), Reason: "the straight sweep meets static 2",
		Sweeps: []*pb.MoveSweep{{From: vec(Vec3{3.5, 0, 0}), To: vec(Vec3{4.4, 0.9, 0}), Purpose: "straight"}},
		Contacts: []*pb.MoveContact{{Sweep: 0, T: 0.29, Position: vec(Vec3{3.76, 0.26, 0}), Normal: vec(Vec3{1, 0, 0}),
			Target: &pb.Target{Target: &pb.Target_StaticElement{StaticElement: &pb.StaticTarget{ElementId: 2}}}}}}})
	m := move.Explanation
	if m == nil || m.Reason == "" || len(m.Sweeps) != 1 || m.Sweeps[0].Purpose != "straight" || len(m.Contacts) != 1 ||
		m.Contacts[0].Target != (Target{TargetStatic, 2, 0}) || m.Shape != nil {
		t.Errorf("move explanation %+v", m)
	}
	if plain := MoveVerdictOf(&pb.MoveVerdict{}); plain.Explanation != nil {
		t.Error("no move explanation unless asked")
	}
	bodies := BodiesOf(&pb.GetBodiesResponse{Time: &pb.TimeUsed{At: At(4, 0.25)}, Bodies: []*pb.PosedBody{posed},
		Missing: []int64{99}})
	if bodies.Time != (TimeUsed{4, 0.25, false}) || len(bodies.Bodies) != 1 || bodies.Bodies[0].ID != 2 ||
		!reflect.DeepEqual(bodies.Missing, []int64{99}) {
		t.Errorf("bodies %+v", bodies)
	}
	// The Tick part, both ways.
	req := TickMessage{Bodies: &TickBodies{At: TimeAt(4, 0.25), IDs: []int64{2, 99}}}.Proto()
	if want := (&pb.GetBodiesRequest{At: At(4, 0.25), BodyIds: []int64{2, 99}}); !proto.Equal(req.GetBodies(), want) {
		t.Errorf("tick bodies %v", req.GetBodies())
	}
	answer := TickAnswerOf(&pb.TickResponse{Bodies: &pb.GetBodiesResponse{Missing: []int64{99}}})
	if answer.Bodies == nil || !reflect.DeepEqual(answer.Bodies.Missing, []int64{99}) {
		t.Errorf("tick answer bodies %+v", answer.Bodies)
	}
	if TickAnswerOf(&pb.TickResponse{}).Bodies != nil {
		t.Error("no bodies unless the part ran")
	}
}

// The Tick part visibility, both ways.
func TestTickVisibilityReadsAndBuildsTheMessages(t *testing.T) {
	seen := TickMessage{Visibility: &VisibilityQuery{At: TimeAt(4, 0), Observers: []int64{1}, TickSeconds: 0.5,
		Latency: 0.1, Margin: 2, TargetCategoryMask: 8}}.Proto()
	if want := (&pb.GetVisibilityRequest{At: At(4, 0), Observers: []int64{1}, TickSeconds: 0.5, Latency: 0.1,
		Margin: 2, TargetCategoryMask: 8}); !proto.Equal(seen.GetVisibility(), want) {
		t.Errorf("tick visibility %v", seen.GetVisibility())
	}
	if every := (TickMessage{Visibility: &VisibilityQuery{}}).Proto(); every.GetVisibility() == nil {
		t.Error("an empty query asks for every observer's set")
	}
	sets := TickAnswerOf(&pb.TickResponse{Visibility: &pb.GetVisibilityResponse{Pairs: 2, Hidden: 1,
		Sets: []*pb.VisibilitySet{{Observer: 1, Found: true, Visible: []int64{2}}}}}).Visibility
	if sets == nil || sets.Pairs != 2 || sets.Hidden != 1 || len(sets.Sets) != 1 ||
		!reflect.DeepEqual(sets.Sets[0], VisibilitySet{1, true, []int64{2}}) {
		t.Errorf("tick answer visibility %+v", sets)
	}
	if TickAnswerOf(&pb.TickResponse{}).Visibility != nil {
		t.Error("no visibility sets unless the part ran")
	}
}
