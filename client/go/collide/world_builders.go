package collide

import (
	"math"

	pb "github.com/collide-dev/collide/client/go/gen/collide/v1"
)

// Builders of the world messages most calls need; any other field is set on
// the generated message (github.com/collide-dev/collide/client/go/gen/collide/v1).

// At is the time (tick + fraction) a query or shot asks about.
func At(tick int64, fraction float64) *pb.WorldTime {
	return &pb.WorldTime{Tick: tick, Fraction: fraction}
}

// PoseOf places a body or part; a nil rotation is the identity.
func PoseOf(position Vec3, rotation *Quat) *pb.Pose {
	p := &pb.Pose{Position: vec(position)}
	if rotation != nil {
		p.Rotation = &pb.Quaternion{W: rotation.W, X: rotation.X, Y: rotation.Y, Z: rotation.Z}
	}
	return p
}

// MeshElement is static triangle mesh id: vertex i at vertices[3i:3i+3],
// triangle j at indices[3j:3j+3].
func MeshElement(id int64, vertices []float64, indices []uint32) *pb.StaticElement {
	return &pb.StaticElement{Id: id, Geometry: &pb.StaticElement_Mesh{Mesh: &pb.Mesh{Vertices: vertices, Indices: indices}}}
}

// ShapeElement is static shape id.
func ShapeElement(id int64, s *pb.Shape) *pb.StaticElement {
	return &pb.StaticElement{Id: id, Geometry: &pb.StaticElement_Shape{Shape: s}}
}

// MapElement is map file name in the server's --maps_dir ("level.glb",
// "maps.pk3" with mapName picking one map of the archive).
//
// geometry picks the categories imported (none: MAP_GEOMETRY_RENDER, the
// drawn faces); moves want SOLID and PLAYER_CLIP, shots SOLID (docs/moves.md).
func MapElement(id int64, name, mapName string, geometry ...pb.MapGeometry) *pb.StaticElement {
	return &pb.StaticElement{Id: id, Geometry: &pb.StaticElement_MapFile{
		MapFile: &pb.MapFile{Name: name, Map: mapName, Geometry: geometry}}}
}

// PartOf is hitbox id of a body: a convex shape in the part frame, placed in
// the body frame by local (nil: identity).
func PartOf(id int32, s *pb.Shape, local *pb.Pose) *pb.BodyPart {
	return &pb.BodyPart{Id: id, Shape: s, Local: local}
}

// PackedShots holds shots in flat arrays (world.proto
// ValidateShotsPackedRequest); Add appends one.
type PackedShots struct {
	Doubles        []float64
	ShooterIDs     []int64
	Ticks          []int64 // LatestTick: the latest frame.
	ClaimedBodyIDs []int64
	ClaimedPartIDs []int32
	// AllOrNothing: a bad shot fails the call (see AllOrNothing).
	AllOrNothing bool
	// Explain: each verdict carries its explanation (see Explain).
	Explain bool
	// Optional arrays, empty or one entry per shot (world.proto
	// ValidateShotsPackedRequest): the command's tick and the expected view
	// tick (LatestTick: the latest frame / none; the skew allowed in the
	// shot's tenth double), the category mask (0: all), and IgnoreCounts[i]
	// ignored bodies of IgnoreBodyIDs, shot after shot.
	CommandTicks  []int64
	ExpectedTicks []int64
	CategoryMasks []uint64
	IgnoreCounts  []int32
	IgnoreBodyIDs []int64
}

// LatestTick is a packed shot's tick for the latest frame: math.MinInt64,
// never a tick.
const LatestTick int64 = math.MinInt64

// A VerdictOption changes how a batch of shots or moves is judged.
type VerdictOption func(*verdictSettings)

type verdictSettings struct{ allOrNothing, explain bool }

// AllOrNothing makes a bad shot or move fail the whole call with
// INVALID_ARGUMENT; without it, its verdict is INVALID (code
// SHOT_CODE_INVALID or MOVE_CODE_INVALID) with its violations, and the
// other items are judged.
func AllOrNothing() VerdictOption { return func(s *verdictSettings) { s.allOrNothing = true } }

// Explain makes each verdict but INVALID carry its Explanation: what the
// judge used (docs/worlds.md). For disputes and viewers, not every tick.
func Explain() VerdictOption { return func(s *verdictSettings) { s.explain = true } }

func verdictOptions(opts []VerdictOption) verdictSettings {
	var s verdictSettings
	for _, o := range opts {
		o(&s)
	}
	return s
}

// Add appends a shot of shooter from origin along direction up to maxRange
// (math.Inf(1): unbounded) at time at (nil: the latest frame; TimeAt), claiming
// (claimedBody, claimedPart) (-1, -1: no claim), with tolerance.
func (p *PackedShots) Add(shooter int64, origin, direction Vec3, maxRange float64, at *Time,
	claimedBody int64, claimedPart int32, tolerance float64) {
	tick, fraction := LatestTick, 0.0
	if at != nil {
		tick, fraction = at.Tick, at.Fraction
	}
	p.Doubles = append(p.Doubles, origin[0], origin[1], origin[2], direction[0], direction[1], direction[2], maxRange,
		fraction, tolerance, 0)
	p.ShooterIDs = append(p.ShooterIDs, shooter)
	p.Ticks = append(p.Ticks, tick)
	p.ClaimedBodyIDs = append(p.ClaimedBodyIDs, claimedBody)
	p.ClaimedPartIDs = append(p.ClaimedPartIDs, claimedPart)
}

// Len is the number of shots.
func (p *PackedShots) Len() int { return len(p.ShooterIDs) }

func (p *PackedShots) request(worldID string) *pb.ValidateShotsPackedRequest {
	return &pb.ValidateShotsPackedRequest{WorldId: worldID, Doubles: p.Doubles, ShooterIds: p.ShooterIDs,
		Ticks: p.Ticks, ClaimedBodyIds: p.ClaimedBodyIDs, ClaimedPartIds: p.ClaimedPartIDs,
		AllOrNothing: p.AllOrNothing, Explain: p.Explain, CommandTicks: p.CommandTicks, ExpectedTicks: p.ExpectedTicks,
		CategoryMasks: p.CategoryMasks, IgnoreCounts: p.IgnoreCounts, IgnoreBodyIds: p.IgnoreBodyIDs}
}
