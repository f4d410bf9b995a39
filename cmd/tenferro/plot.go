package main

// --plot: the figures of bench gemm, bench linalg, bench ops and suite.
// Each command turns its rows into a chart (gemmChart, linalgChart,
// opsChart, suiteChart) and the chart draws itself with gonum.org/v1/plot:
// lines over a numeric x axis, or markers over named cases. The title
// names the machine (CPU model and count), the thread count and the date.

import (
	"errors"
	"flag"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// plotFormats are the image formats --plot writes, by file extension.
var plotFormats = []string{".png", ".svg", ".pdf"}

// plotFlag is the value of --plot: the image file to draw, "" for none.
type plotFlag struct{ path string }

// addPlotFlag registers --plot on fs.
func addPlotFlag(fs *flag.FlagSet) *plotFlag {
	p := &plotFlag{}
	fs.StringVar(&p.path, "plot", "", "also draw the results to this image file ("+strings.Join(plotFormats, ", ")+")")
	return p
}

// check reports, before any measurement, why the figure could not be
// written: an extension other than plotFormats, or a directory that does
// not exist. nil when --plot is unset.
func (p *plotFlag) check() error {
	if p.path == "" {
		return nil
	}
	if ext := strings.ToLower(filepath.Ext(p.path)); !slices.Contains(plotFormats, ext) {
		return fmt.Errorf("--plot: want a file ending in %s, got %q", strings.Join(plotFormats, ", "), p.path)
	}
	dir := filepath.Dir(p.path)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("--plot: directory %s of %q does not exist", dir, p.path)
	}
	return nil
}

// draw saves c to the --plot file, if any, and returns the exit status:
// 0, or 1 after a one-line error naming the command and the file.
func (p *plotFlag) draw(stderr io.Writer, cmd string, c chart) int {
	if p.path == "" {
		return 0
	}
	if err := c.save(p.path); err != nil {
		fmt.Fprintf(stderr, "tenferro %s: %v\n", cmd, err)
		return 1
	}
	fmt.Fprintf(stderr, "tenferro %s: figure written to %s\n", cmd, p.path)
	return 0
}

// series is one named set of values: ys[i] belongs to xs[i] on a line
// chart, to case i on a case chart. Values that are NaN, infinite or (on
// a log axis) not positive are left out.
type series struct {
	name   string
	xs, ys []float64
}

// chart is one figure of named series. With cases set it is a case
// chart: one row per case name (top to bottom), one marker per series in
// each row, the values along a logarithmic x axis labelled valueLabel,
// and a dashed line at 1 when unity is set. Otherwise it is a line chart
// of each series' ys (valueLabel, logarithmic when logY) over its xs
// (argLabel, logarithmic when logX; ticks at xTicks when set).
type chart struct {
	title, argLabel, valueLabel string
	cases                       []string
	logX, logY, unity           bool
	xTicks                      []float64
	series                      []series
}

// usable reports whether v can be drawn on an axis (log: positive).
func usable(v float64, log bool) bool {
	return !math.IsNaN(v) && !math.IsInf(v, 0) && (!log || v > 0)
}

// orNaN is *v, or NaN for nil.
func orNaN(v *float64) float64 {
	if v == nil {
		return math.NaN()
	}
	return *v
}

// save draws the chart to path in the format its extension names. It
// fails when no series has a value to draw.
func (c chart) save(path string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("plot %s: drawing failed: %v", path, r)
		}
	}()
	p := plot.New()
	p.Title.Text = c.title
	p.Legend.Top = true
	p.Legend.XOffs, p.Legend.YOffs = -vg.Points(8), -vg.Points(2)
	p.Add(plotter.NewGrid())
	w, h := 7*vg.Inch, 5*vg.Inch
	if c.cases != nil {
		w, h = 8*vg.Inch, max(h, vg.Length(len(c.cases)+2*len(c.series))*0.16*vg.Inch+1.6*vg.Inch)
		err = c.drawCases(p, h)
	} else {
		err = c.drawLines(p)
	}
	if err == nil {
		err = p.Save(w, h, path)
	}
	if err != nil {
		return fmt.Errorf("plot %s: %w", path, err)
	}
	return nil
}

// valueRange is the smallest and largest usable value of the series (and
// 1 with unity); ok is false when there is none.
func (c chart) valueRange(log bool) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, s := range c.series {
		for i, y := range s.ys {
			if usable(y, log) && (c.cases != nil || usable(s.xs[i], c.logX)) {
				lo, hi = min(lo, y), max(hi, y)
			}
		}
	}
	if c.unity {
		lo, hi = min(lo, 1), max(hi, 1)
	}
	return lo, hi, lo <= hi
}

var errNoValues = errors.New("no values to draw")

