//go:build amd64 && !purego

package team

// spinPause executes the PAUSE instruction n times (n >= 1): a polite delay
// inside a busy-poll loop that frees resources for a sibling hardware thread.
//
//go:noescape
func spinPause(n uint32)
