package collide

import (
	"strings"

	pb "github.com/collide-dev/collide/client/go/gen/collide/v1"
)

// ShotCode is a shot verdict's code (world.proto ShotCode). It prints as the
// proto's name without its SHOT_CODE_ prefix ("CONFIRMED"), the spelling of
// the Python client's collide.ShotCode; the Node.js client keeps the full
// enum name (docs/clients.md, "Verdict codes").
type ShotCode int32

// Shot codes: what each means is in world.proto and docs/lag-compensation.md.
const (
	ShotUnspecified         = ShotCode(pb.ShotCode_SHOT_CODE_UNSPECIFIED)
	ShotConfirmed           = ShotCode(pb.ShotCode_SHOT_CODE_CONFIRMED)
	ShotHitOtherPart        = ShotCode(pb.ShotCode_SHOT_CODE_HIT_OTHER_PART)
	ShotHitOtherBody        = ShotCode(pb.ShotCode_SHOT_CODE_HIT_OTHER_BODY)
	ShotBlocked             = ShotCode(pb.ShotCode_SHOT_CODE_BLOCKED)
	ShotMissed              = ShotCode(pb.ShotCode_SHOT_CODE_MISSED)
	ShotRewindTooOld        = ShotCode(pb.ShotCode_SHOT_CODE_REWIND_TOO_OLD)
	ShotInTheFuture         = ShotCode(pb.ShotCode_SHOT_CODE_IN_THE_FUTURE)
	ShotOriginImplausible   = ShotCode(pb.ShotCode_SHOT_CODE_ORIGIN_IMPLAUSIBLE)
	ShotUnknownShooter      = ShotCode(pb.ShotCode_SHOT_CODE_UNKNOWN_SHOOTER)
	ShotUnknownTarget       = ShotCode(pb.ShotCode_SHOT_CODE_UNKNOWN_TARGET)
	ShotInvalid             = ShotCode(pb.ShotCode_SHOT_CODE_INVALID)
	ShotViewTimeImplausible = ShotCode(pb.ShotCode_SHOT_CODE_VIEW_TIME_IMPLAUSIBLE)
)

// String is the code's name without the SHOT_CODE_ prefix; a number the
// client does not know (a newer server) prints as that number.
func (c ShotCode) String() string {
	return strings.TrimPrefix(pb.ShotCode(c).String(), "SHOT_CODE_")
}

// Proto is the code as the generated enum.
func (c ShotCode) Proto() pb.ShotCode { return pb.ShotCode(c) }

// MoveCode is a move verdict's code (world.proto MoveCode), printed without
// its MOVE_CODE_ prefix ("OK", "BLOCKED") as ShotCode is.
type MoveCode int32

// Move codes (world.proto, docs/moves.md); the model codes come only with a
// movement model, the budget codes with a move budget.
const (
	MoveUnspecified       = MoveCode(pb.MoveCode_MOVE_CODE_UNSPECIFIED)
	MoveOK                = MoveCode(pb.MoveCode_MOVE_CODE_OK)
	MoveTooFast           = MoveCode(pb.MoveCode_MOVE_CODE_TOO_FAST)
	MoveBlocked           = MoveCode(pb.MoveCode_MOVE_CODE_BLOCKED)
	MoveStartPenetrating  = MoveCode(pb.MoveCode_MOVE_CODE_START_PENETRATING)
	MoveUnknownBody       = MoveCode(pb.MoveCode_MOVE_CODE_UNKNOWN_BODY)
	MoveInvalid           = MoveCode(pb.MoveCode_MOVE_CODE_INVALID)
	MoveTooFastHorizontal = MoveCode(pb.MoveCode_MOVE_CODE_TOO_FAST_HORIZONTAL)
	MoveTooFastVertical   = MoveCode(pb.MoveCode_MOVE_CODE_TOO_FAST_VERTICAL)
	MoveStepTooHigh       = MoveCode(pb.MoveCode_MOVE_CODE_STEP_TOO_HIGH)
	MoveFlying            = MoveCode(pb.MoveCode_MOVE_CODE_FLYING)
	MoveTooSteep          = MoveCode(pb.MoveCode_MOVE_CODE_TOO_STEEP)
	MoveDistanceBudget    = MoveCode(pb.MoveCode_MOVE_CODE_DISTANCE_BUDGET)
	MoveTimeBudget        = MoveCode(pb.MoveCode_MOVE_CODE_TIME_BUDGET)
)