// drawLines lays out a line chart: lines with markers, and headroom at
// the top for the legend.
func (c chart) drawLines(p *plot.Plot) error {
	p.X.Label.Text, p.Y.Label.Text = c.argLabel, c.valueLabel
	lo, hi, ok := c.valueRange(c.logY)
	if !ok {
		return errNoValues
	}
	xlo, xhi := math.Inf(1), math.Inf(-1)
	for i, s := range c.series {
		var pts plotter.XYs
		for k, y := range s.ys {
			if usable(y, c.logY) && usable(s.xs[k], c.logX) {
				pts = append(pts, plotter.XY{X: s.xs[k], Y: y})
				xlo, xhi = min(xlo, s.xs[k]), max(xhi, s.xs[k])
			}
		}
		if len(pts) == 0 {
			continue
		}
		l, sc, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		l.Color, sc.Color = plotutil.Color(i), plotutil.Color(i)
		l.Dashes, sc.Shape = plotutil.Dashes(i), plotutil.Shape(i)
		p.Add(l, sc)
		p.Legend.Add(s.name, l, sc)
	}
	// The axes are set after the plotters, which widen them to their data.
	room := 0.04 + 0.07*float64(len(c.series))
	if c.logY {
		lo, hi = lo/1.2, hi*1.2
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, logTicks{}
		p.Y.Min, p.Y.Max = lo, hi*math.Pow(hi/lo, room/(1-room))
	} else {
		lo = min(0, lo)
		p.Y.Min, p.Y.Max = lo, hi+(hi-lo)*room/(1-room)
	}
	if c.logX {
		p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, logTicks{}
		p.X.Min, p.X.Max = xlo/1.15, xhi*1.15
	}
	if c.xTicks != nil {
		var ticks []plot.Tick
		for _, x := range c.xTicks {
			ticks = append(ticks, plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'g', -1, 64)})
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
	}
	return nil
}

// drawCases lays out a case chart of height h: the case names down the y
// axis (the first at the top), the series' markers side by side in each
// row, the values on a log x axis, and rows of headroom for the legend.
func (c chart) drawCases(p *plot.Plot, h vg.Length) error {
	p.X.Label.Text, p.Y.Label.Text = c.valueLabel, c.argLabel
	lo, hi, ok := c.valueRange(true)
	if !ok {
		return errNoValues
	}
	n := float64(len(c.cases))
	names := slices.Clone(c.cases)
	slices.Reverse(names)
	p.NominalY(names...)
	if c.unity {
		one, err := plotter.NewLine(plotter.XYs{{X: 1, Y: -0.5}, {X: 1, Y: n - 0.5}})
		if err != nil {
			return err
		}
		one.Color = color.Gray{Y: 96}
		one.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(one)
	}
	k := float64(len(c.series))
	for i, s := range c.series {
		var pts plotter.XYs
		off := ((k-1)/2 - float64(i)) * 0.5 / k
		for j, y := range s.ys {
			if usable(y, true) {
				pts = append(pts, plotter.XY{X: y, Y: n - 1 - float64(j) + off})
			}
		}
		if len(pts) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return err
		}
		sc.Color, sc.Shape, sc.Radius = plotutil.Color(i), plotutil.Shape(i), vg.Points(2.5)
		p.Add(sc)
		p.Legend.Add(s.name, sc)
	}
	p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, logTicks{}
	p.X.Min, p.X.Max = lo/1.3, hi*1.3
	// The legend takes about 0.2 inch a line; the rows share the height
	// left by the title and the value axis (about 1.4 inch).
	legend, data := 0.2*k+0.1, float64(h/vg.Inch)-1.4
	p.Y.Min, p.Y.Max = -0.5, n-0.5+legend*n/max(data-legend, 0.5)
	return nil
}

// logTicks labels a log axis at 1, 2 and 5 times the powers of ten in
// range (only the powers when the range spans more than three decades),
// with unlabeled minor ticks at the other integer multiples.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	wide := hi/lo > 1e3
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for m := 1.0; m < 10; m++ {
			v := m * math.Pow(10, e)
			if v < lo || v > hi {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || !wide && (m == 2 || m == 5) {
				t.Label = strconv.FormatFloat(v, 'g', 4, 64)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// machineTitle names where and when the figure's numbers were taken: the
// CPU model, the logical CPU count, the thread count and today's date.
func machineTitle(threads int) string {
	return fmt.Sprintf("%s (%d logical CPUs, %s/%s), threads=%d, %s", cpuModel(), runtime.NumCPU(),
		runtime.GOOS, runtime.GOARCH, threads, time.Now().Format("2006-01-02"))
}

// cpuModel is the "model name" of /proc/cpuinfo, or the architecture
// where there is none.
func cpuModel() string {
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				return strings.TrimSpace(v)
			}
		}
	}
	return runtime.GOARCH + " CPU"
}

// numpyLegend names NumPy and the OpenBLAS kernel it ran.
func numpyLegend(p peerResult) string {
	v := "numpy"
	if p.NumpyVersion != nil {
		v += " " + *p.NumpyVersion
	}
	return v + ", " + p.openblasDesc()
}

