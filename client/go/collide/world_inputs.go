package collide

import (
	"math"

	pb "github.com/collide-dev/collide/client/go/gen/collide/v1"
)

// What a game server sends to a world, as Go values (world.proto gives the
// units, frames and semantics of every field). Shapes are the *pb.Shape
// that Sphere, Capsule, Aabb... build; static elements the *pb.StaticElement
// of MeshElement, ShapeElement and MapElement. A nil *Time is the latest
// frame; a category mask of 0 means all 64 categories.

// The generated messages the Go types hold, by aliases: a game server
// needs no import of the generated package.
type (
	// Shape is a shape (Sphere, Capsule, Aabb... build one).
	Shape = pb.Shape
	// StaticElement is a world's static geometry (MeshElement, ShapeElement,
	// MapElement build one).
	StaticElement = pb.StaticElement
	// MovementModel is world.proto MovementModel (docs/moves.md).
	MovementModel = pb.MovementModel
	// MoveBudget is world.proto MoveBudget.
	MoveBudget = pb.MoveBudget
)

// Time is a tick and a fraction in [0, 1) of the way to the next one.
type Time struct {
	Tick     int64
	Fraction float64
}

// TimeAt is tick + fraction, for the At fields.
func TimeAt(tick int64, fraction float64) *Time { return &Time{tick, fraction} }

// Pose places a body or part: x_world = Position + Rotation * x_local; a nil
// Rotation is the identity.
type Pose struct {
	Position Vec3
	Rotation *Quat
}

// Part is a convex hitbox of a body (sphere, capsule, segment, point,
// triangle, AABB or OBB) in the part frame, placed in the body frame by
// Local (nil: the identity).
type Part struct {
	ID    int32
	Shape *pb.Shape
	Local *Pose
}

// PartPose moves one part of a known body: its new local pose.
type PartPose struct {
	Part  int32
	Local Pose
}

// Body is one body's entry in a frame (world.proto BodyUpdate): a new body
// needs a Pose and Parts; a known one changes what is set.
type Body struct {
	ID            int64
	Pose          *Pose
	Parts         []Part
	PartPoses     []PartPose
	Teleport      bool      // the body jumped to Pose: rewinds never interpolate across this frame
	Category      *uint64   // nil: unchanged (a new body: all 64 bits)
	MovementShape *pb.Shape // the shape moves sweep (nil: unchanged)
	Eye           *Vec3     // body frame: where its shots start (nil: unchanged; new bodies: the origin)
}

// Frame is one tick: every body that changed, and the bodies removed.
type Frame struct {
	Tick     int64
	Bodies   []Body
	Removals []int64
}

// Policy is world.proto WorldPolicy: a nil field keeps the server's default
// (Ptr makes the pointers: Policy{MaxRewindTicks: collide.Ptr[int32](16)}).
type Policy struct {
	MaxRewindTicks   *int32
	MaxOriginOffset  *float64
	DefaultMaxSpeed  *float64
	SkinWidth        *float64
	SlideIterations  *int32
	ClampOldShots    *bool
	MaxTickDistance  *float64
	MoveCategoryMask *uint64
	ShotCategoryMask *uint64
	Movement         *pb.MovementModel // the movement model of moves (docs/moves.md); nil: straight sweeps
	MoveBudget       *pb.MoveBudget
	Visibility       *pb.VisibilityPolicy // occluders for GetVisibility (docs/visibility.md); nil: none
}

// Ptr is a pointer to v, for the optional fields of Policy, Body and Move.
func Ptr[T any](v T) *T { return &v }

// WorldSpec is a world to create: its id, its static geometry, the frames of
// history kept (0: the server's default), its policy and what the server
// keeps of its calls (nil: nothing; docs/replay.md: an audit trail, a match
// recording, each needing its server flag).
type WorldSpec struct {
	ID           string
	Statics      []*StaticElement
	HistoryTicks int32
	Policy       *Policy
	Journal      *pb.WorldJournal
}

// Filter says what a scene query sees: the time (nil: the latest frame), the
// categories (0: all) and bodies to ignore.
type Filter struct {
	At     *Time
	Mask   uint64
	Ignore []int64
}

