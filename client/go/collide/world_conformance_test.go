package collide

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"testing"
	"time"

	pb "github.com/collide-dev/collide/client/go/gen/collide/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// goldenError is the error a step or a Tick message must fail with.
type goldenError struct {
	Code            string
	FieldViolations []string `json:"field_violations"`
	Reason          string
}

type worldScript struct {
	Name  string
	Steps []struct {
		RPC           string
		Request       json.RawMessage
		Response      interface{}
		RestartServer bool `json:"restart_server"`
		HistoryLost   bool `json:"history_lost"`
		Error         *goldenError
		Tick          []struct {
			Message     json.RawMessage
			Answer      map[string]interface{}
			HistoryLost bool `json:"history_lost"`
		}
	}
}

type worldGoldenFile struct {
	Tolerance   struct{ Abs, Rel float64 }
	ServerArgs  []string      `json:"server_args"`
	Cases       []worldScript `json:"cases"`
	StreamCases []worldScript `json:"stream_cases"`
}

// TestWorldConformance runs every world script of
// tests/conformance/world_golden.json ($COLLIDE_WORLD_GOLDEN; format in
// tests/conformance/world_cases.h), unary and stream, through the client's
// world API against a live collide-server, restarting the server where a
// script says so.
func TestWorldConformance(t *testing.T) {
	var golden worldGoldenFile
	readGolden(t, "COLLIDE_WORLD_GOLDEN", &golden)
	if len(golden.Cases) == 0 || len(golden.StreamCases) == 0 {
		t.Fatal("no cases")
	}
	c, _, target := liveClient(t, golden.ServerArgs...)
	outer := t // the restarted server lives until the whole test ends
	restarts, lost := 0, 0
	for _, tc := range append(append([]worldScript{}, golden.Cases...), golden.StreamCases...) {
		t.Run(tc.Name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			r := &worldRunner{c: c, worlds: map[string]*World{}}
			check := func(where string, historyLost bool, recreations int, err error, want *goldenError, got,
				response interface{}) {
				t.Helper()
				lost += recreations
				if wantLost := map[bool]int{true: 1}[historyLost]; recreations != wantLost {
					t.Fatalf("%s: %d re-creations, want %d", where, recreations, wantLost)
				}
				var ce *Error
				if errors.As(err, &ce) {
					if want == nil {
						t.Fatalf("%s: unexpected %v", where, ce)
					}
					if ce.Code.String() != codeName(want.Code) {
						t.Fatalf("%s: code %v, want %s: %v", where, ce.Code, want.Code, ce)
					}
					if want.FieldViolations != nil {
						gotFields, wantFields := ce.Fields(), append([]string{}, want.FieldViolations...)
						sort.Strings(gotFields)
						sort.Strings(wantFields)
						if fmt.Sprint(gotFields) != fmt.Sprint(wantFields) {
							t.Fatalf("%s: fields %q, want %q: %v", where, gotFields, wantFields, ce)
						}
					}
					if want.Reason != "" && ce.Reason != want.Reason {
						t.Fatalf("%s: reason %q, want %q", where, ce.Reason, want.Reason)
					}
				} else if err != nil {
					t.Fatalf("%s: %v", where, err)
				} else if want != nil {
					t.Fatalf("%s: want %s, got %v", where, want.Code, got)
				}
				if response == nil || got == nil {
					return
				}
				if d := mismatch(got, response, golden.Tolerance.Abs, golden.Tolerance.Rel, where); d != "" {
					t.Fatal(d)
				}
			}
			for i, step := range tc.Steps {
				where := fmt.Sprintf("step %d %s", i, step.RPC)
				if step.RPC == "" {
					where = fmt.Sprintf("step %d tick", i)
				}
				switch {
				case step.RestartServer:
					restartServer(ctx, t, outer, c, target, golden.ServerArgs...)
					restarts++
				case step.Tick != nil:
					var first struct {
						WorldID string `json:"world_id"`
					}
					if err := json.Unmarshal(tc.Steps[0].Request, &first); err != nil {
						t.Fatal(err)
					}
					stream, err := r.world(first.WorldID).Tick(ctx)
					if err != nil {
						t.Fatal(err)
					}
					for j, exchange := range step.Tick {
						before := r.recreations
						got, err := r.tick(stream, exchange.Message)
						var want *goldenError
						if e, ok := exchange.Answer["error"]; ok {
							b, _ := json.Marshal(e)
							want = &goldenError{}
							if jerr := json.Unmarshal(b, want); jerr != nil {
								t.Fatal(jerr)
							}
						}
						response := map[string]interface{}{}
						for k, v := range exchange.Answer {
							if k != "error" {
								response[k] = v
							}
						}
						check(fmt.Sprintf("%s tick message %d", where, j), exchange.HistoryLost, r.recreations-before, err,
							want, got, response)
					}
					if err := stream.CloseSend(); err != nil {
						t.Fatal(err)
					}
					if _, err := stream.Recv(); err != io.EOF {
						t.Fatalf("%s: stream end %v", where, err)
					}
				default:
					before := r.recreations
					got, err := r.run(ctx, step.RPC, step.Request)
					check(where, step.HistoryLost, r.recreations-before, err, step.Error, got, step.Response)
				}
			}
		})
	}
	// The scripts hold restarts, and the client re-created a world after each.
	if restarts == 0 || lost != restarts {
		t.Errorf("%d restarts, %d re-creations", restarts, lost)
	}
}

