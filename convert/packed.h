// The packed encoding of collide.proto: shapes of one kind as flat arrays of
// doubles with a fixed stride per kind, and rays as 7 doubles each.
#ifndef COLLIDE_CONVERT_PACKED_H_
#define COLLIDE_CONVERT_PACKED_H_

#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "collide/shapes.h"
#include "collide/v1/collide.pb.h"
#include "collide/validate.h"

namespace collide::convert {

// Doubles per packed ray: origin, direction, max_distance.
inline constexpr int kPackedRayStride = 7;
// The most doubles any packed shape kind uses (obb).
inline constexpr int kMaxPackedStride = 10;

// The core kind of a packed kind; nullopt for UNSPECIFIED and unknown values.
std::optional<ShapeKind> PackedKindFromProto(int kind);
// The packed kind of a core kind; nullopt for convex_hull, which has no
// packed form.
std::optional<v1::PackedShapeKind> PackedKindOf(ShapeKind kind);
// Doubles per shape of `kind` (collide.proto); 0 for convex_hull.
int PackedStride(ShapeKind kind);

// Decodes the shape at `data` (PackedStride(kind) doubles) into `out` and
// validates it. Returns true when valid; otherwise appends violations whose
// paths are relative to the shape ("radius", "rotation") and whose position
// in `data` PackedFieldOffset gives.
bool UnpackShape(ShapeKind kind, const double* data, Shape& out, std::vector<Violation>& violations);
// Index within a packed shape of `kind` of the field a violation names
// ("half_extents.y" -> 9 for obb); a group ("rotation", "normal") maps to its
// first double. 0 when unknown.
int PackedFieldOffset(ShapeKind kind, std::string_view field);
// Writes `shape` as PackedStride(KindOf(shape)) doubles at `out` (an Obb's
// rotation as its unit quaternion). `shape` must not be a convex hull.
void PackShape(const Shape& shape, double* out);

// Ray i of a packed array: data[7i .. 7i+6].
bool UnpackRay(const double* data, Ray& out, std::vector<Violation>& violations);
// Offset of a Ray violation's field within its 7 doubles ("max_distance" -> 6).
int PackedRayFieldOffset(std::string_view field);
void PackRay(const Ray& ray, double* out);

// Whole arrays, for clients: every shape must be of one packed kind (else
// false and `out` untouched).
bool PackShapes(std::span<const Shape> shapes, v1::PackedShapes* out);
void PackRays(std::span<const Ray> rays, google::protobuf::RepeatedField<double>* out);

}  // namespace collide::convert

#endif  // COLLIDE_CONVERT_PACKED_H_
