package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tf "github.com/tenferro-go/tenferro"
	"github.com/tenferro-go/tenferro/cpu"
	"github.com/tenferro-go/tenferro/distributed"
	"github.com/tenferro-go/tenferro/internal/natstest"
	"github.com/tenferro-go/tenferro/npy"
	"github.com/tenferro-go/tenferro/slicing"
)

// envCLI makes the test binary run the command line it is given, so that
// tests start `tenferro worker` processes without building the command.
const envCLI = "TENFERRO_TEST_CLI"

func TestMain(m *testing.M) {
	if os.Getenv(envCLI) != "" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// startCLI runs `tenferro args...` as a process until the test ends.
func startCLI(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), envCLI+"=1")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("%v: %s", args, errb.String())
		}
	})
	return cmd
}

// writeOperands writes random float64 operands of the given shapes as .npy
// files and returns their names and values.
func writeOperands(t *testing.T, dir string, shapes ...[]int) ([]string, []*tf.Tensor[float64]) {
	t.Helper()
	var names []string
	var ts []*tf.Tensor[float64]
	for k, s := range shapes {
		x, err := tf.RandN[float64](uint64(40+k), s...)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(dir, "in"+string(rune('0'+k))+".npy")
		if err := npy.WriteTensorFile(name, x); err != nil {
			t.Fatal(err)
		}
		names, ts = append(names, name), append(ts, x)
	}
	return names, ts
}