// tick sends one message (its parts in their unary requests' form) and
// returns its answer in the golden JSON form, with the message's error.
func (r *worldRunner) tick(stream *TickStream, message json.RawMessage) (interface{}, error) {
	req := &pb.TickRequest{}
	if err := protojson.Unmarshal(message, req); err != nil {
		return nil, err
	}
	if _, err := stream.Send(req); err != nil {
		return nil, err
	}
	resp, err := stream.Recv()
	if resp == nil {
		return nil, err
	}
	got, jerr := asGolden(resp)
	if jerr != nil {
		return nil, jerr
	}
	return got, err
}

// worldRunner is one client and its world handles across a script.
type worldRunner struct {
	c           *Client
	worlds      map[string]*World
	recreations int
}

func (r *worldRunner) world(id string) *World {
	if w, ok := r.worlds[id]; ok {
		return w
	}
	return r.c.World(id)
}

// asGolden is a message in the golden JSON form: proto field names, every
// field present (unset messages null), int64 as numbers (mismatch reads
// protojson's strings).
func asGolden(m proto.Message) (interface{}, error) {
	b, err := protojson.MarshalOptions{UseProtoNames: true, EmitUnpopulated: true}.Marshal(m)
	if err != nil {
		return nil, err
	}
	var out interface{}
	return out, json.Unmarshal(b, &out)
}

