"""Shapes and rays as small dataclasses, and their conversion to collide.v1.

Every value is world space in the caller's length unit (geometry.proto).
Vectors are any 3-sequence of numbers (tuples, lists, numpy arrays).
Wherever the client takes a shape it also takes a collide.v1 Shape message
or a dict in the proto's JSON form, where vectors may also be 3-sequences:

    {"sphere": {"center": [0, 0, 0], "radius": 1}}
    {"obb": {"center": {"x": 1}, "rotation": [1, 0, 0, 0], "half_extents": [1, 2, 3]}}
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Optional, Sequence

from google.protobuf import json_format

from collide.v1 import geometry_pb2

Vec = Sequence[float]


@dataclass(frozen=True)
class Point:
    position: Vec


@dataclass(frozen=True)
class Segment:
    """The closed segment [a, b]."""

    a: Vec
    b: Vec


@dataclass(frozen=True)
class Sphere:
    """Solid ball; radius >= 0."""

    center: Vec
    radius: float


@dataclass(frozen=True)
class Capsule:
    """Every point within `radius` of the segment [a, b]."""

    a: Vec
    b: Vec
    radius: float


@dataclass(frozen=True)
class Aabb:
    """Solid axis-aligned box; min <= max on every axis."""

    min: Vec
    max: Vec


@dataclass(frozen=True)
class Obb:
    """Solid oriented box. rotation is a unit quaternion (w, x, y, z); None is
    the identity."""

    center: Vec
    half_extents: Vec
    rotation: Optional[Sequence[float]] = None


@dataclass(frozen=True)
class Triangle:
    a: Vec
    b: Vec
    c: Vec


@dataclass(frozen=True)
class ConvexHull:
    """The convex hull of 1 to 1024 vertices."""

    vertices: Sequence[Vec]


@dataclass(frozen=True)
class Halfspace:
    """The solid {p : dot(normal, p) <= offset}; normal unit, out of the solid."""

    normal: Vec
    offset: float


@dataclass(frozen=True)
class Ray:
    """origin + t * direction / |direction| for 0 <= t <= max_distance (None:
    unbounded)."""

    origin: Vec
    direction: Vec
    max_distance: Optional[float] = None


# Doubles per shape in the packed encoding (collide.proto, PackedShapeKind).
PACKED_STRIDES = {
    "point": 3,
    "segment": 6,
    "sphere": 4,
    "capsule": 7,
    "aabb": 6,
    "obb": 10,
    "triangle": 9,
    "halfspace": 4,
}


def _vec(v: Vec) -> geometry_pb2.Vec3:
    x, y, z = v
    return geometry_pb2.Vec3(x=x, y=y, z=z)


def shape_to_proto(shape: Any) -> geometry_pb2.Shape:
    """A collide.v1.Shape from a dataclass above, a Shape message or a dict."""
    if isinstance(shape, geometry_pb2.Shape):
        return shape
    if isinstance(shape, dict):
        return _from_dict(shape, geometry_pb2.Shape())
    if isinstance(shape, Point):
        return geometry_pb2.Shape(point=geometry_pb2.Point(position=_vec(shape.position)))
    if isinstance(shape, Segment):
        return geometry_pb2.Shape(segment=geometry_pb2.Segment(a=_vec(shape.a), b=_vec(shape.b)))
    if isinstance(shape, Sphere):
        return geometry_pb2.Shape(
            sphere=geometry_pb2.Sphere(center=_vec(shape.center), radius=shape.radius))
    if isinstance(shape, Capsule):
        return geometry_pb2.Shape(capsule=geometry_pb2.Capsule(
            a=_vec(shape.a), b=_vec(shape.b), radius=shape.radius))
    if isinstance(shape, Aabb):
        return geometry_pb2.Shape(aabb=geometry_pb2.Aabb(min=_vec(shape.min), max=_vec(shape.max)))
    if isinstance(shape, Obb):
        obb = geometry_pb2.Obb(center=_vec(shape.center), half_extents=_vec(shape.half_extents))
        if shape.rotation is not None:
            w, x, y, z = shape.rotation
            obb.rotation.CopyFrom(geometry_pb2.Quaternion(w=w, x=x, y=y, z=z))
        return geometry_pb2.Shape(obb=obb)
    if isinstance(shape, Triangle):
        return geometry_pb2.Shape(triangle=geometry_pb2.Triangle(
            a=_vec(shape.a), b=_vec(shape.b), c=_vec(shape.c)))
    if isinstance(shape, ConvexHull):
        return geometry_pb2.Shape(convex_hull=geometry_pb2.ConvexHull(
            vertices=[_vec(v) for v in shape.vertices]))
    if isinstance(shape, Halfspace):
        return geometry_pb2.Shape(
            halfspace=geometry_pb2.Halfspace(normal=_vec(shape.normal), offset=shape.offset))
    raise TypeError(f"not a shape: {shape!r}")


def ray_to_proto(ray: Any) -> geometry_pb2.Ray:
    """A collide.v1.Ray from a Ray, a Ray message or a dict."""
    if isinstance(ray, geometry_pb2.Ray):
        return ray
    if isinstance(ray, dict):
        return _from_dict(ray, geometry_pb2.Ray())
    if isinstance(ray, Ray):
        out = geometry_pb2.Ray(origin=_vec(ray.origin), direction=_vec(ray.direction))
        if ray.max_distance is not None and not math.isinf(ray.max_distance):
            out.max_distance = ray.max_distance
        return out
    raise TypeError(f"not a ray: {ray!r}")


_SEQUENCE_FIELDS = {"Vec3": ("x", "y", "z"), "Quaternion": ("w", "x", "y", "z")}


def _json_ready(value: Any, descriptor) -> Any:
    """Rewrites 3- and 4-sequences given for Vec3 and Quaternion fields into
    the proto JSON objects that json_format expects."""
    if not isinstance(value, dict):
        return value
    out = {}
    for key, v in value.items():
        fd = descriptor.fields_by_name.get(key) or next(
            (f for f in descriptor.fields if f.json_name == key), None)
        sub = fd.message_type if fd is not None else None
        if sub is None:
            out[key] = v
            continue

        def one(item, sub=sub):
            names = _SEQUENCE_FIELDS.get(sub.name)
            if names and not isinstance(item, dict):
                return dict(zip(names, item))
            return _json_ready(item, sub)

        repeated = fd.label == fd.LABEL_REPEATED
        out[key] = [one(i) for i in v] if repeated else one(v)
    return out


def _from_dict(value: dict, message):
    return json_format.ParseDict(_json_ready(value, message.DESCRIPTOR), message)


def request_from_dict(value: dict, message_type):
    """Any collide.v1 message from its proto JSON form (vectors may be
    3-sequences)."""
    return _from_dict(value, message_type())

