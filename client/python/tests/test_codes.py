"""collide.codes: the verdict enums name exactly the proto's codes, equal
their strings, and the results and errors hand them out."""

import unittest

import collide
from collide import ErrorReason, MoveCode, ShotCode
from collide.v1 import world_pb2
from collide.world_results import MoveVerdict, ShotVerdict


def proto_names(enum_type, prefix):
    return {name[len(prefix):] for name in enum_type.keys() if not name.endswith("_UNSPECIFIED")}


class CodesTest(unittest.TestCase):
    def test_enums_match_the_proto(self):
        self.assertEqual({c.value for c in ShotCode}, proto_names(world_pb2.ShotCode, "SHOT_CODE_"))
        self.assertEqual({c.value for c in MoveCode}, proto_names(world_pb2.MoveCode, "MOVE_CODE_"))

    def test_members_are_their_strings(self):
        self.assertEqual(ShotCode.CONFIRMED, "CONFIRMED")
        self.assertEqual(str(MoveCode.TOO_FAST), "TOO_FAST")
        self.assertEqual(f"{ShotCode.BLOCKED:>9}", "  BLOCKED")
        self.assertEqual({ShotCode.MISSED: 1}["MISSED"], 1)

    def test_verdicts_carry_enums(self):
        shot = ShotVerdict.from_proto(world_pb2.ShotVerdict(code=world_pb2.SHOT_CODE_HIT_OTHER_PART))
        self.assertIs(shot.code, ShotCode.HIT_OTHER_PART)
        move = MoveVerdict.from_proto(world_pb2.MoveVerdict(code=world_pb2.MOVE_CODE_START_PENETRATING))
        self.assertIs(move.code, MoveCode.START_PENETRATING)
        self.assertEqual(collide.count_codes([shot, shot]), {"HIT_OTHER_PART": 2})

    def test_unknown_names_stay_strings(self):
        self.assertEqual(ShotCode.parse("SOMETHING_NEWER"), "SOMETHING_NEWER")
        self.assertNotIsInstance(ShotCode.parse("SOMETHING_NEWER"), ShotCode)

    def test_error_reason(self):
        error = collide.CollideError(collide.StatusCode.NOT_FOUND, "gone", [], reason="WORLD_NOT_FOUND")
        self.assertIs(error.reason, ErrorReason.WORLD_NOT_FOUND)
        self.assertEqual(collide.CollideError(collide.StatusCode.INTERNAL, "x", []).reason, "")


if __name__ == "__main__":
    unittest.main()
