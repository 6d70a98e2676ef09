package report_test

import (
	"encoding/json"
	"encoding/xml"
	"reflect"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/probe"
	"github.com/pilotagekit/pilotagekit/lint/report"
)

// probeNoteRun has one finding per place a pointer can sit: inside a probe
// call with a vector (reported by a rule other than probe-expectation),
// inside one without a vector, in a call that carries no probe tag, on a
// pointer that only looks like a call's prefix, and in another file.
func probeNoteRun() *report.Run {
	r := &lint.Rule{ID: "call-carrier-error-loop-fault", Severity: lint.Error, Spec: "Part III §7.1", Summary: "s", Doc: "d"}
	find := func(file, pointer string) lint.Finding {
		return lint.Finding{Rule: r.ID, Severity: lint.Error, File: file, Line: 1, Column: 1, EndLine: 1, EndColumn: 2, Pointer: pointer, Message: "m", Spec: r.Spec}
	}
	res := &lint.Result{
		Files: []lint.FileInfo{{Path: "s.json", Kind: "snapshot"}, {Path: "t.json", Kind: "snapshot"}},
		Findings: []lint.Finding{
			find("s.json", "/calls/1/error/code"),
			find("s.json", "/calls/2"),
			find("s.json", "/calls/0/result"),
			find("s.json", "/calls/10/result"),
			find("t.json", "/calls/1/error"),
		},
	}
	return &report.Run{Tool: report.Tool{Name: "pilotage-lint", Version: "v1.2.3"}, Result: res, Rules: []*lint.Rule{r}, Probes: []probe.Call{
		{File: "s.json", Pointer: "/calls/1", Probe: probe.UnknownTool, Language: "calc/1"},
		{File: "s.json", Pointer: "/calls/2", Probe: probe.ByName("catalog-get"), Language: "calc/1"},
	}}
}

const (
	unknownToolNote = " (probe unknown-tool, vector PIL-CARRIER-UNKNOWN-TOOL-B)"
	catalogGetNote  = " (probe catalog-get)"
)

func TestProbeNoteInText(t *testing.T) {
	got := string(render(t, "text", probeNoteRun()))
	want := "s.json:1:1: error call-carrier-error-loop-fault: m (Part III §7.1)" + unknownToolNote + "\n" +
		"s.json:1:1: error call-carrier-error-loop-fault: m (Part III §7.1)" + catalogGetNote + "\n" +
		"s.json:1:1: error call-carrier-error-loop-fault: m (Part III §7.1)\n" +
		"s.json:1:1: error call-carrier-error-loop-fault: m (Part III §7.1)\n" +
		"t.json:1:1: error call-carrier-error-loop-fault: m (Part III §7.1)\n"
	if !strings.HasPrefix(got, want) {
		t.Errorf("text:\n%s\nwant prefix:\n%s", got, want)
	}
}

func TestProbeObjectInJSON(t *testing.T) {
	var doc struct {
		Findings []struct {
			Probe *struct {
				Name, Vector, Language, Call string
			} `json:"probe"`
		} `json:"findings"`
	}
	out := render(t, "json", probeNoteRun())
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Findings) != 5 {
		t.Fatalf("%d findings", len(doc.Findings))
	}
	if p := doc.Findings[0].Probe; p == nil || *p != (struct{ Name, Vector, Language, Call string }{"unknown-tool", "PIL-CARRIER-UNKNOWN-TOOL-B", "calc/1", "/calls/1"}) {
		t.Errorf("first finding's probe %+v", p)
	}
	if p := doc.Findings[1].Probe; p == nil || p.Name != "catalog-get" || p.Vector != "" || p.Call != "/calls/2" {
		t.Errorf("second finding's probe %+v", p)
	}
	if !strings.Contains(string(out), `"name": "catalog-get",`+"\n") || strings.Contains(string(out), `"vector": ""`) {
		t.Errorf("a probe without a vector must omit the member:\n%s", out)
	}
	for i, f := range doc.Findings[2:] {
		if f.Probe != nil {
			t.Errorf("finding %d outside probe calls has probe %+v", i+2, f.Probe)
		}
	}
}

