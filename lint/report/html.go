package report

import (
	"bytes"
	"encoding/json"
	"html/template"
	"io"
	"strings"
	"sync"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/probe"
)

// ProbesOf returns the probe calls of a run's snapshots, as the engine
// read them, for the coverage summary, the HTML page and the probe notes.
// A tag naming no probe of this version's set is left out.
func ProbesOf(res *lint.Result) []probe.Call {
	var out []probe.Call
	for _, fi := range res.Files {
		for _, c := range fi.Probes {
			pr := probe.ByName(c.Name)
			if pr == nil {
				continue
			}
			out = append(out, probe.Call{File: fi.Path, Pointer: c.Pointer, Probe: pr, Language: c.Language, Tool: c.Tool,
				Arguments: c.Arguments, Answer: c.Answer, AnswerKind: c.AnswerKind})
		}
	}
	return out
}

// coverage sums up the run's probe calls; nil when it has none. A call
// fails when an error finding sits at or inside it.
func (r *Run) coverage() *probe.Coverage {
	return probe.Cover(r.Probes, func(file, pointer string) bool {
		for _, f := range r.Result.Findings {
			if f.Severity == lint.Error && f.File == file && probe.Inside(f.Pointer, pointer) {
				return true
			}
		}
		return false
	})
}

type htmlCall struct {
	probe.Call
	Findings            []lint.Finding
	Request, Response   string
	Stage, Vector, Spec string
}

type htmlLanguage struct {
	File, Name string
	Loop       []string
	Calls      []htmlCall
}

