package collide

import (
	"context"
	"sync"

	pb "github.com/collide-dev/collide/client/go/gen/collide/v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// TickStream is the tick loop of one world on one WorldService.Tick stream
// (world.proto TickRequest): each message carries any of a frame, a query,
// packed rays, shots, packed shots, moves, projectiles, melee, visibility
// and bodies, run by the server in that order, so a message sent after a
// frame sees it. Send and Recv may run on
// different goroutines (one of each at a time), so a loop can pipeline
// ticks.
//
// Recv returns the answers in the order sent, except that a message
// answered WORLD_NOT_FOUND is sent again once after the World re-created
// its world (as for the unary calls) and is answered after the messages
// sent before it was re-sent: match answers by Sequence. Before the world is
// re-created, every message in flight is answered (messages sent meanwhile
// are held, and written after), so that none runs on a world re-created but
// not yet given its state; then each of them that also found the world
// missing goes again, in order.
type TickStream struct {
	w      *World
	stream pb.WorldService_TickClient

	sendMu     sync.Mutex // held while writing
	mu         sync.Mutex // guards sequence, pending, recovering and held
	sequence   int64
	pending    map[int64]*tickPending // sent (or held), not answered
	recovering bool                   // a lost world waits for the messages in flight
	held       []*pb.TickRequest      // sent while recovering: written after it
	closeAfter bool                   // CloseSend while recovering: after the held messages
	early      []*pb.TickResponse     // read during a recovery, returned by Recv first (Recv's goroutine only)
}

type tickPending struct {
	req     *pb.TickRequest
	losses  int
	retried bool
}

// Tick opens the world's stream; it lives until ctx ends or CloseSend and
// the last Recv.
func (w *World) Tick(ctx context.Context) (*TickStream, error) {
	stream, err := w.svc.Tick(w.header(ctx))
	if err != nil {
		return nil, wrapError(err)
	}
	return &TickStream{w: w, stream: stream, pending: map[int64]*tickPending{}}, nil
}

// Send sends req with the next sequence number (set in req, and returned;
// the nested requests' world ids may stay empty). req must not change until
// it is answered.
func (s *TickStream) Send(req *pb.TickRequest) (int64, error) {
	// Held from the sequence number to the write, so that a recovery, which
	// takes it once, knows every message it must wait for.
	s.sendMu.Lock()
	defer s.sendMu.Unlock()
	s.w.mu.Lock()
	losses := s.w.losses
	s.w.mu.Unlock()
	s.mu.Lock()
	s.sequence++
	req.Sequence = s.sequence
	s.pending[req.Sequence] = &tickPending{req: req, losses: losses}
	hold := s.recovering
	if hold {
		s.held = append(s.held, req)
	}
	s.mu.Unlock()
	if hold {
		return req.Sequence, nil
	}
	return req.Sequence, wrapError(s.stream.Send(req))
}

// CloseSend half-closes the stream: Recv returns the remaining answers, then
// (nil, io.EOF).
func (s *TickStream) CloseSend() error {
	s.sendMu.Lock()
	defer s.sendMu.Unlock()
	s.mu.Lock()
	later := s.recovering
	s.closeAfter = later
	s.mu.Unlock()
	if later {
		return nil
	}
	return s.stream.CloseSend()
}

// Recv returns the next answer. When that message failed alone, the answer
// (with the parts that ran before the failing one) comes with its error as
// an *Error, and the stream goes on; when the stream is over, the answer is
// nil and the error io.EOF (ended OK) or an *Error (UNAVAILABLE when the
// server shuts down: messages without an answer were not applied).
func (s *TickStream) Recv() (*pb.TickResponse, error) {
	for {
		resp, err := s.next()
		if err != nil {
			return nil, err
		}
		s.mu.Lock()
		p := s.pending[resp.GetSequence()]
		delete(s.pending, resp.GetSequence())
		s.mu.Unlock()
		if p == nil {
			return resp, nil
		}
		if resp.GetFrame() != nil && p.req.GetFrame() != nil { // applied: keep its state
			s.w.mu.Lock()
			s.w.state.apply(p.req.GetFrame())
			s.w.mu.Unlock()
		}
		if resp.GetStatus().GetCode() == 0 {
			return resp, nil
		}
		merr := errorOf(status.FromProto(resp.GetStatus()))
		s.w.mu.Lock()
		recreate := s.w.recreate
		s.w.mu.Unlock()
		if p.retried || !recreate || !IsWorldNotFound(merr) {
			return resp, merr
		}
		if err := s.recover(p, merr); err != nil {
			return resp, err
		}
	}
}

// next is the next answer: one read during a recovery, else the stream's.
func (s *TickStream) next() (*pb.TickResponse, error) {
	if len(s.early) > 0 {
		resp := s.early[0]
		s.early = s.early[1:]
		return resp, nil
	}
	resp, err := s.stream.Recv()
	return resp, wrapError(err)
}

// recover re-creates the world that lost's message found missing, once
// every message in flight is answered (whether one ran on a world
// re-created but not yet given its state would otherwise depend on the
// server's speed), then sends lost and each message that also found the
// world missing again, in order, then the messages held meanwhile. Sends do
// not wait for it (they are held), so OnRecreated may send.
func (s *TickStream) recover(lost *tickPending, cause *Error) (err error) {
	s.mu.Lock()
	s.recovering = true
	s.mu.Unlock()
	// A Send writing now finishes first; later ones are held.
	s.sendMu.Lock()
	s.sendMu.Unlock()
	var again []*pb.TickRequest
	defer func() {
		s.sendMu.Lock()
		defer s.sendMu.Unlock()
		s.mu.Lock()
		held, closeAfter := s.held, s.closeAfter
		s.held, s.recovering, s.closeAfter = nil, false, false
		s.mu.Unlock()
		for _, req := range append(again, held...) {
			if e := s.stream.Send(proto.Clone(req).(*pb.TickRequest)); e != nil && err == nil {
				err = wrapError(e)
			}
		}
		if closeAfter {
			s.stream.CloseSend()
		}
	}()
	for {
		s.mu.Lock()
		inFlight := len(s.pending)-len(s.held) > len(s.early)
		s.mu.Unlock()
		if !inFlight {
			break
		}
		resp, err := s.stream.Recv()
		if err != nil {
			return wrapError(err)
		}
		s.early = append(s.early, resp)
	}
	if err := s.w.restore(s.stream.Context(), lost.losses, cause); err != nil {
		return err
	}
	again = append(again, lost.req)
	kept := s.early[:0]
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, resp := range s.early {
		p := s.pending[resp.GetSequence()]
		if p != nil && !p.retried && resp.GetStatus().GetCode() != 0 &&
			IsWorldNotFound(errorOf(status.FromProto(resp.GetStatus()))) {
			p.retried = true
			again = append(again, p.req)
			continue
		}
		kept = append(kept, resp)
	}
	s.early = kept
	s.pending[lost.req.GetSequence()] = &tickPending{req: lost.req, retried: true}
	return nil
}

// TickMessage is one message of the Tick stream as Go values: any of a
// frame, a scene query, packed rays (7 doubles a ray, seen through
// RaysFilter), shots, packed shots, moves, projectiles, melee, visibility
// and bodies, run by the server in that order (bodies last).
// BudgetMs > 0: the message is refused DEADLINE_EXCEEDED when it waited
// longer than that on the server.
type TickMessage struct {
	Frame        *Frame
	Query        *SceneQuery
	Shots        []Shot
	Moves        []Move
	Projectiles  []Projectile
	Melee        []Melee
	ShotsPacked  *PackedShots
	RaysPacked   []float64
	RaysFilter   Filter
	AllOrNothing bool // for Shots, Moves, Projectiles and Melee, as the AllOrNothing option
	BudgetMs     float64
	Bodies       *TickBodies // GetBodies, run after every other part
	// GetVisibility after the frame and the verdicts (&VisibilityQuery{}:
	// every observer's set at the latest frame).
	Visibility *VisibilityQuery
}

// TickBodies is GetBodies as a Tick part: the bodies at At (nil: the latest
// frame), those in IDs or every body.
type TickBodies struct {
	At  *Time
	IDs []int64
}

// TickAnswer answers a TickMessage: each part that ran (nil or empty for the
// parts the message did not carry, or that came after a failing one).
type TickAnswer struct {
	Sequence     int64
	FrameApplied bool
	OldestTick   int64 // after the frame
	Query        *QueryResults
	Shots        []ShotVerdict
	Moves        []MoveVerdict
	Projectiles  []ProjectileVerdict
	Melee        []MeleeVerdict
	ShotsPacked  []ShotVerdict
	RaysPacked   *PackedWorldRayHits
	Bodies       *Bodies
	Visibility   *VisibilitySets
}

// Proto is the message as the generated TickRequest (without a sequence).
func (m TickMessage) Proto() *pb.TickRequest {
	req := &pb.TickRequest{BudgetMs: m.BudgetMs}
	if m.Frame != nil {
		req.Frame = m.Frame.Proto()
	}
	if m.Query != nil {
		req.Query = m.Query.Proto()
	}
	if m.Shots != nil {
		req.Shots = &pb.ValidateShotsRequest{Shots: shotsProto(m.Shots), AllOrNothing: m.AllOrNothing}
	}
	if m.Moves != nil {
		req.Moves = &pb.ValidateMovesRequest{Moves: movesProto(m.Moves), AllOrNothing: m.AllOrNothing}
	}
	if m.Projectiles != nil {
		in := make([]*pb.Projectile, len(m.Projectiles))
		for i, p := range m.Projectiles {
			in[i] = p.Proto()
		}
		req.Projectiles = &pb.ValidateProjectilesRequest{Projectiles: in, AllOrNothing: m.AllOrNothing}
	}
	if m.Melee != nil {
		in := make([]*pb.Melee, len(m.Melee))
		for i, s := range m.Melee {
			in[i] = s.Proto()
		}
		req.Melee = &pb.ValidateMeleeRequest{Melee: in, AllOrNothing: m.AllOrNothing}
	}
	if m.ShotsPacked != nil {
		req.ShotsPacked = m.ShotsPacked.request("")
	}
	if m.RaysPacked != nil {
		req.RaysPacked = &pb.CastWorldRaysPackedRequest{Rays: m.RaysPacked, Filter: m.RaysFilter.proto()}
	}
	if m.Bodies != nil {
		req.Bodies = &pb.GetBodiesRequest{At: m.Bodies.At.proto(), BodyIds: m.Bodies.IDs}
	}
	if m.Visibility != nil {
		req.Visibility = m.Visibility.proto("")
	}
	return req
}

// TickAnswerOf reads a generated TickResponse.
func TickAnswerOf(r *pb.TickResponse) *TickAnswer {
	if r == nil {
		return nil
	}
	out := &TickAnswer{Sequence: r.GetSequence(), FrameApplied: r.GetFrame() != nil,
		OldestTick: r.GetFrame().GetOldestTick(), Shots: shotVerdictsOf(r.GetShots().GetVerdicts()),
		Moves: moveVerdictsOf(r.GetMoves().GetVerdicts()), ShotsPacked: shotVerdictsOf(r.GetShotsPacked().GetVerdicts())}
	if r.GetQuery() != nil {
		out.Query = QueryResultsOf(r.GetQuery())
	}
	if r.GetRaysPacked() != nil {
		out.RaysPacked = packedRayHitsOf(r.GetRaysPacked())
	}
	if r.GetBodies() != nil {
		out.Bodies = BodiesOf(r.GetBodies())
	}
	if r.GetVisibility() != nil {
		sets := VisibilitySetsOf(r.GetVisibility())
		out.Visibility = &sets
	}
	for _, v := range r.GetProjectiles().GetVerdicts() {
		out.Projectiles = append(out.Projectiles, ProjectileVerdictOf(v))
	}
	for _, v := range r.GetMelee().GetVerdicts() {
		out.Melee = append(out.Melee, MeleeVerdictOf(v))
	}
	return out
}

// SendTick sends m as Send does and returns its sequence number.
func (s *TickStream) SendTick(m TickMessage) (int64, error) { return s.Send(m.Proto()) }

// RecvTick is Recv as Go values: the next answer, with its *Error when that
// message failed alone (the stream goes on); (nil, io.EOF) at the end.
func (s *TickStream) RecvTick() (*TickAnswer, error) {
	resp, err := s.Recv()
	return TickAnswerOf(resp), err
}
