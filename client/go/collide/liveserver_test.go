package collide

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"syscall"
	"testing"
	"time"
)

var listening = regexp.MustCompile(`listening on 127\.0\.0\.1:(\d+)`)

// stops holds each running server's stop function by address (stopServer).
var stops sync.Map

// startServer runs $COLLIDE_SERVER on a free loopback port until the test
// ends (SIGTERM, then SIGKILL after 10 s), and returns its address. The test
// is skipped without $COLLIDE_SERVER.
func startServer(t *testing.T, extraArgs ...string) string {
	t.Helper()
	binary := os.Getenv("COLLIDE_SERVER")
	if binary == "" {
		t.Skip("needs COLLIDE_SERVER (ctest sets it)")
	}
	logPath := filepath.Join(t.TempDir(), "server.log")
	log, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	cmd := exec.Command(binary, append([]string{"--host=127.0.0.1", "--port=0"}, extraArgs...)...)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-exited:
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				<-exited
			}
		})
	}
	t.Cleanup(stop)
	deadline := time.Now().Add(30 * time.Second)
	for {
		text, _ := os.ReadFile(logPath)
		if m := listening.FindSubmatch(text); m != nil {
			addr := fmt.Sprintf("127.0.0.1:%s", m[1])
			stops.Store(addr, stop)
			return addr
		}
		select {
		case <-exited:
			t.Fatalf("collide-server exited:\n%s", text)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("collide-server did not start:\n%s", text)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stopServer stops the server startServer started at addr, before the test
// ends (a replica restart).
func stopServer(t *testing.T, addr string) {
	t.Helper()
	stop, ok := stops.LoadAndDelete(addr)
	if !ok {
		t.Fatalf("no server at %s", addr)
	}
	stop.(func())()
}
