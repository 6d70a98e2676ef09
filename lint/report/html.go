package report

import (
	"bytes"
	"encoding/json"
	"html/template"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/excerpt"
	"github.com/pilotagekit/pilotagekit/lint/probe"
)

type htmlCall struct {
	probe.Call
	// Verdict is the coverage's verdict on the call.
	Verdict             probe.Verdict
	ID                  string
	Findings            []htmlFinding
	Request, Response   template.HTML
	Stage, Vector, Spec string
	Quote               string
	// Unjudged says what a rule could not judge in the call, and why.
	Unjudged []string
}

// htmlFinding is a finding with the sentence its rule enforces.
type htmlFinding struct {
	lint.Finding
	Quote string
}

type htmlLanguage struct {
	Name string
	Loop []string
	// Failed come first, shown, then the calls not answered or not
	// judged, shown; Suppressed and Passed fold away.
	Failed, Unsettled, Suppressed, Passed []htmlCall
}

// htmlFile is one input's section: its server, findings and probes.
type htmlFile struct {
	Path, Server, ServerVersion string
	NoPilotage                  bool
	Findings                    []htmlFinding
	Languages                   []htmlLanguage
}

type htmlVector struct {
	probe.Vector
	// Link is the anchor of the first failed call of the vector.
	Link string
	// Why says why a probed vector did not pass or fail: the probes not
	// sent, answered or judged, and why.
	Why string
}

type htmlPage struct {
	Tool Tool
	// Servers names each server of the inputs, with its version, once,
	// for the top of the page.
	Servers  []string
	Written  string
	Summary  Summary
	Coverage *probe.Coverage
	Vectors  []htmlVector
	Files    []htmlFile
}

// stages orders the loop as Part II §6 does; a probe's stage is the prefix
// of its name.
var stages = []struct{ prefix, name string }{
	{"guide-", "learn"}, {"catalog-", "lookup"}, {"validate-", "validate"}, {"execute-", "execute"}, {"trace-", "trace"},
}

func stageOf(p *probe.Probe) string {
	for _, s := range stages {
		if strings.HasPrefix(p.Name, s.prefix) {
			return s.name
		}
	}
	return "carrier"
}

// excerptBytes bounds a request or response shown in a call's details:
// about twenty lines, so that the member a finding is about, at the
// centre of the window, is on screen without scrolling.
const excerptBytes = 1200

// shown renders raw indented, cut to a window centred on the value at
// pointer (relative to raw; "" for the start) by lint/excerpt, with the
// line where that value starts marked. A fixed cut from the start hid a
// long answer's "isError": true.
func shown(raw json.RawMessage, pointer string) template.HTML {
	if raw == nil {
		return "(no answer)"
	}
	text, focus := excerpt.IndentedAt(raw, pointer, excerptBytes)
	var b strings.Builder
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		if i == focus {
			b.WriteString(`<mark class="focus">` + template.HTMLEscapeString(line) + `</mark>`)
			continue
		}
		b.WriteString(template.HTMLEscapeString(line))
	}
	return template.HTML(b.String())
}

// focus picks the pointer, relative to the recorded value at base, of the
// most severe finding inside it; "" when none is.
func focus(fs []htmlFinding, base string) string {
	best, ptr := lint.Severity(-1), ""
	for _, f := range fs {
		if rel, ok := strings.CutPrefix(f.Pointer, base); ok && (rel == "" || strings.HasPrefix(rel, "/")) && f.Severity > best {
			best, ptr = f.Severity, rel
		}
	}
	return ptr
}

