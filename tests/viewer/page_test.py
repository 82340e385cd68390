#!/usr/bin/python3
"""The viewer's page in headless Chromium, and `collide world export`
(tests/viewer/CMakeLists.txt).

Writes the test recording, serves it with `collide world view --port 0`, loads
the page with one shot preselected (#call=10&shot=1) and checks its DOM (the
verdict list, the explanation panel) and a screenshot: not blank, the
selected shot's rewound body drawn in the MISSED colour, and within a
tolerance of reference.png. --update rewrites reference.png from this run.
Standard library only; PNGs are decoded with zlib.
"""
import argparse
import html.parser
import json
import os
import struct
import subprocess
import sys
import tempfile
import unittest
import urllib.error
import urllib.request
import zlib

ARGS = None
WIDTH, HEIGHT = 900, 600
SIDE_PANEL = 352  # pixels of the verdict list left of the 3D view (22rem + border)
BACKGROUND = (0x26, 0x29, 0x2C)
MISSED = (0xFF, 0x41, 0x36)


def read_png(path):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit RGB or RGBA PNG."""
    with open(path, 'rb') as f:
        data = f.read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', path
    pos, idat = 8, b''
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            width, height, depth, colour, _, _, interlace = struct.unpack('>IIBBBBB', body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
        elif kind == b'IDAT':
            idat += body
        pos += 12 + length
    channels = 4 if colour == 6 else 3
    raw, stride = zlib.decompress(idat), width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif kind == 4:  # Paeth
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        previous = line
    return width, height, rows


def near(pixel, colour, tolerance=40):
    return all(abs(p - c) <= tolerance for p, c in zip(pixel, colour))


class Verdicts(html.parser.HTMLParser):
    """The <li class="verdict"> items' attributes and the explanation's text."""

    def __init__(self):
        super().__init__()
        self.items, self.explanation, self.ready, self._in_explanation = [], '', None, False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == 'li' and 'verdict' in attrs.get('class', '').split():
            self.items.append(attrs)
        self._in_explanation = attrs.get('id') == 'explanation'
        if tag == 'body':
            self.ready = attrs.get('data-ready')

    def handle_data(self, data):
        if self._in_explanation:
            self.explanation += data


class ViewerPageTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.recording = os.path.join(cls.dir.name, 'match.rec')
        subprocess.run([ARGS.make_recording, cls.recording], check=True)
        cls.view = subprocess.Popen([ARGS.collide, 'world', 'view', cls.recording, '--port', '0'],
                                    stdout=subprocess.PIPE, text=True)
        cls.url = None
        for line in cls.view.stdout:  # "serving http://127.0.0.1:PORT/ (Ctrl-C stops)"
            if line.startswith('serving '):
                cls.url = line.split()[1]
                break
        assert cls.url and cls.url.startswith('http://127.0.0.1:'), cls.url
        page = cls.url + '#call=10&shot=1'
        cls.screenshot = os.path.join(cls.dir.name, 'page.png')
        cls.dom = cls.chromium([f'--screenshot={cls.screenshot}', page]).stdout
        cls.dom = cls.chromium(['--dump-dom', page]).stdout

    @classmethod
    def chromium(cls, args):
        # SwiftShader gives headless Chromium WebGL without a GPU; the virtual
        # time budget lets the page fetch, build and render before the capture.
        return subprocess.run(
            [ARGS.chromium, '--headless', '--no-sandbox', '--disable-gpu', '--use-gl=angle',
             '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--hide-scrollbars',
             f'--window-size={WIDTH},{HEIGHT}', '--virtual-time-budget=10000',
             f'--user-data-dir={cls.dir.name}/profile'] + args,
            check=True, capture_output=True, text=True, timeout=90)

    @classmethod
    def tearDownClass(cls):
        cls.view.terminate()
        cls.view.wait(timeout=10)
        cls.dir.cleanup()

    def test_the_dom_lists_every_verdict_and_explains_the_selected_one(self):
        parsed = Verdicts()
        parsed.feed(self.dom)
        self.assertEqual(parsed.ready, 'true')
        self.assertEqual([(v['data-kind'], v['data-code']) for v in parsed.items],
                         [('shot', 'CONFIRMED'), ('shot', 'MISSED'), ('shot', 'BLOCKED'),
                          ('move', 'OK'), ('move', 'BLOCKED')])
        selected = [v for v in parsed.items if 'selected' in v['class'].split()]
        self.assertEqual([(v['data-call'], v['data-item']) for v in selected], [('10', '1')])
        self.assertIn('shot 1 of call 10: MISSED', parsed.explanation)
        self.assertIn('rewound to tick 8', parsed.explanation)
        self.assertIn('"claimedMissDistance"', parsed.explanation)

    def test_the_screenshot_shows_the_scene_and_matches_the_reference(self):
        width, height, rows = read_png(self.screenshot)
        self.assertEqual((width, height), (WIDTH, HEIGHT))
        view = [p for row in rows[:HEIGHT - 40] for p in row[SIDE_PANEL:]]
        drawn = sum(1 for p in view if not near(p, BACKGROUND, 6))
        self.assertGreater(drawn / len(view), 0.2, 'the 3D view is blank')
        # The selected MISSED shot's rewound body and ray.
        self.assertGreater(sum(1 for p in view if near(p, MISSED)), 50)
        if ARGS.update:
            with open(self.screenshot, 'rb') as f, open(ARGS.reference, 'wb') as out:
                out.write(f.read())
            return
        _, _, reference = read_png(ARGS.reference)
        differ = total = 0
        for row, ref in zip(rows, reference):
            for p, r in zip(row, ref):
                d = max(abs(a - b) for a, b in zip(p, r))
                total += d
                differ += d > 48
        pixels = width * height
        self.assertLess(differ / pixels, 0.01, f'{differ} pixels differ from {ARGS.reference}')
        self.assertLess(total / pixels, 2.0)

    def test_the_scene_is_served_as_json_and_other_paths_are_not_found(self):
        with urllib.request.urlopen(self.url + 'scene.json', timeout=5) as r:
            self.assertEqual(r.headers['Content-Type'], 'application/json')
            self.assertEqual(r.headers['Content-Encoding'], 'gzip')
            self.assertIn(b'"format":"collide.viewer.scene"', zlib.decompress(r.read(), 31))
        with self.assertRaises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(self.url + 'nothing', timeout=5)
        self.assertEqual(missing.exception.code, 404)

    def test_export_writes_a_verdicts_gltf(self):
        out = os.path.join(self.dir.name, 'shot.gltf')
        subprocess.run([ARGS.collide, 'world', 'export', self.recording, '--call', '10', '--shot', '2', out],
                       check=True, capture_output=True)
        with open(out) as f:
            gltf = json.load(f)
        self.assertEqual(gltf['asset']['version'], '2.0')
        self.assertEqual([n['name'] for n in gltf['nodes']],
                         ['level', 'shooter', 'claimed_rewound', 'claimed_latest', 'ray'])
        # A shot the call does not have.
        missing = subprocess.run([ARGS.collide, 'world', 'export', self.recording, '--call', '10', '--shot', '3', out],
                                 capture_output=True, text=True)
        self.assertEqual(missing.returncode, 1)
        self.assertIn('has no shot 3', missing.stderr)


if __name__ == '__main__':
    parser = argparse.ArgumentParser()
    for flag in ('--collide', '--make_recording', '--chromium', '--reference'):
        parser.add_argument(flag, required=True)
    parser.add_argument('--update', action='store_true')
    ARGS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
