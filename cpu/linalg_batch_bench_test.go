package cpu_test

import (
	"fmt"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/linalg"
	"github.com/tenferro-go/tenferro/team"
)

// BenchmarkLinalgBatch times the Into forms on a batch of 4096 small
// compact matrices (R + n·I, R uniform), one serial engine.
func BenchmarkLinalgBatch(b *testing.B) {
	for _, n := range []int{4, 8, 16} {
		b.Run(fmt.Sprintf("f64/n=%d", n), func(b *testing.B) { benchLinalgBatch[float64, float64](b, cpu.Serial(), n, 4096) })
		b.Run(fmt.Sprintf("c128/n=%d", n), func(b *testing.B) { benchLinalgBatch[float64, complex128](b, cpu.Serial(), n, 4096) })
	}
}

// BenchmarkLinalgBatchTeam is BenchmarkLinalgBatch on a 2-worker engine.
func BenchmarkLinalgBatchTeam(b *testing.B) {
	t, err := team.New(team.Threads(2))
	if err != nil {
		b.Fatal(err)
	}
	e, _ := cpu.New(t)
	defer e.Close()
	b.Run("f64/n=8", func(b *testing.B) { benchLinalgBatch[float64, float64](b, e, 8, 4096) })
}

func benchLinalgBatch[R tf.Float, T tf.Scalar](b *testing.B, e *cpu.Engine, n, batch int) {
	a, _ := tf.RandUniform[T](1, -1, 1, n, n, batch)
	d, _ := a.Data()
	for q := range batch {
		for i := range n {
			d[q*n*n+i*n+i] += scal[T](float64(n))
		}
	}
	h, _ := tf.Zeros[T](n, n, batch) // Hermitian positive definite: a·aᴴ + I
	hd, _ := h.Data()
	for q := range batch {
		for i := range n {
			for j := range n {
				var s T
				for k := range n {
					s += d[q*n*n+i+k*n] * conj(d[q*n*n+j+k*n])
				}
				hd[q*n*n+i+j*n] = s
			}
		}
	}
	q, _ := tf.Zeros[T](n, n, batch)
	r, _ := tf.Zeros[T](n, n, batch)
	s, _ := tf.Zeros[R](n, batch)
	x, _ := tf.Zeros[T](n, 1, batch)
	rhs, _ := tf.RandUniform[T](2, -1, 1, n, 1, batch)
	det, _ := tf.Zeros[T](batch)
	cases := []struct {
		name string
		f    func() error
	}{
		{"qr", func() error { return linalg.QRInto(e, q, r, a) }},
		{"svd", func() error { return linalg.SVDInto(e, q, s, r, a) }},
		{"eigh", func() error { return linalg.EighInto(e, s, q, h) }},
		{"solve", func() error { return linalg.SolveInto(e, x, a, rhs) }},
		{"cholesky", func() error { return linalg.CholeskyInto(e, q, h) }},
		{"inv", func() error { return linalg.InvInto(e, q, a) }},
		{"det", func() error { return linalg.DetInto(e, det, a) }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			if err := c.f(); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if err := c.f(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*batch), "ns/item")
		})
	}
}

func conj[T tf.Scalar](v T) T {
	switch c := any(v).(type) {
	case complex128:
		return any(complex(real(c), -imag(c))).(T)
	case complex64:
		return any(complex(real(c), -imag(c))).(T)
	}
	return v
}

func scal[T tf.Scalar](x float64) T {
	var v T
	switch p := any(&v).(type) {
	case *float32:
		*p = float32(x)
	case *float64:
		*p = x
	case *complex64:
		*p = complex(float32(x), 0)
	case *complex128:
		*p = complex(x, 0)
	}
	return v
}