// run sends the step's request through the World API and returns the answer
// in the golden JSON form.
func (r *worldRunner) run(ctx context.Context, rpc string, raw json.RawMessage) (interface{}, error) {
	req := func(m proto.Message) error { return protojson.Unmarshal(raw, m) }
	var id struct {
		WorldID string `json:"world_id"`
	}
	if err := json.Unmarshal(raw, &id); err != nil {
		return nil, err
	}
	w := r.world(id.WorldID)
	var answer proto.Message
	var err error
	switch rpc {
	case "CreateWorld":
		q := &pb.CreateWorldRequest{}
		if err := req(q); err != nil {
			return nil, err
		}
		created, err := r.c.CreateWorldFromRequest(ctx, q, OnRecreated(func(RecreatedEvent) { r.recreations++ }))
		if err != nil {
			return nil, err
		}
		r.worlds[q.GetWorldId()] = created
		answer = created.Messages().Created()
	case "GetWorld":
		answer, err = w.Messages().Info(ctx)
	case "DeleteWorld":
		return map[string]interface{}{}, w.Delete(ctx)
	case "ListWorlds":
		list, err := r.c.WorldService().ListWorlds(ctx, &pb.ListWorldsRequest{})
		if err != nil {
			return nil, wrapError(err)
		}
		worlds := list.GetWorlds()
		sort.Slice(worlds, func(i, j int) bool { return worlds[i].GetWorldId() < worlds[j].GetWorldId() })
		answer = &pb.ListWorldsResponse{Worlds: worlds}
	case "PushFrame":
		q := &pb.PushFrameRequest{}
		if err := req(q); err != nil {
			return nil, err
		}
		answer, err = w.Messages().PushFrame(ctx, q.GetFrame())
	case "QueryWorld":
		q := &pb.QueryWorldRequest{}
		if err := req(q); err != nil {
			return nil, err
		}
		answer, err = w.Messages().Query(ctx, q)
	case "CastWorldRaysPacked":
		q := &pb.CastWorldRaysPackedRequest{}
		if err := req(q); err != nil {
			return nil, err
		}
		answer, err = w.Messages().CastRaysPacked(ctx, q.GetRays(), q.GetFilter())
	case "ValidateShots":
		q := &pb.ValidateShotsRequest{}
		if err := req(q); err != nil {
			return nil, err
		}
		v, err := w.Messages().ValidateShots(ctx, q.GetShots(), batchOption(q.GetAllOrNothing(), q.GetExplain())...)
		answer = &pb.ValidateShotsResponse{Verdicts: v}
		if err != nil {
			return nil, err
		}
	case "ValidateShotsPacked":
		q := &pb.ValidateShotsPackedRequest{}
		if err := req(q); err != nil {
			return nil, err
		}
		v, err := w.Messages().ValidateShotsPacked(ctx, &PackedShots{Doubles: q.GetDoubles(), ShooterIDs: q.GetShooterIds(),
			Ticks: q.GetTicks(), ClaimedBodyIDs: q.GetClaimedBodyIds(), ClaimedPartIDs: q.GetClaimedPartIds(),
			AllOrNothing: q.GetAllOrNothing(), Explain: q.GetExplain(), CommandTicks: q.GetCommandTicks(), ExpectedTicks: q.GetExpectedTicks(),
			CategoryMasks: q.GetCategoryMasks(), IgnoreCounts: q.GetIgnoreCounts(), IgnoreBodyIDs: q.GetIgnoreBodyIds()})
		answer = &pb.ValidateShotsResponse{Verdicts: v}
		if err != nil {
			return nil, err
		}
	case "ValidateProjectiles":
		q := &pb.ValidateProjectilesRequest{}
		if err := req(q); err != nil {
			return nil, err
		}
		v, err := w.Messages().ValidateProjectiles(ctx, q.GetProjectiles(), batchOption(q.GetAllOrNothing(), false)...)
		answer = &pb.ValidateProjectilesResponse{Verdicts: v}
		if err != nil {
			return nil, err
		}
	case "ValidateMelee":
		q := &pb.ValidateMeleeRequest{}
		if err := req(q); err != nil {
			return nil, err
		}
		v, err := w.Messages().ValidateMelee(ctx, q.GetMelee(), batchOption(q.GetAllOrNothing(), false)...)
		answer = &pb.ValidateMeleeResponse{Verdicts: v}
		if err != nil {
			return nil, err
		}
	case "GetVisibility":
		q := &pb.GetVisibilityRequest{}
		if err := req(q); err != nil {
			return nil, err
		}
		r, err := w.Messages().GetVisibility(ctx, q)
		if err != nil {
			return nil, err
		}
		answer = r
	case "ValidateMoves":
		q := &pb.ValidateMovesRequest{}
		if err := req(q); err != nil {
			return nil, err
		}
		v, err := w.Messages().ValidateMoves(ctx, q.GetMoves(), batchOption(q.GetAllOrNothing(), q.GetExplain())...)
		answer = &pb.ValidateMovesResponse{Verdicts: v}
		if err != nil {
			return nil, err
		}
	case "GetBodies":
		q := &pb.GetBodiesRequest{}
		if err := req(q); err != nil {
			return nil, err
		}
		var at *Time
		if q.GetAt() != nil {
			at = TimeAt(q.GetAt().GetTick(), q.GetAt().GetFraction())
		}
		answer, err = w.Messages().GetBodies(ctx, at, q.GetBodyIds())
	default:
		return nil, fmt.Errorf("unknown rpc %q", rpc)
	}
	if err != nil {
		return nil, err
	}
	return asGolden(answer)
}

// batchOption is the options a script's all_or_nothing and explain ask for.
func batchOption(allOrNothing, explain bool) []VerdictOption {
	var out []VerdictOption
	if allOrNothing {
		out = append(out, AllOrNothing())
	}
	if explain {
		out = append(out, Explain())
	}
	return out
}
