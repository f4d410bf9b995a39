// Command _gen writes kern_amd64.s, the amd64 micro-kernels of package gemm.
//
// Every kernel follows the microKernel contract of the package: it multiplies
// a packed mr×kc panel of A by a packed kc×nr panel of B into an mr×nr tile
// of accumulators held in vector registers (mr = vectors per column × lanes).
// The A panel advances by lda elements per k step (mr when packed); B
// element (p, j) is read at b[p*ldbp+j*ldbj] (ldbp = nr, ldbj = 1 when
// packed). The kernel then stores c = alpha*AB (+ beta*c when loadC != 0) column by column with
// stride ldc elements. Run it with `go generate` in the package directory.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"os"
)

// kernel describes one generated micro-kernel.
type kernel struct {
	name   string
	elem   int    // element size in bytes: 4 or 8
	isa    string // "avx512" or "avx2"
	vecs   int    // vectors per tile column (mr = vecs*lanes)
	nr     int    // tile columns
	unroll int    // k iterations per loop trip
	// masked kernels (AVX-512 only) take two more arguments, rows and
	// cols, and store only the top-left rows×cols corner of the tile (masked
	// stores: C beyond it is neither read nor written).
	masked bool
}

func (k kernel) vbytes() int {
	if k.isa == "avx512" {
		return 64
	}
	return 32
}

func (k kernel) lanes() int { return k.vbytes() / k.elem }
func (k kernel) mr() int    { return k.vecs * k.lanes() }

// kernels lists the generated kernels; the Go side (arch_amd64.go) declares
// a stub for each, and every one is used by archVariants.
var kernels = []kernel{
	{name: "kernF64Avx512x24x8", elem: 8, isa: "avx512", vecs: 3, nr: 8, unroll: 2},
	{name: "kernF32Avx512x32x14", elem: 4, isa: "avx512", vecs: 2, nr: 14, unroll: 2},
	{name: "kernF64Avx2x8x6", elem: 8, isa: "avx2", vecs: 2, nr: 6, unroll: 2},
	{name: "kernF32Avx2x16x6", elem: 4, isa: "avx2", vecs: 2, nr: 6, unroll: 2},
	// Edge kernels for the last rows of a block: fewer vectors, same nr.
	{name: "kernF64Avx512x8x8", elem: 8, isa: "avx512", vecs: 1, nr: 8, unroll: 2},
	{name: "kernF64Avx512x16x8", elem: 8, isa: "avx512", vecs: 2, nr: 8, unroll: 2},
	{name: "kernF32Avx512x16x14", elem: 4, isa: "avx512", vecs: 1, nr: 14, unroll: 2},
	{name: "kernF64Avx2x4x6", elem: 8, isa: "avx2", vecs: 1, nr: 6, unroll: 2},
	{name: "kernF32Avx2x8x6", elem: 4, isa: "avx2", vecs: 1, nr: 6, unroll: 2},
	// Column-edge kernels for the last columns: full mr, fewer columns.
	{name: "kernF64Avx512x24x4", elem: 8, isa: "avx512", vecs: 3, nr: 4, unroll: 2},
	{name: "kernF32Avx512x32x4", elem: 4, isa: "avx512", vecs: 2, nr: 4, unroll: 2},
	{name: "kernF32Avx512x32x8", elem: 4, isa: "avx512", vecs: 2, nr: 8, unroll: 2},
	{name: "kernF64Avx2x8x3", elem: 8, isa: "avx2", vecs: 2, nr: 3, unroll: 2},
	{name: "kernF32Avx2x16x3", elem: 4, isa: "avx2", vecs: 2, nr: 3, unroll: 2},
}

type gen struct{ bytes.Buffer }

func (g *gen) f(format string, args ...any) { fmt.Fprintf(&g.Buffer, format+"\n", args...) }

func (k kernel) reg(i int) string {
	if k.isa == "avx512" {
		return fmt.Sprintf("Z%d", i)
	}
	return fmt.Sprintf("Y%d", i)
}

func (k kernel) sfx() string {
	if k.elem == 8 {
		return "PD"
	}
	return "PS"
}

func (k kernel) bcast() string {
	if k.elem == 8 {
		return "VBROADCASTSD"
	}
	return "VBROADCASTSS"
}

