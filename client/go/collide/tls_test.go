package collide

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/collide-dev/collide/client/go/internal/liveserver"
	"google.golang.org/grpc/codes"
)

const testToken = "s3cret-token-for-tests"

// TestTLSAndToken runs the client's TLS and token options against a
// collide-server started with mutual TLS and a bearer token on 127.0.0.1,
// with certificates made by tests/support/test_pki.sh at test time: shots are
// judged (unary and on the Tick stream) with the right CA, client
// certificate and token; without the token (or with another) a call is
// UNAUTHENTICATED; with another CA, a wrong server name, without a client
// certificate or over plaintext it never reaches the server (UNAVAILABLE).
func TestTLSAndToken(t *testing.T) {
	if os.Getenv("COLLIDE_SERVER") == "" {
		t.Skip("needs COLLIDE_SERVER")
	}
	if _, err := exec.LookPath("openssl"); err != nil {
		t.Skip("needs openssl")
	}
	pki := t.TempDir()
	if out, err := exec.Command("bash", filepath.Join("..", "..", "..", "tests", "support", "test_pki.sh"), pki).CombinedOutput(); err != nil {
		t.Fatalf("test_pki.sh: %v\n%s", err, out)
	}
	file := func(name string) string { return filepath.Join(pki, name) }
	if err := os.WriteFile(file("tokens"), []byte("# test token\n"+testToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	target := liveserver.Start(t, "--tls_cert_file="+file("server.pem"), "--tls_key_file="+file("server.key"),
		"--tls_client_ca_file="+file("ca.pem"), "--auth_token_file="+file("tokens"))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	good := Options{TLSCAFile: file("ca.pem"), TLSCertFile: file("client.pem"), TLSKeyFile: file("client.key"), Token: testToken}
	connect := func(t *testing.T, o Options) *Client {
		c, err := Connect(target, o)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	codeOf := func(err error) codes.Code {
		var ce *Error
		if errors.As(err, &ce) {
			return ce.Code
		}
		return codes.OK
	}

	t.Run("shots over mutual TLS with the token", func(t *testing.T) {
		c := connect(t, good)
		info, err := c.ServerInfo(ctx)
		if err != nil || info.GetVersion() != Version {
			t.Fatalf("server info %v %v", info, err)
		}
		w, err := c.CreateWorld(ctx, WorldSpec{ID: "tls-go", Statics: []*StaticElement{
			ShapeElement(2, Aabb(Vec3{4, -3, 0}, Vec3{4.5, 3, 3}))}})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Delete(ctx)
		head := []Part{{ID: 0, Shape: Sphere(Vec3{}, 0.2), Local: &Pose{Position: Vec3{0, 0, 1.7}}}}
		var bodies []Body
		for i, p := range []Vec3{{0, 0, 0}, {2, 0, 0}, {6, 2, 0}} {
			bodies = append(bodies, Body{ID: int64(i + 1), Pose: &Pose{Position: p}, Parts: head})
		}
		if _, err := w.PushFrame(ctx, Frame{Tick: 1, Bodies: bodies}); err != nil {
			t.Fatal(err)
		}
		shots := []Shot{
			{Shooter: 1, Origin: Vec3{0, 0, 1.7}, Direction: Vec3{1, 0, 0}, At: TimeAt(1, 0), Claimed: &BodyTarget{2, 0}},
			{Shooter: 1, Origin: Vec3{0, 0, 1.7}, Direction: Vec3{6, 2, 0}, At: TimeAt(1, 0), Claimed: &BodyTarget{3, 0}}}
		verdicts, err := w.ValidateShots(ctx, shots)
		if err != nil || len(verdicts) != 2 || verdicts[0].Code != ShotConfirmed || verdicts[1].Code != ShotBlocked {
			t.Fatalf("verdicts %+v %v", verdicts, err)
		}
		stream, err := w.Tick(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := stream.SendTick(TickMessage{Shots: shots}); err != nil {
			t.Fatal(err)
		}
		answer, err := stream.RecvTick()
		if err != nil || answer.Shots[0].Code != ShotConfirmed || answer.Shots[1].Code != ShotBlocked {
			t.Fatalf("the stream: %+v %v", answer, err)
		}
		stream.CloseSend()
	})

	t.Run("the server name", func(t *testing.T) {
		named := good
		named.TLSServerName = "localhost" // in the certificate
		if s, err := connect(t, named).Health(ctx, ""); s != "SERVING" {
			t.Errorf("health %q %v", s, err)
		}
		named.TLSServerName = "not-in-the-certificate"
		if _, err := connect(t, named).ServerInfo(ctx); codeOf(err) != codes.Unavailable {
			t.Errorf("a wrong name: %v", err)
		}
	})

	t.Run("without the token or with another: UNAUTHENTICATED", func(t *testing.T) {
		for _, token := range []string{"", "wrong-token"} {
			o := good
			o.Token = token
			_, err := connect(t, o).CreateWorld(ctx, WorldSpec{ID: "tls-no-token"})
			if codeOf(err) != codes.Unauthenticated {
				t.Errorf("token %q: %v", token, err)
			}
		}
	})

	t.Run("another CA, no client certificate or plaintext never reach the server", func(t *testing.T) {
		otherCA, noCert, plaintext := good, good, Options{Token: testToken}
		otherCA.TLSCAFile = file("other_ca.pem")
		noCert.TLSCertFile, noCert.TLSKeyFile = "", ""
		for name, o := range map[string]Options{"another CA": otherCA, "no client certificate": noCert, "plaintext": plaintext} {
			if _, err := connect(t, o).ServerInfo(ctx); codeOf(err) != codes.Unavailable {
				t.Errorf("%s: %v", name, err)
			}
		}
		if _, err := Connect(target, Options{TLSCertFile: file("client.pem")}); err == nil {
			t.Error("a certificate without its key must be refused")
		}
	})
}
