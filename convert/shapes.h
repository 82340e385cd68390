// Readable collide.v1 geometry messages <-> core shapes and rays.
//
// Proto -> core validates every field with the core's predicates
// (collide/validate.h) and reports violations with paths relative to the
// message ("capsule.radius", "obb.rotation.w"); requests.h prefixes them with
// the request path. Core -> proto never fails.
#ifndef COLLIDE_CONVERT_SHAPES_H_
#define COLLIDE_CONVERT_SHAPES_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "collide/result.h"
#include "collide/shapes.h"
#include "collide/v1/collide.pb.h"
#include "collide/v1/geometry.pb.h"
#include "collide/validate.h"

namespace collide::convert {

// Owns the vertices of decoded convex hulls (core::ConvexHull only holds a
// span). Clear() recycles the storage for the next request without freeing
// it; every span handed out before is then invalid.
class DecodeArena {
 public:
  // n vertices of uninitialized storage, valid until Clear() or destruction.
  std::span<Vec3> AllocateVertices(std::size_t n);
  void Clear();

 private:
  struct Block {
    std::unique_ptr<Vec3[]> data;
    std::size_t capacity = 0;
  };
  std::vector<Block> blocks_;
  std::size_t current_ = 0;  // Block being filled.
  std::size_t used_ = 0;     // Vertices used in blocks_[current_].
};

inline Vec3 FromProto(const v1::Vec3& v) { return {v.x(), v.y(), v.z()}; }
inline Quat FromProto(const v1::Quaternion& q) { return {q.w(), q.x(), q.y(), q.z()}; }

// The core level of a wire level; nullopt for QUERY_LEVEL_UNSPECIFIED and
// values this build does not know (the field is an int on the wire).
std::optional<QueryLevel> LevelFromProto(int level);
v1::QueryLevel ToProto(QueryLevel level);

// The Obb of the wire parts of an obb, each number read through FlushTiny:
// its rotation is the quaternion `q`, which must be unit within
// kUnitTolerance. Returns true when valid; otherwise appends, in this order,
// ValidateRotation's violations ("rotation", "rotation.w") and Validate's
// (relative to the obb), and `out` then holds the identity in place of a
// rejected q. Valid input takes a branch-only path.
bool ObbFromWire(const Vec3& center, const Quat& q, const Vec3& half_extents, Shape& out,
                 std::vector<Violation>& violations);

// Decodes and validates `in` into `out`. Returns true when valid; otherwise
// appends violations relative to `in` ("sphere.radius"; "" with "shape must
// be set" when no kind is set) and `out` is unspecified. Hull vertices are
// stored in `arena`. An unset Obb.rotation is the identity.
bool FromProto(const v1::Shape& in, Shape& out, DecodeArena& arena, std::vector<Violation>& violations);
// As above; an unset max_distance is +infinity.
bool FromProto(const v1::Ray& in, Ray& out, std::vector<Violation>& violations);

void ToProto(const Vec3& in, v1::Vec3* out);
// An Obb's rotation matrix becomes the equivalent unit quaternion.
void ToProto(const Shape& in, v1::Shape* out);
// An infinite max_distance is left unset.
void ToProto(const Ray& in, v1::Ray* out);

}  // namespace collide::convert

#endif  // COLLIDE_CONVERT_SHAPES_H_
