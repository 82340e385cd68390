package collide

import (
	"math"

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
	Explanation           *ShotExplanation // with the Explain option (nil for INVALID)
}

// PosedPart is a body part placed in the world frame (a box part is an obb).
type PosedPart struct {
	ID    int32
	Shape *pb.Shape
}

// PosedBody is a body as posed at a time, world frame: Pose maps the body
// frame to the world, Eye is where its shots start.
type PosedBody struct {
	ID       int64
	Pose     Pose
	Parts    []PosedPart
	Category uint64
	Eye      Vec3
}

// Bodies answers GetBodies: the time used, the bodies sorted by id, and the
// requested ids that do not exist then.
type Bodies struct {
	Time    TimeUsed
	Bodies  []PosedBody
	Missing []int64
}

// ShotExplanation is what a shot's judge used (docs/worlds.md): the shooter
// at CommandAt (its eye is what OriginOffset measures from), the ray cast
// (nil when none was: Origin, unit Direction, MaxDistance +Inf when
// unbounded), and with a claim the claimed body rewound to the time used
// and in the latest frame, with the claimed part the ray passes nearest.
type ShotExplanation struct {
	CommandAt              Time
	Shooter                *PosedBody
	Ray                    *ExplainedRay
	ClaimedRewound         *PosedBody
	ClaimedLatest          *PosedBody
	Tolerance              float64
	NearestClaimedPart     int32
	NearestClaimedDistance float64
}

// ExplainedRay is the ray a shot's judge cast.
type ExplainedRay struct {
	Origin, Direction Vec3
	MaxDistance       float64
}

// MoveSweep is a sweep of the body origin From -> To and why ("straight",
// "slide", "step up", "ground probe at to", ...).
type MoveSweep struct {
	From, To Vec3
	Purpose  string
}

// MoveContact is a contact on Sweeps[Sweep] at fraction T: the body origin
// there, the normal from the body towards the static, what was met.
type MoveContact struct {
	Sweep    int32
	T        float64
	Position Vec3
	Normal   Vec3
	Target   Target
}

// MoveExplanation is what a move's judge used (docs/worlds.md): From
// (resolved) and To, the movement shape at From (nil when the body moves
// several parts), every sweep and contact, the rule in words, and under a
// movement model the start state and limits.
type MoveExplanation struct {
	From, To        Vec3
	Shape           *pb.Shape
	Sweeps          []MoveSweep
	Contacts        []MoveContact
	Reason          string
	GroundedAtStart bool
	HorizontalLimit float64
	LowestZ         float64
	HighestZ        float64
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
	Explanation     *MoveExplanation // with the Explain option (nil for INVALID)
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
	if e := v.GetExplanation(); e != nil {
		out.Explanation = shotExplanationOf(e)
	}
	return out
}

func posePBOf(p *pb.Pose) Pose {
	out := Pose{Position: fromPB(p.GetPosition())}
	if q := p.GetRotation(); q != nil {
		out.Rotation = &Quat{q.GetW(), q.GetX(), q.GetY(), q.GetZ()}
	}
	return out
}

// PosedBodyOf reads a generated posed body (nil for nil).
func PosedBodyOf(b *pb.PosedBody) *PosedBody {
	if b == nil {
		return nil
	}
	out := &PosedBody{ID: b.GetId(), Pose: posePBOf(b.GetPose()), Category: b.GetCategory(), Eye: fromPB(b.GetEye())}
	for _, p := range b.GetParts() {
		out.Parts = append(out.Parts, PosedPart{p.GetId(), p.GetShape()})
	}
	return out
}

// BodiesOf reads a generated GetBodies answer.
func BodiesOf(r *pb.GetBodiesResponse) *Bodies {
	out := &Bodies{Time: timeUsedOf(r.GetTime()), Missing: r.GetMissing()}
	for _, b := range r.GetBodies() {
		out.Bodies = append(out.Bodies, *PosedBodyOf(b))
	}
	return out
}

func shotExplanationOf(e *pb.ShotExplanation) *ShotExplanation {
	out := &ShotExplanation{CommandAt: Time{e.GetCommandAt().GetTick(), e.GetCommandAt().GetFraction()},
		Shooter: PosedBodyOf(e.GetShooter()), ClaimedRewound: PosedBodyOf(e.GetClaimedRewound()),
		ClaimedLatest: PosedBodyOf(e.GetClaimedLatest()), Tolerance: e.GetTolerance(),
		NearestClaimedPart: e.GetNearestClaimedPart(), NearestClaimedDistance: e.GetNearestClaimedDistance()}
	if r := e.GetRay(); r != nil {
		out.Ray = &ExplainedRay{fromPB(r.GetOrigin()), fromPB(r.GetDirection()), math.Inf(1)}
		if r.MaxDistance != nil {
			out.Ray.MaxDistance = r.GetMaxDistance()
		}
	}
	return out
}

func moveExplanationOf(e *pb.MoveExplanation) *MoveExplanation {
	if e == nil {
		return nil
	}
	out := &MoveExplanation{From: fromPB(e.GetFrom()), To: fromPB(e.GetTo()), Shape: e.GetShape(),
		Reason: e.GetReason(), GroundedAtStart: e.GetGroundedAtStart(), HorizontalLimit: e.GetHorizontalLimit(),
		LowestZ: e.GetLowestZ(), HighestZ: e.GetHighestZ()}
	for _, s := range e.GetSweeps() {
		out.Sweeps = append(out.Sweeps, MoveSweep{fromPB(s.GetFrom()), fromPB(s.GetTo()), s.GetPurpose()})
	}
	for _, c := range e.GetContacts() {
		out.Contacts = append(out.Contacts, MoveContact{c.GetSweep(), c.GetT(), fromPB(c.GetPosition()),
			fromPB(c.GetNormal()), targetOf(c.GetTarget())})
	}
	return out
}

