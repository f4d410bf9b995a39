package program_test

import (
	"errors"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/trace"
)

// Prepare reports a nil or zero *cpu.Engine as ErrArgument, as the eager
// operations do, instead of dereferencing it.
func TestPrepareInvalidCPUEngine(t *testing.T) {
	tr := trace.New()
	a, _ := tr.Input(tf.Float64, 2, 2)
	g, _ := tr.Finish(must2(tr.Negate(a)))
	p, _ := program.Compile(g)
	for name, e := range map[string]*cpu.Engine{"zero": {}, "typed nil": nil} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("Prepare(p, %s *cpu.Engine) panics: %v", name, r)
				}
			}()
			if _, err := program.Prepare(p, e); !errors.Is(err, tf.ErrArgument) {
				t.Errorf("Prepare(p, %s *cpu.Engine): %v, want ErrArgument", name, err)
			}
		}()
	}
}
