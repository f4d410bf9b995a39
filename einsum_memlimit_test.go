package tenferro_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
)

// memLimitChildEnv names the file a child process of
// TestEinsumUnderGOMEMLIMIT writes its result to.
const memLimitChildEnv = "TENFERRO_TEST_GOMEMLIMIT_OUT"

// The contraction of TestEinsumUnderGOMEMLIMIT: a triangle of fat bonds
// (x, y, z of extent 400) with thin output legs (a, b, c of extent 10).
// The operands take 37 MiB; any path holds an intermediate of 16·10⁶
// elements (122 MiB) besides the operands.
var memLimitSub, memLimitShapes = "xay,ybz,zcx->abc", [][]int{{400, 10, 400}, {400, 10, 400}, {400, 10, 400}}

const memLimit = 48 << 20 // GOMEMLIMIT of the child, bytes

// TestEinsumUnderGOMEMLIMIT runs, in a child process with GOMEMLIMIT set
// to 48 MiB, a contraction whose unsliced evaluation needs more than four
// times that much: the default engine's budget (three quarters of
// GOMEMLIMIT) makes Einsum slice it, the buffers the engine hands out stay
// within the budget, and the result equals the unsliced one computed here.
func TestEinsumUnderGOMEMLIMIT(t *testing.T) {
	if out := os.Getenv(memLimitChildEnv); out != "" {
		memLimitChild(t, out)
		return
	}
	if testing.Short() {
		t.Skip("a 6 GFLOP contraction in a child process")
	}
	full, err := tf.PrepareEinsum(tf.Float64, memLimitSub, memLimitShapes)
	if err != nil {
		t.Fatal(err)
	}
	need := full.Plan().Peak * 8
	if need < 4*memLimit {
		t.Fatalf("unsliced peak %g bytes, want at least 4×%d", need, memLimit)
	}
	out := filepath.Join(t.TempDir(), "result.bin")
	cmd := exec.Command(os.Args[0], "-test.run=^TestEinsumUnderGOMEMLIMIT$", "-test.v")
	env := []string{memLimitChildEnv + "=" + out, fmt.Sprintf("GOMEMLIMIT=%d", memLimit)}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOMEMLIMIT=") && !strings.HasPrefix(kv, tf.MemoryBudgetEnv+"=") {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	msg, err := cmd.CombinedOutput()
	t.Logf("child (GOMEMLIMIT=%d, unsliced peak %.0f bytes):\n%s", memLimit, need, msg)
	if err != nil {
		t.Fatalf("child: %v", err)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	e := cpu.Serial(cpu.WithMemoryBudget(0))
	defer e.Close()
	want, err := tf.Einsum(e, memLimitSub, memLimitOperands()...)
	if err != nil {
		t.Fatal(err)
	}
	w, _ := want.Data()
	if len(raw) != 8*len(w) {
		t.Fatalf("child wrote %d bytes, want %d", len(raw), 8*len(w))
	}
	for i, v := range w {
		got := math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
		if math.Abs(got-v) > 1e-12*math.Abs(v) {
			t.Fatalf("element %d = %v, want %v", i, got, v)
		}
	}
}

// memLimitOperands draws the operands (the same in both processes).
func memLimitOperands() []*tf.Tensor[float64] {
	return positiveOps(rand.New(rand.NewPCG(75, 76)), memLimitShapes)
}

// memLimitChild is the child's side: contract with the default engine,
// check its pool stayed within the budget, write the result.
func memLimitChild(t *testing.T, out string) {
	e := cpu.Serial()
	defer e.Close()
	budget := e.MemoryBudget()
	if budget != memLimit/4*3 {
		t.Fatalf("budget %d bytes under GOMEMLIMIT=%d, want three quarters of it", budget, memLimit)
	}
	got, err := tf.Einsum(e, memLimitSub, memLimitOperands()...)
	if err != nil {
		t.Fatal(err)
	}
	stats := e.AllocationStats()
	t.Logf("budget %d bytes; the engine held at most %d bytes at once", budget, stats.PeakInUseBytes)
	if stats.PeakInUseBytes > budget {
		t.Fatalf("the engine held %d bytes at once, over the budget of %d", stats.PeakInUseBytes, budget)
	}
	d, _ := got.Data()
	buf := make([]byte, 0, 8*len(d))
	for _, v := range d {
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
	}
	if err := os.WriteFile(out, buf, 0o644); err != nil {
		t.Fatal(err)
	}
}