// String is the code's name without the MOVE_CODE_ prefix.
func (c MoveCode) String() string {
	return strings.TrimPrefix(pb.MoveCode(c).String(), "MOVE_CODE_")
}

// Proto is the code as the generated enum.
func (c MoveCode) Proto() pb.MoveCode { return pb.MoveCode(c) }

// ProjectileCode is a projectile verdict's code (world.proto
// ProjectileCode, docs/projectiles.md), printed without its
// PROJECTILE_CODE_ prefix as ShotCode is. Melee verdicts use ShotCode.
type ProjectileCode int32

// Projectile codes: ProjectileInFlight is a flight still in the air at the
// latest frame (ask again next tick).
const (
	ProjectileUnspecified    = ProjectileCode(pb.ProjectileCode_PROJECTILE_CODE_UNSPECIFIED)
	ProjectileConfirmed      = ProjectileCode(pb.ProjectileCode_PROJECTILE_CODE_CONFIRMED)
	ProjectileHitOtherPart   = ProjectileCode(pb.ProjectileCode_PROJECTILE_CODE_HIT_OTHER_PART)
	ProjectileHitOtherBody   = ProjectileCode(pb.ProjectileCode_PROJECTILE_CODE_HIT_OTHER_BODY)
	ProjectileBlocked        = ProjectileCode(pb.ProjectileCode_PROJECTILE_CODE_BLOCKED)
	ProjectileMissed         = ProjectileCode(pb.ProjectileCode_PROJECTILE_CODE_MISSED)
	ProjectileInFlight       = ProjectileCode(pb.ProjectileCode_PROJECTILE_CODE_IN_FLIGHT)
	ProjectileRewindTooOld   = ProjectileCode(pb.ProjectileCode_PROJECTILE_CODE_REWIND_TOO_OLD)
	ProjectileInTheFuture    = ProjectileCode(pb.ProjectileCode_PROJECTILE_CODE_IN_THE_FUTURE)
	ProjectileUnknownShooter = ProjectileCode(pb.ProjectileCode_PROJECTILE_CODE_UNKNOWN_SHOOTER)
	ProjectileUnknownTarget  = ProjectileCode(pb.ProjectileCode_PROJECTILE_CODE_UNKNOWN_TARGET)
	ProjectileInvalid        = ProjectileCode(pb.ProjectileCode_PROJECTILE_CODE_INVALID)
	// The origin is farther from the shooter's eye at CommandAt than
	// OriginAllowance (as ShotOriginImplausible): no flight is judged.
	ProjectileOriginImplausible = ProjectileCode(pb.ProjectileCode_PROJECTILE_CODE_ORIGIN_IMPLAUSIBLE)
)

// String is the code's name without the PROJECTILE_CODE_ prefix.
func (c ProjectileCode) String() string {
	return strings.TrimPrefix(pb.ProjectileCode(c).String(), "PROJECTILE_CODE_")
}

// Proto is the code as the generated enum.
func (c ProjectileCode) Proto() pb.ProjectileCode { return pb.ProjectileCode(c) }

// Ray modes of a scene ray cast (world.proto RayMode).
const (
	RayClosest = pb.RayMode_RAY_MODE_CLOSEST // the first hit (the default)
	RayAny     = pb.RayMode_RAY_MODE_ANY     // any hit, the cheapest answer to "is the line blocked"
	RayAll     = pb.RayMode_RAY_MODE_ALL     // every hit, sorted by distance, MaxHits kept
)
