// Package liveserver runs a collide-server ($COLLIDE_SERVER) on a free
// loopback port for a test.
package liveserver

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

// stops holds each running server's stop function by address (Stop).
var stops sync.Map

// Start runs $COLLIDE_SERVER on a free loopback port (or the --port in
// extraArgs) until the test ends (SIGTERM, then SIGKILL after 10 s), and
// returns its address. The test is skipped without $COLLIDE_SERVER.
func Start(t testing.TB, extraArgs ...string) string {
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

// Stop stops the server Start started at addr before the test ends (a
// replica restart).
func Stop(t testing.TB, addr string) {
	t.Helper()
	stop, ok := stops.LoadAndDelete(addr)
	if !ok {
		t.Fatalf("no server at %s", addr)
	}
	stop.(func())()
}
