package collide

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"testing"
	"time"

	pb "github.com/collide-dev/collide/client/go/gen/collide/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

type goldenFile struct {
	Tolerance  struct{ Abs, Rel float64 }
	ServerArgs []string `json:"server_args"`
	Cases      []struct {
		Name     string
		RPC      string
		Request  json.RawMessage
		Response interface{}
		Error    *struct {
			Code            string
			FieldViolations []string `json:"field_violations"`
		}
	}
}

// TestConformance runs every case of tests/conformance/golden.json through the
// client against a live collide-server ($COLLIDE_GOLDEN, $COLLIDE_SERVER).
func TestConformance(t *testing.T) {
	var golden goldenFile
	readGolden(t, "COLLIDE_GOLDEN", &golden)
	if len(golden.Cases) == 0 {
		t.Fatal("no cases")
	}
	c, _, _ := liveClient(t, golden.ServerArgs...)
	for _, tc := range golden.Cases {
		tc := tc
		t.Run(tc.Name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			got, err := run(ctx, c, tc.RPC, tc.Request)
			var ce *Error
			if errors.As(err, &ce) {
				if tc.Error == nil {
					t.Fatalf("unexpected %v", ce)
				}
				if ce.Code.String() != codeName(tc.Error.Code) {
					t.Fatalf("code %v, want %s: %v", ce.Code, tc.Error.Code, ce)
				}
				if tc.Error.FieldViolations != nil {
					gotFields, want := ce.Fields(), append([]string{}, tc.Error.FieldViolations...)
					sort.Strings(gotFields)
					sort.Strings(want)
					if fmt.Sprint(gotFields) != fmt.Sprint(want) {
						t.Fatalf("fields %q, want %q: %v", gotFields, want, ce)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.Error != nil {
				t.Fatalf("want %s, got %v", tc.Error.Code, got)
			}
			if d := mismatch(got, tc.Response, golden.Tolerance.Abs, golden.Tolerance.Rel, "response"); d != "" {
				t.Fatal(d)
			}
		})
	}
}

// readGolden decodes the JSON file named by the environment variable env
// into golden; the test is skipped without it.
func readGolden(t *testing.T, env string, golden interface{}) {
	t.Helper()
	path := os.Getenv(env)
	if path == "" {
		t.Skipf("needs %s (ctest sets it)", env)
	}
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(text, golden); err != nil {
		t.Fatal(err)
	}
}

// codeName maps "INVALID_ARGUMENT" to codes.Code's String() ("InvalidArgument").
func codeName(upper string) string {
	out, up := []byte{}, true
	for i := 0; i < len(upper); i++ {
		switch ch := upper[i]; {
		case ch == '_':
			up = true
		case up:
			out, up = append(out, ch), false
		default:
			out = append(out, ch+'a'-'A')
		}
	}
	return string(out)
}

func unmarshal(raw json.RawMessage, m proto.Message) error {
	return protojson.Unmarshal(raw, m)
}

// run sends the case's request through the wrapper and returns the answer
// in the golden JSON form.
func run(ctx context.Context, c *Client, rpc string, raw json.RawMessage) (interface{}, error) {
	switch rpc {
	case "QueryPairs":
		req := &pb.QueryPairsRequest{}
		if err := unmarshal(raw, req); err != nil {
			return nil, err
		}
		pairs := make([]Pair, len(req.Pairs))
		for i, p := range req.Pairs {
			pairs[i] = Pair{p.A, p.B}
		}
		res, err := c.QueryPairs(ctx, req.Level, pairs)
		if err != nil {
			return nil, err
		}
		out := []interface{}{}
		for _, r := range res {
			out = append(out, map[string]interface{}{"hit": r.Hit, "distance": r.Distance, "point_a": xyz(r.PointA),
				"point_b": xyz(r.PointB), "normal": xyz(r.Normal), "status": r.Status.String()})
		}
		return map[string]interface{}{"results": out}, nil
	case "QueryPairsPacked":
		req := &pb.QueryPairsPackedRequest{}
		if err := unmarshal(raw, req); err != nil {
			return nil, err
		}
		r, err := c.QueryPairsPacked(ctx, req.Level, req.GetA().GetKind(), req.GetA().GetData(), req.GetB().GetKind(),
			req.GetB().GetData())
		if err != nil {
			return nil, err
		}
		return map[string]interface{}{"hit": r.Hit, "distance": r.Distance, "point_a": r.PointA, "point_b": r.PointB,
			"normal": r.Normal, "not_converged": r.NotConverged}, nil
	case "CastRays":
		req := &pb.CastRaysRequest{}
		if err := unmarshal(raw, req); err != nil {
			return nil, err
		}
		casts := make([]Cast, len(req.Casts))
		for i, cast := range req.Casts {
			casts[i] = Cast{cast.Ray, cast.Shape}
		}
		hits, err := c.CastRays(ctx, casts)
		if err != nil {
			return nil, err
		}
		out := []interface{}{}
		for _, h := range hits {
			out = append(out, map[string]interface{}{"hit": h.Hit, "distance": h.Distance, "point": xyz(h.Point),
				"normal": xyz(h.Normal), "status": h.Status.String()})
		}
		return map[string]interface{}{"hits": out}, nil
	case "CastRaysPacked":
		req := &pb.CastRaysPackedRequest{}
		if err := unmarshal(raw, req); err != nil {
			return nil, err
		}
		r, err := c.CastRaysPacked(ctx, req.GetShapes().GetKind(), req.Rays, req.GetShapes().GetData())
		if err != nil {
			return nil, err
		}
		return map[string]interface{}{"hit": r.Hit, "distance": r.Distance, "point": r.Point, "normal": r.Normal,
			"not_converged": r.NotConverged}, nil
	case "GetServerInfo":
		info, err := c.ServerInfo(ctx)
		if err != nil {
			return nil, err
		}
		if info.GetVersion() == "" || info.GetReplica() == "" {
			return nil, fmt.Errorf("empty version or replica: %v", info)
		}
		return map[string]interface{}{"max_items_per_request": info.GetMaxItemsPerRequest()}, nil
	case "Health":
		var req struct{ Service string }
		if err := json.Unmarshal(raw, &req); err != nil {
			return nil, err
		}
		s, err := c.Health(ctx, req.Service)
		return map[string]interface{}{"status": s}, err
	}
	return nil, fmt.Errorf("unknown rpc %q", rpc)
}

func xyz(v Vec3) map[string]interface{} {
	return map[string]interface{}{"x": v[0], "y": v[1], "z": v[2]}
}

// number converts the numeric types the wrapper returns to float64, and
// protojson's spellings of int64 and non-finite doubles ("12", "Infinity").
func number(v interface{}) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case string:
		f, err := strconv.ParseFloat(n, 64)
		return f, err == nil
	case int32:
		return float64(n), true
	case int64:
		return float64(n), true
	}
	return 0, false
}

