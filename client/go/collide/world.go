package collide

import (
	"context"
	"errors"
	"sync"

	pb "collide/client/go/gen/collide/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
)

// WorldHeader is the metadata header naming the world of every world call
// (what a proxy routes on); a World sets it.
const WorldHeader = "collide-world"

// World is a handle on one world of collide.v1.WorldService
// (proto/collide/v1/world.proto); safe for concurrent use.
//
// A handle from CreateWorld keeps the creation request and the latest state
// of every body: when a call fails NOT_FOUND with reason WORLD_NOT_FOUND
// (the replica restarted, or the proxy's ring moved the world), it
// re-creates the world, pushes one frame restoring the bodies at the latest
// tick, retries the call once and reports the loss to OnRecreated (the
// history before that tick is lost: rewinds are clamped until it refills).
type World struct {
	svc         pb.WorldServiceClient
	id          string
	creation    *pb.CreateWorldRequest
	recreate    bool
	onRecreated func(RecreatedEvent)
	created     *pb.WorldInfo

	mu          sync.Mutex // guards state, losses, recreations
	state       worldState
	losses      int // restorations done: a call that failed before one need not restore again
	recreations int
	restoring   sync.Mutex // one restoration at a time
}

// RecreatedEvent reports a world re-created after a replica lost it.
type RecreatedEvent struct {
	WorldID string
	// LatestTick is the tick of the frame that restored the bodies (valid
	// when Restored; false when no frame had been pushed).
	LatestTick int64
	Restored   bool
	// Cause is the error that revealed the loss.
	Cause *Error
}

// WorldOption configures a handle made by CreateWorld.
type WorldOption func(*World)

// WithoutRecreate turns re-creation off: a lost world's calls fail NOT_FOUND.
func WithoutRecreate() WorldOption { return func(w *World) { w.recreate = false } }

// OnRecreated is called (on the goroutine of the call that found the loss)
// each time the handle re-creates its world.
func OnRecreated(f func(RecreatedEvent)) WorldOption { return func(w *World) { w.onRecreated = f } }

// CreateWorld creates req's world and returns its handle, which re-creates
// it from req when a replica lost it (unless WithoutRecreate). req is kept:
// do not change it afterwards.
func (c *Client) CreateWorld(ctx context.Context, req *pb.CreateWorldRequest, opts ...WorldOption) (*World, error) {
	w := &World{svc: c.worlds, id: req.GetWorldId(), creation: req, recreate: true}
	for _, o := range opts {
		o(w)
	}
	info, err := w.svc.CreateWorld(w.header(ctx), req)
	if err != nil {
		return nil, wrapError(err)
	}
	w.created = info
	return w, nil
}

// World is a handle on an existing world, never re-created.
func (c *Client) World(worldID string) *World { return &World{svc: c.worlds, id: worldID} }

// ListWorlds lists the caller's worlds on the answering replica.
func (c *Client) ListWorlds(ctx context.Context) ([]*pb.WorldInfo, error) {
	resp, err := c.worlds.ListWorlds(ctx, &pb.ListWorldsRequest{})
	if err != nil {
		return nil, wrapError(err)
	}
	return resp.GetWorlds(), nil
}

// ID is the world's id.
func (w *World) ID() string { return w.id }

// Created is what CreateWorld answered (nil for a handle from Client.World).
func (w *World) Created() *pb.WorldInfo { return w.created }

// Recreations counts the times this handle re-created its world.
func (w *World) Recreations() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.recreations
}

// LatestTick is the tick of the latest frame pushed through this handle.
func (w *World) LatestTick() (tick int64, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.state.latestTick, w.state.hasFrame
}

func (w *World) header(ctx context.Context) context.Context {
	return metadata.AppendToOutgoingContext(ctx, WorldHeader, w.id)
}

// call runs rpc with the header; on a lost world it restores the world and
// runs rpc once more.
func (w *World) call(ctx context.Context, rpc func(ctx context.Context) error) error {
	ctx = w.header(ctx)
	w.mu.Lock()
	losses, recreate := w.losses, w.recreate
	w.mu.Unlock()
	err := wrapError(rpc(ctx))
	var cause *Error
	if !recreate || !IsWorldNotFound(err) || !errors.As(err, &cause) {
		return err
	}
	if rerr := w.restore(ctx, losses, cause); rerr != nil {
		return rerr
	}
	return wrapError(rpc(ctx))
}

// restore re-creates the world unless another call did since this one began
// (losses moved). ALREADY_EXISTS / FAILED_PRECONDITION: someone restored it
// first, which is what was wanted.
func (w *World) restore(ctx context.Context, losses int, cause *Error) error {
	w.restoring.Lock()
	defer w.restoring.Unlock()
	w.mu.Lock()
	done := w.losses != losses
	frame := w.state.frame()
	w.mu.Unlock()
	if done {
		return nil
	}
	if _, err := w.svc.CreateWorld(ctx, w.creation); err != nil && !hasCode(err, codes.AlreadyExists) {
		return wrapError(err)
	}
	if frame != nil {
		_, err := w.svc.PushFrame(ctx, &pb.PushFrameRequest{WorldId: w.id, Frame: frame})
		if err != nil && !hasCode(err, codes.FailedPrecondition) {
			return wrapError(err)
		}
	}
	w.mu.Lock()
	w.losses++
	w.recreations++
	w.mu.Unlock()
	if w.onRecreated != nil {
		w.onRecreated(RecreatedEvent{WorldID: w.id, LatestTick: frame.GetTick(), Restored: frame != nil, Cause: cause})
	}
	return nil
}

func hasCode(err error, code codes.Code) bool {
	ce, ok := wrapError(err).(*Error)
	return ok && ce.Code == code
}

