// Validity predicates: see collide/validate.h for the rules.
#include "collide/validate.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

namespace collide {
namespace {

// %g with enough digits to show tiny values (std::to_string prints 0.000000).
std::string FormatDouble(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// Numbers are finite, 0 or within [kMinMagnitude, kMaxMagnitude]
// (IsValidNumber), so that no product of two values inside a kernel can
// overflow. The predicates run on every item of every request, so valid input
// takes a branch-only path: a field's path string is built only once a
// violation is found.
void CheckFinite(double v, std::string_view field, std::vector<Violation>& out) {
  if (IsValidNumber(v)) return;
  if (std::isnan(v)) {
    out.push_back({std::string(field), "must be a number, got NaN"});
  } else if (!std::isfinite(v)) {
    out.push_back({std::string(field), "must be finite, got infinity"});
  } else if (std::fabs(v) > kMaxMagnitude) {
    out.push_back({std::string(field), "magnitude must be <= 1e12, got " + std::to_string(v)});
  } else {
    out.push_back({std::string(field), "magnitude must be 0 or >= 1e-50, got " + FormatDouble(v)});
  }
}

void CheckFinite(const Vec3& v, std::string_view field, std::vector<Violation>& out) {
  if (IsValidNumber(v)) return;
  const std::string f(field);
  CheckFinite(v.x, f + ".x", out);
  CheckFinite(v.y, f + ".y", out);
  CheckFinite(v.z, f + ".z", out);
}

void CheckNonNegative(double v, std::string_view field, std::vector<Violation>& out) {
  if (!IsValidNumber(v)) {
    CheckFinite(v, field, out);
  } else if (v < 0.0) {
    out.push_back({std::string(field), "must be >= 0, got " + std::to_string(v)});
  }
}

template <typename F>
bool Appended(std::vector<Violation>& out, F&& check) {
  const size_t before = out.size();
  check();
  return out.size() == before;
}

}  // namespace

bool Validate(const Point& s, std::vector<Violation>& out) {
  return Appended(out, [&] { CheckFinite(s.position, "position", out); });
}

bool Validate(const Segment& s, std::vector<Violation>& out) {
  return Appended(out, [&] {
    CheckFinite(s.a, "a", out);
    CheckFinite(s.b, "b", out);
  });
}

bool Validate(const Sphere& s, std::vector<Violation>& out) {
  return Appended(out, [&] {
    CheckFinite(s.center, "center", out);
    CheckNonNegative(s.radius, "radius", out);
  });
}

bool Validate(const Capsule& s, std::vector<Violation>& out) {
  return Appended(out, [&] {
    CheckFinite(s.a, "a", out);
    CheckFinite(s.b, "b", out);
    CheckNonNegative(s.radius, "radius", out);
  });
}

bool Validate(const Aabb& s, std::vector<Violation>& out) {
  return Appended(out, [&] {
    CheckFinite(s.min, "min", out);
    CheckFinite(s.max, "max", out);
    static constexpr const char* kAxis[3] = {"x", "y", "z"};
    for (int i = 0; i < 3; ++i) {
      if (std::isfinite(s.min[i]) && std::isfinite(s.max[i]) && s.min[i] > s.max[i]) {
        out.push_back({std::string("min.") + kAxis[i], "must be <= max." + std::string(kAxis[i]) + ", got " +
                                                           std::to_string(s.min[i]) + " > " +
                                                           std::to_string(s.max[i])});
      }
    }
  });
}

bool Validate(const Obb& s, std::vector<Violation>& out) {
  return Appended(out, [&] {
    CheckFinite(s.center, "center", out);
    CheckNonNegative(s.half_extents.x, "half_extents.x", out);
    CheckNonNegative(s.half_extents.y, "half_extents.y", out);
    CheckNonNegative(s.half_extents.z, "half_extents.z", out);
    const Mat3& r = s.rotation;
    bool finite = true;
    for (const Vec3& c : r.col) finite = finite && IsFinite(c);
    if (!finite) {
      out.push_back({"rotation", "must be finite"});
      return;
    }
    double worst = 0.0;
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) {
        worst = std::fmax(worst, std::fabs(Dot(r.col[i], r.col[j]) - (i == j ? 1.0 : 0.0)));
      }
    }
    if (worst > kRotationTolerance || Dot(Cross(r.col[0], r.col[1]), r.col[2]) <= 0.0) {
      out.push_back({"rotation", "must be a proper rotation (orthonormal, determinant +1)"});
    }
  });
}

