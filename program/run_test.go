package program_test

import (
	"math/rand/v2"
	"sync"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/program"
	"github.com/tenferro-go/tenferro/team"
)

func TestRunIntoAllocatesNothing(t *testing.T) {
	tm, err := team.New(team.Threads(2))
	if err != nil {
		t.Fatal(err)
	}
	te, err := cpu.New(tm)
	if err != nil {
		t.Fatal(err)
	}
	defer te.Close()
	engines := map[string]tf.Engine{"serial": newEngine(t), "team": te}
	for name, e := range engines {
		for _, dt := range tf.DTypes {
			g := mixedGraph(t, dt)
			p, err := program.Compile(g)
			if err != nil {
				t.Fatal(err)
			}
			pp, err := program.Prepare(p, e)
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(11, 12))
			ins := []tf.Value{stridedValue(r, dt, 3, 5), randValue(r, dt, 5, 7), randValue(r, dt, 3, 7), randValue(r, dt, 7, 1)}
			outs := make([]tf.Value, p.NumOutputs())
			for j := range outs {
				_, shape := p.OutputSignature(j)
				outs[j] = randValue(r, dt, shape...)
			}
			allocs := testing.AllocsPerRun(20, func() {
				if err := pp.RunInto(outs, ins...); err != nil {
					t.Fatal(err)
				}
			})
			if allocs != 0 {
				t.Errorf("%s %v: RunInto allocates %v times per run", name, dt, allocs)
			}
			want := evalDirect(t, newEngine(t), g, ins)
			for j := range want {
				closeTo(t, name+" "+dt.String(), outs[j], want[j], 64)
			}
		}
	}
}

// TestConcurrentPrepared runs one program on several engines at once (one
// Prepared per goroutine); run with -race.
func TestConcurrentPrepared(t *testing.T) {
	dt := tf.Complex128
	g := mixedGraph(t, dt)
	p, err := program.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(13, 14))
	ins := []tf.Value{randValue(r, dt, 3, 5), randValue(r, dt, 5, 7), randValue(r, dt, 3, 7), randValue(r, dt, 7, 1)}
	want := evalDirect(t, newEngine(t), g, ins)
	cache := cpu.NewPlanCache(0)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	results := make([][]tf.Value, 4)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := cpu.Serial(cpu.WithPlanCache(cache))
			defer e.Close()
			pp, err := program.Prepare(p, e)
			if err != nil {
				errs[w] = err
				return
			}
			for range 20 {
				if results[w], err = pp.Run(ins...); err != nil {
					errs[w] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	for w := range 4 {
		if errs[w] != nil {
			t.Fatal(errs[w])
		}
		for j := range want {
			closeTo(t, "concurrent", results[w][j], want[j], 64)
		}
	}
}

// TestEngineBusy checks that a Prepared reports a busy engine instead of
// racing.
func TestEngineBusy(t *testing.T) {
	e := newEngine(t)
	g := mixedGraph(t, tf.Float64)
	p, _ := program.Compile(g)
	pp, _ := program.Prepare(p, e)
	r := rand.New(rand.NewPCG(15, 16))
	ins := []tf.Value{randValue(r, tf.Float64, 3, 5), randValue(r, tf.Float64, 5, 7), randValue(r, tf.Float64, 3, 7), randValue(r, tf.Float64, 7, 1)}
	if err := e.Begin("test"); err != nil {
		t.Fatal(err)
	}
	_, err := pp.Run(ins...)
	e.End()
	if err == nil {
		t.Fatal("Run on a busy engine succeeded")
	}
}
