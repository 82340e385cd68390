package collide

import (
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

// Error is a failed call: its gRPC code and message, and every field
// violation of the google.rpc.BadRequest the server attached. Get it with
// errors.As.
type Error struct {
	Code            codes.Code
	Message         string
	FieldViolations []FieldViolation
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
	s, ok := status.FromError(err)
	if !ok {
		return err
	}
	out := &Error{Code: s.Code(), Message: s.Message()}
	for _, d := range s.Details() {
		if br, ok := d.(*errdetails.BadRequest); ok {
			for _, v := range br.GetFieldViolations() {
				out.FieldViolations = append(out.FieldViolations, FieldViolation{v.GetField(), v.GetDescription()})
			}
		}
	}
	return out
}
