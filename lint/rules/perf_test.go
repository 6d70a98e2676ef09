package rules_test

import (
	"encoding/json"
	"os"
	"runtime"
	"testing"

	"github.com/pilotagekit/pilotagekit/internal/benchdata"
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules"
)

func lintBytes(b testing.TB, name string, data []byte) {
	opt := &lint.Options{Rules: rules.All()}
	_, fs := lint.LintFile(&lint.Input{Name: name, Data: data, Explicit: true}, opt)
	for _, f := range fs {
		if f.Rule == lint.InternalRule.ID {
			b.Fatal(f.Message)
		}
	}
}

func decodeBytes(b testing.TB, data []byte) {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		b.Fatal(err)
	}
}

func benchPair(b *testing.B, data []byte) {
	b.Run("lint", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			lintBytes(b, "bench.json", data)
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			decodeBytes(b, data)
		}
	})
}

func BenchmarkExample(b *testing.B) {
	data, err := os.ReadFile("../../fixtures/examples/good-server.snapshot.json")
	if err != nil {
		b.Fatal(err)
	}
	benchPair(b, data)
}

func BenchmarkTools1k(b *testing.B)   { benchPair(b, benchdata.Snapshot(1000, 200)) }
func BenchmarkTools10k(b *testing.B)  { benchPair(b, benchdata.Snapshot(10000, 200)) }
func BenchmarkTools100k(b *testing.B) { benchPair(b, benchdata.Snapshot(100000, 200)) }

// TestPerfBudget fails when linting a large input costs more than 5x
// decoding it with encoding/json in the same process, so a rule that is
// quadratic in the number of tools cannot land unnoticed. It compares
// ratios measured with testing.Benchmark, never absolute times.
func TestPerfBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("budget measurement skipped in -short mode")
	}
	data := benchdata.Snapshot(5000, 200)
	lintRes := testing.Benchmark(func(b *testing.B) {
		for b.Loop() {
			lintBytes(b, "budget.json", data)
		}
	})
	decRes := testing.Benchmark(func(b *testing.B) {
		for b.Loop() {
			decodeBytes(b, data)
		}
	})
	ratio := float64(lintRes.NsPerOp()) / float64(decRes.NsPerOp())
	t.Logf("lint %s, decode %s: ratio %.2f (budget 5.0)", lintRes, decRes, ratio)
	if ratio > 5 {
		t.Fatalf("linting %d bytes costs %.2fx decoding them; the budget is 5x: profile with go test -run '^$' -bench Tools10k -cpuprofile cpu.prof ./lint/rules", len(data), ratio)
	}
}

// TestMemoryBudget holds what linting a large listing allocates to a
// multiple of its size. Unlike time, allocation is the same on every
// machine, and on large inputs almost all of it stays live until the
// report, so it is what peak RSS follows (bench/RESULTS.md, row 4). The
// text itself is the caller's and is not counted; the nodes, their child
// slices and what the rules keep are.
func TestMemoryBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("memory measurement skipped in -short mode")
	}
	const budget = 1.5 // bytes allocated per input byte: 1.34 when written, 2.43 with the 88-byte node
	data := benchdata.Snapshot(5000, 200)
	lintBytes(t, "warm.json", data) // compiled schemas and shape instances are per process
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	lintBytes(t, "budget.json", data)
	runtime.ReadMemStats(&after)
	perByte := float64(after.TotalAlloc-before.TotalAlloc) / float64(len(data))
	t.Logf("%d bytes in, %d allocated: %.2f per input byte (budget %.1f)", len(data), after.TotalAlloc-before.TotalAlloc, perByte, budget)
	if perByte > budget {
		t.Fatalf("linting %d bytes allocates %.2f bytes per input byte; the budget is %.1f: profile with go test -run '^$' -bench Tools10k -memprofile mem.prof ./lint/rules", len(data), perByte, budget)
	}
}
