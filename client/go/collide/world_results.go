package collide

import (
	pb "github.com/collide-dev/collide/client/go/gen/collide/v1"
)

// A world's answers as Go values (world.proto documents every field).

// TargetKind says what a hit touched.
type TargetKind int

// Target kinds; TargetNone on a miss.
const (
	TargetNone   TargetKind = 0
	TargetStatic TargetKind = 1 // a static element: ID the element, Index its mesh triangle (0 for a shape)
	TargetBody   TargetKind = 2 // a body: ID the body, Index the part
)

func (k TargetKind) String() string {
	switch k {
	case TargetStatic:
		return "static"
	case TargetBody:
		return "body"
	}
	return "none"
}

// Target is what a hit touched.
type Target struct {
	Kind  TargetKind
	ID    int64
	Index int64
}

// TimeUsed is the time a query was answered at; Clamped: the requested one
// lay outside the history kept.
type TimeUsed struct {
	Tick     int64
	Fraction float64
	Clamped  bool
}

// WorldRayHit is one hit of a scene ray.
type WorldRayHit struct {
	Distance      float64
	Point, Normal Vec3
	Target        Target
}

// RayResult answers a RayCast: Hits is empty on a miss, one hit for
// RayClosest and RayAny, sorted and capped for RayAll (TotalHits counts them
// all).
type RayResult struct {
	Hits      []WorldRayHit
	TotalHits int64
	Time      TimeUsed
}

// ShapeCastResult answers a ShapeCast: the first contact at fraction T of
// the translation.
type ShapeCastResult struct {
	Hit           bool
	T             float64
	Point, Normal Vec3
	Depth         float64
	Target        Target
	Time          TimeUsed
}

// OverlapHit is one target a shape overlaps; Contact is nil at
// LevelIntersect.
type OverlapHit struct {
	Target  Target
	Contact *PairResult
}

// OverlapResult answers an Overlap.
type OverlapResult struct {
	Overlaps []OverlapHit
	Total    int64
	Time     TimeUsed
}

// QueryResults answers a SceneQuery, each list in its request's order.
type QueryResults struct {
	RayCasts   []RayResult
	ShapeCasts []ShapeCastResult
	Overlaps   []OverlapResult
}

// ShotVerdict judges a shot (docs/lag-compensation.md says what to do with
// each code). FirstHit is what the ray met first (nil: nothing); Violations
// name the shot's bad fields when Code is ShotInvalid.
type ShotVerdict struct {
	Code                  ShotCode
	FirstHit              *WorldRayHit
	Time                  TimeUsed
	ClaimedMissDistance   float64
	OriginOffset          float64
	OriginAllowance       float64
	RewoundAcrossTeleport bool
	Violations            []FieldViolation
}

// MoveVerdict judges a move (docs/moves.md): how far it may go
// (AllowedPosition, at fraction T), what stopped it, where a slide ends, and
// under a movement model whether the body is Grounded.
type MoveVerdict struct {
	Code            MoveCode
	AllowedPosition Vec3
	T               float64
	Normal          Vec3
	Target          Target
	Depth           float64
	Speed           float64
	SlidPosition    Vec3
	Grounded        bool
	Violations      []FieldViolation
}

// WorldInfo is a world's statistics and settings.
type WorldInfo struct {
	ID                  string
	StaticElements      int32
	Triangles           int64
	DegenerateTriangles int64
	Bodies              int32
	MemoryBytes         int64
	LatestTick          int64
	OldestTick          int64
	FramesKept          int32
	HistoryTicks        int32
	Policy              *pb.WorldPolicy // the policy in force, every field set
	Replica             string
	DetectedTeleports   int64
}

func targetOf(t *pb.Target) Target {
	switch x := t.GetTarget().(type) {
	case *pb.Target_StaticElement:
		return Target{TargetStatic, x.StaticElement.GetElementId(), int64(x.StaticElement.GetTriangle())}
	case *pb.Target_Body:
		return Target{TargetBody, x.Body.GetBodyId(), int64(x.Body.GetPartId())}
	}
	return Target{}
}

func timeUsedOf(t *pb.TimeUsed) TimeUsed {
	return TimeUsed{t.GetAt().GetTick(), t.GetAt().GetFraction(), t.GetClamped()}
}

func rayHitOf(h *pb.WorldRayHit) WorldRayHit {
	return WorldRayHit{h.GetDistance(), fromPB(h.GetPoint()), fromPB(h.GetNormal()), targetOf(h.GetTarget())}
}

func violationsOf(vs []*pb.ItemViolation) []FieldViolation {
	var out []FieldViolation
	for _, v := range vs {
		out = append(out, FieldViolation{v.GetField(), v.GetDescription()})
	}
	return out
}

