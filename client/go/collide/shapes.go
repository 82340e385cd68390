package collide

import (
	"math"

	pb "github.com/collide-dev/collide/client/go/gen/collide/v1"
)

// Vec3 is a point or vector (x, y, z), world space, in the caller's length unit.
type Vec3 [3]float64

// Quat is a unit quaternion w + xi + yj + zk.
type Quat struct{ W, X, Y, Z float64 }

func vec(v Vec3) *pb.Vec3 { return &pb.Vec3{X: v[0], Y: v[1], Z: v[2]} }

func fromPB(v *pb.Vec3) Vec3 { return Vec3{v.GetX(), v.GetY(), v.GetZ()} }

// Point is a single point.
func Point(p Vec3) *pb.Shape {
	return &pb.Shape{Shape: &pb.Shape_Point{Point: &pb.Point{Position: vec(p)}}}
}

// Segment is the closed segment [a, b].
func Segment(a, b Vec3) *pb.Shape {
	return &pb.Shape{Shape: &pb.Shape_Segment{Segment: &pb.Segment{A: vec(a), B: vec(b)}}}
}

// Sphere is a solid ball; radius >= 0.
func Sphere(center Vec3, radius float64) *pb.Shape {
	return &pb.Shape{Shape: &pb.Shape_Sphere{Sphere: &pb.Sphere{Center: vec(center), Radius: radius}}}
}

// Capsule is every point within radius of the segment [a, b].
func Capsule(a, b Vec3, radius float64) *pb.Shape {
	return &pb.Shape{Shape: &pb.Shape_Capsule{Capsule: &pb.Capsule{A: vec(a), B: vec(b), Radius: radius}}}
}

// Aabb is a solid axis-aligned box; min <= max on every axis.
func Aabb(min, max Vec3) *pb.Shape {
	return &pb.Shape{Shape: &pb.Shape_Aabb{Aabb: &pb.Aabb{Min: vec(min), Max: vec(max)}}}
}

// Obb is a solid oriented box; a nil rotation is the identity.
func Obb(center, halfExtents Vec3, rotation *Quat) *pb.Shape {
	o := &pb.Obb{Center: vec(center), HalfExtents: vec(halfExtents)}
	if rotation != nil {
		o.Rotation = &pb.Quaternion{W: rotation.W, X: rotation.X, Y: rotation.Y, Z: rotation.Z}
	}
	return &pb.Shape{Shape: &pb.Shape_Obb{Obb: o}}
}

// Triangle is a solid flat triangle.
func Triangle(a, b, c Vec3) *pb.Shape {
	return &pb.Shape{Shape: &pb.Shape_Triangle{Triangle: &pb.Triangle{A: vec(a), B: vec(b), C: vec(c)}}}
}

// ConvexHull is the convex hull of 1 to 1024 vertices.
func ConvexHull(vertices ...Vec3) *pb.Shape {
	h := &pb.ConvexHull{}
	for _, v := range vertices {
		h.Vertices = append(h.Vertices, vec(v))
	}
	return &pb.Shape{Shape: &pb.Shape_ConvexHull{ConvexHull: h}}
}

// Halfspace is the solid {p : dot(normal, p) <= offset}; normal unit length.
func Halfspace(normal Vec3, offset float64) *pb.Shape {
	return &pb.Shape{Shape: &pb.Shape_Halfspace{Halfspace: &pb.Halfspace{Normal: vec(normal), Offset: offset}}}
}

// Ray is origin + t * direction/|direction| for 0 <= t <= maxDistance;
// math.Inf(1) makes it unbounded.
func Ray(origin, direction Vec3, maxDistance float64) *pb.Ray {
	r := &pb.Ray{Origin: vec(origin), Direction: vec(direction)}
	if !math.IsInf(maxDistance, 1) {
		r.MaxDistance = &maxDistance
	}
	return r
}

// PackedStrides is the number of doubles per shape in the packed encoding.
var PackedStrides = map[pb.PackedShapeKind]int{
	pb.PackedShapeKind_PACKED_SHAPE_KIND_POINT:     3,
	pb.PackedShapeKind_PACKED_SHAPE_KIND_SEGMENT:   6,
	pb.PackedShapeKind_PACKED_SHAPE_KIND_SPHERE:    4,
	pb.PackedShapeKind_PACKED_SHAPE_KIND_CAPSULE:   7,
	pb.PackedShapeKind_PACKED_SHAPE_KIND_AABB:      6,
	pb.PackedShapeKind_PACKED_SHAPE_KIND_OBB:       10,
	pb.PackedShapeKind_PACKED_SHAPE_KIND_TRIANGLE:  9,
	pb.PackedShapeKind_PACKED_SHAPE_KIND_HALFSPACE: 4,
}