// gemmChart draws bench gemm's rows: GFLOP/s over n for each dtype, ours
// (with the kernel variant) and numpy.matmul's (with its OpenBLAS kernel)
// where the reference ran.
func gemmChart(rows []gemmRow, peer peerResult) chart {
	c := chart{argLabel: "n (C = A·B, all n×n)", valueLabel: "GFLOP/s", logX: true}
	threads := 1
	var sizes []float64
	for _, r := range rows {
		threads = r.Threads
		if !slices.Contains(sizes, float64(r.Size)) {
			sizes = append(sizes, float64(r.Size))
		}
	}
	slices.Sort(sizes)
	c.xTicks = sizes
	var dts []string
	for _, r := range rows {
		if !slices.Contains(dts, r.DType) {
			dts = append(dts, r.DType)
		}
	}
	for _, dt := range dts {
		ours, ref := series{}, series{}
		for _, r := range rows {
			if r.DType != dt {
				continue
			}
			ours.name = "tenferro " + dt + " (" + r.Kernel + " kernel)"
			ours.xs, ours.ys = append(ours.xs, float64(r.Size)), append(ours.ys, r.GFlops)
			ref.xs, ref.ys = append(ref.xs, float64(r.Size)), append(ref.ys, orNaN(r.ReferenceGFlops))
		}
		ref.name = numpyLegend(peer) + ", " + dt
		c.series = append(c.series, ours, ref)
	}
	c.title = "GEMM: tenferro against numpy.matmul\n" + machineTitle(threads)
	return c
}

// ratioChart is the case chart of bench linalg and bench ops: each peer's
// time over ours per case (above 1: the library is faster), or our times
// when no peer ran.
func ratioChart(what string, threads int, cases []string, ours []float64, peers []series) chart {
	c := chart{cases: cases, argLabel: "case", unity: true, valueLabel: "peer time / tenferro time (above 1: tenferro is faster)",
		title: what + ": peers' time over tenferro's\n" + machineTitle(threads)}
	for _, s := range peers {
		if slices.ContainsFunc(s.ys, func(v float64) bool { return usable(v, true) }) {
			c.series = append(c.series, s)
		}
	}
	if c.series == nil {
		c.unity, c.valueLabel = false, "tenferro ms"
		c.title = what + ": tenferro's time (no peer ran)\n" + machineTitle(threads)
		c.series = []series{{name: "tenferro median ms", ys: ours}}
	}
	return c
}

// linalgChart draws bench linalg's rows: NumPy's, gonum's and PyTorch's
// time over ours for each (op, dtype, n, batch).
func linalgChart(rows []linalgRow, peer peerResult) chart {
	var cases []string
	var ours []float64
	peers := make([]series, len(linalgPeers))
	threads := 1
	for _, r := range rows {
		threads = r.Threads
		name := fmt.Sprintf("%s %s %d", r.Op, r.DType, r.Size)
		if r.Batch > 1 {
			name += fmt.Sprintf(" ×%d", r.Batch)
		}
		cases, ours = append(cases, name), append(ours, r.MedianMS)
		for p, lp := range linalgPeers {
			peers[p].ys = append(peers[p].ys, orNaN(timeRatio(lp.ms(r), r.MedianMS)))
		}
	}
	for p, lp := range linalgPeers {
		peers[p].name = lp.name + "/ours"
	}
	peers[0].name += " (" + numpyLegend(peer) + ")"
	return ratioChart("bench linalg", threads, cases, ours, peers)
}

// opsChart draws bench ops' rows: NumPy's and PyTorch's time over ours
// for each (op, dtype, size).
func opsChart(rows []opsRow, peer peerResult) chart {
	var cases []string
	var ours []float64
	np := series{name: "numpy/ours (" + numpyLegend(peer) + ")"}
	torch := series{name: "torch/ours"}
	threads := 1
	for _, r := range rows {
		threads = r.Threads
		cases, ours = append(cases, r.Op+" "+r.DType+" "+shortCount(r.Size)), append(ours, r.MedianMS)
		np.ys, torch.ys = append(np.ys, orNaN(r.peerRatio("numpy"))), append(torch.ys, orNaN(r.peerRatio("torch")))
	}
	return ratioChart("bench ops", threads, cases, ours, []series{np, torch})
}

// suiteChart draws the suite's rows: the median evaluation time and the
// planning time of each instance (the suite has no peers; failed
// instances are left out).
func suiteChart(rows []suiteRow) chart {
	c := chart{argLabel: "instance", valueLabel: "ms"}
	eval, plan := series{name: "evaluation (median ms)"}, series{name: "planning (ms)"}
	threads := 1
	for _, r := range rows {
		threads = r.Threads
		c.cases = append(c.cases, r.Name)
		e, p := r.MedianMS, r.PlanMS
		if r.Check == "FAIL" {
			e, p = math.NaN(), math.NaN()
		}
		eval.ys, plan.ys = append(eval.ys, e), append(plan.ys, p)
	}
	c.series = []series{eval, plan}
	c.title = "tenferro suite: time per instance\n" + machineTitle(threads)
	return c
}

// shortCount writes n as 16M, 4k or 37.
func shortCount(n int) string {
	switch {
	case n >= 1e6 && n%1e6 == 0:
		return strconv.Itoa(n/1e6) + "M"
	case n >= 1e3 && n%1e3 == 0:
		return strconv.Itoa(n/1e3) + "k"
	}
	return strconv.Itoa(n)
}
