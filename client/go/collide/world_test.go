package collide

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
	"testing"

	pb "collide/client/go/gen/collide/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
)

func TestWorldStateFoldsFramesAsTheCoreDoes(t *testing.T) {
	var s worldState
	if s.frame() != nil {
		t.Fatal("no frame before the first")
	}
	head, torso := Part(0, Sphere(Vec3{}, 1), nil), Part(1, Sphere(Vec3{}, 2), nil)
	cat := uint64(2)
	s.apply(&pb.Frame{Tick: 1, Bodies: []*pb.BodyUpdate{
		{Id: 1, Pose: PoseOf(Vec3{1, 0, 0}, nil), Parts: []*pb.BodyPart{head, torso}},
		{Id: 2, Pose: PoseOf(Vec3{}, nil), Parts: []*pb.BodyPart{head}}}})
	s.apply(&pb.Frame{Tick: 4, Removals: []int64{2}, Bodies: []*pb.BodyUpdate{
		{Id: 1, Category: &cat, PartPoses: []*pb.PartPose{{Part: 1, Local: PoseOf(Vec3{0, 0, 3}, nil)}}}}})
	want := &pb.Frame{Tick: 4, Bodies: []*pb.BodyUpdate{{Id: 1, Pose: PoseOf(Vec3{1, 0, 0}, nil), Category: &cat,
		Parts: []*pb.BodyPart{head, Part(1, Sphere(Vec3{}, 2), PoseOf(Vec3{0, 0, 3}, nil))}}}}
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

// player has its origin at the feet, a head sphere (part 0), a torso capsule
// (part 1) and a movement capsule.
func player(id int64, x, y float64) *pb.BodyUpdate {
	return &pb.BodyUpdate{Id: id, Pose: PoseOf(Vec3{x, y, 0}, nil),
		Parts: []*pb.BodyPart{
			Part(0, Sphere(Vec3{0, 0, 1.7}, 0.15), nil),
			Part(1, Capsule(Vec3{0, 0, 0.9}, Vec3{0, 0, 1.4}, 0.3), nil)},
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
		w, err := c.CreateWorld(ctx, arena("life", nil))
		if err != nil {
			t.Fatal(err)
		}
		if info := w.Created(); info.GetWorldId() != "life" || info.GetStaticElements() != 2 || info.GetTriangles() != 2 ||
			info.GetHistoryTicks() != 16 {
			t.Errorf("created %v", info)
		}
		if _, err := c.CreateWorld(ctx, arena("life", nil)); codeOf(err) != "AlreadyExists" {
			t.Errorf("want AlreadyExists, got %v", err)
		}
		bad := arena("bad", nil)
		bad.HistoryTicks = -1
		_, err = c.CreateWorld(ctx, bad)
		var ce *Error
		if !errors.As(err, &ce) || ce.Code != codes.InvalidArgument || !reflect.DeepEqual(ce.Fields(), []string{"history_ticks"}) {
			t.Errorf("want INVALID_ARGUMENT history_ticks, got %v", err)
		}
		worlds, err := c.ListWorlds(ctx)
		if err != nil || len(worlds) != 1 || worlds[0].GetWorldId() != "life" {
			t.Errorf("list %v %v", worlds, err)
		}
		if err := w.Delete(ctx); err != nil {
			t.Fatal(err)
		}
		_, err = w.Info(ctx)
		if !IsWorldNotFound(err) || !errors.As(err, &ce) || ce.Domain != "collide.v1" {
			t.Errorf("want WORLD_NOT_FOUND, got %v", err)
		}
	})

	t.Run("the header the server requires", func(t *testing.T) {
		w, err := c.CreateWorld(ctx, arena("header", nil))
		if err != nil {
			t.Fatal(err)
		}
		defer w.Delete(ctx)
		if info, err := w.Info(ctx); err != nil || info.GetWorldId() != "header" {
			t.Errorf("info %v %v", info, err)
		}
		_, err = c.worlds.GetWorld(ctx, &pb.GetWorldRequest{WorldId: "header"}) // no header
		var ce *Error
		if !errors.As(wrapError(err), &ce) || ce.Code != codes.InvalidArgument || ce.Fields()[0] != WorldHeader {
			t.Errorf("want INVALID_ARGUMENT %s, got %v", WorldHeader, err)
		}
	})

	t.Run("frames, queries, packed rays", func(t *testing.T) {
		w, err := c.CreateWorld(ctx, arena("queries", nil))
		if err != nil {
			t.Fatal(err)
		}
		defer w.Delete(ctx)
		if _, err := w.PushFrame(ctx, &pb.Frame{Tick: 1, Bodies: []*pb.BodyUpdate{player(1, 0, 0), player(2, 5, 0), player(3, 15, 0)}}); err != nil {
			t.Fatal(err)
		}
		if r, err := w.PushFrame(ctx, &pb.Frame{Tick: 3, Bodies: []*pb.BodyUpdate{moveTo(2, 7, 0)}}); err != nil || r.GetOldestTick() != 1 {
			t.Fatalf("push %v %v", r, err)
		}
		if _, err := w.PushFrame(ctx, &pb.Frame{Tick: 3}); codeOf(err) != "FailedPrecondition" {
			t.Errorf("want FailedPrecondition, got %v", err)
		}
		_, err = w.PushFrame(ctx, &pb.Frame{Tick: 4, Bodies: []*pb.BodyUpdate{{Id: 9, Pose: PoseOf(Vec3{}, &Quat{2, 0, 0, 0})}}})
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
		info, err := w.Info(ctx)
		if err != nil || info.GetBodies() != 3 || info.GetLatestTick() != 3 || info.GetOldestTick() != 1 || info.GetFramesKept() != 2 {
			t.Errorf("info %v %v", info, err)
		}

		chest := Ray(Vec3{0, 0, 1.2}, Vec3{1, 0, 0}, math.Inf(1))
		filter := func(at *pb.WorldTime) *pb.SceneFilter { return &pb.SceneFilter{At: at, IgnoreBodies: []int64{1}} }
		r, err := w.Query(ctx, &pb.QueryWorldRequest{
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
		packed, err := w.CastRaysPacked(ctx, flat, filter(nil))
		if err != nil {
			t.Fatal(err)
		}
		readable := &pb.QueryWorldRequest{}
		for i := 0; i < len(flat); i += 7 {
			readable.RayCasts = append(readable.RayCasts, &pb.WorldRayCast{
				Ray: Ray(Vec3{flat[i], flat[i+1], flat[i+2]}, Vec3{flat[i+3], flat[i+4], flat[i+5]}, flat[i+6]), Filter: filter(nil)})
		}
		rr, err := w.Query(ctx, readable)
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
		rewind, offset := int32(4), 2.0
		w, err := c.CreateWorld(ctx, arena("shots", &pb.WorldPolicy{MaxRewindTicks: &rewind, MaxOriginOffset: &offset}))
		if err != nil {
			t.Fatal(err)
		}
		defer w.Delete(ctx)
		if _, err := w.PushFrame(ctx, &pb.Frame{Tick: 1, Bodies: []*pb.BodyUpdate{
			player(1, 0, 0), player(2, 5, 0), player(3, 15, 0), player(4, 3, 2)}}); err != nil {
			t.Fatal(err)
		}
		if _, err := w.PushFrame(ctx, &pb.Frame{Tick: 10}); err != nil {
			t.Fatal(err)
		}
		type shot struct {
			shooter     int64
			origin, dir Vec3
			at          *pb.WorldTime
			body        int64
			part        int32
			want        pb.ShotCode
		}
		eye := Vec3{0, 0, 1.2}
		shots := []shot{
			{1, eye, Vec3{1, 0, 0}, nil, 2, 1, pb.ShotCode_SHOT_CODE_CONFIRMED},
			{1, eye, Vec3{1, 0, 0}, nil, 2, 0, pb.ShotCode_SHOT_CODE_HIT_OTHER_PART},
			{1, eye, Vec3{1, 0, 0}, nil, 3, 1, pb.ShotCode_SHOT_CODE_HIT_OTHER_BODY}, // 2 stands in front
			{4, Vec3{3, 2, 1.2}, Vec3{12, -2, 0}, nil, 3, 1, pb.ShotCode_SHOT_CODE_BLOCKED}, // by the wall
			{1, eye, Vec3{0, -1, 0}, nil, 2, 1, pb.ShotCode_SHOT_CODE_MISSED},
			{1, eye, Vec3{1, 0, 0}, At(1, 0), 2, 1, pb.ShotCode_SHOT_CODE_REWIND_TOO_OLD},
			{1, eye, Vec3{1, 0, 0}, At(11, 0), 2, 1, pb.ShotCode_SHOT_CODE_IN_THE_FUTURE},
			{1, Vec3{0, 9, 1.2}, Vec3{1, 0, 0}, nil, 2, 1, pb.ShotCode_SHOT_CODE_ORIGIN_IMPLAUSIBLE},
			{99, eye, Vec3{1, 0, 0}, nil, 2, 1, pb.ShotCode_SHOT_CODE_UNKNOWN_SHOOTER},
			{1, eye, Vec3{1, 0, 0}, nil, 42, 1, pb.ShotCode_SHOT_CODE_UNKNOWN_TARGET},
		}
		var readable []*pb.Shot
		var packed PackedShots
		for _, s := range shots {
			readable = append(readable, &pb.Shot{ShooterId: s.shooter, Origin: vec(s.origin), Direction: vec(s.dir), At: s.at,
				Claimed: &pb.BodyTarget{BodyId: s.body, PartId: s.part}})
			packed.Add(s.shooter, s.origin, s.dir, math.Inf(1), s.at, s.body, s.part, 0)
		}
		verdicts, err := w.ValidateShots(ctx, readable)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range verdicts {
			if v.GetCode() != shots[i].want {
				t.Errorf("shot %d: %v, want %v", i, v.GetCode(), shots[i].want)
			}
		}
		near(t, verdicts[0].GetFirstHit().GetDistance(), 4.7, "confirmed distance")
		if !proto.Equal(verdicts[3].GetFirstHit().GetTarget(), staticTarget(2, 0)) {
			t.Errorf("blocked by %v", verdicts[3].GetFirstHit())
		}
		near(t, verdicts[7].GetOriginOffset(), math.Hypot(9, 1.2), "origin offset from the feet")
		fromPacked, err := w.ValidateShotsPacked(ctx, &packed)
		if err != nil || len(fromPacked) != len(verdicts) {
			t.Fatalf("packed %v %v", fromPacked, err)
		}
		for i := range verdicts {
			if !proto.Equal(fromPacked[i], verdicts[i]) {
				t.Errorf("shot %d: packed %v, readable %v", i, fromPacked[i], verdicts[i])
			}
		}
	})

	t.Run("move verdicts", func(t *testing.T) {
		w, err := c.CreateWorld(ctx, arena("moves", nil))
		if err != nil {
			t.Fatal(err)
		}
		defer w.Delete(ctx)
		if _, err := w.PushFrame(ctx, &pb.Frame{Tick: 1, Bodies: []*pb.BodyUpdate{player(1, 0, 0), player(2, 8, 0)}}); err != nil {
			t.Fatal(err)
		}
		fast := 100.0
		verdicts, err := w.ValidateMoves(ctx, []*pb.Move{
			{BodyId: 1, To: vec(Vec3{0.5, 0, 0}), Elapsed: 0.1},
			{BodyId: 1, To: vec(Vec3{5, 0, 0}), Elapsed: 0.1},
			{BodyId: 2, To: vec(Vec3{12, 0, 0}), Elapsed: 1, MaxSpeed: &fast},
			{BodyId: 2, From: vec(Vec3{8, 0, 0}), To: vec(Vec3{12, 3, 0}), Elapsed: 1, MaxSpeed: &fast, Slide: true},
			{BodyId: 5, To: vec(Vec3{1, 0, 0}), Elapsed: 1},
		})
		if err != nil {
			t.Fatal(err)
		}
		var codes []string
		for _, v := range verdicts {
			codes = append(codes, strings.TrimPrefix(v.GetCode().String(), "MOVE_CODE_"))
		}
		if !reflect.DeepEqual(codes, []string{"OK", "TOO_FAST", "BLOCKED", "BLOCKED", "UNKNOWN_BODY"}) {
			t.Errorf("codes %v", codes)
		}
		near(t, verdicts[1].GetSpeed(), 50, "speed")
		if p := fromPB(verdicts[2].GetAllowedPosition()); p[0] > 10-0.4 || p[0] < 9.5 ||
			!proto.Equal(verdicts[2].GetTarget(), staticTarget(2, 0)) || fromPB(verdicts[2].GetNormal()) != (Vec3{1, 0, 0}) {
			t.Errorf("blocked %v", verdicts[2])
		}
		if p := fromPB(verdicts[3].GetSlidPosition()); p[1] < 2.9 {
			t.Errorf("slid to %v", p)
		}
	})

	t.Run("a lost world is re-created once per loss", func(t *testing.T) {
		var events []RecreatedEvent
		w, err := c.CreateWorld(ctx, arena("lost", nil), OnRecreated(func(e RecreatedEvent) { events = append(events, e) }))
		if err != nil {
			t.Fatal(err)
		}
		defer w.Delete(ctx)
		if _, err := w.PushFrame(ctx, &pb.Frame{Tick: 1, Bodies: []*pb.BodyUpdate{player(1, 0, 0), player(2, 5, 0), player(3, 15, 0)}}); err != nil {
			t.Fatal(err)
		}
		if _, err := w.PushFrame(ctx, &pb.Frame{Tick: 2, Bodies: []*pb.BodyUpdate{moveTo(2, 6, 0)}, Removals: []int64{3}}); err != nil {
			t.Fatal(err)
		}
		if err := c.World("lost").Delete(ctx); err != nil { // what a replica restart does to it
			t.Fatal(err)
		}
		if _, err := c.World("lost").Info(ctx); !IsWorldNotFound(err) {
			t.Errorf("an opened handle does not re-create: %v", err)
		}
		v, err := w.ValidateShots(ctx, []*pb.Shot{{ShooterId: 1, Origin: vec(Vec3{0, 0, 1.2}), Direction: vec(Vec3{1, 0, 0}),
			Claimed: &pb.BodyTarget{BodyId: 2, PartId: 1}}})
		if err != nil || v[0].GetCode() != pb.ShotCode_SHOT_CODE_CONFIRMED {
			t.Fatalf("after the loss %v %v", v, err)
		}
		near(t, v[0].GetFirstHit().GetDistance(), 5.7, "restored pose")
		if len(events) != 1 || events[0].LatestTick != 2 || !events[0].Restored || events[0].Cause.Reason != ReasonWorldNotFound {
			t.Errorf("events %+v", events)
		}
		info, err := w.Info(ctx)
		if err != nil || info.GetBodies() != 2 || info.GetLatestTick() != 2 || info.GetFramesKept() != 1 || w.Recreations() != 1 {
			t.Errorf("restored %v %v, %d recreations", info, err, w.Recreations())
		}

		fragile, err := c.CreateWorld(ctx, arena("fragile", nil), WithoutRecreate())
		if err != nil {
			t.Fatal(err)
		}
		if err := c.World("fragile").Delete(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := fragile.PushFrame(ctx, &pb.Frame{Tick: 1, Bodies: []*pb.BodyUpdate{player(1, 0, 0)}}); !IsWorldNotFound(err) {
			t.Errorf("want WORLD_NOT_FOUND, got %v", err)
		}
	})
}

func TestWorldLostWithARestartIsRecreated(t *testing.T) {
	c, ctx, target := liveClient(t)
	var lost []RecreatedEvent
	w, err := c.CreateWorld(ctx, arena("restart", nil), OnRecreated(func(e RecreatedEvent) { lost = append(lost, e) }))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.PushFrame(ctx, &pb.Frame{Tick: 7, Bodies: []*pb.BodyUpdate{player(1, 0, 0), player(2, 5, 0)}}); err != nil {
		t.Fatal(err)
	}
	restartServer(ctx, t, t, c, target)
	if _, err := w.PushFrame(ctx, &pb.Frame{Tick: 8, Bodies: []*pb.BodyUpdate{moveTo(2, 4, 0)}}); err != nil {
		t.Fatal(err)
	}
	info, err := w.Info(ctx)
	if err != nil || len(lost) != 1 || lost[0].LatestTick != 7 || info.GetBodies() != 2 || info.GetOldestTick() != 7 ||
		info.GetLatestTick() != 8 {
		t.Errorf("after the restart %v %v, events %+v", info, err, lost)
	}
}
