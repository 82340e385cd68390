package collide

import (
	"context"
	"errors"
	"sync"

	pb "github.com/collide-dev/collide/client/go/gen/collide/v1"
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

// CreateWorld creates spec's world and returns its handle, which re-creates
// it when a replica lost it (unless WithoutRecreate).
func (c *Client) CreateWorld(ctx context.Context, spec WorldSpec, opts ...WorldOption) (*World, error) {
	return c.CreateWorldFromRequest(ctx, spec.Proto(), opts...)
}

// CreateWorldFromRequest is CreateWorld from the generated request (a
// CreateWorldRequest read from JSON, say). req is kept to re-create the
// world: do not change it afterwards.
func (c *Client) CreateWorldFromRequest(ctx context.Context, req *pb.CreateWorldRequest,
	opts ...WorldOption) (*World, error) {
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
func (c *Client) ListWorlds(ctx context.Context) ([]*WorldInfo, error) {
	resp, err := c.worlds.ListWorlds(ctx, &pb.ListWorldsRequest{})
	if err != nil {
		return nil, wrapError(err)
	}
	out := make([]*WorldInfo, len(resp.GetWorlds()))
	for i, w := range resp.GetWorlds() {
		out[i] = WorldInfoOf(w)
	}
	return out, nil
}

// WorldService is the generated WorldService stub, for requests built by
// hand (a World sets the collide-world header itself; this does not).
func (c *Client) WorldService() pb.WorldServiceClient { return c.worlds }

// ID is the world's id.
func (w *World) ID() string { return w.id }

// Created is what CreateWorld answered (nil for a handle from Client.World).
func (w *World) Created() *WorldInfo { return WorldInfoOf(w.created) }

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

// Delete deletes the world; the handle never re-creates it afterwards.
func (w *World) Delete(ctx context.Context) error {
	w.mu.Lock()
	w.recreate = false
	w.mu.Unlock()
	_, err := w.svc.DeleteWorld(w.header(ctx), &pb.DeleteWorldRequest{WorldId: w.id})
	return wrapError(err)
}

// Info returns the world's statistics (GetWorld).
func (w *World) Info(ctx context.Context) (*WorldInfo, error) {
	info, err := w.Messages().Info(ctx)
	if err != nil {
		return nil, err
	}
	return WorldInfoOf(info), nil
}

// PushFrame appends one tick and returns the oldest tick the world still
// keeps; the handle keeps the latest state of every body to re-create the
// world.
func (w *World) PushFrame(ctx context.Context, f Frame) (oldestTick int64, err error) {
	resp, err := w.Messages().PushFrame(ctx, f.Proto())
	return resp.GetOldestTick(), err
}

// Query runs q's ray casts, shape casts and overlaps in one call; results in
// the order of q's items.
func (w *World) Query(ctx context.Context, q SceneQuery) (*QueryResults, error) {
	resp, err := w.Messages().Query(ctx, q.Proto())
	if err != nil {
		return nil, err
	}
	return QueryResultsOf(resp), nil
}

// CastRays casts scene rays; result i answers casts[i].
func (w *World) CastRays(ctx context.Context, casts []RayCast) ([]RayResult, error) {
	res, err := w.Query(ctx, SceneQuery{RayCasts: casts})
	if err != nil {
		return nil, err
	}
	return res.RayCasts, nil
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
	Time                  TimeUsed
}

// CastRaysPacked casts closest-hit rays given as 7 doubles each (origin,
// direction, max_distance; math.Inf(1) for unbounded), all with filter.
func (w *World) CastRaysPacked(ctx context.Context, rays []float64, filter Filter) (*PackedWorldRayHits, error) {
	resp, err := w.Messages().CastRaysPacked(ctx, rays, filter.proto())
	if err != nil {
		return nil, err
	}
	return packedRayHitsOf(resp), nil
}

// ValidateShots judges every shot; verdict i answers shots[i].
func (w *World) ValidateShots(ctx context.Context, shots []Shot, opts ...VerdictOption) ([]ShotVerdict, error) {
	vs, err := w.Messages().ValidateShots(ctx, shotsProto(shots), opts...)
	if err != nil {
		return nil, err
	}
	return shotVerdictsOf(vs), nil
}

// ValidateShotsPacked judges shots given in flat arrays; verdict i answers
// shot i.
func (w *World) ValidateShotsPacked(ctx context.Context, shots *PackedShots) ([]ShotVerdict, error) {
	vs, err := w.Messages().ValidateShotsPacked(ctx, shots)
	if err != nil {
		return nil, err
	}
	return shotVerdictsOf(vs), nil
}

// ValidateMoves judges every move; verdict i answers moves[i].
func (w *World) ValidateMoves(ctx context.Context, moves []Move, opts ...VerdictOption) ([]MoveVerdict, error) {
	vs, err := w.Messages().ValidateMoves(ctx, movesProto(moves), opts...)
	if err != nil {
		return nil, err
	}
	return moveVerdictsOf(vs), nil
}

// GetBodies returns the bodies at `at` (nil: the latest frame; TimeAt) as
// the verdicts pose them (the rewound hitboxes): those in ids, or every body
// when ids is empty; Missing lists the ids that do not exist then.
func (w *World) GetBodies(ctx context.Context, at *Time, ids ...int64) (*Bodies, error) {
	resp, err := w.Messages().GetBodies(ctx, at, ids)
	if err != nil {
		return nil, err
	}
	return BodiesOf(resp), nil
}

// ValidateProjectiles judges every projectile (docs/projectiles.md);
// verdict i answers projectiles[i].
func (w *World) ValidateProjectiles(ctx context.Context, projectiles []Projectile,
	opts ...VerdictOption) ([]ProjectileVerdict, error) {
	in := make([]*pb.Projectile, len(projectiles))
	for i, p := range projectiles {
		in[i] = p.Proto()
	}
	vs, err := w.Messages().ValidateProjectiles(ctx, in, opts...)
	if err != nil {
		return nil, err
	}
	out := make([]ProjectileVerdict, len(vs))
	for i, v := range vs {
		out[i] = ProjectileVerdictOf(v)
	}
	return out, nil
}

// ValidateMelee judges every swing; verdict i answers swings[i].
func (w *World) ValidateMelee(ctx context.Context, swings []Melee, opts ...VerdictOption) ([]MeleeVerdict, error) {
	in := make([]*pb.Melee, len(swings))
	for i, m := range swings {
		in[i] = m.Proto()
	}
	vs, err := w.Messages().ValidateMelee(ctx, in, opts...)
	if err != nil {
		return nil, err
	}
	out := make([]MeleeVerdict, len(vs))
	for i, v := range vs {
		out[i] = MeleeVerdictOf(v)
	}
	return out, nil
}

// GetVisibility returns, for each observer, the bodies it may see
// (docs/visibility.md): send each client only those.
func (w *World) GetVisibility(ctx context.Context, q VisibilityQuery) (VisibilitySets, error) {
	r, err := w.Messages().GetVisibility(ctx, q.proto(w.id))
	if err != nil {
		return VisibilitySets{}, err
	}
	return VisibilitySetsOf(r), nil
}

// WorldMessages is a World's calls on the generated collide.v1 messages
// (what the conformance suite replays; any field the Go types lack): the
// same handle, header and re-creation.
type WorldMessages struct{ w *World }

// Messages is the handle's message-level calls.
func (w *World) Messages() WorldMessages { return WorldMessages{w} }

// Created is what CreateWorld answered (nil for a handle from Client.World).
func (m WorldMessages) Created() *pb.WorldInfo { return m.w.created }

// Info returns the world's statistics (GetWorld).
func (m WorldMessages) Info(ctx context.Context) (info *pb.WorldInfo, err error) {
	err = m.w.call(ctx, func(ctx context.Context) (e error) {
		info, e = m.w.svc.GetWorld(ctx, &pb.GetWorldRequest{WorldId: m.w.id})
		return e
	})
	return info, err
}

// PushFrame appends one tick; the handle keeps a copy of what it changed.
func (m WorldMessages) PushFrame(ctx context.Context, f *pb.Frame) (resp *pb.PushFrameResponse, err error) {
	err = m.w.call(ctx, func(ctx context.Context) (e error) {
		resp, e = m.w.svc.PushFrame(ctx, &pb.PushFrameRequest{WorldId: m.w.id, Frame: f})
		return e
	})
	if err == nil {
		m.w.mu.Lock()
		m.w.state.apply(f)
		m.w.mu.Unlock()
	}
	return resp, err
}

// Query runs q's ray casts, shape casts and overlaps (its WorldId is
// ignored: the handle's is sent); results in the order of q's items.
func (m WorldMessages) Query(ctx context.Context, q *pb.QueryWorldRequest) (resp *pb.QueryWorldResponse, err error) {
	req := &pb.QueryWorldRequest{WorldId: m.w.id, RayCasts: q.GetRayCasts(), ShapeCasts: q.GetShapeCasts(), Overlaps: q.GetOverlaps()}
	err = m.w.call(ctx, func(ctx context.Context) (e error) {
		resp, e = m.w.svc.QueryWorld(ctx, req)
		return e
	})
	return resp, err
}

// CastRaysPacked casts closest-hit rays given as 7 doubles each (origin,
// direction, max_distance; math.Inf(1) for unbounded), all with filter
// (nil: the latest frame, every category, no body ignored).
func (m WorldMessages) CastRaysPacked(ctx context.Context, rays []float64,
	filter *pb.SceneFilter) (resp *pb.CastWorldRaysPackedResponse, err error) {
	err = m.w.call(ctx, func(ctx context.Context) (e error) {
		resp, e = m.w.svc.CastWorldRaysPacked(ctx, &pb.CastWorldRaysPackedRequest{WorldId: m.w.id, Rays: rays, Filter: filter})
		return e
	})
	return resp, err
}

// ValidateShots judges every shot; verdict i answers shots[i].
func (m WorldMessages) ValidateShots(ctx context.Context, shots []*pb.Shot, opts ...VerdictOption) ([]*pb.ShotVerdict, error) {
	o := verdictOptions(opts)
	var resp *pb.ValidateShotsResponse
	err := m.w.call(ctx, func(ctx context.Context) (e error) {
		resp, e = m.w.svc.ValidateShots(ctx, &pb.ValidateShotsRequest{WorldId: m.w.id, Shots: shots,
			AllOrNothing: o.allOrNothing, Explain: o.explain})
		return e
	})
	return resp.GetVerdicts(), err
}

// ValidateShotsPacked judges shots given in flat arrays; verdict i answers
// shot i.
func (m WorldMessages) ValidateShotsPacked(ctx context.Context, shots *PackedShots) ([]*pb.ShotVerdict, error) {
	var resp *pb.ValidateShotsResponse
	err := m.w.call(ctx, func(ctx context.Context) (e error) {
		resp, e = m.w.svc.ValidateShotsPacked(ctx, shots.request(m.w.id))
		return e
	})
	return resp.GetVerdicts(), err
}

// ValidateMoves judges every move; verdict i answers moves[i].
// GetVisibility is GetVisibility on the message (its world_id set to the
// handle's).
func (m WorldMessages) GetVisibility(ctx context.Context, req *pb.GetVisibilityRequest) (*pb.GetVisibilityResponse, error) {
	var resp *pb.GetVisibilityResponse
	r := &pb.GetVisibilityRequest{WorldId: m.w.id, At: req.GetAt(), Observers: req.GetObservers(),
		TickSeconds: req.GetTickSeconds(), Latency: req.GetLatency(), Margin: req.GetMargin(),
		TargetCategoryMask: req.GetTargetCategoryMask()}
	err := m.w.call(ctx, func(ctx context.Context) (e error) {
		resp, e = m.w.svc.GetVisibility(ctx, r)
		return e
	})
	return resp, err
}

func (m WorldMessages) ValidateMoves(ctx context.Context, moves []*pb.Move, opts ...VerdictOption) ([]*pb.MoveVerdict, error) {
	o := verdictOptions(opts)
	var resp *pb.ValidateMovesResponse
	err := m.w.call(ctx, func(ctx context.Context) (e error) {
		resp, e = m.w.svc.ValidateMoves(ctx, &pb.ValidateMovesRequest{WorldId: m.w.id, Moves: moves,
			AllOrNothing: o.allOrNothing, Explain: o.explain})
		return e
	})
	return resp.GetVerdicts(), err
}

// GetBodies returns the bodies at `at` (nil: the latest frame) as the
// verdicts pose them: those in ids (at most the server's
// --max_items_per_request), or every body when ids is empty.
func (m WorldMessages) GetBodies(ctx context.Context, at *Time, ids []int64) (resp *pb.GetBodiesResponse, err error) {
	req := &pb.GetBodiesRequest{WorldId: m.w.id, At: at.proto(), BodyIds: ids}
	err = m.w.call(ctx, func(ctx context.Context) (e error) {
		resp, e = m.w.svc.GetBodies(ctx, req)
		return e
	})
	return resp, err
}

// ValidateProjectiles judges every projectile; verdict i answers projectiles[i].
func (m WorldMessages) ValidateProjectiles(ctx context.Context, projectiles []*pb.Projectile,
	opts ...VerdictOption) ([]*pb.ProjectileVerdict, error) {
	o := verdictOptions(opts)
	var resp *pb.ValidateProjectilesResponse
	err := m.w.call(ctx, func(ctx context.Context) (e error) {
		resp, e = m.w.svc.ValidateProjectiles(ctx, &pb.ValidateProjectilesRequest{WorldId: m.w.id,
			Projectiles: projectiles, AllOrNothing: o.allOrNothing})
		return e
	})
	return resp.GetVerdicts(), err
}

// ValidateMelee judges every swing; verdict i answers swings[i].
func (m WorldMessages) ValidateMelee(ctx context.Context, swings []*pb.Melee,
	opts ...VerdictOption) ([]*pb.MeleeVerdict, error) {
	o := verdictOptions(opts)
	var resp *pb.ValidateMeleeResponse
	err := m.w.call(ctx, func(ctx context.Context) (e error) {
		resp, e = m.w.svc.ValidateMelee(ctx, &pb.ValidateMeleeRequest{WorldId: m.w.id, Melee: swings,
			AllOrNothing: o.allOrNothing})
		return e
	})
	return resp.GetVerdicts(), err
}
