// Package natstest runs an embedded NATS server with JetStream on the
// loopback interface for tests.
package natstest

import (
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Start starts a server with JetStream storing under dir, listening on a
// free loopback port, and returns it; Shutdown stops it.
func Start(dir string) (*server.Server, error) {
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true,
		StoreDir: dir, NoLog: true, NoSigs: true})
	if err != nil {
		return nil, err
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		return nil, errors.New("natstest: the server did not start within 10s")
	}
	return s, nil
}

// Run starts a server for t (stopped when t ends) and returns its client
// URL.
func Run(t testing.TB) string {
	t.Helper()
	s, err := Start(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Shutdown(); s.WaitForShutdown() })
	return s.ClientURL()
}
