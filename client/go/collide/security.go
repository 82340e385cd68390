package collide

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
)

// Options configures Connect. Security matches the server's --tls_* and
// --auth_token_file flags (docs/operations.md) and names the options as the
// C++ client's ClientOptions and the CLI's flags do.
type Options struct {
	// TLS dials TLS (1.2 or newer) with the system's root certificates;
	// implied by TLSCAFile, TLSCertFile and TLSKeyFile.
	TLS bool
	// TLSCAFile: PEM root certificates to trust instead of the system's.
	TLSCAFile string
	// TLSCertFile and TLSKeyFile: a PEM client certificate chain and its key
	// (mutual TLS), both or neither.
	TLSCertFile, TLSKeyFile string
	// TLSServerName: the name the server's certificate must carry when it is
	// not the target's host (dialling an IP).
	TLSServerName string
	// Token is sent as "authorization: Bearer <token>" with every call, the
	// Tick stream included (over plaintext too: keep that to trusted
	// networks).
	Token string
	// DialOptions are added after the ones these fields make.
	DialOptions []grpc.DialOption
}

func (o Options) dialOptions() ([]grpc.DialOption, error) {
	var out []grpc.DialOption
	if o.TLS || o.TLSCAFile != "" || o.TLSCertFile != "" || o.TLSKeyFile != "" {
		config, err := o.tlsConfig()
		if err != nil {
			return nil, err
		}
		out = append(out, grpc.WithTransportCredentials(credentials.NewTLS(config)))
	} else {
		out = append(out, grpc.WithInsecure())
	}
	if o.Token != "" {
		out = append(out, grpc.WithPerRPCCredentials(bearerToken(o.Token)))
	}
	return out, nil
}

func (o Options) tlsConfig() (*tls.Config, error) {
	config := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: o.TLSServerName}
	if o.TLSCAFile != "" {
		pem, err := os.ReadFile(o.TLSCAFile)
		if err != nil {
			return nil, err
		}
		config.RootCAs = x509.NewCertPool()
		if !config.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("%s: no PEM certificate", o.TLSCAFile)
		}
	}
	if (o.TLSCertFile == "") != (o.TLSKeyFile == "") {
		return nil, errors.New("TLSCertFile and TLSKeyFile go together (mutual TLS)")
	}
	if o.TLSCertFile != "" {
		pair, err := tls.LoadX509KeyPair(o.TLSCertFile, o.TLSKeyFile)
		if err != nil {
			return nil, err
		}
		config.Certificates = []tls.Certificate{pair}
	}
	return config, nil
}

// bearerToken puts the token in every call's metadata.
type bearerToken string

func (t bearerToken) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": "Bearer " + string(t)}, nil
}

// RequireTransportSecurity is false: the server takes tokens over plaintext
// as well (on loopback, or behind a mesh that terminates TLS).
func (bearerToken) RequireTransportSecurity() bool { return false }
