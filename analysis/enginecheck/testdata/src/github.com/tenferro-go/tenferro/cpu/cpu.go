// Package cpu is a stub of the library's package of the same path, with
// the signatures the analyzer matches.
package cpu

import (
	"github.com/tenferro-go/tenferro/backend"
	"github.com/tenferro-go/tenferro/team"
)

type Engine struct{ t *team.Team }

type Option func(*Engine)

func WithMemoryBudget(bytes int64) Option { return nil }

func Serial(opts ...Option) *Engine                     { return &Engine{} }
func New(t *team.Team, opts ...Option) (*Engine, error) { return &Engine{t: t}, nil }
func (e *Engine) Backend() backend.Engine               { return nil }
func (e *Engine) Close() error                          { return nil }
func (e *Engine) Threads() int                          { return 1 }
func (e *Engine) SetMemoryBudget(bytes int64) error     { return nil }