// Info returns the world's statistics (GetWorld).
func (w *World) Info(ctx context.Context) (info *pb.WorldInfo, err error) {
	err = w.call(ctx, func(ctx context.Context) (e error) {
		info, e = w.svc.GetWorld(ctx, &pb.GetWorldRequest{WorldId: w.id})
		return e
	})
	return info, err
}

// Delete deletes the world; the handle never re-creates it afterwards.
func (w *World) Delete(ctx context.Context) error {
	w.mu.Lock()
	w.recreate = false
	w.mu.Unlock()
	_, err := w.svc.DeleteWorld(w.header(ctx), &pb.DeleteWorldRequest{WorldId: w.id})
	return wrapError(err)
}

// PushFrame appends one tick; the handle keeps a copy of what it changed.
func (w *World) PushFrame(ctx context.Context, f *pb.Frame) (resp *pb.PushFrameResponse, err error) {
	err = w.call(ctx, func(ctx context.Context) (e error) {
		resp, e = w.svc.PushFrame(ctx, &pb.PushFrameRequest{WorldId: w.id, Frame: f})
		return e
	})
	if err == nil {
		w.mu.Lock()
		w.state.apply(f)
		w.mu.Unlock()
	}
	return resp, err
}

// Query runs q's ray casts, shape casts and overlaps (its WorldId is
// ignored: the handle's is sent); results in the order of q's items.
func (w *World) Query(ctx context.Context, q *pb.QueryWorldRequest) (resp *pb.QueryWorldResponse, err error) {
	req := &pb.QueryWorldRequest{WorldId: w.id, RayCasts: q.GetRayCasts(), ShapeCasts: q.GetShapeCasts(), Overlaps: q.GetOverlaps()}
	err = w.call(ctx, func(ctx context.Context) (e error) {
		resp, e = w.svc.QueryWorld(ctx, req)
		return e
	})
	return resp, err
}

// PackedWorldRayHits holds parallel arrays: ray i at [i], or [3i:3i+3] for
// Point and Normal. TargetKind 0: none; 1: a static element (TargetID its
// id, TargetIndex the triangle, 0 for a shape); 2: a body (TargetID the
// body, TargetIndex the part).
type PackedWorldRayHits struct {
	Hit                   []bool
	Distance              []float64
	Point, Normal         []float64
	TargetKind            []int32
	TargetID, TargetIndex []int64
	Time                  *pb.TimeUsed
}

// CastRaysPacked casts closest-hit rays given as 7 doubles each (origin,
// direction, max_distance; math.Inf(1) for unbounded), all with filter
// (nil: the latest frame, every category, no body ignored).
func (w *World) CastRaysPacked(ctx context.Context, rays []float64, filter *pb.SceneFilter) (*PackedWorldRayHits, error) {
	var resp *pb.CastWorldRaysPackedResponse
	err := w.call(ctx, func(ctx context.Context) (e error) {
		resp, e = w.svc.CastWorldRaysPacked(ctx, &pb.CastWorldRaysPackedRequest{WorldId: w.id, Rays: rays, Filter: filter})
		return e
	})
	if err != nil {
		return nil, err
	}
	return &PackedWorldRayHits{resp.GetHit(), resp.GetDistance(), resp.GetPoint(), resp.GetNormal(), resp.GetTargetKind(),
		resp.GetTargetId(), resp.GetTargetIndex(), resp.GetTime()}, nil
}

// ValidateShots judges every shot; verdict i answers shots[i].
func (w *World) ValidateShots(ctx context.Context, shots []*pb.Shot, opts ...VerdictOption) ([]*pb.ShotVerdict, error) {
	o := verdictOptions(opts)
	var resp *pb.ValidateShotsResponse
	err := w.call(ctx, func(ctx context.Context) (e error) {
		resp, e = w.svc.ValidateShots(ctx, &pb.ValidateShotsRequest{WorldId: w.id, Shots: shots,
			AllOrNothing: o.allOrNothing})
		return e
	})
	return resp.GetVerdicts(), err
}

// ValidateShotsPacked judges shots given in flat arrays; verdict i answers
// shot i.
func (w *World) ValidateShotsPacked(ctx context.Context, shots *PackedShots) ([]*pb.ShotVerdict, error) {
	var resp *pb.ValidateShotsResponse
	err := w.call(ctx, func(ctx context.Context) (e error) {
		resp, e = w.svc.ValidateShotsPacked(ctx, &pb.ValidateShotsPackedRequest{WorldId: w.id, Doubles: shots.Doubles,
			ShooterIds: shots.ShooterIDs, Ticks: shots.Ticks, ClaimedBodyIds: shots.ClaimedBodyIDs,
			ClaimedPartIds: shots.ClaimedPartIDs, AllOrNothing: shots.AllOrNothing, CommandTicks: shots.CommandTicks,
			ExpectedTicks: shots.ExpectedTicks, CategoryMasks: shots.CategoryMasks, IgnoreCounts: shots.IgnoreCounts,
			IgnoreBodyIds: shots.IgnoreBodyIDs})
		return e
	})
	return resp.GetVerdicts(), err
}

// ValidateMoves judges every move; verdict i answers moves[i].
func (w *World) ValidateMoves(ctx context.Context, moves []*pb.Move, opts ...VerdictOption) ([]*pb.MoveVerdict, error) {
	o := verdictOptions(opts)
	var resp *pb.ValidateMovesResponse
	err := w.call(ctx, func(ctx context.Context) (e error) {
		resp, e = w.svc.ValidateMoves(ctx, &pb.ValidateMovesRequest{WorldId: w.id, Moves: moves,
			AllOrNothing: o.allOrNothing})
		return e
	})
	return resp.GetVerdicts(), err
}
