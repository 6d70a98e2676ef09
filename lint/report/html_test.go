package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/report"
	"github.com/pilotagekit/pilotagekit/lint/rules"
)

// probedRun lints two probed snapshots of the testdata server: a clean
// one and one whose unknown guide id draws the wrong kind.
func probedRun(t *testing.T) *report.Run {
	t.Helper()
	var ins []lint.Input
	for _, name := range []string{"good.json", "bad-kind.json", "bad-timeout.json"} {
		p := filepath.Join("..", "..", "fixtures", "probe", "probe-expectation", name)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		ins = append(ins, lint.Input{Name: name, Data: data, Explicit: true})
	}
	rs := rules.All()
	res, err := lint.Run(context.Background(), ins, &lint.Options{Rules: rs})
	if err != nil {
		t.Fatal(err)
	}
	return &report.Run{Tool: report.Tool{Name: "pilotage-lint", Version: "v1.2.3"}, Result: res, Rules: rs, Probes: report.ProbesOf(res)}
}

type jsonReport struct {
	Summary struct {
		Errors   int `json:"errors"`
		Warnings int `json:"warnings"`
		Infos    int `json:"infos"`
	} `json:"summary"`
	Coverage *struct {
		Calls         int `json:"calls"`
		FailedCalls   int `json:"failed_calls"`
		Passed        int `json:"vectors_passed"`
		Failed        int `json:"vectors_failed"`
		NotApplicable int `json:"vectors_not_applicable"`
		Total         int `json:"vectors_total"`
		NeedsRun      int `json:"vectors_need_probe_run"`
		Offline       int `json:"vectors_offline"`
		Recorded      int `json:"vectors_recorded"`
		Setup         int `json:"vectors_need_setup"`
	} `json:"coverage"`
}

func TestCoverageInTextAndJSON(t *testing.T) {
	run := probedRun(t)
	text := string(render(t, "text", run))
	if !strings.Contains(text, "probe coverage: 8 of 52 official server vectors probed (6 passed, 2 failed), 16 not applicable, 10 need --probe-run, 3 judged offline, 7 judged only from recorded calls, 8 need a setup no probe may create; 12 probe calls, 2 failed\n") {
		t.Errorf("text lacks the coverage line:\n%s", text)
	}
	var doc jsonReport
	if err := json.Unmarshal(render(t, "json", run), &doc); err != nil {
		t.Fatal(err)
	}
	if c := doc.Coverage; c == nil || c.Calls != 12 || c.FailedCalls != 2 || c.Passed != 6 || c.Failed != 2 || c.NotApplicable != 16 ||
		c.Total != 52 || c.NeedsRun != 10 || c.Offline != 3 || c.Recorded != 7 || c.Setup != 8 {
		t.Errorf("json coverage: %+v", doc.Coverage)
	}
	// A run without probe calls says nothing about them.
	if strings.Contains(string(render(t, "json", sampleRun(t))), "coverage") || strings.Contains(string(render(t, "text", sampleRun(t))), "probe coverage") {
		t.Error("a run without probes reports coverage")
	}
}

func TestHTMLSelfContained(t *testing.T) {
	for _, run := range []*report.Run{probedRun(t), sampleRun(t), awkwardRun()} {
		page := string(render(t, "html", run))
		// Nothing may be fetched: no URL attribute points anywhere but
		// data:, and the policy forbids fetching anyway.
		if m := regexp.MustCompile(`(?i)(src|href)\s*=\s*"(?:[^d"]|d[^a])`).FindString(page); m != "" {
			t.Errorf("the page references %s", m)
		}
		if !strings.Contains(page, "default-src 'none'") {
			t.Error("no content security policy")
		}
		if strings.Contains(page, "<c>") {
			t.Error("a message was not escaped")
		}
	}
	page := string(render(t, "html", probedRun(t)))
	for _, want := range []string{"PIL-LEARN-UNKNOWN-ID-B", "guide-unknown-id", "learn: pilotage_get_guide", "pilotage-probe-no-such-guide", "&#34;invalid_request&#34;"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// TestHTMLInChromium opens the page in headless Chromium: it must load
// without console messages, and the figures its script recounts from the
// rows must match the JSON report.
func TestHTMLInChromium(t *testing.T) {
	browser := ""
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		if os.Getenv("PILOTAGEKIT_REQUIRE_TOOLS") != "" {
			t.Fatal("chromium is not installed (apt-get install chromium)")
		}
		t.Skip("chromium is not installed (apt-get install chromium)")
	}
	for name, run := range map[string]*report.Run{"probed": probedRun(t), "plain": sampleRun(t)} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			page := filepath.Join(dir, "report.html")
			if err := os.WriteFile(page, render(t, "html", run), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
				"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
				"--user-data-dir="+filepath.Join(dir, "profile"), "--enable-logging=stderr", "--v=0",
				"--dump-dom", "file://"+page)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("chromium: %v\n%s", err, stderr.String())
				}
			case <-time.After(60 * time.Second):
				_ = cmd.Process.Kill()
				<-done
				t.Fatal("chromium did not finish in 60s")
			}
			for _, line := range strings.Split(stderr.String(), "\n") {
				if strings.Contains(line, ":CONSOLE") {
					t.Errorf("console message: %s", line)
				}
			}
			m := regexp.MustCompile(`<p id="check"[^>]*>([^<]*)</p>`).FindStringSubmatch(stdout.String())
			if m == nil {
				t.Fatalf("the page's script did not run:\n%.2000s", stdout.String())
			}
			var got map[string]int
			if err := json.Unmarshal([]byte(strings.ReplaceAll(m[1], "&quot;", `"`)), &got); err != nil {
				t.Fatalf("%v: %s", err, m[1])
			}
			var doc jsonReport
			if err := json.Unmarshal(render(t, "json", run), &doc); err != nil {
				t.Fatal(err)
			}
			want := map[string]int{"errors": doc.Summary.Errors, "warnings": doc.Summary.Warnings, "infos": doc.Summary.Infos}
			if c := doc.Coverage; c != nil {
				want["vectors_passed"], want["vectors_failed"], want["vectors_not_applicable"] = c.Passed, c.Failed, c.NotApplicable
				want["calls"], want["failed_calls"] = c.Calls, c.FailedCalls
			} else {
				for _, k := range []string{"vectors_passed", "vectors_failed", "vectors_not_applicable", "calls", "failed_calls"} {
					want[k] = 0
				}
			}
			for k, v := range want {
				if got[k] != v {
					t.Errorf("%s: the page shows %d, the JSON report %d", k, got[k], v)
				}
			}
			// The figures printed at the top agree too.
			for id, v := range map[string]int{"sum-errors": want["errors"], "sum-warnings": want["warnings"], "sum-infos": want["infos"]} {
				if !strings.Contains(stdout.String(), `id="`+id+`">`+itoa(v)+`<`) {
					t.Errorf("figure %s is not %d", id, v)
				}
			}
		})
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
