package report_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/report"
)

// ghCommand is a workflow command as the Actions runner parses it
// (ActionCommand.TryParseV2 in actions/runner): "::" name, an optional
// space and comma-separated key=value properties, "::", then data.
type ghCommand struct {
	Name  string
	Props map[string]string
	Data  string
}

func parseGitHubCommand(line string) (ghCommand, error) {
	var c ghCommand
	rest, ok := strings.CutPrefix(line, "::")
	if !ok {
		return c, fmt.Errorf("no leading ::")
	}
	head, data, ok := strings.Cut(rest, "::")
	if !ok {
		return c, fmt.Errorf("no :: after the command")
	}
	name, props, _ := strings.Cut(head, " ")
	c.Name, c.Data, c.Props = name, unescapeData(data), map[string]string{}
	if props != "" {
		for _, p := range strings.Split(props, ",") {
			k, v, ok := strings.Cut(p, "=")
			if !ok || k == "" {
				return c, fmt.Errorf("malformed property %q", p)
			}
			c.Props[k] = unescapeProperty(v)
		}
	}
	return c, nil
}

// The runner's unescaping, in its order: %25 last, so "%253A" stays "%3A".
func unescapeData(s string) string {
	return strings.NewReplacer("%0D", "\r", "%0A", "\n", "%25", "%").Replace(s)
}

func unescapeProperty(s string) string {
	return strings.NewReplacer("%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%").Replace(s)
}

var ghSeverity = map[lint.Severity]string{lint.Error: "error", lint.Warning: "warning", lint.Info: "notice"}

func TestGitHubCommandsParse(t *testing.T) {
	for name, run := range map[string]*report.Run{"sample": sampleRun(t), "awkward": awkwardRun()} {
		t.Run(name, func(t *testing.T) {
			out := string(render(t, "github", run))
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if len(lines) != len(run.Result.Findings) {
				t.Fatalf("%d lines for %d findings:\n%s", len(lines), len(run.Result.Findings), out)
			}
			for i, f := range run.Result.Findings {
				c, err := parseGitHubCommand(lines[i])
				if err != nil {
					t.Fatalf("line %q: %v", lines[i], err)
				}
				if strings.ContainsAny(lines[i], "\r") {
					t.Errorf("line %d holds a raw carriage return", i)
				}
				file := strings.TrimPrefix(f.File, "/repo/")
				want := map[string]string{
					"file": file, "line": fmt.Sprint(f.Line), "col": fmt.Sprint(f.Column),
					"endLine": fmt.Sprint(f.EndLine), "endColumn": fmt.Sprint(f.EndColumn), "title": f.Rule,
				}
				if c.Name != ghSeverity[f.Severity] {
					t.Errorf("line %d: command %q for %s", i, c.Name, f.Severity)
				}
				if fmt.Sprint(c.Props) != fmt.Sprint(want) {
					t.Errorf("line %d: properties %v, want %v", i, c.Props, want)
				}
				msg := f.Message + " (" + f.Spec + ")"
				if f.Pointer != "" {
					msg += " at " + f.Pointer
				}
				if c.Data != msg {
					t.Errorf("line %d: message %q, want %q", i, c.Data, msg)
				}
			}
		})
	}
}

func TestGitHubEscapesAsDocumented(t *testing.T) {
	out := string(render(t, "github", awkwardRun()))
	first := strings.SplitN(out, "\n", 2)[0]
	want := "::error file=a%2Cb%3Ac%25.json,line=2,col=3,endLine=4,endColumn=5,title=json-syntax::100%25 wrong: a, b%0D%0Aand <c> & \"d\" ::error::x (RFC 8259; Part III §6) at /a~1b/0"
	if first != want {
		t.Errorf("got\n%s\nwant\n%s", first, want)
	}
}

func TestGitHubNoFindingsPrintsNothing(t *testing.T) {
	run := awkwardRun()
	run.Result.Findings = nil
	if out := render(t, "github", run); len(out) != 0 {
		t.Errorf("output %q", out)
	}
}
