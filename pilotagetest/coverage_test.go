package pilotagetest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/internal/pilotserver"
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/probe"
	"github.com/pilotagekit/pilotagekit/lint/report"
	"github.com/pilotagekit/pilotagekit/lint/rules"
)

// TestCoverageAgrees: the figures pilotagetest gives for a server are the
// ones pilotage-lint's text, JSON and HTML reports give for the same
// recording, with and without --probe-run; and a probe that sent nothing
// says the recording's reason.
func TestCoverageAgrees(t *testing.T) {
	for _, run := range []bool{false, true} {
		t.Run(fmt.Sprintf("probe-run=%v", run), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s.json")
			opts := []Option{WriteSnapshot(path)}
			if run {
				opts = append(opts, ProbeRun(json.RawMessage(pilotserver.RunProgram)))
			}
			rep := inProcess(t, pilotserver.New(pilotserver.Config{Mode: "full"}), opts...)
			if rep.Coverage == nil {
				t.Fatal("no coverage")
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			res, err := lint.Run(context.Background(), []lint.Input{{Name: path, Data: data, Explicit: true}}, &lint.Options{Rules: rules.All()})
			if err != nil {
				t.Fatal(err)
			}
			r := &report.Run{Result: res, Rules: rules.All(), Probes: report.ProbesOf(res)}
			var text, js, html bytes.Buffer
			for f, w := range map[string]*bytes.Buffer{"text": &text, "json": &js, "html": &html} {
				if err := report.Write(w, f, r, report.TextOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			c := rep.Coverage
			if !strings.Contains(text.String(), c.String()) {
				t.Errorf("the text report's coverage differs from pilotagetest's:\n%s\nwant\n%s", text.String(), c.String())
			}
			var doc struct {
				Coverage *probe.Coverage `json:"coverage"`
			}
			if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			a, _ := json.Marshal(doc.Coverage)
			b, _ := json.Marshal(c)
			if !bytes.Equal(a, b) {
				t.Errorf("the JSON report's coverage differs from pilotagetest's:\n%s\n%s", a, b)
			}
			for id, n := range map[string]int{"cov-probed": c.Probed, "cov-passed": c.Passed, "cov-failed": c.Failed, "cov-na": c.NotApplicable, "cov-run": c.NeedsRun, "cov-calls": c.Calls} {
				if !regexp.MustCompile(`id="` + id + `">` + fmt.Sprint(n) + `<`).Match(html.Bytes()) {
					t.Errorf("the HTML figure %s is not %d", id, n)
				}
			}
			if run {
				return
			}
			// Without --probe-run, a run probe says so.
			for _, cs := range rep.Cases {
				if cs.Probe == "validate-program" && cs.Skipped != "not sent: toyflow/1: the Language declares no execute.test_run, the only way --probe-run runs a program; calc/1: needs --probe-run" {
					t.Errorf("validate-program skipped with %q", cs.Skipped)
				}
			}
		})
	}
}