// checkOutput compares the .npy file out with the einsum of ops.
func checkOutput(t *testing.T, out, subscripts string, ops []*tf.Tensor[float64]) {
	t.Helper()
	got, err := npy.ReadTensorFile[float64](out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := tf.Einsum(cpu.Serial(), subscripts, ops...)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := tf.AllClose(got, want, 1e-12, 1e-12); err != nil || !ok {
		t.Fatalf("%s: got %v, want %v (%v)", subscripts, got, want, err)
	}
}

// TestContractWithWorkerProcesses runs the coordinator in the test and two
// `tenferro worker` processes (one over a team of two threads).
func TestContractWithWorkerProcesses(t *testing.T) {
	url := natstest.Run(t)
	dir := t.TempDir()
	subs := "abc,cd,bde->ae"
	shapes := [][]int{{6, 17, 4}, {4, 9}, {17, 9, 5}}
	names, ops := writeOperands(t, dir, shapes...)
	whole, err := slicing.New(tf.Float64, subs, shapes, 0)
	if err != nil {
		t.Fatal(err)
	}
	limit := strconv.FormatInt(whole.SlicePeakBytes/4, 10)
	startCLI(t, "worker", "--nats", url, "--ack-wait", "2s", "--quiet")
	startCLI(t, "worker", "--nats", url, "--ack-wait", "2s", "--threads", "2", "--quiet")
	out := filepath.Join(dir, "out.npy")
	code, _, errs := runCLI(t, append([]string{"contract", "--nats", url, "--memory-limit", limit, "--slices-per-task", "3",
		"--timeout", "30s", "-o", out, subs}, names...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, " slices over ") || !strings.Contains(errs, "slices/s") {
		t.Errorf("no plan summary or progress on stderr: %q", errs)
	}
	checkOutput(t, out, subs, ops)
}

// TestWorkerOnce runs `tenferro worker --once` in the test: it handles the
// only task and exits 0.
func TestWorkerOnce(t *testing.T) {
	url := natstest.Run(t)
	dir := t.TempDir()
	names, ops := writeOperands(t, dir, []int{3, 4}, []int{4})
	out := filepath.Join(dir, "out.npy")
	var wg sync.WaitGroup
	var wcode int
	var werr string
	wg.Go(func() { wcode, _, werr = runCLI(t, "worker", "--nats", url, "--once") })
	code, _, errs := runCLI(t, append([]string{"contract", "--nats", url, "--quiet", "-o", out, "ij,j->i"}, names...)...)
	wg.Wait()
	if code != 0 || wcode != 0 {
		t.Fatalf("contract exit %d: %s; worker exit %d: %s", code, errs, wcode, werr)
	}
	if errs != "" || !strings.Contains(werr, "slices [0, 1) done") {
		t.Errorf("contract --quiet printed %q; worker printed %q", errs, werr)
	}
	checkOutput(t, out, "ij,j->i", ops)
}

// TestContractWorkerFailure removes an operand from the object store after
// the tasks are out: the worker reports it, and contract exits 1 naming it.
func TestContractWorkerFailure(t *testing.T) {
	url := natstest.Run(t)
	dir := t.TempDir()
	names, _ := writeOperands(t, dir, []int{3, 4}, []int{4, 2})
	nc, js, err := distributed.Connect(context.Background(), url, "test", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	var wg sync.WaitGroup
	var code int
	var errs string
	wg.Go(func() {
		code, _, errs = runCLI(t, append([]string{"contract", "--nats", url, "--timeout", "20s", "-o", filepath.Join(dir, "out.npy"), "ij,jk->ik"}, names...)...)
	})
	// Wait for the task, then remove the second operand.
	ctx := context.Background()
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		if time.Since(start) > 10*time.Second {
			t.Fatal("no task was published")
		}
		if s, err := js.Stream(ctx, distributed.TaskStream); err == nil {
			if info, err := s.Info(ctx); err == nil && info.State.Msgs > 0 {
				break
			}
		}
	}
	obs, err := js.ObjectStore(ctx, distributed.Bucket)
	if err != nil {
		t.Fatal(err)
	}
	infos, err := obs.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, info := range infos {
		if strings.HasSuffix(info.Name, "/operand-1.npy") {
			if err := obs.Delete(ctx, info.Name); err != nil {
				t.Fatal(err)
			}
		}
	}
	wcode, _, werr := runCLI(t, "worker", "--nats", url, "--once")
	wg.Wait()
	if code != 1 || !strings.Contains(errs, "operand 1") || !strings.Contains(errs, "not in the object store") {
		t.Errorf("contract: exit %d, stderr %q; want 1 naming the missing operand", code, errs)
	}
	if wcode != 1 || !strings.Contains(werr, "not in the object store") {
		t.Errorf("worker --once: exit %d, stderr %q; want 1 naming the missing operand", wcode, werr)
	}
}

// TestDistributedUnreachable checks that both commands give up on a server
// that does not answer within --connect-timeout, with exit status 1.
func TestDistributedUnreachable(t *testing.T) {
	dir := t.TempDir()
	names, _ := writeOperands(t, dir, []int{2, 2}, []int{2, 2})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "nats://" + l.Addr().String()
	l.Close()
	silent, err := net.Listen("tcp", "127.0.0.1:0") // accepts, never answers
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	for _, url := range []string{closed, "nats://" + silent.Addr().String()} {
		for _, args := range [][]string{
			append([]string{"contract", "--nats", url, "--connect-timeout", "500ms", "-o", filepath.Join(dir, "o.npy"), "ij,jk->ik"}, names...),
			{"worker", "--nats", url, "--connect-timeout", "500ms"},
		} {
			start := time.Now()
			code, _, errs := runCLI(t, args...)
			if d := time.Since(start); code != 1 || !strings.Contains(errs, "cannot connect to NATS at "+url) || d > 5*time.Second {
				t.Errorf("%s at %s: exit %d after %v, stderr %q", args[0], url, code, d, errs)
			}
		}
	}
}

func TestDistributedBadInput(t *testing.T) {
	dir := t.TempDir()
	names, _ := writeOperands(t, dir, []int{2, 3}, []int{3, 2})
	out := filepath.Join(dir, "o.npy")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"contract", "ij,jk->ik", names[0], names[1]}, "missing -o"},
		{[]string{"contract", "-o", out, "ij,jk->ik"}, "at least one IN.npy"},
		{[]string{"contract", "-o", out, "--memory-limit", "lots", "ij,jk->ik", names[0], names[1]}, "--memory-limit"},
		{[]string{"contract", "-o", out, "--slices-per-task", "-2", "ij,jk->ik", names[0], names[1]}, "--slices-per-task"},
		{[]string{"contract", "-o", out, "ij,jk->ik", names[0], filepath.Join(dir, "none.npy")}, "no such file"},
		{[]string{"contract", "-o", out, "ij,ij->", names[0], names[1]}, "tenferro contract: "},
		{[]string{"contract", "-o", out, "--memory-limit", "1", "ij,jk,kl->il", names[0], names[1], names[0]}, "smallest peak"},
		{[]string{"worker", "--threads", "0"}, "--threads"},
		{[]string{"worker", "--ack-wait", "1ms"}, "--ack-wait"},
		{[]string{"worker", "--max-deliver", "0"}, "--max-deliver"},
		{[]string{"worker", "extra"}, "expected no arguments"},
	} {
		code, _, errs := runCLI(t, c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 naming %q", c.args, code, errs, c.want)
		}
	}
	for _, cmd := range []string{"contract", "worker"} {
		if code, _, _ := runCLI(t, cmd, "--help"); code != 0 {
			t.Errorf("%s --help: exit %d", cmd, code)
		}
	}
}