// RayCast is a ray through the scene (Ray builds it; math.Inf(1) for no
// range limit). Mode: RayClosest (the zero value's meaning), RayAny, RayAll
// with at most MaxHits hits kept (0: the server's default).
type RayCast struct {
	Ray *pb.Ray
	Filter
	Mode    pb.RayMode
	MaxHits int32
}

// ShapeCast sweeps a convex shape along Translation.
type ShapeCast struct {
	Shape       *pb.Shape
	Translation Vec3
	Filter
}

// Overlap lists what a shape overlaps: at LevelIntersect (or 0) the targets
// only, at LevelDistance or LevelContact with a PairResult each; the first
// MaxResults kept (0: 256).
type Overlap struct {
	Shape *pb.Shape
	Filter
	Level      pb.QueryLevel
	MaxResults int32
}

// SceneQuery is one QueryWorld call: its answers come in the same order.
type SceneQuery struct {
	RayCasts   []RayCast
	ShapeCasts []ShapeCast
	Overlaps   []Overlap
}

// BodyTarget names a body's part.
type BodyTarget struct {
	Body int64
	Part int32
}

// Shot is a shot to judge (world.proto Shot): from Origin along Direction up
// to MaxRange (0 or math.Inf(1): unbounded), seen by the shooter at At,
// claiming Claimed (nil: the first part it meets) within Tolerance. CommandAt
// is the time of the shooter's command (nil: the latest frame), ExpectedAt
// and MaxSkewTicks the view time the server's latency estimate expects and
// the skew allowed (VIEW_TIME_IMPLAUSIBLE beyond); Mask and Ignore are what
// the ray sees.
type Shot struct {
	Shooter           int64
	Origin, Direction Vec3
	MaxRange          float64
	At                *Time
	Claimed           *BodyTarget
	Tolerance         float64
	CommandAt         *Time
	ExpectedAt        *Time
	MaxSkewTicks      float64
	Mask              uint64
	Ignore            []int64
}

// Move is a body's move to judge (world.proto Move): From (nil: its position
// in the frame before the latest) to To in Elapsed seconds, at most MaxSpeed
// (nil: the policy's), sliding along what blocks it when Slide. Stance and
// Movement apply under a movement model (docs/moves.md).
type Move struct {
	Body     int64
	From     *Vec3
	To       Vec3
	Elapsed  float64
	MaxSpeed *float64
	Slide    bool
	Mask     uint64
	Stance   int32
	Movement *pb.MovementModel
}

func (t *Time) proto() *pb.WorldTime {
	if t == nil {
		return nil
	}
	return &pb.WorldTime{Tick: t.Tick, Fraction: t.Fraction}
}

func quat(q *Quat) *pb.Quaternion {
	if q == nil {
		return nil
	}
	return &pb.Quaternion{W: q.W, X: q.X, Y: q.Y, Z: q.Z}
}

func (p *Pose) proto() *pb.Pose {
	if p == nil {
		return nil
	}
	return &pb.Pose{Position: vec(p.Position), Rotation: quat(p.Rotation)}
}

func optVec(v *Vec3) *pb.Vec3 {
	if v == nil {
		return nil
	}
	return vec(*v)
}

// Proto is the frame as the generated message.
func (f Frame) Proto() *pb.Frame {
	out := &pb.Frame{Tick: f.Tick, Removals: f.Removals, Bodies: make([]*pb.BodyUpdate, len(f.Bodies))}
	for i, b := range f.Bodies {
		u := &pb.BodyUpdate{Id: b.ID, Pose: b.Pose.proto(), Teleport: b.Teleport, Category: b.Category,
			MovementShape: b.MovementShape, Eye: optVec(b.Eye)}
		for _, p := range b.Parts {
			u.Parts = append(u.Parts, &pb.BodyPart{Id: p.ID, Shape: p.Shape, Local: p.Local.proto()})
		}
		for _, pp := range b.PartPoses {
			local := pp.Local
			u.PartPoses = append(u.PartPoses, &pb.PartPose{Part: pp.Part, Local: local.proto()})
		}
		out.Bodies[i] = u
	}
	return out
}

