package collide

import (
	"context"
	"sync"

	pb "collide/client/go/gen/collide/v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// TickStream is the tick loop of one world on one WorldService.Tick stream
// (world.proto TickRequest): each message carries any of a frame, a query,
// shots, moves, packed shots and packed rays, run by the server in that
// order, so a message sent after a frame sees it. Send and Recv may run on
// different goroutines (one of each at a time), so a loop can pipeline
// ticks.
//
// Recv returns the answers in the order sent, except that a message
// answered WORLD_NOT_FOUND is sent again once after the World re-created
// its world (as for the unary calls) and is answered after the messages
// sent before it was re-sent: match answers by Sequence.
type TickStream struct {
	w      *World
	stream pb.WorldService_TickClient

	sendMu   sync.Mutex // Send and Recv's re-sends
	mu       sync.Mutex // guards sequence and pending
	sequence int64
	pending  map[int64]*tickPending
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
	s.w.mu.Lock()
	losses := s.w.losses
	s.w.mu.Unlock()
	s.mu.Lock()
	s.sequence++
	req.Sequence = s.sequence
	s.pending[req.Sequence] = &tickPending{req: req, losses: losses}
	s.mu.Unlock()
	return req.Sequence, s.send(req)
}

func (s *TickStream) send(req *pb.TickRequest) error {
	s.sendMu.Lock()
	defer s.sendMu.Unlock()
	return wrapError(s.stream.Send(req))
}

// CloseSend half-closes the stream: Recv returns the remaining answers, then
// (nil, io.EOF).
func (s *TickStream) CloseSend() error {
	s.sendMu.Lock()
	defer s.sendMu.Unlock()
	return s.stream.CloseSend()
}

// Recv returns the next answer. When that message failed alone, the answer
// (with the parts that ran before the failing one) comes with its error as
// an *Error, and the stream goes on; when the stream is over, the answer is
// nil and the error io.EOF (ended OK) or an *Error (UNAVAILABLE when the
// server shuts down: messages without an answer were not applied).
func (s *TickStream) Recv() (*pb.TickResponse, error) {
	for {
		resp, err := s.stream.Recv()
		if err != nil {
			return nil, wrapError(err)
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
		if err := s.w.restore(s.stream.Context(), p.losses, merr); err != nil {
			return resp, err
		}
		retry := proto.Clone(p.req).(*pb.TickRequest)
		s.mu.Lock()
		s.pending[retry.GetSequence()] = &tickPending{req: retry, retried: true}
		s.mu.Unlock()
		if err := s.send(retry); err != nil {
			return resp, err
		}
	}
}