// asList converts the wrapper's typed slices to []interface{}.
func asList(v interface{}) ([]interface{}, bool) {
	switch s := v.(type) {
	case []interface{}:
		return s, true
	case []bool:
		out := make([]interface{}, len(s))
		for i, x := range s {
			out[i] = x
		}
		return out, true
	case []float64:
		out := make([]interface{}, len(s))
		for i, x := range s {
			out[i] = x
		}
		return out, true
	case []int32:
		out := make([]interface{}, len(s))
		for i, x := range s {
			out[i] = x
		}
		return out, true
	}
	return nil, false
}

// mismatch describes the first difference ("" if none): numbers within
// abs + rel*|want|, the rest exact, every key of want compared.
func mismatch(got, want interface{}, abs, rel float64, path string) string {
	fail := fmt.Sprintf("%s: got %v, want %v", path, got, want)
	switch w := want.(type) {
	case map[string]interface{}:
		g, ok := got.(map[string]interface{})
		if !ok {
			return fail
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if d := mismatch(g[k], w[k], abs, rel, path+"."+k); d != "" {
				return d
			}
		}
		return ""
	case []interface{}:
		g, ok := asList(got)
		if !ok || len(g) != len(w) {
			return fail
		}
		for i := range w {
			if d := mismatch(g[i], w[i], abs, rel, fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
		return ""
	case float64:
		if g, ok := number(got); ok && math.Abs(g-w) <= abs+rel*math.Abs(w) {
			return ""
		}
		return fail
	default:
		if got != want {
			return fail
		}
		return ""
	}
}