bool Validate(const Triangle& s, std::vector<Violation>& out) {
  return Appended(out, [&] {
    CheckFinite(s.a, "a", out);
    CheckFinite(s.b, "b", out);
    CheckFinite(s.c, "c", out);
  });
}

bool Validate(const ConvexHull& s, std::vector<Violation>& out) {
  return Appended(out, [&] {
    const size_t n = s.vertices.size();
    if (n == 0 || n > static_cast<size_t>(kMaxHullVertices)) {
      out.push_back({"vertices", "must hold 1 to " + std::to_string(kMaxHullVertices) + " vertices, got " +
                                     std::to_string(n)});
      return;
    }
    for (size_t i = 0; i < n; ++i) {
      if (!IsValidNumber(s.vertices[i]))
        CheckFinite(s.vertices[i], "vertices[" + std::to_string(i) + "]", out);
    }
  });
}

bool Validate(const Halfspace& s, std::vector<Violation>& out) {
  return Appended(out, [&] {
    CheckFinite(s.normal, "normal", out);
    CheckFinite(s.offset, "offset", out);
    if (IsFinite(s.normal) && std::fabs(Length(s.normal) - 1.0) > kUnitTolerance) {
      out.push_back(
          {"normal", "must be unit length (within 1e-6), got length " + std::to_string(Length(s.normal))});
    }
  });
}

bool Validate(const Shape& s, std::vector<Violation>& out) {
  return std::visit([&out](const auto& shape) { return Validate(shape, out); }, s);
}

bool Validate(const Ray& s, std::vector<Violation>& out) {
  return Appended(out, [&] {
    CheckFinite(s.origin, "origin", out);
    CheckFinite(s.direction, "direction", out);
    if (IsFinite(s.direction) && LengthSquared(s.direction) == 0.0) {
      out.push_back({"direction", "must be non-zero"});
    }
    if (std::isnan(s.max_distance)) {
      out.push_back({"max_distance", "must be a number, got NaN"});
    } else if (s.max_distance < 0.0) {
      out.push_back({"max_distance", "must be >= 0 (or +infinity), got " + std::to_string(s.max_distance)});
    }
  });
}

bool Validate(const Line& s, std::vector<Violation>& out) {
  return Appended(out, [&] {
    CheckFinite(s.point, "point", out);
    CheckFinite(s.direction, "direction", out);
    if (IsFinite(s.direction) && LengthSquared(s.direction) == 0.0) {
      out.push_back({"direction", "must be non-zero"});
    }
  });
}

bool ValidateRotation(const Quat& q, std::string_view field, std::vector<Violation>& out) {
  return Appended(out, [&] {
    if (!(IsValidNumber(q.w) && IsValidNumber(q.x) && IsValidNumber(q.y) && IsValidNumber(q.z))) {
      const std::string f(field);
      CheckFinite(q.w, f + ".w", out);
      CheckFinite(q.x, f + ".x", out);
      CheckFinite(q.y, f + ".y", out);
      CheckFinite(q.z, f + ".z", out);
    }
    if (std::isfinite(q.w) && std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) &&
        std::fabs(Norm(q) - 1.0) > kUnitTolerance) {
      out.push_back({std::string(field), "must be a unit quaternion (norm within 1e-6 of 1), got norm " +
                                             std::to_string(Norm(q))});
    }
  });
}

}  // namespace collide
