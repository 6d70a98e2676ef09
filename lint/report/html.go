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
	"github.com/pilotagekit/pilotagekit/lint/probe"
)

type htmlCall struct {
	probe.Call
	ID                  string
	Findings            []lint.Finding
	Request, Response   string
	Stage, Vector, Spec string
	Quote               string
}

type htmlLanguage struct {
	Name string
	Loop []string
	// Failed come first, shown; Passed fold away.
	Failed, Passed []htmlCall
}

// htmlFile is one input's section: its server, findings and probes.
type htmlFile struct {
	Path, Server, ServerVersion string
	NoPilotage                  bool
	Findings                    []lint.Finding
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
	Tool     Tool
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

func pretty(raw json.RawMessage) string {
	if raw == nil {
		return "(no answer)"
	}
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}

// HTML writes one self-contained page: no script or style comes from
// elsewhere and the content security policy forbids every fetch, so the
// page opens the same offline, from a CI artifact or a mail attachment.
// It names each server, puts failures first (failed vectors link to the
// failing call, with its findings, request and response), folds passing
// probes away, and gives each input its own section.
func HTML(w io.Writer, run *Run) error {
	page := htmlPage{Tool: run.Tool, Summary: Summarize(run.Result), Coverage: run.coverage()}
	if !run.Time.IsZero() {
		page.Written = run.Time.UTC().Format("2006-01-02 15:04 UTC")
	}
	fileIdx := map[string]int{}
	for _, fi := range run.Result.Files {
		fileIdx[fi.Path] = len(page.Files)
		page.Files = append(page.Files, htmlFile{Path: fi.Path, Server: fi.Server, ServerVersion: fi.ServerVersion, NoPilotage: fi.NoPilotage})
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
	for _, f := range run.Result.Findings {
		hf := file(f.File)
		hf.Findings = append(hf.Findings, f)
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
	firstFailed := map[string]string{}
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
		hc := htmlCall{Call: c, ID: "call-" + strconv.Itoa(n), Stage: stageOf(c.Probe), Vector: c.Probe.Vector, Spec: c.Probe.Spec, Quote: c.Probe.Quote}
		if hc.Vector == "" {
			hc.Vector = "—"
		}
		for _, f := range run.Result.Findings {
			if f.File == c.File && probe.Inside(f.Pointer, c.Pointer) {
				hc.Findings = append(hc.Findings, f)
			}
		}
		hc.Request = pretty(json.RawMessage(`{"name":` + string(mustMarshal(c.Tool)) + `,"arguments":` + string(orEmpty(c.Arguments)) + `}`))
		hc.Response = pretty(c.Answer)
		step := hc.Stage + ": " + c.Tool
		if !containsString(l.Loop, step) && hc.Stage != "carrier" {
			l.Loop = append(l.Loop, step)
		}
		if hc.Failed {
			if _, ok := firstFailed[c.Probe.Vector]; !ok && c.Probe.Vector != "" {
				firstFailed[c.Probe.Vector] = hc.ID
			}
			l.Failed = append(l.Failed, hc)
		} else {
			l.Passed = append(l.Passed, hc)
		}
	}
	if page.Coverage != nil {
		rank := map[string]int{"failed": 0, "passed": 1}
		for _, v := range page.Coverage.Vectors {
			hv := htmlVector{Vector: v, Link: firstFailed[v.ID]}
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
	return template.Must(template.New("page").Funcs(template.FuncMap{"md": markdown}).Parse(htmlSource))
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
.error { color: #cf222e; } .warning { color: #9a6700; } .info { color: #0969da; }
.loop { font-family: ui-monospace, monospace; color: #57606a; }
pre { background: #f6f8fa; padding: .5rem; overflow: auto; max-height: 24rem; max-width: 100%; white-space: pre-wrap; overflow-wrap: anywhere; }
code { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
blockquote { margin: .3rem 0; padding-left: .8rem; border-left: 3px solid #d0d7de; color: #57606a; }
section.file { border-top: 2px solid #d0d7de; margin-top: 2rem; }
</style>
</head>
<body>
<h1>pilotage-lint report</h1>
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
{{if .Failed}}<table class="calls"><colgroup><col style="width:22%"><col style="width:22%"><col style="width:18%"><col style="width:26%"><col style="width:12%"></colgroup><tr><th>Probe</th><th>Vector</th><th>Defect</th><th>Tool</th><th>Result</th></tr>
{{range .Failed}}{{template "call" .}}{{end}}</table>{{end}}
{{if .Passed}}<details class="passing"><summary>{{len .Passed}} passing probe call(s)</summary>
<table class="calls"><colgroup><col style="width:22%"><col style="width:22%"><col style="width:18%"><col style="width:26%"><col style="width:12%"></colgroup><tr><th>Probe</th><th>Vector</th><th>Defect</th><th>Tool</th><th>Result</th></tr>
{{range .Passed}}{{template "call" .}}{{end}}</table></details>{{end}}
{{end}}
<h3>Findings</h3>
{{if .Findings}}<table class="findings"><colgroup><col style="width:24%"><col style="width:9%"><col style="width:18%"><col style="width:37%"><col style="width:12%"></colgroup><tr><th>Where</th><th>Severity</th><th>Rule</th><th>Message</th><th>Spec</th></tr>
{{range .Findings}}<tr class="finding" data-severity="{{.Severity}}"><td><code>{{.File}}:{{.Line}}:{{.Column}}</code><br><code>{{.Pointer}}</code></td><td class="{{.Severity}}">{{.Severity}}</td><td><code>{{.Rule}}</code></td><td>{{md .Message}}</td><td>{{.Spec}}</td></tr>
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
    overflow: Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth),
    width: document.documentElement.clientWidth
  };
  document.getElementById('check').textContent = JSON.stringify(check);
})();
</script>
</body>
</html>
{{define "call"}}<tr class="probe-call" id="{{.ID}}" data-failed="{{.Failed}}"><td>{{.Probe.Name}}</td><td><code>{{.Vector}}</code></td><td>{{.Probe.Defect}}</td><td><code>{{.Tool}}</code></td><td>{{if .Failed}}<span class="fail">fail</span>{{else}}<span class="pass">pass</span>{{end}}</td></tr>
<tr><td colspan="5"><details{{if .Failed}} open{{end}}><summary>{{if .Findings}}{{len .Findings}} finding(s), {{end}}the request and the response</summary>
{{range .Findings}}<p class="{{.Severity}}">{{.Severity}} <code>{{.Rule}}</code>: {{md .Message}} ({{.Spec}})</p>{{end}}
{{if .Quote}}<blockquote>{{.Spec}}: {{md .Quote}}</blockquote>{{end}}
<p>Request</p><pre>{{.Request}}</pre><p>Response ({{.AnswerKind}})</p><pre>{{.Response}}</pre></details></td></tr>
{{end}}`
