// Command example queries a running collide-server: go run ./example [host:port]
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/collide-dev/collide/client/go/collide"
)

func main() {
	target := "127.0.0.1:50051"
	if len(os.Args) > 1 {
		target = os.Args[1]
	}
	c, err := collide.Dial(target)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res, err := c.QueryPairs(ctx, collide.LevelContact, []collide.Pair{
		{A: collide.Sphere(collide.Vec3{0, 0, 0}, 1), B: collide.Capsule(collide.Vec3{1.5, -1, 0}, collide.Vec3{1.5, 1, 0}, 0.25)}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("hit=%v distance=%v normal=%v\n", res[0].Hit, res[0].Distance, res[0].Normal)
}