// MoveVerdictOf reads a generated verdict.
func MoveVerdictOf(v *pb.MoveVerdict) MoveVerdict {
	return MoveVerdict{Code: MoveCode(v.GetCode()), AllowedPosition: fromPB(v.GetAllowedPosition()), T: v.GetT(),
		Normal: fromPB(v.GetNormal()), Target: targetOf(v.GetTarget()), Depth: v.GetDepth(), Speed: v.GetSpeed(),
		SlidPosition: fromPB(v.GetSlidPosition()), Grounded: v.GetGrounded(),
		Violations: violationsOf(v.GetViolations()), Explanation: moveExplanationOf(v.GetExplanation())}
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

// ProjectileContact is where a projectile met something: Seconds since
// launch and the world time At then, its centre Position, the contact Point,
// the Normal (from the projectile) and the Target.
type ProjectileContact struct {
	Seconds                 float64
	At                      Time
	Position, Point, Normal Vec3
	Target                  Target
}

// ProjectileVerdict judges a projectile (docs/projectiles.md): Hit is what
// stopped it (nil: nothing), Bounces in order, and Seconds, EndAt,
// Position and Velocity the end of the judged flight (the hit, the time
// limit, or the latest frame for ProjectileInFlight); OriginOffset and
// OriginAllowance the origin against the shooter's eye at CommandAt (as a
// ShotVerdict's).
type ProjectileVerdict struct {
	Code            ProjectileCode
	Time            TimeUsed
	Hit             *ProjectileContact
	Bounces         []ProjectileContact
	Seconds         float64
	EndAt           Time
	Position        Vec3
	Velocity        Vec3
	Violations      []FieldViolation
	OriginOffset    float64
	OriginAllowance float64
}

// MeleeHit is a body part a swing reaches with a clear line from the eye.
type MeleeHit struct {
	Target   Target
	Point    Vec3
	Distance float64
}

// MeleeVerdict judges a swing (codes as a shot's): Hits nearest first,
// Blocker what blocks the line (BLOCKED, HIT_OTHER_BODY).
type MeleeVerdict struct {
	Code                ShotCode
	Time                TimeUsed
	Eye                 Vec3
	Hits                []MeleeHit
	Blocker             *WorldRayHit
	ClaimedMissDistance float64
	Violations          []FieldViolation
}

func projectileContactOf(c *pb.ProjectileContact) ProjectileContact {
	return ProjectileContact{c.GetSeconds(), Time{c.GetAt().GetTick(), c.GetAt().GetFraction()},
		fromPB(c.GetPosition()), fromPB(c.GetPoint()), fromPB(c.GetNormal()), targetOf(c.GetTarget())}
}

// ProjectileVerdictOf reads a generated verdict.
func ProjectileVerdictOf(v *pb.ProjectileVerdict) ProjectileVerdict {
	out := ProjectileVerdict{Code: ProjectileCode(v.GetCode()), Time: timeUsedOf(v.GetTime()), Seconds: v.GetSeconds(),
		EndAt: Time{v.GetEndAt().GetTick(), v.GetEndAt().GetFraction()}, Position: fromPB(v.GetPosition()),
		Velocity: fromPB(v.GetVelocity()), Violations: violationsOf(v.GetViolations()),
		OriginOffset: v.GetOriginOffset(), OriginAllowance: v.GetOriginAllowance()}
	if v.GetHit() != nil {
		h := projectileContactOf(v.GetHit())
		out.Hit = &h
	}
	for _, b := range v.GetBounces() {
		out.Bounces = append(out.Bounces, projectileContactOf(b))
	}
	return out
}

// MeleeVerdictOf reads a generated verdict.
func MeleeVerdictOf(v *pb.MeleeVerdict) MeleeVerdict {
	out := MeleeVerdict{Code: ShotCode(v.GetCode()), Time: timeUsedOf(v.GetTime()), Eye: fromPB(v.GetEye()),
		ClaimedMissDistance: v.GetClaimedMissDistance(), Violations: violationsOf(v.GetViolations())}
	for _, h := range v.GetHits() {
		out.Hits = append(out.Hits, MeleeHit{targetOf(h.GetTarget()), fromPB(h.GetPoint()), h.GetDistance()})
	}
	if v.GetBlocker() != nil {
		h := rayHitOf(v.GetBlocker())
		out.Blocker = &h
	}
	return out
}

// VisibilitySet is the bodies Observer may see (increasing ids); Found false:
// it does not exist at the time (Visible empty).
type VisibilitySet struct {
	Observer int64
	Found    bool
	Visible  []int64
}

// VisibilitySets is GetVisibility's answer: one set per observer, in the
// order asked; the pairs judged, of them hidden, and of them answered visible
// again without a new walk (the world's policy.visibility.reuse_ticks).
type VisibilitySets struct {
	Sets   []VisibilitySet
	Pairs  int64
	Hidden int64
	Reused int64
	Time   TimeUsed
}

// VisibilitySetsOf reads a generated answer.
func VisibilitySetsOf(r *pb.GetVisibilityResponse) VisibilitySets {
	out := VisibilitySets{Pairs: r.GetPairs(), Hidden: r.GetHidden(), Reused: r.GetReused(), Time: timeUsedOf(r.GetTime())}
	for _, s := range r.GetSets() {
		out.Sets = append(out.Sets, VisibilitySet{s.GetObserver(), s.GetFound(), s.GetVisible()})
	}
	return out
}
