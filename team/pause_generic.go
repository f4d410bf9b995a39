//go:build !amd64 || purego

package team

// spinPause is the portable twin of the amd64 PAUSE loop: it does nothing,
// so a busy-poll loop simply polls again.
func spinPause(n uint32) {}
