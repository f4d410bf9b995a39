package main

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/tenferro-go/tenferro/internal/op"
)

// The operations reference (docs/guide/operations.md) lists every catalog
// entry with the public functions that expose it. Generated entries get
// tenferro.Name, tenferro.NameInto and trace's Name method; the others
// are listed below. The generator checks both directions against the
// sources: every function named here exists, every method of trace.Trace
// named here records the operation, and every method of trace.Trace that
// records an operation is named here (or is generated).

// exposures names the public functions of the operations without
// generated wrappers: "tf.Name" and "linalg.Name" are functions,
// "tf.Tensor.Name" and "trace.Trace.Name" methods.
var exposures = map[op.Kind][]string{
	op.Copy:    {"tf.Copy", "tf.CopyInto", "trace.Trace.Copy"},
	op.Convert: {"tf.Convert", "trace.Trace.Convert"},
	op.Where:   {"tf.Where", "tf.WhereInto", "trace.Trace.Where"},
	op.Matmul:  {"tf.Matmul", "tf.MatmulInto", "trace.Trace.Matmul"},
	op.Einsum: {"tf.Einsum", "tf.EinsumInto", "tf.EinsumWith", "tf.EinsumWithInto",
		"tf.PrepareEinsum", "tf.EinsumPlanned", "tf.EinsumPlannedInto", "trace.Trace.Einsum"},
	op.Permute:      {"tf.Tensor.Permute", "tf.Tensor.Transpose", "trace.Trace.Permute"},
	op.Reshape:      {"tf.Tensor.Reshape", "tf.ReshapeCopy", "tf.ReshapeCopyInto", "trace.Trace.Reshape"},
	op.Squeeze:      {"tf.Tensor.Squeeze", "trace.Trace.Squeeze"},
	op.Unsqueeze:    {"tf.Tensor.Unsqueeze", "trace.Trace.Unsqueeze"},
	op.Flatten:      engineOp("Flatten"),
	op.Concatenate:  engineOp("Concatenate"),
	op.Stack:        engineOp("Stack"),
	op.Split:        {"tf.Tensor.Split", "tf.Tensor.SplitAt", "trace.Trace.Split", "trace.Trace.SplitAt"},
	op.Tile:         engineOp("Tile"),
	op.Repeat:       engineOp("Repeat"),
	op.Pad:          engineOp("Pad"),
	op.Tril:         engineOp("Tril"),
	op.Triu:         engineOp("Triu"),
	op.Roll:         engineOp("Roll"),
	op.Diag:         engineOp("Diag"),
	op.Contiguous:   {"tf.Contiguous", "trace.Trace.Contiguous"},
	op.Take:         engineOp("Take"),
	op.Gather:       engineOp("Gather"),
	op.ScatterAdd:   engineOp("ScatterAdd"),
	op.MaskedSelect: engineOp("MaskedSelect"),

	op.Cholesky:        linalgOp("Cholesky"),
	op.Solve:           linalgOp("Solve"),
	op.SolveTriangular: linalgOp("SolveTriangular"),
	op.Inv:             linalgOp("Inv"),
	op.Det:             linalgOp("Det"),
	op.SlogDetSign:     linalgOp("SlogDet"),
	op.SlogDetLogAbs:   linalgOp("SlogDet"),
	op.Expm:            linalgOp("Expm"),
	op.EighValues:      append(linalgOp("Eigh"), "linalg.Eigvalsh", "trace.Trace.Eigvalsh"),
	op.EighVectors:     linalgOp("Eigh"),
	op.SVDU:            append(linalgOp("SVD"), svdMore...),
	op.SVDS:            append(linalgOp("SVD"), append(svdMore, "linalg.SVDVals", "trace.Trace.SVDVals", "trace.Trace.MatrixNorm")...),
	op.SVDVh:           append(linalgOp("SVD"), svdMore...),
	op.QRQ:             append(linalgOp("QR"), qrMore...),
	op.QRR:             append(linalgOp("QR"), qrMore...),
	op.Pinv:            append(linalgOp("Pinv"), "trace.Trace.Lstsq"),
	op.GaugeCheck:      nil, // inserted by package ad into gradient programs
}