// ShotVerdictOf reads a generated verdict.
func ShotVerdictOf(v *pb.ShotVerdict) ShotVerdict {
	out := ShotVerdict{Code: ShotCode(v.GetCode()), Time: timeUsedOf(v.GetTime()),
		ClaimedMissDistance: v.GetClaimedMissDistance(), OriginOffset: v.GetOriginOffset(),
		OriginAllowance: v.GetOriginAllowance(), RewoundAcrossTeleport: v.GetRewoundAcrossTeleport(),
		Violations: violationsOf(v.GetViolations())}
	if v.GetFirstHit() != nil {
		h := rayHitOf(v.GetFirstHit())
		out.FirstHit = &h
	}
	return out
}

// MoveVerdictOf reads a generated verdict.
func MoveVerdictOf(v *pb.MoveVerdict) MoveVerdict {
	return MoveVerdict{Code: MoveCode(v.GetCode()), AllowedPosition: fromPB(v.GetAllowedPosition()), T: v.GetT(),
		Normal: fromPB(v.GetNormal()), Target: targetOf(v.GetTarget()), Depth: v.GetDepth(), Speed: v.GetSpeed(),
		SlidPosition: fromPB(v.GetSlidPosition()), Grounded: v.GetGrounded(),
		Violations: violationsOf(v.GetViolations())}
}

func shotVerdictsOf(vs []*pb.ShotVerdict) []ShotVerdict {
	out := make([]ShotVerdict, len(vs))
	for i, v := range vs {
		out[i] = ShotVerdictOf(v)
	}
	return out
}

func moveVerdictsOf(vs []*pb.MoveVerdict) []MoveVerdict {
	out := make([]MoveVerdict, len(vs))
	for i, v := range vs {
		out[i] = MoveVerdictOf(v)
	}
	return out
}

// QueryResultsOf reads a generated QueryWorld answer.
func QueryResultsOf(r *pb.QueryWorldResponse) *QueryResults {
	out := &QueryResults{}
	for _, x := range r.GetRayCasts() {
		res := RayResult{TotalHits: x.GetTotalHits(), Time: timeUsedOf(x.GetTime())}
		for _, h := range x.GetHits() {
			res.Hits = append(res.Hits, rayHitOf(h))
		}
		out.RayCasts = append(out.RayCasts, res)
	}
	for _, x := range r.GetShapeCasts() {
		out.ShapeCasts = append(out.ShapeCasts, ShapeCastResult{x.GetHit(), x.GetT(), fromPB(x.GetPoint()),
			fromPB(x.GetNormal()), x.GetDepth(), targetOf(x.GetTarget()), timeUsedOf(x.GetTime())})
	}
	for _, x := range r.GetOverlaps() {
		res := OverlapResult{Total: x.GetTotal(), Time: timeUsedOf(x.GetTime())}
		for _, o := range x.GetOverlaps() {
			hit := OverlapHit{Target: targetOf(o.GetTarget())}
			if o.GetContact() != nil {
				c := pairResultOf(o.GetContact())
				hit.Contact = &c
			}
			res.Overlaps = append(res.Overlaps, hit)
		}
		out.Overlaps = append(out.Overlaps, res)
	}
	return out
}

// WorldInfoOf reads a generated WorldInfo.
func WorldInfoOf(w *pb.WorldInfo) *WorldInfo {
	if w == nil {
		return nil
	}
	return &WorldInfo{ID: w.GetWorldId(), StaticElements: w.GetStaticElements(), Triangles: w.GetTriangles(),
		DegenerateTriangles: w.GetDegenerateTriangles(), Bodies: w.GetBodies(), MemoryBytes: w.GetMemoryBytes(),
		LatestTick: w.GetLatestTick(), OldestTick: w.GetOldestTick(), FramesKept: w.GetFramesKept(),
		HistoryTicks: w.GetHistoryTicks(), Policy: w.GetPolicy(), Replica: w.GetReplica(),
		DetectedTeleports: w.GetDetectedTeleports()}
}

func packedRayHitsOf(r *pb.CastWorldRaysPackedResponse) *PackedWorldRayHits {
	return &PackedWorldRayHits{r.GetHit(), r.GetDistance(), r.GetPoint(), r.GetNormal(), r.GetTargetKind(),
		r.GetTargetId(), r.GetTargetIndex(), timeUsedOf(r.GetTime())}
}

// VisibilitySet is the bodies Observer may see (increasing ids); Found false:
// it does not exist at the time (Visible empty).
type VisibilitySet struct {
	Observer int64
	Found    bool
	Visible  []int64
}

// VisibilitySets is GetVisibility's answer: one set per observer, in the
// order asked; the pairs judged and of them hidden.
type VisibilitySets struct {
	Sets   []VisibilitySet
	Pairs  int64
	Hidden int64
	Time   TimeUsed
}

// VisibilitySetsOf reads a generated answer.
func VisibilitySetsOf(r *pb.GetVisibilityResponse) VisibilitySets {
	out := VisibilitySets{Pairs: r.GetPairs(), Hidden: r.GetHidden(), Time: timeUsedOf(r.GetTime())}
	for _, s := range r.GetSets() {
		out.Sets = append(out.Sets, VisibilitySet{s.GetObserver(), s.GetFound(), s.GetVisible()})
	}
	return out
}
