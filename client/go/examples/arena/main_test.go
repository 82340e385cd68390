package main

import (
	"bytes"
	"context"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/collide-dev/collide/client/go/internal/liveserver"
)

// TestArena plays one second (20 ticks) against a server holding Debian's
// OpenArena maps: every shot and move gets one verdict, and some shots are
// confirmed (the example aims at players in sight).
func TestArena(t *testing.T) {
	target := liveserver.Start(t, "--maps_dir=/usr/share/games/openarena/baseoa")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out bytes.Buffer
	if err := run(ctx, target, 1, "pak6-patch088.pk3:aggressor", &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	t.Log("\n" + out.String())
	sum := func(line string) map[string]int {
		m := regexp.MustCompile(`(?m)^` + line + `: (.*)$`).FindStringSubmatch(out.String())
		if m == nil {
			t.Fatalf("no %s line in\n%s", line, out.String())
		}
		counts := map[string]int{}
		for _, kv := range regexp.MustCompile(`([A-Z_]+)=(\d+)`).FindAllStringSubmatch(m[1], -1) {
			n, _ := strconv.Atoi(kv[2])
			counts[kv[1]] += n
			counts[""] += n
		}
		return counts
	}
	if shots := sum("shots"); shots[""] != 2*20 || shots["CONFIRMED"] == 0 {
		t.Errorf("shots %v: want 40 verdicts, some CONFIRMED", shots)
	}
	if moves := sum("moves"); moves[""] != 8*20 || moves["OK"] == 0 {
		t.Errorf("moves %v: want 160 verdicts, some OK", moves)
	}
}