var (
	svdMore = []string{"linalg.TruncatedSVD", "linalg.SVDSplit", "trace.Trace.TruncatedSVD"}
	qrMore  = []string{"linalg.LQ", "linalg.LQInto", "linalg.QRSplit", "linalg.LQSplit", "trace.Trace.LQ"}
)

// internalNote explains the operations no public function exposes.
var internalNote = map[op.Kind]string{
	op.GaugeCheck: "no public function: package ad inserts it into gradient programs",
}

// traceHelpers are the methods of trace.Trace that record no operation of
// the catalog (inputs, constants, the end of a trace, generic recording).
var traceHelpers = []string{"Apply", "Const", "Finish", "Full", "Input"}

func engineOp(name string) []string {
	return []string{"tf." + name, "tf." + name + "Into", "trace.Trace." + name}
}

func linalgOp(name string) []string {
	return []string{"linalg." + name, "linalg." + name + "Into", "trace.Trace." + name}
}

// exposed lists the public functions of k.
func exposed(a *api, k op.Kind) []string {
	in := k.Info()
	if in.Generated {
		return []string{"tf." + in.Name, "tf." + in.Into, "trace.Trace." + in.Name}
	}
	var refs []string
	for _, r := range exposures[k] {
		if _, _, ok := a.lookup(r); ok {
			refs = append(refs, r)
		}
	}
	return refs
}

// checkExposures reports the first disagreement between the catalog, the
// table above and the sources.
func checkExposures(a *api) error {
	listed := map[string]bool{}
	for _, k := range op.Kinds() {
		in := k.Info()
		refs, ok := exposures[k]
		switch {
		case in.Generated && ok:
			return fmt.Errorf("gen: %v has generated wrappers and an entry in exposures", k)
		case in.Generated:
			refs = exposed(a, k)
		case !ok:
			return fmt.Errorf("gen: %v: no entry in exposures (internal/op/gen/docs.go) naming its public functions", k)
		case len(refs) == 0 && internalNote[k] == "":
			return fmt.Errorf("gen: %v: no public function and no note saying why", k)
		}
		for _, r := range refs {
			if _, _, ok := a.lookup(r); !ok {
				return fmt.Errorf("gen: %v: %s does not exist", k, r)
			}
			m, isTrace := strings.CutPrefix(r, "trace.Trace.")
			if !isTrace {
				continue
			}
			listed[m] = true
			if !slices.Contains(a.records[m], k) {
				return fmt.Errorf("gen: %v: %s does not record it (it records %v)", k, r, a.records[m])
			}
		}
	}
	for m, ks := range a.records {
		if isExported(m) && len(ks) > 0 && !listed[m] {
			return fmt.Errorf("gen: trace.Trace.%s records %v but no entry of exposures names it", m, ks)
		}
	}
	for _, m := range traceHelpers {
		if _, _, ok := a.lookup("trace.Trace." + m); !ok {
			return fmt.Errorf("gen: trace.Trace.%s does not exist", m)
		}
	}
	return nil
}

func isExported(name string) bool { return name != "" && name[0] >= 'A' && name[0] <= 'Z' }

// section is one category of the reference.
type section struct {
	cat         op.Category
	title       string
	intro       string
	broadcast   string // the broadcasting of the category's operations
	showGrouped bool   // a column for the decomposition an operation is a factor of
}

var sections = []section{
	{op.Data, "Copies and conversions",
		"The elements move without arithmetic; every dtype.", "none", false},
	{op.Unary, "Elementwise, one tensor",
		"out[i] = f(a[i]): the result has a's shape, and an Into destination may be a itself. In a compiled program, chains of elementwise operations fuse into one pass over memory.", "none", false},
	{op.Binary, "Elementwise, two tensors",
		"out[i] = f(a[i], b[i]) with NumPy broadcasting: the shapes align on their last axes, a missing axis or an extent of 1 stretches, and a 0-d tensor (`tf.Const(2.0)`) combines with anything. An Into destination may be a or b itself.", "NumPy", false},
	{op.Select, "Selection",
		"", "NumPy, all three", false},
	{op.Reduction, "Reductions",
		"Over any set of axes, in any order, negative ones counting from the end; no axes means every axis (a 0-d result). The result drops the reduced axes; for NumPy's keepdims pass an Into destination with extent 1 on them.", "none", false},
	{op.Scan, "Scans",
		"Along one axis; the result has the input's shape.", "none", false},
	{op.Contraction, "Contractions",
		"Sums of products on the GEMM kernels; batch axes go last (column-major).", "", false},
	{op.Structural, "Structural operations",
		"The methods of `tf.Tensor` are views: they change shape and strides, copy nothing and need no engine. The functions copy into a new tensor (or an Into destination) and accept every dtype.", "none", false},
	{op.Indexing, "Indexing",
		"The second tensor is an int64 index or a bool mask; an index outside its axis is an ErrArgument error, found before anything is written; negative indices count from the end.", "none", false},
	{op.Linalg, "Linear algebra",
		"Matrices are the first two axes, batch axes after them. A decomposition is one catalog operation per factor (its group): the eager functions of package linalg return all factors at once, and a compiled program computes the factors of one matrix in one step. Real results (singular values, Hermitian eigenvalues, log |det|) have the real dtype of the input.", "none", true},
}

