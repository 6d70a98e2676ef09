package report_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pilotagekit/pilotagekit/internal/needtool"
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/probe"
	"github.com/pilotagekit/pilotagekit/lint/report"
)

// probedRun lints two probed snapshots of the testdata server: a clean
// one and one whose unknown guide id draws the wrong kind.
func probedRun(t *testing.T) *report.Run {
	t.Helper()
	return fixtureRun(t, "good.json", "bad-kind.json", "bad-timeout.json")
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
		Suppressed    int `json:"suppressed_calls"`
		Unjudged      int `json:"unjudged_calls"`
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
	// The fixtures predate probe_skips: what they did not send, they do
	// not say why, and the coverage says so rather than calling it not
	// applicable.
	if !strings.Contains(text, "probe coverage: 7 of 52 official server vectors probed (4 passed, 2 failed, 1 partly probed), 0 not applicable, 27 not sent, 3 judged offline, 7 judged only from recorded calls, 8 need a setup no probe may create; 12 probe calls, 2 failed, 1 not answered\n") {
		t.Errorf("text lacks the coverage line:\n%s", text)
	}
	var doc jsonReport
	if err := json.Unmarshal(render(t, "json", run), &doc); err != nil {
		t.Fatal(err)
	}
	if c := doc.Coverage; c == nil || c.Calls != 12 || c.FailedCalls != 2 || c.Passed != 4 || c.Failed != 2 || c.NotApplicable != 0 ||
		c.Total != 52 || c.NeedsRun != 0 || c.Offline != 3 || c.Recorded != 7 || c.Setup != 8 {
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
		// data: or an anchor of the page, and the policy forbids fetching
		// anyway.
		if m := regexp.MustCompile(`(?i)(src|href)\s*=\s*"(?:[^d#"]|d[^a])`).FindString(page); m != "" {
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

// chromium returns the path of a Chromium binary, or skips the test (fails
// it with PILOTAGEKIT_REQUIRE_TOOLS set).
func chromium(t *testing.T) string {
	t.Helper()
	return needtool.Path(t, "apt-get install chromium", "chromium", "chromium-browser")
}

// openInChromium loads page in headless Chromium with a 1280 px wide
// window and returns the DOM after the page's script ran; every console
// message fails the test.
func openInChromium(t *testing.T, browser string, page []byte) string {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "report.html")
	if err := os.WriteFile(path, page, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--enable-logging=stderr", "--v=0",
		"--window-size=1280,900", "--hide-scrollbars",
		"--dump-dom", "file://"+path)
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
	return stdout.String()
}

// pageCheck reads the figures the page's script recounted.
func pageCheck(t *testing.T, dom string) map[string]int {
	t.Helper()
	m := regexp.MustCompile(`<p id="check"[^>]*>([^<]*)</p>`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("the page's script did not run:\n%.2000s", dom)
	}
	var got map[string]int
	if err := json.Unmarshal([]byte(strings.ReplaceAll(m[1], "&quot;", `"`)), &got); err != nil {
		t.Fatalf("%v: %s", err, m[1])
	}
	return got
}

// TestHTMLInChromium opens the page in headless Chromium: it must load
// without console messages, and the figures its script recounts from the
// rows must match the JSON report.
func TestHTMLInChromium(t *testing.T) {
	browser := chromium(t)
	suppressed := coverRun([]string{"trace-unknown-run", "trace-refused-run"}, nil, []lint.Finding{finding("result-not-found-distinguishable", lint.Error, "/calls/1/result")}, "")
	for name, run := range map[string]*report.Run{"probed": probedRun(t), "plain": sampleRun(t), "unjudged": fixtureRun(t, "good-structural-fault.json"), "suppressed": suppressed} {
		t.Run(name, func(t *testing.T) {
			dom := openInChromium(t, browser, render(t, "html", run))
			got := pageCheck(t, dom)
			var doc jsonReport
			if err := json.Unmarshal(render(t, "json", run), &doc); err != nil {
				t.Fatal(err)
			}
			want := map[string]int{"errors": doc.Summary.Errors, "warnings": doc.Summary.Warnings, "infos": doc.Summary.Infos, "overflow": 0}
			if c := doc.Coverage; c != nil {
				want["vectors_passed"], want["vectors_failed"], want["vectors_not_applicable"] = c.Passed, c.Failed, c.NotApplicable
				want["calls"], want["failed_calls"] = c.Calls, c.FailedCalls
				want["suppressed_calls"], want["unjudged_calls"] = c.Suppressed, c.Unjudged
			} else {
				for _, k := range []string{"vectors_passed", "vectors_failed", "vectors_not_applicable", "calls", "failed_calls", "suppressed_calls", "unjudged_calls"} {
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
				if !strings.Contains(dom, `id="`+id+`">`+itoa(v)+`<`) {
					t.Errorf("figure %s is not %d", id, v)
				}
			}
		})
	}
}

// longLineRun is a probed run whose recorded answer is one line of 5,000
// characters without a space, with a finding in that call whose message
// and pointer are long too, over two snapshots.
func longLineRun() *report.Run {
	long := strings.Repeat("x", 5000)
	answer := json.RawMessage(`{"content":[{"type":"text","text":"` + long + `"}],"isError":true}`)
	pr := probe.Set[0]
	res := &lint.Result{
		Files: []lint.FileInfo{{Path: "snapshots/pilotage-harborview.json", Kind: "snapshot", Server: "harborview", ServerVersion: "2.4.0",
			ProbeSkips: []byte(`[{"name": "catalog-list", "language": "buildingflow/1", "kind": "undeclared", "reason": "the Language declares no catalog"}]`)}, {Path: "snapshots/pilotage-other.json", Kind: "snapshot"}},
		Findings: []lint.Finding{
			{Rule: "probe-expectation", Severity: lint.Error, File: "snapshots/pilotage-harborview.json", Line: 3, Column: 5, EndLine: 3, EndColumn: 9, Pointer: "/calls/0/result/content/0/text/" + long[:300], Message: "the answer `" + long[:2000] + "` is **not** what " + pr.Spec + " asks", Spec: pr.Spec},
			{Rule: "manifest-version-outdated", Severity: lint.Info, File: "snapshots/pilotage-harborview.json", Line: 1, Column: 1, EndLine: 1, EndColumn: 2, Pointer: "", Message: "info", Spec: "Part II §11"},
			{Rule: "json-syntax", Severity: lint.Error, File: "snapshots/pilotage-other.json", Line: 1, Column: 1, EndLine: 1, EndColumn: 2, Message: "broken", Spec: "RFC 8259 §2, §10"},
		},
	}
	calls := []probe.Call{
		{File: "snapshots/pilotage-harborview.json", Pointer: "/calls/1", Probe: pr, Language: "buildingflow/1", Tool: "pilotage_get_guide", Arguments: json.RawMessage(`{"language":"buildingflow/1"}`), Answer: json.RawMessage(`{"content":[]}`), AnswerKind: "result"},
		{File: "snapshots/pilotage-harborview.json", Pointer: "/calls/0", Probe: pr, Language: "buildingflow/1", Tool: "pilotage_get_guide", Arguments: json.RawMessage(`{"language":"` + long[:1000] + `"}`), Answer: answer, AnswerKind: "result"},
	}
	return &report.Run{Tool: report.Tool{Name: "pilotage-lint", Version: "v1.2.3"}, Result: res, Probes: calls, Time: time.Date(2026, 12, 3, 21, 0, 0, 0, time.UTC)}
}

// TestHTMLReadable: the page names the server and the tool, failures come
// first and link to the failing call, passing probes fold away, a zero is
// not red, not applicable says why, Markdown renders, and each snapshot has
// its section.
func TestHTMLReadable(t *testing.T) {
	page := string(render(t, "html", longLineRun()))
	for _, want := range []string{
		"<title>pilotage-lint report: harborview</title>",
		`<p class="meta" id="meta">pilotage-lint v1.2.3 · written 2026-12-03 21:00 UTC</p>`,
		"<h2>harborview 2.4.0 <small>(snapshots/pilotage-harborview.json)</small></h2>",
		"<h2>snapshots/pilotage-other.json</h2>",
		`<summary>1 passing probe call(s)</summary>`,
		`is <strong>not</strong> what`,
		"the answer <code>xxxx",
		`<div class="figure"><b id="cov-passed">0</b>passed</div>`,
		"catalog-list (buildingflow/1): the Language declares no catalog",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	// The failed call is shown before the passing ones, which are folded.
	failed, passing := strings.Index(page, `id="call-1" data-failed="true"`), strings.Index(page, `<details class="passing">`)
	if failed < 0 || passing < 0 || failed > passing {
		t.Errorf("failed call at %d, passing fold at %d", failed, passing)
	}
	// Errors come before infos in a file's findings.
	if e, i := strings.Index(page, `data-severity="error"`), strings.Index(page, `data-severity="info"`); e < 0 || i < 0 || e > i {
		t.Errorf("error row at %d, info row at %d", e, i)
	}
	if strings.Count(page, `<section class="file"`) != 2 {
		t.Errorf("want one section per snapshot")
	}
}

// TestHTMLLongLinesInChromium: a report of a response with a 5,000
// character line has no horizontal overflow in a 1280 px window, and no
// console message.
func TestHTMLLongLinesInChromium(t *testing.T) {
	browser := chromium(t)
	got := pageCheck(t, openInChromium(t, browser, render(t, "html", longLineRun())))
	if got["overflow"] != 0 || got["width"] < 1200 || got["width"] > 1280 {
		t.Errorf("overflow %d px at width %d", got["overflow"], got["width"])
	}
	if got["errors"] != 2 || got["calls"] != 2 || got["failed_calls"] != 1 {
		t.Errorf("figures %v", got)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// isErrorRun is a probed run whose failing answer holds 5,000 characters
// of text before its decisive "isError": true, with the finding on that
// member, and rules that carry their quotes.
func isErrorRun() *report.Run {
	var items []string
	for i := range 300 {
		items = append(items, `{"type":"text","text":"guide line `+strconv.Itoa(i)+`"}`)
	}
	answer := json.RawMessage(`{"content":[` + strings.Join(items, ",") + `],"structuredContent":{"kind":"unknown_guide"},"isError":true}`)
	pr := probe.Set[0]
	rule := &lint.Rule{ID: "probe-expectation", Severity: lint.Error, Spec: "Part III §7", Quote: "An unknown guide `id` is a request error."}
	res := &lint.Result{
		Files: []lint.FileInfo{{Path: "snapshots/pilotage-harborview.json", Kind: "snapshot", Server: "harborview", ServerVersion: "2.4.0"}},
		Findings: []lint.Finding{
			{Rule: rule.ID, Severity: lint.Error, File: "snapshots/pilotage-harborview.json", Line: 9, Column: 5, EndLine: 9, EndColumn: 9, Pointer: "/calls/0/result/isError", Message: "the server answered isError true", Spec: rule.Spec},
		},
	}
	calls := []probe.Call{{File: "snapshots/pilotage-harborview.json", Pointer: "/calls/0", Probe: pr, Language: "buildingflow/1", Tool: "pilotage_get_guide", Arguments: json.RawMessage(`{"language":"buildingflow/1","id":"no-such-guide"}`), Answer: answer, AnswerKind: "result"}}
	return &report.Run{Tool: report.Tool{Name: "pilotage-lint", Version: "v1.2.3"}, Result: res, Rules: []*lint.Rule{rule}, Probes: calls}
}

// TestHTMLServerExcerptQuote: the server's name and version head the page;
// the recorded response is an excerpt centred on the finding's pointer,
// whose member is marked, so a long answer's "isError": true is never cut
// off; and each finding shows the sentence its rule enforces. Before, the
// page opened with "pilotage-lint report", the response was the whole
// answer in a box that scrolled after 24rem, and only the probe's quote
// was shown.
func TestHTMLServerExcerptQuote(t *testing.T) {
	page := string(render(t, "html", isErrorRun()))
	for _, want := range []string{
		`<h1 id="server">harborview 2.4.0</h1>`,
		`<mark class="focus">  &#34;isError&#34;: true</mark>`,
		`… (`,
		`<blockquote class="quote">An unknown guide <code>id</code> is a request error.</blockquote>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, "guide line 0&#34;") || !strings.Contains(page, "guide line 299&#34;") {
		t.Error("the response was not cut to an excerpt ending at the finding")
	}
	// Several servers are all named; none, and the heading is the tool's.
	run := isErrorRun()
	run.Result.Files = append(run.Result.Files, lint.FileInfo{Path: "b.json", Server: "dock", ServerVersion: "1.0"}, lint.FileInfo{Path: "c.json", Server: "harborview", ServerVersion: "2.4.0"})
	if page := string(render(t, "html", run)); !strings.Contains(page, `<h1 id="server">harborview 2.4.0, dock 1.0</h1>`) {
		t.Error("two servers are not both named at the top")
	}
	if page := string(render(t, "html", sampleRun(t))); !strings.Contains(page, `<h1 id="server">pilotage-lint report</h1>`) {
		t.Error("a run naming no server has no heading")
	}
}

// TestHTMLFocusInChromium: in headless Chromium, the marked member of the
// failing call's response lies within its box, unscrolled.
func TestHTMLFocusInChromium(t *testing.T) {
	browser := chromium(t)
	got := pageCheck(t, openInChromium(t, browser, render(t, "html", isErrorRun())))
	if got["focus"] != 1 || got["focus_hidden"] != 0 || got["overflow"] != 0 {
		t.Errorf("focus %d, hidden %d, overflow %d", got["focus"], got["focus_hidden"], got["overflow"])
	}
}
