#!/usr/bin/env python3
"""Writes the seed corpus of import_fuzz (tests/fuzz/corpus/import_fuzz/).

A synthetic Quake 3 BSP (IBSP 46) with one of everything the reader handles:
a solid polygon face (a quad: 2 triangles), a solid 3x3 Bezier patch face,
a water face (skipped by the collision rule), a billboard (skipped), a
brush-entity model (skipped), and a player-clip brush (a 16-unit cube with a
bevel side touching one edge; imported with clip_brushes); and .pk3 archives
holding it deflated and stored, and one holding two maps. Each seed is under
2.5 kB.
Usage: tests/fuzz/make_import_seeds.py   (from anywhere)
"""
import io
import os
import shutil
import struct
import zipfile

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "import_fuzz")


def bsp():
    shaders = [(b"textures/base/wall", 0, 0x1), (b"textures/liquids/water", 0, 0x20),
               (b"textures/common/clip", 0x80, 0x10000)]
    # The clip cube [100, 116] x [0, 16] x [0, 16]: Dot(normal, x) <= dist per side.
    r = 0.5 ** 0.5
    planes = [(1, 0, 0, 116), (-1, 0, 0, -100), (0, 1, 0, 16), (0, -1, 0, 0), (0, 0, 1, 16), (0, 0, -1, 0),
              (r, r, 0, (116 + 16) * r)]
    quad = [(0, 0, 0), (64, 0, 0), (64, 64, 0), (0, 64, 0)]
    patch = [(x * 32, y * 32, (16 if (x == 1 or y == 1) else 0)) for y in range(3) for x in range(3)]
    water = [(0, 0, -8), (64, 0, -8), (64, 64, -8)]
    vertices = quad + patch + water
    meshverts = [0, 1, 2, 0, 2, 3]

    def face(shader, kind, first_vertex, num_vertices, first_meshvert, num_meshverts, w=0, h=0):
        return struct.pack("<12i12f2i", shader, -1, kind, first_vertex, num_vertices, first_meshvert,
                           num_meshverts, 0, 0, 0, 0, 0, *([0.0] * 12), w, h)

    faces = [face(0, 1, 0, 4, 0, 6), face(0, 2, 4, 9, 0, 0, 3, 3), face(1, 1, 13, 3, 0, 3),
             face(0, 4, 0, 0, 0, 0), face(0, 1, 0, 4, 0, 6)]
    lumps = [b""] * 17
    lumps[0] = b'{\n"classname" "worldspawn"\n}\n\0'
    lumps[1] = b"".join(struct.pack("<64sii", *s) for s in shaders)
    lumps[2] = b"".join(struct.pack("<4f", *p) for p in planes)
    lumps[7] = struct.pack("<6f4i", 0, 0, -8, 116, 64, 16, 0, 4, 0, 1) + struct.pack("<6f4i", 0, 0, 0, 64, 64, 0, 4, 1, 1, 0)
    lumps[8] = struct.pack("<3i", 0, len(planes), 2)
    lumps[9] = b"".join(struct.pack("<2i", i, 2) for i in range(len(planes)))
    lumps[10] = b"".join(struct.pack("<3f4f3f4B", *v, 0, 0, 0, 0, 0, 0, 1, 255, 255, 255, 255) for v in vertices)
    lumps[11] = struct.pack(f"<{len(meshverts)}i", *meshverts)
    lumps[13] = b"".join(faces)
    header_size = 8 + 17 * 8
    offset, directory, body = header_size, b"", b""
    for lump in lumps:
        directory += struct.pack("<ii", offset, len(lump))
        body += lump
        offset += len(lump)
    return b"IBSP" + struct.pack("<i", 46) + directory + body


def pk3(files, method):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=method) as z:
        for name, data in files:
            z.writestr(name, data)
    return out.getvalue()


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    level = bsp()
    seeds = {
        "seed-bsp": level,
        "seed-pk3-deflate": pk3([("maps/seed.bsp", level), ("textures/readme.txt", b"seed")], zipfile.ZIP_DEFLATED),
        "seed-pk3-stored": pk3([("maps/seed.bsp", level)], zipfile.ZIP_STORED),
        "seed-pk3-two-maps": pk3([("maps/a.bsp", level), ("maps/b.bsp", level)], zipfile.ZIP_DEFLATED),
    }
    for name, data in seeds.items():
        assert len(data) < 2560, (name, len(data))
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
