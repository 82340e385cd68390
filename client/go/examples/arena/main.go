// Command arena plays a few seconds of a deathmatch on a map the server
// loads, judged by a collide world through its Tick stream: players run
// between walls (move validation, with slide), shoot each other with 100 ms
// of lag (line of sight and shot validation at the time the shooter saw),
// and the verdicts are counted.
//
//	go run ./examples/arena [-seconds 3] [-map pak6-patch088.pk3:aggressor] [host:port]
//
// The server needs the map in its --maps_dir, e.g. collide-server
// --maps_dir=/usr/share/games/openarena/baseoa (Debian's openarena-088-data).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"math/rand"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/collide-dev/collide/client/go/collide"
)

const (
	tickRate = 20  // ticks per second
	runSpeed = 300 // Quake units per second
	lagTicks = 2   // how far behind the shooters see
	eye      = 22  // eye height above a player's origin
)

// spawns are the player spawn points of OpenArena's aggressor (its
// info_player_deathmatch entities).
var spawns = []collide.Vec3{{-576, 192, 152}, {-640, 320, -40}, {608, 352, 152}, {64, 64, 328}, {200, -24, 152},
	{-256, -336, -40}, {-552, 320, -40}, {160, 80, 328}}

// hitboxes about a Quake player's origin (its box spans z -24 .. 32).
func hitboxes() []collide.Part {
	return []collide.Part{
		{ID: 0, Shape: collide.Sphere(collide.Vec3{0, 0, 22}, 6)},                           // head
		{ID: 1, Shape: collide.Capsule(collide.Vec3{0, 0, -2}, collide.Vec3{0, 0, 12}, 12)}, // torso
		{ID: 2, Shape: collide.Capsule(collide.Vec3{0, 0, -20}, collide.Vec3{0, 0, -6}, 8)}, // legs
	}
}

type player struct {
	id       int64
	position collide.Vec3
	heading  float64
	past     []collide.Vec3 // past[k]: the position k ticks ago
}

