package results

import (
	"fmt"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/linalg"
)

func unreleased(e tf.Engine, a, b *tf.Tensor[float64], n int) error {
	for i := 0; i < n; i++ {
		c, err := tf.Matmul(e, a, b) // want `tenferro.Matmul result in loop is never released; use tenferro.MatmulInto with a destination allocated outside the loop, or Release it`
		if err != nil {
			return err
		}
		s, err := tf.Sum(e, c) // want `tenferro.Sum result in loop is never released; use tenferro.SumInto`
		if err != nil {
			return err
		}
		if _, err := s.At(); err != nil || s.Shape() == nil || s == nil {
			return err
		}
		_ = tf.AllClose(c, s, 1e-9)
	}
	return nil
}

func discarded(e tf.Engine, a, b *tf.Tensor[float64], xs []int) {
	for range xs {
		tf.Add(e, a, b)        // want `tenferro.Add result in loop is discarded; use tenferro.AddInto`
		_, _ = tf.Add(e, a, b) // want `tenferro.Add result in loop is discarded without Release; use tenferro.AddInto with a destination allocated outside the loop, or keep it and Release it`
	}
}

func otherPackages(e tf.Engine, a, b *tf.Tensor[float64], n int) {
	for range n {
		x, _ := linalg.Solve(e, a, b) // want `linalg.Solve result in loop is never released; use linalg.SolveInto`
		q, r, _ := linalg.QR(e, x)    // want `linalg.QR result in loop is never released` `linalg.QR result in loop is never released`
		_ = tf.MatmulInto(e, a, q, r)
		var y, _ = tf.Add(e, a, b) // want `tenferro.Add result in loop is never released`
		_ = y.Shape()
	}
}

type holder struct{ t *tf.Tensor[float64] }

// Not reported below.

func kept(e tf.Engine, a, b *tf.Tensor[float64], n int, h *holder, m map[int]*tf.Tensor[float64], ch chan *tf.Tensor[float64]) (*tf.Tensor[float64], error) {
	var all []*tf.Tensor[float64]
	acc := a
	for i := range n {
		c, err := tf.Matmul(e, a, b) // released
		if err != nil {
			return nil, err
		}
		c.Release()

		d, _ := tf.Matmul(e, a, b) // deferred release
		defer d.Release()

		f, _ := tf.Add(e, a, b) // returned
		if i == n-1 {
			return f, nil
		}

		g, _ := tf.Add(e, a, b) // appended
		all = append(all, g)

		acc, _ = tf.Add(e, acc, b) // a variable declared outside the loop

		h.t, _ = tf.Add(e, a, b) // a field

		k, _ := tf.Add(e, a, b) // a map element
		m[i] = k

		l, _ := tf.Add(e, a, b) // sent
		ch <- l

		p, _ := tf.Add(e, a, b) // passed to a function of the program
		fmt.Println(p)

		v, _ := tf.Add(e, a, b) // viewed: the view may outlive the loop
		w, _ := v.Reshape(-1)
		all = append(all, w)

		z, _ := tf.Add(e, a, b) // its storage is exposed
		_ = z.Data()

		u, _ := tf.Add(e, a, b) // captured
		defer func() { fmt.Println(u) }()

		bc, _ := tf.Broadcast(e, a, 3) // no Into form
		_ = bc.Shape()
	}
	fmt.Println(all)
	return acc, nil
}

func outsideLoops(e tf.Engine, a, b *tf.Tensor[float64]) {
	c, _ := tf.Matmul(e, a, b)
	_ = c.Shape()
}
