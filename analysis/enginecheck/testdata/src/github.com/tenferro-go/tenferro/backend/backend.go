// Package backend is a stub of the library's package of the same path,
// with the signatures the analyzer matches.
package backend

// Engine is the engine's side of the contract.
type Engine interface {
	Begin(name string) error
	End()
}
