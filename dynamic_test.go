package tenferro

import (
	"errors"
	"testing"
)

func TestValueConvert(t *testing.T) {
	x, _ := FromSlice([]float32{1, 2, 3, 4}, 2, 2)
	xt, _ := x.Transpose()
	v := ValueOf(xt)
	if v.DType() != Float32 || len(v.Shape()) != 2 {
		t.Fatalf("ValueOf: %v", v)
	}
	c, err := Convert(v, Complex128)
	if err != nil {
		t.Fatal(err)
	}
	ct, err := As[complex128](c)
	if err != nil {
		t.Fatal(err)
	}
	if got := mustAt(t, ct, 0, 1); got != 2 {
		t.Fatalf("converted (0,1) = %v, want 2", got)
	}
	if _, err := As[float64](c); !errors.Is(err, ErrDType) {
		t.Fatalf("As wrong dtype: %v", err)
	}
	back, _ := Convert(ValueOf(ct), Float32)
	bt, _ := As[float32](back)
	if mustAt(t, bt, 1, 0) != 3 {
		t.Fatal("round trip")
	}
	if _, err := Convert(Value{}, Float32); !errors.Is(err, ErrArgument) {
		t.Fatalf("empty: %v", err)
	}
	z, err := NewValue(Complex64, 3)
	if err != nil || z.DType() != Complex64 {
		t.Fatalf("NewValue: %v %v", z, err)
	}
	if err := z.Release(); err != nil {
		t.Fatal(err)
	}
}
