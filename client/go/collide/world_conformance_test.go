package collide

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	pb "collide/client/go/gen/collide/v1"
	"collide/client/go/internal/liveserver"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

type worldGoldenFile struct {
	Tolerance  struct{ Abs, Rel float64 }
	ServerArgs []string `json:"server_args"`
	Cases      []struct {
		Name  string
		Steps []struct {
			RPC           string
			Request       json.RawMessage
			Response      interface{}
			RestartServer bool `json:"restart_server"`
			HistoryLost   bool `json:"history_lost"`
			Error         *struct {
				Code            string
				FieldViolations []string `json:"field_violations"`
				Reason          string
			}
		}
	}
}

// TestWorldConformance runs every world script of
// tests/conformance/world_golden.json ($COLLIDE_WORLD_GOLDEN; format in
// tests/conformance/world_cases.h) through the client's world API against a
// live collide-server, restarting the server where a script says so.
func TestWorldConformance(t *testing.T) {
	var golden worldGoldenFile
	readGolden(t, "COLLIDE_WORLD_GOLDEN", &golden)
	if len(golden.Cases) == 0 {
		t.Fatal("no cases")
	}
	target := liveserver.Start(t, golden.ServerArgs...)
	c, err := Dial(target)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	restarts, lost := 0, 0
	for _, tc := range golden.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			r := &worldRunner{c: c, worlds: map[string]*World{}}
			for i, step := range tc.Steps {
				where := fmt.Sprintf("step %d %s", i, step.RPC)
				if step.RestartServer {
					liveserver.Stop(t, target)
					liveserver.Start(t, append(append([]string{}, golden.ServerArgs...), "--port="+strings.Split(target, ":")[1])...)
					for s, err := c.Health(ctx, ""); s != "SERVING"; s, err = c.Health(ctx, "") {
						if ctx.Err() != nil {
							t.Fatalf("the restarted server never answered: %v", err)
						}
						time.Sleep(20 * time.Millisecond)
					}
					restarts++
					continue
				}
				before := r.recreations
				got, err := r.run(ctx, step.RPC, step.Request)
				want := 0
				if step.HistoryLost {
					want = 1
				}
				if r.recreations-before != want {
					t.Fatalf("%s: %d re-creations, want %d", where, r.recreations-before, want)
				}
				lost += r.recreations - before
				var ce *Error
				if errors.As(err, &ce) {
					if step.Error == nil {
						t.Fatalf("%s: unexpected %v", where, ce)
					}
					if ce.Code.String() != codeName(step.Error.Code) {
						t.Fatalf("%s: code %v, want %s: %v", where, ce.Code, step.Error.Code, ce)
					}
					if step.Error.FieldViolations != nil {
						gotFields, wantFields := ce.Fields(), append([]string{}, step.Error.FieldViolations...)
						sort.Strings(gotFields)
						sort.Strings(wantFields)
						if fmt.Sprint(gotFields) != fmt.Sprint(wantFields) {
							t.Fatalf("%s: fields %q, want %q: %v", where, gotFields, wantFields, ce)
						}
					}
					if step.Error.Reason != "" && ce.Reason != step.Error.Reason {
						t.Fatalf("%s: reason %q, want %q", where, ce.Reason, step.Error.Reason)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				if step.Error != nil {
					t.Fatalf("%s: want %s, got %v", where, step.Error.Code, got)
				}
				if d := mismatch(got, step.Response, golden.Tolerance.Abs, golden.Tolerance.Rel, where); d != "" {
					t.Fatal(d)
				}
			}
		})
	}
	// The suite holds a restart, and the client re-created a world after it.
	if restarts == 0 || lost != restarts {
		t.Errorf("%d restarts, %d re-creations", restarts, lost)
	}
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
		created, err := r.c.CreateWorld(ctx, q, OnRecreated(func(RecreatedEvent) { r.recreations++ }))
		if err != nil {
			return nil, err
		}
		r.worlds[q.GetWorldId()] = created
		answer = created.Created()
	case "GetWorld":
		answer, err = w.Info(ctx)
	case "DeleteWorld":
		return map[string]interface{}{}, w.Delete(ctx)
	case "ListWorlds":
		worlds, err := r.c.ListWorlds(ctx)
		sort.Slice(worlds, func(i, j int) bool { return worlds[i].GetWorldId() < worlds[j].GetWorldId() })
		answer = &pb.ListWorldsResponse{Worlds: worlds}
		if err != nil {
			return nil, err
		}
	case "PushFrame":
		q := &pb.PushFrameRequest{}
		if err := req(q); err != nil {
			return nil, err
		}
		answer, err = w.PushFrame(ctx, q.GetFrame())
	case "QueryWorld":
		q := &pb.QueryWorldRequest{}
		if err := req(q); err != nil {
			return nil, err
		}
		answer, err = w.Query(ctx, q)
	case "CastWorldRaysPacked":
		q := &pb.CastWorldRaysPackedRequest{}
		if err := req(q); err != nil {
			return nil, err
		}
		p, err := w.CastRaysPacked(ctx, q.GetRays(), q.GetFilter())
		if err != nil {
			return nil, err
		}
		answer = &pb.CastWorldRaysPackedResponse{Hit: p.Hit, Distance: p.Distance, Point: p.Point, Normal: p.Normal,
			TargetKind: p.TargetKind, TargetId: p.TargetID, TargetIndex: p.TargetIndex, Time: p.Time}
	case "ValidateShots":
		q := &pb.ValidateShotsRequest{}
		if err := req(q); err != nil {
			return nil, err
		}
		v, err := w.ValidateShots(ctx, q.GetShots())
		answer = &pb.ValidateShotsResponse{Verdicts: v}
		if err != nil {
			return nil, err
		}
	case "ValidateShotsPacked":
		q := &pb.ValidateShotsPackedRequest{}
		if err := req(q); err != nil {
			return nil, err
		}
		v, err := w.ValidateShotsPacked(ctx, &PackedShots{Doubles: q.GetDoubles(), ShooterIDs: q.GetShooterIds(),
			Ticks: q.GetTicks(), ClaimedBodyIDs: q.GetClaimedBodyIds(), ClaimedPartIDs: q.GetClaimedPartIds()})
		answer = &pb.ValidateShotsResponse{Verdicts: v}
		if err != nil {
			return nil, err
		}
	case "ValidateMoves":
		q := &pb.ValidateMovesRequest{}
		if err := req(q); err != nil {
			return nil, err
		}
		v, err := w.ValidateMoves(ctx, q.GetMoves())
		answer = &pb.ValidateMovesResponse{Verdicts: v}
		if err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("unknown rpc %q", rpc)
	}
	if err != nil {
		return nil, err
	}
	return asGolden(answer)
}