type htmlPage struct {
	Tool      Tool
	Summary   Summary
	Coverage  *probe.Coverage
	Languages []htmlLanguage
	Findings  []lint.Finding
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
func HTML(w io.Writer, run *Run) error {
	page := htmlPage{Tool: run.Tool, Summary: Summarize(run.Result), Coverage: run.coverage(), Findings: run.Result.Findings}
	idx := map[[2]string]int{}
	for _, c := range run.Probes {
		key := [2]string{c.File, c.Language}
		i, ok := idx[key]
		if !ok {
			name := c.Language
			if name == "" {
				name = "server-wide"
			}
			page.Languages = append(page.Languages, htmlLanguage{File: c.File, Name: name})
			i = len(page.Languages) - 1
			idx[key] = i
		}
		l := &page.Languages[i]
		hc := htmlCall{Call: c, Stage: stageOf(c.Probe), Vector: c.Probe.Vector, Spec: c.Probe.Spec}
		if hc.Vector == "" {
			hc.Vector = "—"
		}
		for _, f := range run.Result.Findings {
			if f.File == c.File && probe.Inside(f.Pointer, c.Pointer) {
				hc.Findings = append(hc.Findings, f)
			}
		}
		if len(hc.Findings) > 0 {
			hc.Request = pretty(json.RawMessage(`{"name":` + string(mustMarshal(c.Tool)) + `,"arguments":` + string(orEmpty(c.Arguments)) + `}`))
			hc.Response = pretty(c.Answer)
		}
		step := hc.Stage + ": " + c.Tool
		if !containsString(l.Loop, step) && hc.Stage != "carrier" {
			l.Loop = append(l.Loop, step)
		}
		l.Calls = append(l.Calls, hc)
	}
	return htmlTemplate().Execute(w, page)
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
var htmlTemplate = sync.OnceValue(func() *template.Template { return template.Must(template.New("page").Parse(htmlSource)) })

const htmlSource = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>pilotage-lint report</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; color: #1d232a; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.15rem; margin-top: 2rem; } h3 { font-size: 1rem; }
.figures { display: flex; gap: 1rem; flex-wrap: wrap; }
.figure { border: 1px solid #d0d7de; border-radius: 6px; padding: .5rem 1rem; min-width: 7rem; }
.figure b { display: block; font-size: 1.5rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; }
th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid #eaeef2; vertical-align: top; }
.pass { color: #1a7f37; font-weight: 600; } .fail { color: #cf222e; font-weight: 600; }
.error { color: #cf222e; } .warning { color: #9a6700; } .info { color: #0969da; }
.loop { font-family: ui-monospace, monospace; color: #57606a; }
pre { background: #f6f8fa; padding: .5rem; overflow-x: auto; max-height: 24rem; }
code { font-family: ui-monospace, monospace; }
</style>
</head>
<body>
<h1>pilotage-lint {{.Tool.Version}} report</h1>
<div class="figures" id="summary">
<div class="figure"><b id="sum-errors">{{.Summary.Errors}}</b>errors</div>
<div class="figure"><b id="sum-warnings">{{.Summary.Warnings}}</b>warnings</div>
<div class="figure"><b id="sum-infos">{{.Summary.Infos}}</b>infos</div>
<div class="figure"><b id="sum-files">{{.Summary.Files}}</b>files</div>
</div>
{{with .Coverage}}
<h2>Conformance probe</h2>
<div class="figures" id="coverage">
<div class="figure"><b id="cov-probed">{{.Probed}}</b>official vectors probed</div>
<div class="figure"><b id="cov-passed" class="pass">{{.Passed}}</b>passed</div>
<div class="figure"><b id="cov-failed" class="fail">{{.Failed}}</b>failed</div>
<div class="figure"><b id="cov-na">{{.NotApplicable}}</b>not applicable</div>
<div class="figure"><b id="cov-calls">{{.Calls}}</b>probe calls</div>
</div>
<table id="vectors"><tr><th>Vector</th><th>Status</th><th>Probes</th></tr>
{{range .Vectors}}<tr class="vector" data-status="{{.Status}}"><td><code>{{.ID}}</code></td><td class="{{if eq .Status "passed"}}pass{{else if eq .Status "failed"}}fail{{end}}">{{.Status}}</td><td>{{range $i, $p := .Probes}}{{if $i}}, {{end}}{{$p}}{{end}}</td></tr>
{{end}}</table>
{{end}}
{{range .Languages}}
<h3>{{.Name}} <small>({{.File}})</small></h3>
{{if .Loop}}<p class="loop">{{range $i, $s := .Loop}}{{if $i}} → {{end}}{{$s}}{{end}}</p>{{end}}
<table><tr><th>Probe</th><th>Vector</th><th>Defect</th><th>Tool</th><th>Result</th></tr>
{{range .Calls}}<tr class="probe-call" data-failed="{{.Failed}}"><td>{{.Probe.Name}}</td><td><code>{{.Vector}}</code></td><td>{{.Probe.Defect}}</td><td><code>{{.Tool}}</code></td><td>{{if .Failed}}<span class="fail">fail</span>{{else}}<span class="pass">pass</span>{{end}}</td></tr>
{{if .Findings}}<tr><td colspan="5"><details{{if .Failed}} open{{end}}><summary>{{len .Findings}} finding(s), the request and the response</summary>
{{range .Findings}}<p class="{{.Severity}}">{{.Severity}} <code>{{.Rule}}</code>: {{.Message}} ({{.Spec}})</p>{{end}}
<p>Request</p><pre>{{.Request}}</pre><p>Response ({{.AnswerKind}})</p><pre>{{.Response}}</pre></details></td></tr>{{end}}
{{end}}</table>
{{end}}
<h2>Findings</h2>
{{if .Findings}}<table id="findings"><tr><th>Where</th><th>Severity</th><th>Rule</th><th>Message</th><th>Spec</th></tr>
{{range .Findings}}<tr class="finding" data-severity="{{.Severity}}"><td><code>{{.File}}:{{.Line}}:{{.Column}}</code><br><code>{{.Pointer}}</code></td><td class="{{.Severity}}">{{.Severity}}</td><td><code>{{.Rule}}</code></td><td>{{.Message}}</td><td>{{.Spec}}</td></tr>
{{end}}</table>{{else}}<p>No findings.</p>{{end}}
<p id="check" hidden></p>
<script>
// Recount the figures from the rows, so a browser test can compare what
// the page shows with the JSON report.
(function () {
  var count = function (sel) { return document.querySelectorAll(sel).length; };
  var check = {
    errors: count('tr.finding[data-severity="error"]'),
    warnings: count('tr.finding[data-severity="warning"]'),
    infos: count('tr.finding[data-severity="info"]'),
    vectors_passed: count('tr.vector[data-status="passed"]'),
    vectors_failed: count('tr.vector[data-status="failed"]'),
    vectors_not_applicable: count('tr.vector[data-status="not applicable"]'),
    calls: count('tr.probe-call'),
    failed_calls: count('tr.probe-call[data-failed="true"]')
  };
  document.getElementById('check').textContent = JSON.stringify(check);
})();
</script>
</body>
</html>
`