func TestProbePropertiesInSARIF(t *testing.T) {
	run := probeNoteRun()
	out := render(t, "sarif", run)
	validateSARIF(t, sarifSchema(t), out)
	var doc struct {
		Runs []struct {
			Results []struct {
				Message    struct{ Text string }
				Properties map[string]string `json:"properties"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	rs := doc.Runs[0].Results
	if len(rs) != 5 {
		t.Fatalf("%d results", len(rs))
	}
	if p := rs[0].Properties; p["probe"] != "unknown-tool" || p["vector"] != "PIL-CARRIER-UNKNOWN-TOOL-B" {
		t.Errorf("first result's properties %v", p)
	}
	if p := rs[1].Properties; p["probe"] != "catalog-get" || len(p) != 3 {
		t.Errorf("second result's properties %v", p)
	}
	for i, r := range rs[2:] {
		if len(r.Properties) != 2 {
			t.Errorf("result %d outside probe calls has properties %v", i+2, r.Properties)
		}
	}
}

func TestProbeNoteInGitHub(t *testing.T) {
	lines := strings.Split(strings.TrimSuffix(string(render(t, "github", probeNoteRun())), "\n"), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines", len(lines))
	}
	// The note sits before " at POINTER" and is data, so its comma stays.
	if !strings.HasSuffix(lines[0], "::m (Part III §7.1)"+unknownToolNote+" at /calls/1/error/code") {
		t.Errorf("line %q", lines[0])
	}
	if !strings.HasSuffix(lines[1], "::m (Part III §7.1)"+catalogGetNote+" at /calls/2") {
		t.Errorf("line %q", lines[1])
	}
	for _, l := range lines[2:] {
		if strings.Contains(l, "(probe ") {
			t.Errorf("line outside probe calls names a probe: %q", l)
		}
	}
}

func TestProbeNoteInJUnit(t *testing.T) {
	var doc report.JUnitSuites
	if err := xml.Unmarshal(render(t, "junit", probeNoteRun()), &doc); err != nil {
		t.Fatal(err)
	}
	var s, u *report.JUnitFailure
	for _, suite := range doc.Suites {
		for _, c := range suite.Cases {
			switch suite.Name {
			case "s.json":
				s = c.Failure
			case "t.json":
				u = c.Failure
			}
		}
	}
	if s == nil || u == nil {
		t.Fatalf("failures %+v %+v", s, u)
	}
	if s.Message != "4 findings; first: m"+unknownToolNote {
		t.Errorf("message %q", s.Message)
	}
	lines := strings.Split(strings.TrimSuffix(s.Text, "\n"), "\n")
	if len(lines) != 4 || !strings.HasSuffix(lines[0], `at "/calls/1/error/code"`+unknownToolNote) || !strings.HasSuffix(lines[1], `at "/calls/2"`+catalogGetNote) || strings.Contains(lines[2]+lines[3], "(probe ") {
		t.Errorf("failure text %q", s.Text)
	}
	if strings.Contains(u.Text, "(probe ") {
		t.Errorf("a finding in another file names a probe: %q", u.Text)
	}
}

// TestProbeNoteOnRealSnapshot: the probe-expectation finding of a recorded
// probe session names its probe once in text and carries it in JSON.
func TestProbeNoteOnRealSnapshot(t *testing.T) {
	run := probedRun(t)
	// probe-expectation's message already opens with its probe, so text
	// adds no note to it; JSON still carries the probe object.
	if text := string(render(t, "text", run)); !strings.Contains(text, "probe-expectation: probe guide-unknown-id (PIL-LEARN-UNKNOWN-ID-B)") || strings.Contains(text, "(probe guide-unknown-id, vector") {
		t.Errorf("text should name the probe once, in the message:\n%s", text)
	}
	if !strings.Contains(string(render(t, "json", run)), `"probe": {
        "name": "guide-unknown-id",
        "vector": "PIL-LEARN-UNKNOWN-ID-B",
        "language": "calc/1",
        "call": "/calls/0"
      }`) {
		t.Error("json lacks the probe object of bad-kind.json")
	}
}

// TestProbeRunNotRun: a --probe-run program the server refused is named,
// with the server's reason, in text, JSON and HTML, so that an empty set
// of run-based findings is not read as a pass.
func TestProbeRunNotRun(t *testing.T) {
	refused := json.RawMessage(`{"isError": false, "structuredContent": {"run_id": "r1", "outcome": {"ok": false, "status": "validation_error", "error": "invalid"}, "diagnostics": [{"severity": "error", "code": "input_binding", "path": "/n", "message": "n is required"}]}}`)
	run := &report.Run{Tool: report.Tool{Name: "pilotage-lint", Version: "v1.2.3"}, Result: &lint.Result{},
		Probes: []probe.Call{{File: "s.json", Pointer: "/calls/0", Probe: probe.ByName("execute-test-run"), Language: "calc/1", Tool: "run_calc", Answer: refused, AnswerKind: "result"}}}
	reason := `the server refused the Run with status validation_error ("invalid"): input_binding "n is required"`
	if text := string(render(t, "text", run)); !strings.Contains(text, "\nprobe-run: s.json: the program never ran on calc/1: "+reason+"; ") {
		t.Errorf("text:\n%s", text)
	}
	var doc struct {
		Coverage struct {
			NotRun []probe.NotRun `json:"not_run"`
		} `json:"coverage"`
	}
	if err := json.Unmarshal(render(t, "json", run), &doc); err != nil {
		t.Fatal(err)
	}
	if want := []probe.NotRun{{File: "s.json", Language: "calc/1", Reason: reason}}; !reflect.DeepEqual(doc.Coverage.NotRun, want) {
		t.Errorf("json not_run %+v, want %+v", doc.Coverage.NotRun, want)
	}
	if page := string(render(t, "html", run)); !strings.Contains(page, `class="fail not-run"`) || !strings.Contains(page, "never ran on calc/1") {
		t.Error("the html page does not say the program never ran")
	}
	// A program that ran draws no such line. (A new Run: a Run is not
	// changed once rendered, since its coverage is computed once.)
	ran := run.Probes[0]
	ran.Answer = json.RawMessage(`{"structuredContent": {"run_id": "r1", "outcome": {"ok": true, "status": "success", "error": null}}}`)
	run = &report.Run{Tool: run.Tool, Result: &lint.Result{}, Probes: []probe.Call{ran}}
	if text := string(render(t, "text", run)); strings.Contains(text, "probe-run:") {
		t.Errorf("a program that ran is reported as not run:\n%s", text)
	}
}
