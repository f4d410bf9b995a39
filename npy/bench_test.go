package npy

import (
	"bytes"
	"io"
	"math/rand/v2"
	"testing"
)

const benchN = 1 << 20 // float64 elements: 8 MiB

func BenchmarkWrite(b *testing.B) {
	data := randomData(rand.New(rand.NewPCG(1, 1)), Float64, benchN)
	var buf bytes.Buffer
	b.SetBytes(benchN * 8)
	for b.Loop() {
		buf.Reset()
		if err := Write(&buf, []int{1024, benchN / 1024}, data); err != nil {
			b.Fatal(err)
		}
	}
}

func benchmarkRead(b *testing.B, stream bool) {
	var buf bytes.Buffer
	data := randomData(rand.New(rand.NewPCG(1, 1)), Float64, benchN)
	if err := Write(&buf, []int{1024, benchN / 1024}, data); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(benchN * 8)
	for b.Loop() {
		var r io.Reader = bytes.NewReader(buf.Bytes())
		if stream {
			r = plainReader{r}
		}
		if _, err := Read(r); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadSeeker(b *testing.B) { benchmarkRead(b, false) }
func BenchmarkReadStream(b *testing.B) { benchmarkRead(b, true) }

func BenchmarkColumnMajor(b *testing.B) {
	data := randomData(rand.New(rand.NewPCG(1, 1)), Float64, benchN).([]float64)
	a := &Array{DType: Float64, Shape: []int{1024, benchN / 1024}, Data: data}
	b.SetBytes(benchN * 8)
	for b.Loop() {
		_ = a.ColumnMajor()
	}
}
