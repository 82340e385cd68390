// Command collide-consumer is a Go module outside the collide repository
// that requires github.com/collide-dev/collide/client/go: go run .
// HOST:PORT creates a world with a wall, pushes a frame and validates two
// shots (one in the open, one through the wall); it exits 0 only when the
// verdicts and the server's version are the expected ones. Run by
// tests/packaging/go_package_test.sh.
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/collide-dev/collide/client/go/collide"
)

func main() {
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(target string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := collide.Dial(target)
	if err != nil {
		return err
	}
	defer c.Close()
	info, err := c.ServerInfo(ctx)
	if err != nil {
		return err
	}
	w, err := c.CreateWorld(ctx, collide.WorldSpec{ID: "go-consumer", HistoryTicks: 8,
		Statics: []*collide.StaticElement{collide.ShapeElement(1, collide.Aabb(collide.Vec3{-2, 4, -2}, collide.Vec3{2, 5, 2}))}})
	if err != nil {
		return err
	}
	defer w.Delete(ctx)
	ball := []collide.Part{{ID: 0, Shape: collide.Sphere(collide.Vec3{}, 1)}}
	body := func(id int64, at collide.Vec3) collide.Body {
		return collide.Body{ID: id, Pose: &collide.Pose{Position: at}, Parts: ball}
	}
	if _, err := w.PushFrame(ctx, collide.Frame{Tick: 1, Bodies: []collide.Body{
		body(1, collide.Vec3{0, 0, 0}), body(2, collide.Vec3{10, 0, 0}), body(3, collide.Vec3{0, 10, 0})}}); err != nil {
		return err
	}
	verdicts, err := w.ValidateShots(ctx, []collide.Shot{
		{Shooter: 1, Direction: collide.Vec3{1, 0, 0}, At: collide.TimeAt(1, 0), Claimed: &collide.BodyTarget{Body: 2}},
		{Shooter: 1, Direction: collide.Vec3{0, 1, 0}, At: collide.TimeAt(1, 0), Claimed: &collide.BodyTarget{Body: 3}}})
	if err != nil {
		return err
	}
	fmt.Printf("collide client %s, server %s: %v %v\n", collide.Version, info.GetVersion(), verdicts[0].Code, verdicts[1].Code)
	if verdicts[0].Code != collide.ShotConfirmed || verdicts[1].Code != collide.ShotBlocked {
		return fmt.Errorf("want CONFIRMED BLOCKED")
	}
	if info.GetVersion() != collide.Version {
		return fmt.Errorf("server %s, client %s", info.GetVersion(), collide.Version)
	}
	return nil
}