// HTML writes one self-contained page: no script or style comes from
// elsewhere and the content security policy forbids every fetch, so the
// page opens the same offline, from a CI artifact or a mail attachment.
// It is headed by the servers' names and versions, puts failures first
// (failed vectors link to the failing call, with its findings, each with
// its rule's quote, and the request and response cut around the finding),
// folds passing probes away, and gives each input its own section.
func HTML(w io.Writer, run *Run) error {
	page := htmlPage{Tool: run.Tool, Summary: Summarize(run.Result), Coverage: run.coverage()}
	if !run.Time.IsZero() {
		page.Written = run.Time.UTC().Format("2006-01-02 15:04 UTC")
	}
	quotes := map[string]string{}
	for _, r := range run.Rules {
		if r.Quote != "" {
			quotes[r.ID] = r.Quote
		}
	}
	withQuote := func(f lint.Finding) htmlFinding { return htmlFinding{Finding: f, Quote: quotes[f.Rule]} }
	fileIdx := map[string]int{}
	for _, fi := range run.Result.Files {
		fileIdx[fi.Path] = len(page.Files)
		page.Files = append(page.Files, htmlFile{Path: fi.Path, Server: fi.Server, ServerVersion: fi.ServerVersion, NoPilotage: fi.NoPilotage})
		if fi.Server != "" {
			name := strings.TrimSpace(fi.Server + " " + fi.ServerVersion)
			if !containsString(page.Servers, name) {
				page.Servers = append(page.Servers, name)
			}
		}
	}
	file := func(path string) *htmlFile {
		i, ok := fileIdx[path]
		if !ok {
			i = len(page.Files)
			fileIdx[path] = i
			page.Files = append(page.Files, htmlFile{Path: path})
		}
		return &page.Files[i]
	}
	// The findings inside each probe call, found in one pass.
	inCall := map[[2]string][]htmlFinding{}
	for _, f := range run.Result.Findings {
		hf := file(f.File)
		hf.Findings = append(hf.Findings, withQuote(f))
		if call := probe.CallOf(f.Pointer); call != "" {
			k := [2]string{f.File, call}
			inCall[k] = append(inCall[k], withQuote(f))
		}
	}
	for i := range page.Files {
		// Failures first: errors, then warnings, then infos, each in
		// file order.
		sort.SliceStable(page.Files[i].Findings, func(a, b int) bool {
			return page.Files[i].Findings[a].Severity > page.Files[i].Findings[b].Severity
		})
	}
	type langKey struct{ file, lang string }
	langIdx := map[langKey]int{}
	unjudged := map[[2]string][]string{}
	for _, fi := range run.Result.Files {
		for _, u := range fi.Unjudged {
			if call := probe.CallOf(u.Pointer); call != "" {
				k := [2]string{fi.Path, call}
				unjudged[k] = append(unjudged[k], u.What)
			}
		}
	}
	// idOf is each call's anchor, by file and pointer.
	idOf := map[[2]string]string{}
	for n, c := range run.Probes {
		hf := file(c.File)
		key := langKey{c.File, c.Language}
		i, ok := langIdx[key]
		if !ok {
			name := c.Language
			if name == "" {
				name = "server-wide"
			}
			hf.Languages = append(hf.Languages, htmlLanguage{Name: name})
			i = len(hf.Languages) - 1
			langIdx[key] = i
		}
		l := &hf.Languages[i]
		hc := htmlCall{Call: c, ID: "call-" + strconv.Itoa(n), Stage: stageOf(c.Probe), Vector: c.Probe.Vector, Spec: c.Probe.Spec, Quote: c.Probe.Quote,
			Findings: inCall[[2]string{c.File, c.Pointer}], Unjudged: unjudged[[2]string{c.File, c.Pointer}]}
		if page.Coverage != nil {
			hc.Verdict = page.Coverage.Verdict(c.File, c.Pointer)
		}
		idOf[[2]string{c.File, c.Pointer}] = hc.ID
		if hc.Vector == "" {
			hc.Vector = "—"
		}
		// Each excerpt is centred on the most severe finding inside it.
		request := json.RawMessage(`{"name":` + string(mustMarshal(c.Tool)) + `,"arguments":` + string(orEmpty(c.Arguments)) + `}`)
		reqFocus := ""
		if p := focus(hc.Findings, c.Pointer+"/arguments"); p != "" || hasFindingAt(hc.Findings, c.Pointer+"/arguments") {
			reqFocus = "/arguments" + p
		}
		hc.Request = shown(request, reqFocus)
		respFocus := ""
		if c.AnswerKind == "result" || c.AnswerKind == "error" {
			respFocus = focus(hc.Findings, c.Pointer+"/"+c.AnswerKind)
		}
		hc.Response = shown(c.Answer, respFocus)
		step := hc.Stage + ": " + c.Tool
		if !containsString(l.Loop, step) && hc.Stage != "carrier" {
			l.Loop = append(l.Loop, step)
		}
		switch hc.Verdict {
		case probe.VerdictFailed:
			l.Failed = append(l.Failed, hc)
		case probe.VerdictUnanswered, probe.VerdictUnjudged:
			l.Unsettled = append(l.Unsettled, hc)
		case probe.VerdictSuppressed:
			l.Suppressed = append(l.Suppressed, hc)
		default:
			l.Passed = append(l.Passed, hc)
		}
	}
	if page.Coverage != nil {
		rank := map[string]int{"failed": 0, "passed": 1}
		for _, v := range page.Coverage.Vectors {
			file, call := v.FailedAt()
			hv := htmlVector{Vector: v, Link: idOf[[2]string{file, call}]}
			hv.Why = strings.Join(v.Why, "; ")
			page.Vectors = append(page.Vectors, hv)
		}
		sort.SliceStable(page.Vectors, func(a, b int) bool {
			ra, ok := rank[page.Vectors[a].Status]
			if !ok {
				ra = 2
			}
			rb, ok := rank[page.Vectors[b].Status]
			if !ok {
				rb = 2
			}
			return ra < rb
		})
	}
	return htmlTemplate().Execute(w, page)
}

