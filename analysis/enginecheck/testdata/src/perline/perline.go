package perline

import (
	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

func exp(x *tf.Tensor[float64]) (*tf.Tensor[float64], error) {
	e := cpu.Serial() // want `cpu.Serial builds an engine on every call of exp`
	defer e.Close()
	return tf.Add(e, x, x)
}

func Batch(xs []*tf.Tensor[float64]) ([]*tf.Tensor[float64], error) {
	var out []*tf.Tensor[float64]
	for _, x := range xs {
		y, err := exp(x)
		if err != nil {
			return nil, err
		}
		out = append(out, y)
	}
	return out, nil
}