// broadcastOf is the broadcasting rule of the operations that differ from
// their category's.
var broadcastOf = map[op.Kind]string{
	op.Matmul:          "batch axes: an extent of 1 stretches",
	op.Einsum:          "labels of extent 1 and `...` (NumPy)",
	op.MaskedSelect:    "mask against a (NumPy)",
	op.Solve:           "linalg: batch extents of 1 and a shared (n, k) b; traced: none",
	op.SolveTriangular: "linalg: batch extents of 1 and a shared b; traced: none",
}

// operationsDoc renders docs/guide/operations.md.
func operationsDoc(a *api) ([]byte, error) {
	if err := checkExposures(a); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(`<!-- Code generated by internal/op/gen from the operation catalog; DO NOT EDIT. -->

# Operations

Every operation of the catalog (` + "`internal/op`" + `), grouped by category, with the public
functions that run it eagerly, their Into forms, and the method of ` + "`trace.Trace`" + ` that
records it in a traced program. ` + "`go generate ./...`" + ` writes this page from the catalog and
the sources, so it lists exactly what exists.

In the function column ` + "`tf`" + ` is package tenferro, ` + "`t`" + ` a ` + "`*tf.Tensor`" + ` and ` + "`tr`" + ` a
` + "`*trace.Trace`" + `; an Into form takes a destination the caller owns and allocates nothing
(see [Release or Into](getting-started.md#release-or-into)). Type parameters in brackets
cannot be inferred and are given explicitly: ` + "`tf.Abs[float64](e, z)`" + ` for a complex128 z.
Dtypes: f32 float32, f64 float64, c64 complex64, c128 complex128, i64 int64, bool; "real" is
the real dtype of the input's precision (f32 for c64, f64 for c128).

| category | operations |
|---|---|
`)
	for _, s := range sections {
		fmt.Fprintf(&b, "| [%s](#%s) | %d |\n", s.title, slug(s.title), len(kindsOf(s.cat)))
	}
	b.WriteString("| [Outside the catalog](#outside-the-catalog) | creation, views, comparison, linear algebra without a trace form |\n")
	for _, s := range sections {
		b.WriteString("\n## " + s.title + "\n\n")
		if s.intro != "" {
			b.WriteString(s.intro + "\n\n")
		}
		head := "| operation | Go functions | tensors | dtypes → result | broadcasting | what it computes |\n|---|---|---|---|---|---|\n"
		if s.showGrouped {
			head = "| operation | group | Go functions | tensors | dtypes → result | broadcasting | what it computes |\n|---|---|---|---|---|---|---|\n"
		}
		b.WriteString(head)
		for _, k := range kindsOf(s.cat) {
			b.WriteString(row(a, s, k))
		}
	}
	outside(&b, a)
	return b.Bytes(), nil
}

// slug is the anchor GitHub gives a heading: lower case, without
// punctuation, spaces as hyphens.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// kindsOf lists the operations of category c in catalog order.
func kindsOf(c op.Category) []op.Kind {
	var ks []op.Kind
	for _, k := range op.Kinds() {
		if k.Category() == c {
			ks = append(ks, k)
		}
	}
	return ks
}

