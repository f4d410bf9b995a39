// Package team is a stub of the library's package of the same path, with
// the signatures the analyzer matches.
package team

import "time"

const DefaultSpin = 100 * time.Microsecond

type Team struct{ width int }

type Option func(*Team)

func New(opts ...Option) (*Team, error)    { return &Team{}, nil }
func Threads(n int) Option                 { return nil }
func OnStart(hook func(worker int)) Option { return nil }
func Labels(labels ...string) Option       { return nil }
func LockOSThread() Option                 { return nil }
func Spin(d time.Duration) Option          { return nil }
func (t *Team) Close() error               { return nil }
func (t *Team) Width() int                 { return t.width }