func (g *gen) kernel(k kernel) {
	nacc := k.vecs * k.nr
	areg := nacc // first A register
	s := k.sfx()
	// Frame: kc, a, lda, b, ldbp, ldbj, c, ldc (8 bytes each), alpha, beta
	// (elem each), loadC.
	alphaOff := 64
	betaOff := alphaOff + k.elem
	loadOff := (betaOff + k.elem + 7) &^ 7
	size := loadOff + 8
	if k.masked {
		size += 16 // rows, cols
	}
	ctype := map[int]string{4: "float32", 8: "float64"}[k.elem]
	if k.masked {
		g.f("// func %s(kc int, a *%s, lda int, b *%s, ldbp, ldbj int, c *%s, ldc int, alpha, beta %s, loadC, rows, cols int)", k.name, ctype, ctype, ctype, ctype)
	} else {
		g.f("// func %s(kc int, a *%s, lda int, b *%s, ldbp, ldbj int, c *%s, ldc int, alpha, beta %s, loadC int)", k.name, ctype, ctype, ctype, ctype)
	}
	g.f("// %s %dx%d tile, %d accumulators.", k.isa, k.mr(), k.nr, nacc)
	g.f("TEXT ·%s(SB), NOSPLIT, $0-%d", k.name, size)
	shift := map[int]int{4: 2, 8: 3}[k.elem]
	g.f("\tMOVQ kc+0(FP), CX")
	g.f("\tMOVQ a+8(FP), SI")
	g.f("\tMOVQ lda+16(FP), R10")
	g.f("\tSHLQ $%d, R10", shift)
	g.f("\tMOVQ c+48(FP), DX")
	g.f("\tMOVQ ldc+56(FP), R8")
	g.f("\tSHLQ $%d, R8", shift)
	// Prefetch the C tile (its columns may be far apart) while computing.
	g.f("\tMOVQ DX, AX")
	for j := 0; j < k.nr; j++ {
		for off := 0; off < k.mr()*k.elem; off += 64 {
			g.f("\tPREFETCHT0 %d(AX)", off)
		}
		g.f("\tPREFETCHT0 %d(AX)", k.mr()*k.elem-1)
		if j < k.nr-1 {
			g.f("\tADDQ R8, AX")
		}
	}
	// B element (p, j) is at b + p*ldbp + j*ldbj: column group j/4 has its
	// own base register, advanced by ldbp per k step.
	bases := []string{"DI", "BX", "R13", "AX"}
	ngroups := (k.nr + 3) / 4
	if ngroups > len(bases) {
		log.Fatalf("%s: nr too large", k.name)
	}
	g.f("\tMOVQ b+24(FP), DI")
	g.f("\tMOVQ ldbp+32(FP), R9")
	g.f("\tSHLQ $%d, R9", shift)
	g.f("\tMOVQ ldbj+40(FP), R11")
	g.f("\tSHLQ $%d, R11", shift)
	g.f("\tLEAQ (R11)(R11*2), R12")
	for gi := 1; gi < ngroups; gi++ {
		g.f("\tLEAQ (%s)(R11*4), %s", bases[gi-1], bases[gi])
	}
	for i := 0; i < nacc; i++ {
		if k.isa == "avx512" {
			g.f("\tVPXORQ %s, %s, %s", k.reg(i), k.reg(i), k.reg(i))
		} else {
			g.f("\tVXORPD %s, %s, %s", k.reg(i), k.reg(i), k.reg(i))
		}
	}
	bop := func(j int) string {
		b := bases[j/4]
		return [...]string{"(" + b + ")", "(" + b + ")(R11*1)", "(" + b + ")(R11*2)", "(" + b + ")(R12*1)"}[j%4]
	}
	step := func(u int) {
		for v := 0; v < k.vecs; v++ {
			switch u {
			case 0:
				g.f("\tVMOVUP%s %d(SI), %s", s[1:], v*k.vbytes(), k.reg(areg+v))
			case 1:
				g.f("\tVMOVUP%s %d(SI)(R10*1), %s", s[1:], v*k.vbytes(), k.reg(areg+v))
			case 2:
				g.f("\tVMOVUP%s %d(SI)(R10*2), %s", s[1:], v*k.vbytes(), k.reg(areg+v))
			case 3:
				g.f("\tVMOVUP%s %d(SI)(DX*1), %s", s[1:], v*k.vbytes(), k.reg(areg+v))
			default:
				log.Fatalf("%s: unroll > 4 unsupported", k.name)
			}
		}
		for j := 0; j < k.nr; j++ {
			br := k.reg(areg + k.vecs + j%2)
			g.f("\t%s %s, %s", k.bcast(), bop(j), br)
			for v := 0; v < k.vecs; v++ {
				g.f("\tVFMADD231%s %s, %s, %s", s, k.reg(areg+v), br, k.reg(j*k.vecs+v))
			}
		}
		for gi := 0; gi < ngroups; gi++ {
			g.f("\tADDQ R9, %s", bases[gi])
		}
	}
	if k.unroll > 2 {
		// DX holds 3*lda during the loop; C is reloaded before the store.
		g.f("\tLEAQ (R10)(R10*2), DX")
	}
	if k.unroll > 1 {
		g.f("\tCMPQ CX, $%d", k.unroll)
		g.f("\tJLT %s_tail", k.name)
		g.f("%s_loop:", k.name)
		g.f("\tPREFETCHT0 (SI)(R10*4)")
		for u := 0; u < k.unroll; u++ {
			step(u)
		}
		g.f("\tLEAQ (SI)(R10*%d), SI", k.unroll)
		g.f("\tSUBQ $%d, CX", k.unroll)
		g.f("\tCMPQ CX, $%d", k.unroll)
		g.f("\tJGE %s_loop", k.name)
		g.f("%s_tail:", k.name)
		g.f("\tTESTQ CX, CX")
		g.f("\tJZ %s_store", k.name)
	}
	g.f("%s_one:", k.name)
	step(0)
	g.f("\tADDQ R10, SI")
	g.f("\tDECQ CX")
	g.f("\tJNZ %s_one", k.name)
	g.f("%s_store:", k.name)
	if k.unroll > 2 {
		g.f("\tMOVQ c+48(FP), DX")
	}
	al, be := k.reg(areg), k.reg(areg+1)
	mask := func(v int) string { return "" }
	if k.masked {
		// K(v+1) selects the rows of vector v below rows: min(max(rows -
		// v·lanes, 0), lanes) low bits. R12 holds cols.
		g.f("\tMOVQ rows+%d(FP), R9", loadOff+8)
		g.f("\tMOVQ cols+%d(FP), R12", loadOff+16)
		for v := 0; v < k.vecs; v++ {
			g.f("\tMOVQ R9, CX")
			if v > 0 {
				g.f("\tSUBQ $%d, CX", v*k.lanes())
			}
			g.f("\tMOVQ $%d, SI", k.lanes())
			g.f("\tCMPQ CX, SI")
			g.f("\tCMOVQGT SI, CX")
			g.f("\tXORQ SI, SI")
			g.f("\tCMPQ CX, SI")
			g.f("\tCMOVQLT SI, CX")
			g.f("\tMOVQ $1, BX")
			g.f("\tSHLQ CX, BX")
			g.f("\tDECQ BX")
			g.f("\tKMOVW BX, K%d", v+1)
		}
		mask = func(v int) string { return fmt.Sprintf("K%d, ", v+1) }
	}
	// column closes the store of column j: the next column, or the end
	// once cols columns are stored.
	column := func(j int) {
		if j == k.nr-1 {
			return
		}
		if k.masked {
			g.f("\tCMPQ R12, $%d", j+1)
			g.f("\tJLE %s_ret", k.name)
		}
		g.f("\tADDQ R8, DX")
	}
	g.f("\t%s alpha+%d(FP), %s", k.bcast(), alphaOff, al)
	g.f("\tMOVQ loadC+%d(FP), AX", loadOff)
	g.f("\tTESTQ AX, AX")
	g.f("\tJZ %s_nobeta", k.name)
	g.f("\t%s beta+%d(FP), %s", k.bcast(), betaOff, be)
	for j := 0; j < k.nr; j++ {
		for v := 0; v < k.vecs; v++ {
			acc := k.reg(j*k.vecs + v)
			g.f("\tVMUL%s %s, %s, %s", s, al, acc, acc)
			g.f("\tVFMADD231%s %d(DX), %s, %s%s", s, v*k.vbytes(), be, mask(v), acc)
			g.f("\tVMOVUP%s %s, %s%d(DX)", s[1:], acc, mask(v), v*k.vbytes())
		}
		column(j)
	}
	g.f("\tVZEROUPPER")
	g.f("\tRET")
	g.f("%s_nobeta:", k.name)
	for j := 0; j < k.nr; j++ {
		for v := 0; v < k.vecs; v++ {
			acc := k.reg(j*k.vecs + v)
			g.f("\tVMUL%s %s, %s, %s", s, al, acc, acc)
			g.f("\tVMOVUP%s %s, %s%d(DX)", s[1:], acc, mask(v), v*k.vbytes())
		}
		column(j)
	}
	if k.masked {
		g.f("%s_ret:", k.name)
	}
	g.f("\tVZEROUPPER")
	g.f("\tRET")
	g.f("")
}

func main() {
	out := flag.String("out", "kern_amd64.s", "output file")
	flag.Parse()
	var g gen
	g.f("// Code generated by _gen/main.go; DO NOT EDIT.")
	g.f("")
	g.f("//go:build amd64 && !purego")
	g.f("")
	g.f("#include \"textflag.h\"")
	g.f("")
	for _, k := range kernels {
		if k.vecs*k.nr+k.vecs+2 > map[string]int{"avx512": 32, "avx2": 16}[k.isa] {
			log.Fatalf("%s: too many registers", k.name)
		}
		g.kernel(k)
		if k.isa == "avx512" {
			k.name += "M"
			k.masked = true
			g.kernel(k)
		}
	}
	if err := os.WriteFile(*out, g.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
}
