package collide

import (
	"sort"

	pb "github.com/collide-dev/collide/client/go/gen/collide/v1"
	"google.golang.org/protobuf/proto"
)

// worldState is what a World keeps to re-create its world on a replica that
// lost it: the latest state of every body, folded from the frames the
// server accepted, so that one frame at the latest tick restores them (the
// history before it is lost). The folding follows the core's frame rule
// (core/src/world/frame.cc): a pose, category or movement shape replaces
// the old one; a new part set replaces the parts and their local poses; part
// poses replace the listed parts' local poses; removals drop the body.
type worldState struct {
	latestTick int64
	hasFrame   bool
	bodies     map[int64]*pb.BodyUpdate
}

// apply folds a frame the server accepted; it keeps copies, so the caller
// may reuse its messages.
func (s *worldState) apply(f *pb.Frame) {
	if s.bodies == nil {
		s.bodies = map[int64]*pb.BodyUpdate{}
	}
	for _, id := range f.GetRemovals() {
		delete(s.bodies, id)
	}
	for _, u := range f.GetBodies() {
		b, ok := s.bodies[u.GetId()]
		if !ok {
			b = &pb.BodyUpdate{Id: u.GetId()}
			s.bodies[u.GetId()] = b
		}
		if u.Pose != nil {
			b.Pose = proto.Clone(u.Pose).(*pb.Pose)
		}
		if u.Category != nil {
			c := u.GetCategory()
			b.Category = &c
		}
		if u.MovementShape != nil {
			b.MovementShape = proto.Clone(u.MovementShape).(*pb.Shape)
		}
		if len(u.GetParts()) > 0 {
			b.Parts = make([]*pb.BodyPart, len(u.GetParts()))
			for i, p := range u.GetParts() {
				b.Parts[i] = proto.Clone(p).(*pb.BodyPart)
			}
		}
		for _, pp := range u.GetPartPoses() {
			for i, p := range b.Parts {
				if p.GetId() == pp.GetPart() {
					q := proto.Clone(p).(*pb.BodyPart)
					q.Local = proto.Clone(pp.GetLocal()).(*pb.Pose)
					b.Parts[i] = q
				}
			}
		}
	}
	s.latestTick, s.hasFrame = f.GetTick(), true
}

// frame restores every body at the latest tick (ordered by id); nil before
// any frame.
func (s *worldState) frame() *pb.Frame {
	if !s.hasFrame {
		return nil
	}
	f := &pb.Frame{Tick: s.latestTick}
	for _, b := range s.bodies {
		f.Bodies = append(f.Bodies, b)
	}
	sort.Slice(f.Bodies, func(i, j int) bool { return f.Bodies[i].GetId() < f.Bodies[j].GetId() })
	return f
}
