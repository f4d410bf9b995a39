package fixes

import (
	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/team"
)

func closeAfterBuild(x *tf.Tensor[float64]) {
	e := cpu.Serial() // want `never closed`
	_, _ = tf.Sum(e, x)
}

func closeAfterErrorCheck() error {
	t, err := team.New(team.Threads(2))
	if err != nil {
		return err
	}
	e, err := cpu.New(t) // want `never closed`
	if err != nil {
		return err
	}
	_ = e.Threads()
	return nil
}

func releaseAtEnd(e tf.Engine, a, b *tf.Tensor[float64], n int) error {
	for i := 0; i < n; i++ {
		c, err := tf.Matmul(e, a, b) // want `never released`
		if err != nil {
			return err
		}
		_ = c.Shape()
	}
	return nil
}

// No fix when a continue could skip the added Release.
func noFix(e tf.Engine, a, b *tf.Tensor[float64], n int) {
	for i := 0; i < n; i++ {
		c, _ := tf.Matmul(e, a, b) // want `never released`
		if i%2 == 0 {
			continue
		}
		_ = c.Shape()
	}
}
