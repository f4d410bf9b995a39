package cpu_test

import (
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/team"
)

// BenchmarkNewSerial measures building and closing a serial engine.
func BenchmarkNewSerial(b *testing.B) {
	for b.Loop() {
		e := cpu.Serial()
		e.Close()
	}
}

// BenchmarkNewTeamCached measures a 2-worker engine whose team comes from
// the process cache.
func BenchmarkNewTeamCached(b *testing.B) {
	for b.Loop() {
		t, err := team.New(team.Threads(2))
		if err != nil {
			b.Fatal(err)
		}
		e, _ := cpu.New(t)
		e.Close()
	}
}

// BenchmarkNewTeamDedicated measures a 2-worker engine whose team has a
// start hook, so its worker is started and joined every time.
func BenchmarkNewTeamDedicated(b *testing.B) {
	for b.Loop() {
		t, err := team.New(team.Threads(2), team.OnStart(func(int) {}))
		if err != nil {
			b.Fatal(err)
		}
		e, _ := cpu.New(t)
		e.Close()
	}
}

func benchmarkMatmulDispatch(b *testing.B, e *cpu.Engine, n int, into bool) {
	a, _ := tf.Rand[float64](1, n, n)
	c, _ := tf.Zeros[float64](n, n)
	b.ReportAllocs()
	for b.Loop() {
		if into {
			if err := tf.MatmulInto(e, c, a, a); err != nil {
				b.Fatal(err)
			}
			continue
		}
		out, err := tf.Matmul(e, a, a)
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
}

// BenchmarkMatmulDispatch measures small products on a reused engine,
// where the per-call overhead (validation, pool, dispatch) shows.
func BenchmarkMatmulDispatch(b *testing.B) {
	for _, n := range []int{2, 8, 32} {
		b.Run("serial-into-"+itoa(n), func(b *testing.B) { benchmarkMatmulDispatch(b, cpu.Serial(), n, true) })
		b.Run("serial-alloc-"+itoa(n), func(b *testing.B) { benchmarkMatmulDispatch(b, cpu.Serial(), n, false) })
		b.Run("team2-into-"+itoa(n), func(b *testing.B) {
			t, _ := team.New(team.Threads(2))
			e, _ := cpu.New(t)
			defer e.Close()
			benchmarkMatmulDispatch(b, e, n, true)
		})
	}
}

func itoa(n int) string {
	s := ""
	for {
		s = string(rune('0'+n%10)) + s
		n /= 10
		if n == 0 {
			return s
		}
	}
}