// Proto is the policy as the generated message (nil for a nil policy).
func (p *Policy) Proto() *pb.WorldPolicy {
	if p == nil {
		return nil
	}
	return &pb.WorldPolicy{MaxRewindTicks: p.MaxRewindTicks, MaxOriginOffset: p.MaxOriginOffset,
		DefaultMaxSpeed: p.DefaultMaxSpeed, SkinWidth: p.SkinWidth, SlideIterations: p.SlideIterations,
		ClampOldShots: p.ClampOldShots, MaxTickDistance: p.MaxTickDistance, MoveCategoryMask: p.MoveCategoryMask,
		ShotCategoryMask: p.ShotCategoryMask, Movement: p.Movement, MoveBudget: p.MoveBudget,
		Visibility: p.Visibility}
}

// Proto is the creation request as the generated message.
func (s WorldSpec) Proto() *pb.CreateWorldRequest {
	return &pb.CreateWorldRequest{WorldId: s.ID, Statics: s.Statics, HistoryTicks: s.HistoryTicks,
		Policy: s.Policy.Proto(), Journal: s.Journal}
}

func (f Filter) proto() *pb.SceneFilter {
	return &pb.SceneFilter{At: f.At.proto(), CategoryMask: f.Mask, IgnoreBodies: f.Ignore}
}

// Proto is the query as the generated message (without a world id).
func (q SceneQuery) Proto() *pb.QueryWorldRequest {
	out := &pb.QueryWorldRequest{}
	for _, r := range q.RayCasts {
		out.RayCasts = append(out.RayCasts, &pb.WorldRayCast{Ray: r.Ray, Filter: r.Filter.proto(), Mode: r.Mode,
			MaxHits: r.MaxHits})
	}
	for _, s := range q.ShapeCasts {
		out.ShapeCasts = append(out.ShapeCasts, &pb.WorldShapeCast{Shape: s.Shape, Translation: vec(s.Translation),
			Filter: s.Filter.proto()})
	}
	for _, o := range q.Overlaps {
		out.Overlaps = append(out.Overlaps, &pb.WorldOverlap{Shape: o.Shape, Filter: o.Filter.proto(),
			MaxResults: o.MaxResults, Level: o.Level})
	}
	return out
}

// Proto is the shot as the generated message.
func (s Shot) Proto() *pb.Shot {
	out := &pb.Shot{ShooterId: s.Shooter, Origin: vec(s.Origin), Direction: vec(s.Direction), At: s.At.proto(),
		Tolerance: s.Tolerance, CommandAt: s.CommandAt.proto(), ExpectedAt: s.ExpectedAt.proto(),
		MaxSkewTicks: s.MaxSkewTicks, CategoryMask: s.Mask, IgnoreBodies: s.Ignore}
	if s.MaxRange != 0 && !math.IsInf(s.MaxRange, 1) {
		r := s.MaxRange
		out.MaxRange = &r
	}
	if s.Claimed != nil {
		out.Claimed = &pb.BodyTarget{BodyId: s.Claimed.Body, PartId: s.Claimed.Part}
	}
	return out
}

// Proto is the move as the generated message.
func (m Move) Proto() *pb.Move {
	return &pb.Move{BodyId: m.Body, From: optVec(m.From), To: vec(m.To), Elapsed: m.Elapsed, MaxSpeed: m.MaxSpeed,
		Slide: m.Slide, CategoryMask: m.Mask, Stance: m.Stance, Movement: m.Movement}
}

func shotsProto(shots []Shot) []*pb.Shot {
	out := make([]*pb.Shot, len(shots))
	for i, s := range shots {
		out[i] = s.Proto()
	}
	return out
}

func movesProto(moves []Move) []*pb.Move {
	out := make([]*pb.Move, len(moves))
	for i, m := range moves {
		out[i] = m.Proto()
	}
	return out
}

