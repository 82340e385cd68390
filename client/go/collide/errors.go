package collide

import (
	"errors"
	"fmt"
	"strings"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// FieldViolation names one bad request field, e.g. "pairs[3].b.capsule.radius"
// or "a.data[41]".
type FieldViolation struct {
	Field       string
	Description string
}

// Error is a failed call: its gRPC code and message, every field violation
// of the google.rpc.BadRequest the server attached, and the reason and
// domain of its google.rpc.ErrorInfo (a lost world: NOT_FOUND, reason
// ReasonWorldNotFound, domain "collide.v1"). Get it with errors.As.
type Error struct {
	Code            codes.Code
	Message         string
	FieldViolations []FieldViolation
	Reason, Domain  string
}

// ReasonWorldNotFound is the ErrorInfo reason of a world this replica does
// not hold: the cue to re-create it.
const ReasonWorldNotFound = "WORLD_NOT_FOUND"

// IsWorldNotFound says whether err is a call that found its world missing.
func IsWorldNotFound(err error) bool {
	var ce *Error
	return errors.As(err, &ce) && ce.Code == codes.NotFound && ce.Reason == ReasonWorldNotFound
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", e.Code, e.Message)
	for _, v := range e.FieldViolations {
		fmt.Fprintf(&b, "\n  %s: %s", v.Field, v.Description)
	}
	return b.String()
}

// Fields lists the violated field paths in the server's order.
func (e *Error) Fields() []string {
	out := make([]string, len(e.FieldViolations))
	for i, v := range e.FieldViolations {
		out[i] = v.Field
	}
	return out
}

// GRPCStatus lets status.FromError see through an *Error.
func (e *Error) GRPCStatus() *status.Status { return status.New(e.Code, e.Message) }

func wrapError(err error) error {
	if err == nil {
		return nil
	}
	var ce *Error
	if errors.As(err, &ce) {
		return err
	}
	s, ok := status.FromError(err)
	if !ok {
		return err
	}
	return errorOf(s)
}

// errorOf reads a status with its google.rpc details (a failed call, or a
// failed message of the Tick stream).
func errorOf(s *status.Status) *Error {
	out := &Error{Code: s.Code(), Message: s.Message()}
	for _, d := range s.Details() {
		switch d := d.(type) {
		case *errdetails.BadRequest:
			for _, v := range d.GetFieldViolations() {
				out.FieldViolations = append(out.FieldViolations, FieldViolation{v.GetField(), v.GetDescription()})
			}
		case *errdetails.ErrorInfo:
			out.Reason, out.Domain = d.GetReason(), d.GetDomain()
		}
	}
	return out
}
