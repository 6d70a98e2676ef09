package rules_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
)

// harborviewTrue lists the findings the final Harborview sessions draw that
// are true; fixtures/calls/harborview/README.md explains each. Any other
// error on a conformant server's real calls is a false error.
var harborviewTrue = map[string]bool{}

// harborviewSnapshot reduces one recorded agent session to a snapshot
// document: the tool list the agent saw and every tool call with its
// arguments and result, in order.
func harborviewSnapshot(t *testing.T, transcript string) []byte {
	t.Helper()
	f, err := os.Open(transcript)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type call struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		Result    json.RawMessage `json:"result"`
	}
	var snap struct {
		Tools json.RawMessage `json:"tools"`
		Calls []call          `json:"calls"`
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var rec struct {
			Type   string          `json:"type"`
			Tools  json.RawMessage `json:"tools"`
			Tool   string          `json:"tool"`
			Args   json.RawMessage `json:"args"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		switch rec.Type {
		case "tools":
			snap.Tools = rec.Tools
		case "tool_result":
			snap.Calls = append(snap.Calls, call{rec.Tool, rec.Args, rec.Result})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		t.Fatal(err)
	}
	out.WriteByte('\n')
	return out.Bytes()
}

// TestHarborview keeps the snapshots of the final 1.1 Harborview sessions
// (testdata/reference/transcripts) in step with the transcripts, and holds
// them to no false error: the reference server is conformant.
func TestHarborview(t *testing.T) {
	transcripts, err := filepath.Glob("../../testdata/reference/transcripts/*2026-07-26*.jsonl")
	if err != nil || len(transcripts) == 0 {
		t.Fatalf("no final Harborview transcripts: %v", err)
	}
	for _, tr := range transcripts {
		provider, _, _ := strings.Cut(filepath.Base(tr), "-")
		fixture := filepath.Join(fixtureRoot, "calls", "harborview", "good-"+provider+".json")
		want := harborviewSnapshot(t, tr)
		if *update {
			if err := os.WriteFile(fixture, want, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile(fixture)
		if err != nil {
			t.Fatalf("missing snapshot (run go test ./lint/rules -run TestHarborview -update): %v", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not the reduction of %s (run with -update)", fixture, tr)
		}
		for _, f := range lintFixture(t, fixture) {
			if f.Severity == lint.Error && !harborviewTrue[f.Rule] {
				t.Errorf("%s:%d:%d: false error %s at %s: %s", fixture, f.Line, f.Column, f.Rule, f.Pointer, f.Message)
			}
		}
	}
}