// markdown renders the little Markdown that rule and spec text use
// (`code` spans, **strong**, *emphasis*) as HTML, escaping everything
// else, so a quote reads as text rather than as raw Markdown.
func markdown(s string) template.HTML {
	var b strings.Builder
	parts := strings.Split(s, "`")
	for i, part := range parts {
		if i%2 == 1 && i < len(parts)-1 {
			b.WriteString("<code>" + template.HTMLEscapeString(part) + "</code>")
			continue
		}
		if i%2 == 1 {
			part = "`" + part // an unpaired backtick stays
		}
		b.WriteString(emphasis(template.HTMLEscapeString(part)))
	}
	return template.HTML(b.String())
}

// emphasis turns **x** into <strong>x</strong> in escaped text.
func emphasis(s string) string {
	for {
		i := strings.Index(s, "**")
		if i < 0 {
			return s
		}
		j := strings.Index(s[i+2:], "**")
		if j < 0 {
			return s
		}
		s = s[:i] + "<strong>" + s[i+2:i+2+j] + "</strong>" + s[i+2+j+2:]
	}
}

// badge is the style class of a call's verdict.
func badge(v probe.Verdict) string {
	switch v {
	case probe.VerdictFailed:
		return "fail"
	case probe.VerdictSuppressed:
		return "suppressed"
	case probe.VerdictUnjudged:
		return "unjudged"
	case probe.VerdictUnanswered:
		return "unanswered"
	}
	return "pass"
}

// hasFindingAt reports whether a finding sits exactly at pointer.
func hasFindingAt(fs []htmlFinding, pointer string) bool {
	for _, f := range fs {
		if f.Pointer == pointer {
			return true
		}
	}
	return false
}

func mustMarshal(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

func orEmpty(raw json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(raw)) == 0 {
		return json.RawMessage("{}")
	}
	return raw
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// htmlTemplate is parsed on the first HTML report: parsing it at package
// initialisation cost every run about 0.6 M instructions, and only
// --format html uses it.
var htmlTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Funcs(template.FuncMap{"md": markdown, "badge": badge}).Parse(htmlSource))
})

