package collide

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"

	pb "github.com/collide-dev/collide/client/go/gen/collide/v1"
	"github.com/collide-dev/collide/client/go/internal/liveserver"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
)

func chestShot() *pb.Shot {
	return &pb.Shot{ShooterId: 1, Origin: vec(Vec3{0, 0, 1.2}), Direction: vec(Vec3{1, 0, 0}),
		Claimed: &pb.BodyTarget{BodyId: 2, PartId: 1}}
}

// openStream creates world id (the arena) and opens its stream; the world
// is deleted when the test ends.
func openStream(ctx context.Context, t *testing.T, c *Client, id string, opts ...WorldOption) (*World, *TickStream) {
	t.Helper()
	w, err := c.CreateWorldFromRequest(ctx, arena(id, nil), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Delete(ctx) })
	s, err := w.Tick(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return w, s
}

func TestTickStream(t *testing.T) {
	c, ctx, _ := liveClient(t)

	t.Run("pipelined messages answer in order, as the unary calls", func(t *testing.T) {
		w, s := openStream(ctx, t, c, "tick-order")
		fast := 100.0
		move := &pb.Move{BodyId: 2, To: vec(Vec3{12, 0, 0}), Elapsed: 1, MaxSpeed: &fast}
		packed := &PackedShots{}
		packed.Add(1, Vec3{0, 0, 1.2}, Vec3{1, 0, 0}, math.Inf(1), nil, 2, 1, 0)
		reqs := []*pb.TickRequest{
			{Frame: &pb.Frame{Tick: 1, Bodies: []*pb.BodyUpdate{player(1, 0, 0), player(2, 5, 0)}}},
			{Shots: &pb.ValidateShotsRequest{Shots: []*pb.Shot{chestShot()}}},
			{Frame: &pb.Frame{Tick: 2, Bodies: []*pb.BodyUpdate{moveTo(2, 7, 0)}},
				Shots: &pb.ValidateShotsRequest{Shots: []*pb.Shot{chestShot()}},
				Moves: &pb.ValidateMovesRequest{Moves: []*pb.Move{move}}},
			{RaysPacked: &pb.CastWorldRaysPackedRequest{Rays: []float64{0, 0, 1.2, 1, 0, 0, math.Inf(1)},
				Filter: &pb.SceneFilter{IgnoreBodies: []int64{1}}},
				ShotsPacked: &pb.ValidateShotsPackedRequest{Doubles: packed.Doubles, ShooterIds: packed.ShooterIDs,
					Ticks: packed.Ticks, ClaimedBodyIds: packed.ClaimedBodyIDs, ClaimedPartIds: packed.ClaimedPartIDs}},
			{}, // a ping
		}
		for _, r := range reqs { // sent before any answer is read
			if _, err := s.Send(r); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.CloseSend(); err != nil {
			t.Fatal(err)
		}
		var answers []*pb.TickResponse
		for {
			a, err := s.Recv()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			answers = append(answers, a)
		}
		if len(answers) != len(reqs) {
			t.Fatalf("%d answers", len(answers))
		}
		for i, a := range answers {
			if a.GetSequence() != int64(i+1) {
				t.Errorf("answer %d has sequence %d", i, a.GetSequence())
			}
		}
		near(t, answers[1].GetShots().GetVerdicts()[0].GetFirstHit().GetDistance(), 5-0.3, "before frame 2")
		near(t, answers[2].GetShots().GetVerdicts()[0].GetFirstHit().GetDistance(), 7-0.3, "after frame 2")
		near(t, answers[3].GetRaysPacked().GetDistance()[0], 7-0.3, "packed ray")
		unaryShots, err := w.Messages().ValidateShots(ctx, []*pb.Shot{chestShot()})
		if err != nil || !proto.Equal(unaryShots[0], answers[2].GetShots().GetVerdicts()[0]) ||
			!proto.Equal(unaryShots[0], answers[3].GetShotsPacked().GetVerdicts()[0]) {
			t.Errorf("unary %v, stream %v", unaryShots, answers[2].GetShots())
		}
		unaryMoves, err := w.Messages().ValidateMoves(ctx, []*pb.Move{move})
		if err != nil || !proto.Equal(unaryMoves[0], answers[2].GetMoves().GetVerdicts()[0]) ||
			unaryMoves[0].GetCode() != pb.MoveCode_MOVE_CODE_BLOCKED {
			t.Errorf("unary %v, stream %v", unaryMoves, answers[2].GetMoves())
		}
		if tick, _ := w.LatestTick(); tick != 2 {
			t.Errorf("latest tick %d", tick)
		}
	})

	t.Run("an error answers its message alone and the stream goes on", func(t *testing.T) {
		w, s := openStream(ctx, t, c, "tick-errors")
		bad := chestShot()
		bad.Direction = vec(Vec3{})
		for _, r := range []*pb.TickRequest{
			{Frame: &pb.Frame{Tick: 1, Bodies: []*pb.BodyUpdate{player(1, 0, 0), player(2, 5, 0)}}},
			{Frame: &pb.Frame{Tick: 1}},
			{Frame: &pb.Frame{Tick: 3}, Shots: &pb.ValidateShotsRequest{Shots: []*pb.Shot{bad}, AllOrNothing: true}},
			{Shots: &pb.ValidateShotsRequest{Shots: []*pb.Shot{chestShot()}}},
		} {
			if _, err := s.Send(r); err != nil {
				t.Fatal(err)
			}
		}
		var ce *Error
		if _, err := s.Recv(); err != nil {
			t.Fatal(err)
		}
		if a, err := s.Recv(); !errors.As(err, &ce) || ce.Code != codes.FailedPrecondition || a.GetFrame() != nil {
			t.Errorf("stale frame: %v %v", a, err)
		}
		a, err := s.Recv()
		if !errors.As(err, &ce) || ce.Code != codes.InvalidArgument || len(ce.Fields()) == 0 ||
			!strings.HasPrefix(ce.Fields()[0], "shots.shots[0].direction") || a.GetFrame().GetOldestTick() != 1 {
			t.Errorf("half-run message: %v %v", a, err)
		}
		if a, err := s.Recv(); err != nil || a.GetShots().GetVerdicts()[0].GetCode() != pb.ShotCode_SHOT_CODE_CONFIRMED {
			t.Errorf("after the errors: %v %v", a, err)
		}
		if tick, _ := w.LatestTick(); tick != 3 {
			t.Errorf("latest tick %d: the half-run message's frame was applied", tick)
		}
		s.CloseSend()
		if _, err := s.Recv(); err != io.EOF {
			t.Errorf("end: %v", err)
		}
	})

	t.Run("a world lost mid-stream is re-created and the message sent again", func(t *testing.T) {
		var events []RecreatedEvent
		var s *TickStream
		var heldErr error
		w, s := openStream(ctx, t, c, "tick-lost", OnRecreated(func(e RecreatedEvent) {
			events = append(events, e)
			// Sent while the world is restored: held until the lost messages went again.
			_, heldErr = s.Send(&pb.TickRequest{Shots: &pb.ValidateShotsRequest{Shots: []*pb.Shot{chestShot()}}})
		}))
		for _, f := range []*pb.Frame{{Tick: 1, Bodies: []*pb.BodyUpdate{player(1, 0, 0), player(2, 5, 0)}},
			{Tick: 2, Bodies: []*pb.BodyUpdate{moveTo(2, 6, 0)}}} {
			if _, err := s.Send(&pb.TickRequest{Frame: f}); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Recv(); err != nil {
				t.Fatal(err)
			}
		}
		if err := c.World("tick-lost").Delete(ctx); err != nil {
			t.Fatal(err)
		}
		for _, r := range []*pb.TickRequest{{Shots: &pb.ValidateShotsRequest{Shots: []*pb.Shot{chestShot()}}},
			{Frame: &pb.Frame{Tick: 3}, Shots: &pb.ValidateShotsRequest{Shots: []*pb.Shot{chestShot()}}}} {
			if _, err := s.Send(r); err != nil {
				t.Fatal(err)
			}
		}
		bySequence := map[int64]*pb.TickResponse{}
		var order []int64
		for i := 0; i < 3; i++ {
			a, err := s.Recv()
			if err != nil {
				t.Fatal(err)
			}
			bySequence[a.GetSequence()] = a
			order = append(order, a.GetSequence())
		}
		if heldErr != nil || fmt.Sprint(order) != "[3 4 5]" {
			t.Fatalf("answers in the order %v (held send: %v)", order, heldErr)
		}
		near(t, bySequence[3].GetShots().GetVerdicts()[0].GetFirstHit().GetDistance(), 6-0.3, "restored pose")
		near(t, bySequence[5].GetShots().GetVerdicts()[0].GetFirstHit().GetDistance(), 6-0.3, "held message")
		if bySequence[4].GetFrame().GetOldestTick() != 2 || len(events) != 1 || events[0].LatestTick != 2 {
			t.Errorf("answers %v, events %+v", bySequence, events)
		}
		s.CloseSend()
		if _, err := s.Recv(); err != io.EOF {
			t.Errorf("end: %v", err)
		}
		info, err := w.Messages().Info(ctx)
		if err != nil || info.GetBodies() != 2 || info.GetOldestTick() != 2 || info.GetLatestTick() != 3 {
			t.Errorf("after: %v %v", info, err)
		}
	})
}

func TestTickStreamEndsUnavailableOnShutdown(t *testing.T) {
	c, ctx, target := liveClient(t)
	w, err := c.CreateWorldFromRequest(ctx, arena("tick-shutdown", nil))
	if err != nil {
		t.Fatal(err)
	}
	s, err := w.Tick(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Send(&pb.TickRequest{}); err != nil {
		t.Fatal(err)
	}
	if a, err := s.Recv(); err != nil || a.GetSequence() != 1 {
		t.Fatalf("ping %v %v", a, err)
	}
	liveserver.Stop(t, target)
	a, err := s.Recv()
	var ce *Error
	if a != nil || !errors.As(err, &ce) || ce.Code != codes.Unavailable {
		t.Errorf("after shutdown: %v %v", a, err)
	}
}