func main() {
	seconds := flag.Float64("seconds", 3, "seconds of play (20 ticks each)")
	mapSpec := flag.String("map", "pak6-patch088.pk3:aggressor", "map file in the server's --maps_dir[:map in a .pk3]")
	flag.Parse()
	target := "127.0.0.1:50051"
	if flag.NArg() > 0 {
		target = flag.Arg(0)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx, target, *seconds, *mapSpec, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, target string, seconds float64, mapSpec string, out io.Writer) error {
	c, err := collide.Dial(target)
	if err != nil {
		return err
	}
	defer c.Close()
	file, mapName, _ := strings.Cut(mapSpec, ":")
	w, err := c.CreateWorld(ctx, collide.WorldSpec{
		ID:           fmt.Sprintf("arena-%d", os.Getpid()),
		Statics:      []*collide.StaticElement{collide.MapElement(1, file, mapName)},
		HistoryTicks: 32,
		Policy: &collide.Policy{MaxRewindTicks: collide.Ptr[int32](8), MaxOriginOffset: collide.Ptr(32.0),
			DefaultMaxSpeed: collide.Ptr(runSpeed * 1.1)},
	}, collide.OnRecreated(func(e collide.RecreatedEvent) {
		fmt.Fprintf(out, "world lost and re-created at tick %d\n", e.LatestTick)
	}))
	if err != nil {
		return err
	}
	defer w.Delete(ctx)
	fmt.Fprintf(out, "world %s: %d triangles from %s\n", w.ID(), w.Created().Triangles, mapSpec)

	rng := rand.New(rand.NewSource(17))
	players := make([]*player, len(spawns))
	for i, s := range spawns {
		players[i] = &player{id: int64(i + 1), position: s, heading: rng.Float64() * 2 * math.Pi}
	}
	shotCounts, moveCounts := map[string]int{}, map[string]int{}
	ticks := int64(math.Max(1, math.Round(seconds*tickRate)))
	started := time.Now()
	// The tick loop on the world's stream: per tick one message with the
	// frame and the shooters' line-of-sight rays, then one with the shots and
	// the moves (a batch sent after a frame sees it).
	stream, err := w.Tick(ctx)
	if err != nil {
		return err
	}
	call := func(m collide.TickMessage) (*collide.TickAnswer, error) {
		if _, err := stream.SendTick(m); err != nil {
			return nil, err
		}
		return stream.RecvTick()
	}
	for tick := int64(1); tick <= ticks; tick++ {
		// This tick's poses: the positions the last move verdicts allowed.
		frame := &collide.Frame{Tick: tick}
		for _, p := range players {
			u := collide.Body{ID: p.id, Pose: &collide.Pose{Position: p.position,
				Rotation: &collide.Quat{W: math.Cos(p.heading / 2), Z: math.Sin(p.heading / 2)}}}
			if tick == 1 {
				u.Parts, u.MovementShape = hitboxes(), collide.Capsule(collide.Vec3{0, 0, -6}, collide.Vec3{0, 0, 14}, 14)
			}
			frame.Bodies = append(frame.Bodies, u)
			p.past = append([]collide.Vec3{p.position}, p.past...)
		}
		sights := lookAround(rng, players, tick)
		query := &collide.SceneQuery{}
		for _, s := range sights {
			query.RayCasts = append(query.RayCasts, s.rays...)
		}
		seen, err := call(collide.TickMessage{Frame: frame, Query: query})
		if err != nil {
			return err
		}
		shots := aim(rng, sights, seen.Query.RayCasts)

		// Every player asks to run on; one in 50 with a speed hack. A blocked
		// player slides along the wall and turns.
		moves := make([]collide.Move, len(players))
		for i, p := range players {
			if rng.Float64() < 0.05 {
				p.heading += (rng.Float64() - 0.5) * 2
			}
			step := runSpeed / tickRate * 1.0
			if rng.Float64() < 0.02 {
				step *= 3
			}
			to := collide.Vec3{p.position[0] + step*math.Cos(p.heading), p.position[1] + step*math.Sin(p.heading), p.position[2]}
			from := p.position
			moves[i] = collide.Move{Body: p.id, From: &from, To: to, Elapsed: 1.0 / tickRate, Slide: true}
		}
		verdicts, err := call(collide.TickMessage{Shots: shots, Moves: moves})
		if err != nil {
			return err
		}
		for _, v := range verdicts.Shots {
			shotCounts[v.Code.String()]++
		}
		for i, v := range verdicts.Moves {
			p := players[i]
			moveCounts[v.Code.String()]++
			switch v.Code {
			case collide.MoveOK:
				p.position = moves[i].To
			case collide.MoveBlocked:
				p.position = v.SlidPosition
				p.heading += math.Pi/2 + rng.Float64()*math.Pi
			}
		}
	}
	if err := stream.CloseSend(); err != nil {
		return err
	}
	if _, err := stream.RecvTick(); err != io.EOF {
		return fmt.Errorf("stream end: %v", err)
	}
	elapsed := time.Since(started)
	info, err := w.Info(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%d ticks (%.1f s of play) in %.2f s; history ticks %d..%d, %d players\n", ticks,
		float64(ticks)/tickRate, elapsed.Seconds(), info.OldestTick, info.LatestTick, info.Bodies)
	fmt.Fprintf(out, "shots: %s\nmoves: %s\n", sorted(shotCounts), sorted(moveCounts))
	return nil
}

// sight is a shooter's view: from its present eye, the others as its client
// showed them lagTicks ago; a ray to each other player's chest.
type sight struct {
	shooter *player
	eye     collide.Vec3
	seen    int64
	others  []*player
	aimAt   []collide.Vec3
	rays    []collide.RayCast
}

// lookAround picks two shooters and the rays of what they saw.
func lookAround(rng *rand.Rand, players []*player, tick int64) []*sight {
	seen := tick - lagTicks
	if seen < 1 {
		seen = 1
	}
	back := tick - seen
	var sights []*sight
	for s := 0; s < 2; s++ {
		shooter := players[rng.Intn(len(players))]
		from := shooter.past[0] // a client fires from where it is now
		v := &sight{shooter: shooter, eye: collide.Vec3{from[0], from[1], from[2] + eye}, seen: seen}
		for _, p := range players {
			if p == shooter {
				continue
			}
			q := p.past[back]
			chest := collide.Vec3{q[0], q[1], q[2] + 5}
			v.others, v.aimAt = append(v.others, p), append(v.aimAt, chest)
			v.rays = append(v.rays, collide.RayCast{
				Ray:    collide.Ray(v.eye, collide.Vec3{chest[0] - v.eye[0], chest[1] - v.eye[1], chest[2] - v.eye[2]}, math.Inf(1)),
				Filter: collide.Filter{At: collide.TimeAt(seen, 0), Ignore: []int64{shooter.id}}})
		}
		sights = append(sights, v)
	}
	return sights
}

// aim makes each shooter's shot at a player in sight if there is one (the
// rays' results, in order), claiming the head a third of the time, with a
// little aim spread.
func aim(rng *rand.Rand, sights []*sight, results []collide.RayResult) []collide.Shot {
	var shots []collide.Shot
	for _, s := range sights {
		var visible []int
		for i, p := range s.others {
			hits := results[0].Hits
			if len(hits) > 0 && hits[0].Target.Kind == collide.TargetBody && hits[0].Target.ID == p.id {
				visible = append(visible, i)
			}
			results = results[1:]
		}
		if len(visible) == 0 {
			for i := range s.others {
				visible = append(visible, i)
			}
		}
		k := visible[rng.Intn(len(visible))]
		head := rng.Float64() < 1.0/3
		part, at := int32(1), s.aimAt[k]
		if head {
			part, at[2] = 0, at[2]+17
		}
		var dir collide.Vec3
		for j := range dir {
			dir[j] = at[j] - s.eye[j] + (rng.Float64()-0.5)*8
		}
		shots = append(shots, collide.Shot{Shooter: s.shooter.id, Origin: s.eye, Direction: dir,
			At: collide.TimeAt(s.seen, 0), Claimed: &collide.BodyTarget{Body: s.others[k].id, Part: part}, Tolerance: 1})
	}
	return shots
}

// sorted formats counts as "CODE=n ..." in code order.
func sorted(counts map[string]int) string {
	var keys []string
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%d", k, counts[k])
	}
	return strings.Join(parts, " ")
}