// Projectile is a projectile to judge (world.proto Projectile,
// docs/projectiles.md): launched at At from Origin with Velocity (units/s)
// under Gravity (units/s^2) and linear Drag (1/s), a sphere of Radius (0: a
// point), bouncing off statics MaxBounces times with Restitution, for
// TimeLimit seconds; TickSeconds is the world's tick length and
// ChordTolerance the accuracy contract (0: 0.01). CommandAt is the time of
// the launch command, where the origin is checked against the shooter's eye
// (nil: the latest frame; keep it when asking again about a flight on later
// ticks).
type Projectile struct {
	Shooter        int64
	At             *Time
	Origin         Vec3
	Velocity       Vec3
	Gravity        Vec3
	Drag           float64
	Radius         float64
	Restitution    float64
	MaxBounces     int32
	TimeLimit      float64
	TickSeconds    float64
	ChordTolerance float64
	Claimed        *BodyTarget
	Mask           uint64
	Ignore         []int64
	CommandAt      *Time
}

// Proto is the projectile as the generated message.
func (p Projectile) Proto() *pb.Projectile {
	out := &pb.Projectile{ShooterId: p.Shooter, At: p.At.proto(), Origin: vec(p.Origin), Velocity: vec(p.Velocity),
		Gravity: vec(p.Gravity), Drag: p.Drag, Radius: p.Radius, Restitution: p.Restitution, MaxBounces: p.MaxBounces,
		TimeLimit: p.TimeLimit, TickSeconds: p.TickSeconds, ChordTolerance: p.ChordTolerance, CategoryMask: p.Mask,
		IgnoreBodies: p.Ignore, CommandAt: p.CommandAt.proto()}
	if p.Claimed != nil {
		out.Claimed = &pb.BodyTarget{BodyId: p.Claimed.Body, PartId: p.Claimed.Part}
	}
	return out
}

// MeleeArc is a sector around the attacker's eye: Angle radians wide around
// Direction, Radius long, in the plane perpendicular to Up.
type MeleeArc struct {
	Direction, Up Vec3
	Radius, Angle float64
}

// MeleeCapsule is a capsule of a MeleeSweep, in the attacker's body frame.
type MeleeCapsule struct {
	A, B   Vec3
	Radius float64
}

// Melee is a swing to judge (world.proto Melee): an Arc, or (Arc nil) a
// capsule swept From one pose To another.
type Melee struct {
	Attacker  int64
	At        *Time
	Arc       *MeleeArc
	From, To  MeleeCapsule
	Claimed   *BodyTarget
	Tolerance float64
	Mask      uint64
	Ignore    []int64
}

// Proto is the swing as the generated message.
func (m Melee) Proto() *pb.Melee {
	out := &pb.Melee{AttackerId: m.Attacker, At: m.At.proto(), Tolerance: m.Tolerance, CategoryMask: m.Mask,
		IgnoreBodies: m.Ignore}
	if m.Arc != nil {
		out.Reach = &pb.Melee_Arc{Arc: &pb.MeleeArc{Direction: vec(m.Arc.Direction), Up: vec(m.Arc.Up),
			Radius: m.Arc.Radius, Angle: m.Arc.Angle}}
	} else {
		capsule := func(c MeleeCapsule) *pb.Capsule { return &pb.Capsule{A: vec(c.A), B: vec(c.B), Radius: c.Radius} }
		out.Reach = &pb.Melee_Sweep{Sweep: &pb.MeleeSweep{From: capsule(m.From), To: capsule(m.To)}}
	}
	if m.Claimed != nil {
		out.Claimed = &pb.BodyTarget{BodyId: m.Claimed.Body, PartId: m.Claimed.Part}
	}
	return out
}

// VisibilityQuery asks GetVisibility (docs/visibility.md) which bodies each
// observer may see.
type VisibilityQuery struct {
	At                 *Time   // nil: the latest frame
	Observers          []int64 // empty: every body at the time
	TickSeconds        float64 // the server's tick length (> 0 when Latency > 0)
	Latency            float64 // seconds of look-ahead
	Margin             float64 // length units around every region
	TargetCategoryMask uint64  // targets: bodies with (category & mask) != 0; 0: all
}

func (q VisibilityQuery) proto(world string) *pb.GetVisibilityRequest {
	return &pb.GetVisibilityRequest{WorldId: world, At: q.At.proto(), Observers: q.Observers,
		TickSeconds: q.TickSeconds, Latency: q.Latency, Margin: q.Margin, TargetCategoryMask: q.TargetCategoryMask}
}
