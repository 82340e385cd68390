package collide

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/collide-dev/collide/client/go/internal/liveserver"
)

// liveClient is a client of a server started for the test (liveserver.Start
// with serverArgs), with a context that ends with the test (60 s at most),
// and the server's address, for tests that stop or restart it.
func liveClient(t *testing.T, serverArgs ...string) (*Client, context.Context, string) {
	t.Helper()
	target := liveserver.Start(t, serverArgs...)
	c, err := Dial(target)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return c, ctx, target
}

// restartServer stops the server at target and starts another on its port,
// living until owner ends, then waits until c's channel reaches it (calls
// fail fast with UNAVAILABLE meanwhile).
func restartServer(ctx context.Context, t *testing.T, owner testing.TB, c *Client, target string,
	serverArgs ...string) {
	t.Helper()
	liveserver.Stop(t, target)
	liveserver.Start(owner, append(append([]string{}, serverArgs...), "--port="+strings.Split(target, ":")[1])...)
	for s, err := c.Health(ctx, ""); s != "SERVING"; s, err = c.Health(ctx, "") {
		if ctx.Err() != nil {
			t.Fatalf("the restarted server never answered: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