func row(a *api, s section, k op.Kind) string {
	in := k.Info()
	var calls []string
	for _, r := range exposed(a, k) {
		calls = append(calls, "`"+a.call(r)+"`")
	}
	fns := strings.Join(calls, "<br>")
	if fns == "" {
		fns = internalNote[k]
	}
	bc := broadcastOf[k]
	if bc == "" {
		bc = s.broadcast
	}
	doc := in.Doc
	if doc == "" && len(exposed(a, k)) > 0 {
		// The catalog leaves the math of some operations to their
		// functions' doc comments.
		syn := a.synopsis(exposed(a, k)[0])
		doc = strings.TrimSuffix(strings.TrimPrefix(syn, in.Name+" "), ".")
	}
	cells := []string{"**" + in.Name + "**"}
	if s.showGrouped {
		cells = append(cells, group(k))
	}
	cells = append(cells, fns, tensors(k), dtypes(k), bc, escape(in.Name+" "+doc+"."))
	return "| " + strings.Join(cells, " | ") + " |\n"
}

// group describes the decomposition k is a factor of.
func group(k op.Kind) string {
	head, _ := k.Group()
	var members []string
	for _, j := range op.Kinds() {
		if h, _ := j.Group(); h == head {
			members = append(members, j.String())
		}
	}
	if len(members) == 1 {
		return "—"
	}
	_, pos := k.Group()
	return fmt.Sprintf("factor %d of %s", pos+1, strings.Join(members, ", "))
}

// tensors is the arity and the names of k's tensor arguments.
func tensors(k op.Kind) string {
	in := k.Info()
	if in.Args == nil {
		return "n (operands)"
	}
	return strconv.Itoa(len(in.Args)) + " (" + strings.Join(in.Args, ", ") + ")"
}

// dtypes is the dtype policy of k: what the inputs accept and the result.
func dtypes(k op.Kind) string {
	in := k.Info()
	accept := setNames(in.Accept)
	if in.Accept == op.AllDTypes {
		accept = "all"
	}
	var special []string
	for _, arg := range in.Args {
		switch arg {
		case "mask":
			special = append(special, "mask: bool")
		case "index":
			special = append(special, "index: i64")
		}
	}
	if len(special) > 0 {
		accept = "others: " + accept + "; " + strings.Join(special, "; ")
	}
	result := map[op.Result]string{
		op.SameDType:    "same",
		op.RealDType:    "real",
		op.ComplexDType: "complex (c64 from f32, c128 from f64)",
		op.BoolDType:    "bool",
		op.IndexDType:   "i64",
		op.AttrDType:    "the dtype asked for",
	}[in.Result]
	return accept + " → " + result
}

func setNames(s op.DTypeSet) string {
	var names []string
	for d := op.Float32; d < op.NumDTypes; d++ {
		if d.In(s) {
			names = append(names, d.String())
		}
	}
	return strings.Join(names, " ")
}

// escape keeps the catalog's math from being read as Markdown: table
// cells end at |, and * and _ would start emphasis.
func escape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "|", `\|`, "*", `\*`, "_", `\_`, "`", "\\`", "<", "&lt;")
	return r.Replace(s)
}

// outside lists the exported functions of tenferro and linalg that no
// catalog entry names, with the first sentence of their documentation.
func outside(b *bytes.Buffer, a *api) {
	named := map[string]bool{}
	for _, k := range op.Kinds() {
		for _, r := range exposed(a, k) {
			named[r] = true
		}
	}
	b.WriteString(`
## Outside the catalog

Exported functions that no catalog entry names: creation routines, views and element access,
comparison helpers, errors, and the linear algebra that has no trace form. They run eagerly only;
a traced program cannot record them (` + "`tr.Input`, `tr.Const`, `tr.Full`" + ` and
` + "`tr.Finish`" + ` are the trace's own helpers).

| function | what it does |
|---|---|
`)
	for _, p := range []string{"tf", "linalg"} {
		pa := a.pkgs[p]
		var refs []string
		for name := range pa.funcs {
			refs = append(refs, p+"."+name)
		}
		for typ, ms := range pa.methods {
			if p == "tf" && typ != "Tensor" {
				continue
			}
			for name := range ms {
				refs = append(refs, p+"."+typ+"."+name)
			}
		}
		slices.Sort(refs)
		for _, r := range refs {
			if named[r] {
				continue
			}
			fmt.Fprintf(b, "| `%s` | %s |\n", a.call(r), escape(a.synopsis(r)))
		}
	}
}
