package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestHelp: help [COMMAND] prints a command's usage on stdout, exit 0; an
// unknown command is a usage error.
func TestHelp(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"help"}, exitOK, "usage: pilotage-lint [flags] PATH...\n"},
		{[]string{"help", "diff"}, exitOK, "usage: pilotage-lint diff [flags] OLD NEW\n       pilotage-lint diff [flags] --against REV PATH...\n"},
		{[]string{"help", "rules"}, exitOK, "usage: pilotage-lint rules [--markdown | --format text|json] [ID...]\n"},
		{[]string{"help", "init"}, exitOK, "usage: pilotage-lint init [--force] [FILE]\n"},
		{[]string{"help", "nope"}, exitUsage, ""},
		{[]string{"help", "diff", "rules"}, exitUsage, ""},
	} {
		code, out, errOut := runCLI(tc.args...)
		if code != tc.code || !strings.HasPrefix(out, tc.out) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", tc.args, code, out, errOut)
		}
		if code == exitUsage && errOut == "" {
			t.Errorf("%v: no message", tc.args)
		}
	}
}

// TestRulesExplain: rules ID explains one rule as staticcheck -explain
// does; rules --format json lists every rule, lint and diff.
func TestRulesExplain(t *testing.T) {
	code, out, _ := runCLI("rules", "json-syntax")
	want := "json-syntax (error, RFC 8259 §2, §10)\n\nThe file is not well-formed JSON.\n\nThe spec says (RFC 8259 §2, §10): \"A JSON generator produces JSON text.  The resulting text MUST strictly conform to the JSON grammar.\"\n\n"
	if code != exitOK || !strings.HasPrefix(out, want) || !strings.Contains(out, "\nBad:\n    {\"pilotage\": \"1.1\", \"languages\": [}\n\nGood:\n    {\"pilotage\": \"1.1\", \"languages\": []}\n\nReference: docs/rules.md#json-syntax\n") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	if code, out, _ := runCLI("rules", "diff-tool-removed", "snapshot-list-failed"); code != exitOK || !strings.HasPrefix(out, "diff-tool-removed (error,") || !strings.Contains(out, "\n\nsnapshot-list-failed (error, pilotage-lint)") {
		t.Errorf("two rules: exit %d:\n%s", code, out)
	}
	if code, _, errOut := runCLI("rules", "json-sintax"); code != exitUsage || !strings.Contains(errOut, `unknown rule "json-sintax"`) {
		t.Errorf("unknown rule: exit %d, %q", code, errOut)
	}
	code, out, _ = runCLI("rules", "--format", "json")
	var all []struct{ ID, Severity, Spec, Summary, Doc string }
	if err := json.Unmarshal([]byte(out), &all); err != nil || code != exitOK {
		t.Fatalf("exit %d: %v", code, err)
	}
	ids := map[string]bool{}
	for _, r := range all {
		ids[r.ID] = true
		if r.Severity == "" || r.Summary == "" || r.Doc == "" {
			t.Errorf("incomplete %+v", r)
		}
	}
	if len(all) != len(ruleList()) || !ids["json-syntax"] || !ids["diff-tool-removed"] {
		t.Errorf("%d rules listed, table has %d", len(all), len(ruleList()))
	}
	if code, out, _ := runCLI("rules", "--format", "json", "json-syntax"); code != exitOK || strings.Count(out, `"id":`) != 1 {
		t.Errorf("one rule as json: %s", out)
	}
	if code, _, _ := runCLI("rules", "--format", "xml"); code != exitUsage {
		t.Errorf("--format xml: exit %d", code)
	}
}