const htmlSource = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>pilotage-lint report{{range .Files}}{{if .Server}}: {{.Server}}{{end}}{{end}}</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; color: #1d232a; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.15rem; margin-top: 2rem; } h3 { font-size: 1rem; }
.meta { color: #57606a; }
.figures { display: flex; gap: 1rem; flex-wrap: wrap; }
.figure { border: 1px solid #d0d7de; border-radius: 6px; padding: .5rem 1rem; min-width: 7rem; }
.figure b { display: block; font-size: 1.5rem; }
/* Long recorded lines wrap or scroll inside their cell: a table never
   grows past the page. */
table { border-collapse: collapse; width: 100%; margin: .5rem 0; table-layout: fixed; }
th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid #eaeef2; vertical-align: top; overflow-wrap: anywhere; min-width: 0; }
.pass { color: #1a7f37; font-weight: 600; } .fail { color: #cf222e; font-weight: 600; }
.suppressed, .unjudged, .unanswered { color: #9a6700; font-weight: 600; }
.error { color: #cf222e; } .warning { color: #9a6700; } .info { color: #0969da; }
.loop { font-family: ui-monospace, monospace; color: #57606a; }
/* A recorded request or response is an excerpt of about twenty lines
   centred on the finding (lint/excerpt), so the box need not scroll. */
pre { background: #f6f8fa; padding: .5rem; overflow: auto; max-width: 100%; white-space: pre-wrap; overflow-wrap: anywhere; }
mark.focus { background: #fff8c5; }
code { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
blockquote { margin: .3rem 0; padding-left: .8rem; border-left: 3px solid #d0d7de; color: #57606a; }
section.file { border-top: 2px solid #d0d7de; margin-top: 2rem; }
</style>
</head>
<body>
<h1 id="server">{{if .Servers}}{{range $i, $s := .Servers}}{{if $i}}, {{end}}{{$s}}{{end}}{{else}}pilotage-lint report{{end}}</h1>
{{if .Servers}}<p class="meta">pilotage-lint report</p>{{end}}
<p class="meta" id="meta">{{.Tool.Name}} {{.Tool.Version}}{{with .Written}} · written {{.}}{{end}}</p>
<div class="figures" id="summary">
<div class="figure{{if .Summary.Errors}} error{{end}}"><b id="sum-errors">{{.Summary.Errors}}</b>errors</div>
<div class="figure{{if .Summary.Warnings}} warning{{end}}"><b id="sum-warnings">{{.Summary.Warnings}}</b>warnings</div>
<div class="figure"><b id="sum-infos">{{.Summary.Infos}}</b>infos</div>
<div class="figure"><b id="sum-files">{{.Summary.Files}}</b>files</div>
</div>
{{with .Coverage}}
<h2>Conformance probe</h2>
<div class="figures" id="coverage">
<div class="figure"><b id="cov-probed">{{.Probed}}</b>of <b id="cov-total">{{.Total}}</b> official server vectors probed</div>
<div class="figure{{if .Passed}} pass{{end}}"><b id="cov-passed">{{.Passed}}</b>passed</div>
<div class="figure{{if .Failed}} fail{{end}}"><b id="cov-failed">{{.Failed}}</b>failed</div>
{{if .Suppressed}}<div class="figure"><b id="cov-suppressed">{{.Suppressed}}</b>suppressed</div>
{{end}}{{if .Partial}}<div class="figure"><b id="cov-partial">{{.Partial}}</b>partly probed</div>
{{end}}{{if .Unanswered}}<div class="figure fail"><b id="cov-unanswered">{{.Unanswered}}</b>not answered</div>
{{end}}<div class="figure"><b id="cov-na">{{.NotApplicable}}</b>not applicable</div>
<div class="figure"><b id="cov-run">{{.NeedsRun}}</b>need --probe-run</div>
{{if .NotSent}}<div class="figure"><b id="cov-not-sent">{{.NotSent}}</b>not sent</div>
{{end}}
<div class="figure"><b id="cov-offline">{{.Offline}}</b>judged offline</div>
<div class="figure"><b id="cov-recorded">{{.Recorded}}</b>judged from recorded calls</div>
<div class="figure"><b id="cov-setup">{{.Setup}}</b>need setup</div>
<div class="figure"><b id="cov-calls">{{.Calls}}</b>probe calls</div>
{{if .UnjudgedCalls}}<div class="figure"><b id="cov-unjudged-calls">{{.UnjudgedCalls}}</b>probe calls not judged</div>
{{end}}
</div>
{{range .NotRun}}<p class="fail not-run">The --probe-run program never ran on {{.Language}} ({{.File}}): {{.Reason}}.</p>
{{end}}{{end}}
{{if .Vectors}}<table id="vectors"><colgroup><col style="width:26%"><col style="width:30%"><col style="width:22%"><col style="width:22%"></colgroup><tr><th>Vector</th><th>Status</th><th>Probes</th><th>Decided by</th></tr>
{{range .Vectors}}<tr class="vector" data-status="{{.Status}}"><td><code>{{.ID}}</code></td><td class="{{if eq .Status "passed"}}pass{{else if eq .Status "failed"}}fail{{end}}">{{if .Link}}<a href="#{{.Link}}">{{.Status}}</a>{{else}}{{.Status}}{{end}}{{with .Why}}<br><small class="why">{{.}}</small>{{end}}</td><td>{{range $i, $p := .Probes}}{{if $i}}, {{end}}{{$p}}{{end}}</td><td>{{range $i, $r := .Rules}}{{if $i}}, {{end}}<code>{{$r}}</code>{{end}}</td></tr>
{{end}}</table>{{end}}
{{range $fi, $f := .Files}}
<section class="file" id="file-{{$fi}}">
<h2>{{if .Server}}{{.Server}}{{with .ServerVersion}} {{.}}{{end}} <small>({{.Path}})</small>{{else}}{{.Path}}{{end}}</h2>
{{if .NoPilotage}}<p class="meta">No Pilotage surface declared: Pilotage rules did not run on this file.</p>{{end}}
{{range .Languages}}
<h3>{{.Name}}</h3>
{{if .Loop}}<p class="loop">{{range $i, $s := .Loop}}{{if $i}} → {{end}}{{$s}}{{end}}</p>{{end}}
{{if .Failed}}<table class="calls">{{template "calls-head"}}
{{range .Failed}}{{template "call" .}}{{end}}</table>{{end}}
{{if .Unsettled}}<details class="unsettled" open><summary>{{len .Unsettled}} probe call(s) not answered or not judged</summary>
<table class="calls">{{template "calls-head"}}
{{range .Unsettled}}{{template "call" .}}{{end}}</table></details>{{end}}
{{if .Suppressed}}<details class="suppressed"><summary>{{len .Suppressed}} suppressed probe call(s)</summary>
<table class="calls">{{template "calls-head"}}
{{range .Suppressed}}{{template "call" .}}{{end}}</table></details>{{end}}
{{if .Passed}}<details class="passing"><summary>{{len .Passed}} passing probe call(s)</summary>
<table class="calls">{{template "calls-head"}}
{{range .Passed}}{{template "call" .}}{{end}}</table></details>{{end}}
{{end}}
<h3>Findings</h3>
{{if .Findings}}<table class="findings"><colgroup><col style="width:24%"><col style="width:9%"><col style="width:18%"><col style="width:37%"><col style="width:12%"></colgroup><tr><th>Where</th><th>Severity</th><th>Rule</th><th>Message</th><th>Spec</th></tr>
{{range .Findings}}<tr class="finding" data-severity="{{.Severity}}"><td><code>{{.File}}:{{.Line}}:{{.Column}}</code><br><code>{{.Pointer}}</code></td><td class="{{.Severity}}">{{.Severity}}</td><td><code>{{.Rule}}</code></td><td>{{md .Message}}{{with .Quote}}<blockquote class="quote">{{md .}}</blockquote>{{end}}</td><td>{{.Spec}}</td></tr>
{{end}}</table>{{else}}<p>No findings.</p>{{end}}
</section>
{{end}}
<p id="check" hidden></p>
<script>
// Recount the figures from the rows, so a browser test can compare what
// the page shows with the JSON report, and measure whether anything is
// wider than the window.
(function () {
  var count = function (sel) { return document.querySelectorAll(sel).length; };
  var check = {
    errors: count('tr.finding[data-severity="error"]'),
    warnings: count('tr.finding[data-severity="warning"]'),
    infos: count('tr.finding[data-severity="info"]'),
    vectors_passed: count('tr.vector[data-status="passed"]'),
    vectors_failed: count('tr.vector[data-status="failed"]'),
    vectors_not_applicable: count('tr.vector[data-status="not applicable"]'),
    vectors_suppressed: count('tr.vector[data-status="suppressed"]'),
    vectors_partly_probed: count('tr.vector[data-status="partly probed"]'),
    vectors_not_answered: count('tr.vector[data-status="not answered"]'),
    vectors_need_probe_run: count('tr.vector[data-status="needs --probe-run"]'),
    vectors_not_sent: count('tr.vector[data-status="not sent"]'),
    calls: count('tr.probe-call'),
    failed_calls: count('tr.probe-call[data-failed="true"]'),
    suppressed_calls: count('tr.probe-call[data-verdict="suppressed"]'),
    unjudged_calls: count('tr.probe-call[data-verdict="not judged"]'),
    overflow: Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth),
    focus: count('details[open] mark.focus'),
    // A marked line its box does not show whole.
    focus_hidden: Array.prototype.filter.call(document.querySelectorAll('details[open] mark.focus'), function (m) {
      var r = m.getBoundingClientRect(), box = m.closest('pre').getBoundingClientRect();
      return r.height === 0 || r.top < box.top || r.bottom > box.bottom;
    }).length,
    width: document.documentElement.clientWidth
  };
  document.getElementById('check').textContent = JSON.stringify(check);
})();
</script>
</body>
</html>
{{define "calls-head"}}<colgroup><col style="width:22%"><col style="width:22%"><col style="width:18%"><col style="width:26%"><col style="width:12%"></colgroup><tr><th>Probe</th><th>Vector</th><th>Defect</th><th>Tool</th><th>Result</th></tr>{{end}}
{{define "call"}}{{$failed := eq .Verdict.String "fail"}}<tr class="probe-call" id="{{.ID}}" data-failed="{{$failed}}" data-verdict="{{.Verdict}}"><td>{{.Probe.Name}}</td><td><code>{{.Vector}}</code></td><td>{{.Probe.Defect}}</td><td><code>{{.Tool}}</code></td><td><span class="{{badge .Verdict}}">{{.Verdict}}</span></td></tr>
<tr><td colspan="5"><details{{if or $failed (eq (badge .Verdict) "unjudged" "unanswered")}} open{{end}}><summary>{{if .Findings}}{{len .Findings}} finding(s), {{end}}the request and the response</summary>
{{range .Findings}}<p class="{{.Severity}}">{{.Severity}} <code>{{.Rule}}</code>: {{md .Message}} ({{.Spec}})</p>
{{with .Quote}}<blockquote class="quote">{{md .}}</blockquote>{{end}}{{end}}
{{range .Unjudged}}<p class="unjudged">not judged: {{.}}</p>
{{end}}{{if .Quote}}<p>The probe checks ({{.Spec}}):</p><blockquote class="probe-quote">{{md .Quote}}</blockquote>{{end}}
<p>Request</p><pre>{{.Request}}</pre><p>Response ({{.AnswerKind}})</p><pre>{{.Response}}</pre></details></td></tr>
{{end}}`
