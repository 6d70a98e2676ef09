package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/config"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// badExample is resolved before any test changes directory.
var badExample, _ = filepath.Abs(filepath.Join("..", "..", "fixtures", "examples", "bad-server.snapshot.json"))

// badCopy puts the bundled bad example in dir and returns its name there.
func badCopy(t *testing.T, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(badExample)
	must(t, err)
	must(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	return name
}

func TestOutputFilesInEveryFormat(t *testing.T) {
	tmp := t.TempDir()
	in := badCopy(t, tmp, "snapshots/pilotage-server.json")
	schemaPath := repoPath(t, "lint/report/testdata/sarif-schema-2.1.0.json")
	code, stdout, stderr := cli(t, tmp, "", "--no-config", "--format", "text",
		"--output", "sarif=out/x.sarif", "--output", "junit=junit.xml", "--output", "github=gh.txt", "--output", "json=lint.json", "--output", "text=lint.txt", in)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (findings); stderr %s", code, stderr)
	}
	if !strings.HasPrefix(stdout, in+":") || strings.Contains(stdout, `"version"`) {
		t.Fatalf("standard output is not the text report:\n%s", stdout)
	}
	read := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join(tmp, name))
		must(t, err)
		return data
	}
	if string(read("lint.txt")) != stdout {
		t.Error("--output text differs from --format text")
	}
	_, jsonOut, _ := cli(t, tmp, "", "--no-config", "--format", "json", in)
	if string(read("lint.json")) != jsonOut {
		t.Error("--output json differs from --format json")
	}

	sarif := read("out/x.sarif")
	f, err := os.Open(schemaPath)
	must(t, err)
	defer f.Close()
	schemaDoc, err := jsonschema.UnmarshalJSON(f)
	must(t, err)
	c := jsonschema.NewCompiler()
	must(t, c.AddResource("sarif.json", schemaDoc))
	sch, err := c.Compile("sarif.json")
	must(t, err)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(sarif))
	must(t, err)
	if err := sch.Validate(inst); err != nil {
		t.Errorf("SARIF file fails the schema: %v", err)
	}
	if !strings.Contains(string(sarif), `"uri": "snapshots/pilotage-server.json"`) || !strings.Contains(string(sarif), `"uriBaseId": "%SRCROOT%"`) {
		t.Errorf("SARIF artifact not relative to the working directory:\n%.2000s", sarif)
	}

	var junit struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
	}
	must(t, xml.Unmarshal(read("junit.xml"), &junit))
	if junit.Failures == 0 || junit.Tests <= junit.Failures {
		t.Errorf("junit counts: %+v", junit)
	}
	gh := string(read("gh.txt"))
	if !strings.HasPrefix(gh, "::error file=snapshots/pilotage-server.json,line=") {
		t.Errorf("github output:\n%s", gh)
	}
}

func TestFormatsOnStandardOutput(t *testing.T) {
	tmp := t.TempDir()
	in := badCopy(t, tmp, "s.json")
	_, out, _ := cli(t, tmp, "", "--no-config", "--format", "text", "--format", "github", in)
	// The first text line's position must come back as an annotation.
	var line, col int
	if _, err := fmt.Sscanf(out, "s.json:%d:%d: ", &line, &col); err != nil {
		t.Fatalf("no text line first: %v\n%s", err, out)
	}
	if !strings.Contains(out, fmt.Sprintf("\n::error file=s.json,line=%d,col=%d,", line, col)) && !strings.Contains(out, fmt.Sprintf("\n::warning file=s.json,line=%d,col=%d,", line, col)) {
		t.Errorf("text and github together:\n%s", out)
	}
	_, out, _ = cli(t, tmp, "", "--no-config", "--format", "sarif", in)
	if !json.Valid([]byte(out)) || !strings.Contains(out, `"version": "2.1.0"`) {
		t.Errorf("--format sarif:\n%.500s", out)
	}
	_, out, _ = cli(t, tmp, "", "--no-config", "--format", "sarif", "--base-dir", "/", in)
	if want := `"uri": "` + strings.TrimPrefix(filepath.ToSlash(filepath.Join(tmp, "s.json")), "/") + `"`; !strings.Contains(out, want) {
		t.Errorf("--base-dir /: want %s in\n%.1500s", want, out)
	}
	_, out, _ = cli(t, tmp, "", "--no-config", "--format", "junit", in)
	if !strings.HasPrefix(out, "<?xml") {
		t.Errorf("--format junit:\n%.300s", out)
	}
}

func TestOutputFlagErrors(t *testing.T) {
	tmp := t.TempDir()
	in := badCopy(t, tmp, "s.json")
	for _, args := range [][]string{
		{"--format", "yaml"},
		{"--format", "json", "--format", "text"},
		{"--format", "text,sarif"},
		{"--format", "github", "--format", "github"},
		{"--output", "sarif"},
		{"--output", "sarif="},
		{"--output", "xml=out.xml"},
		{"--output", "sarif=a", "--output", "junit=a"},
		{"--output", "sarif=" + tmp},
	} {
		code, _, stderr := cli(t, tmp, "", append(append([]string{"--no-config"}, args...), in)...)
		if code != 2 || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q; want 2 with a message", args, code, stderr)
		}
	}
}

func TestPrintConfig(t *testing.T) {
	tmp := t.TempDir()
	must(t, os.WriteFile(filepath.Join(tmp, ".pilotage-lint.yaml"), []byte("disable: [json-bom]\nseverity: {json-number-range: Info}\nignore:\n  - rule: json-syntax\n    path: legacy/*\n"), 0o644))
	code, out, stderr := cli(t, tmp, "", "--print-config", "--disable", "json-depth", "--severity", "json-empty=warning", "--fail-on", "warning")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := "disable:\n  - json-bom\n  - json-depth\nseverity:\n  json-empty: warning\n  json-number-range: info\nfail-on: warning\nignore:\n  - rule: json-syntax\n    path: legacy/*\n"
	if !strings.HasSuffix(out, "\n"+want) || !strings.Contains(out, "# From: "+filepath.Join(tmp, ".pilotage-lint.yaml")) || !strings.Contains(out, "off: json-bom, json-depth.") {
		t.Fatalf("got\n%s\nwant it to end with\n%s", out, want)
	}
	if _, err := config.Parse("x.yaml", []byte(out)); err != nil {
		t.Errorf("printed configuration does not load back: %v", err)
	}
	code, out, _ = cli(t, tmp, "", "--print-config", "--no-config")
	if code != 0 || !strings.HasSuffix(out, "\nfail-on: error\n") || !strings.Contains(out, "no config file") {
		t.Errorf("defaults: exit %d\n%s", code, out)
	}
	if code, _, _ := cli(t, tmp, "", "--print-config", "--disable", "nope"); code != 2 {
		t.Errorf("unknown rule: exit %d", code)
	}
}

func TestInit(t *testing.T) {
	tmp := t.TempDir()
	code, out, stderr := cli(t, tmp, "", "init")
	if code != 0 || !strings.Contains(out, ".pilotage-lint.yaml") {
		t.Fatalf("init: exit %d %s %s", code, out, stderr)
	}
	path := filepath.Join(tmp, ".pilotage-lint.yaml")
	data, err := os.ReadFile(path)
	must(t, err)
	if string(data) != config.Default {
		t.Fatal("init did not write the default configuration")
	}
	must(t, os.WriteFile(path, []byte("fail-on: warning\n"), 0o644))
	if code, _, stderr := cli(t, tmp, "", "init"); code != 2 || !strings.Contains(stderr, "--force") {
		t.Fatalf("second init: exit %d %s", code, stderr)
	}
	if data, _ := os.ReadFile(path); string(data) != "fail-on: warning\n" {
		t.Fatal("init overwrote an existing file without --force")
	}
	if _, out, _ := cli(t, tmp, "", "--print-config"); !strings.Contains(out, "fail-on: warning") {
		t.Fatalf("the kept file is not the one in effect:\n%s", out)
	}
	if code, _, _ := cli(t, tmp, "", "init", "--force"); code != 0 {
		t.Fatalf("init --force: exit %d", code)
	}
	if _, out, _ := cli(t, tmp, "", "--print-config"); !strings.Contains(out, "fail-on: error") {
		t.Fatalf("--force did not restore the default:\n%s", out)
	}
	if code, _, _ := cli(t, tmp, "", "init", "other.yml"); code != 0 {
		t.Fatalf("init other.yml: exit %d", code)
	}
	if code, _, _ := cli(t, tmp, "", "init", "x.json"); code != 2 {
		t.Fatalf("init x.json: exit %d, want 2", code)
	}
}

func TestBaseline(t *testing.T) {
	tmp := t.TempDir()
	good := repoPath(t, "fixtures/examples/good-server.snapshot.json")
	a := badCopy(t, tmp, "a.json")
	_, before, _ := cli(t, tmp, "", "--no-config", "-q", a)
	n := strings.Count(before, "\n")

	code, out, stderr := cli(t, tmp, "", "--no-config", "--write-baseline", "pilotage-baseline.json", a)
	if code != 0 || !strings.Contains(stderr, "recorded") || !strings.HasPrefix(out, "0 errors, 0 warnings") {
		t.Fatalf("--write-baseline: exit %d\n%s\n%s", code, out, stderr)
	}
	var file struct {
		Version  int
		Findings []struct{ Rule, File, Pointer string }
	}
	data, err := os.ReadFile(filepath.Join(tmp, "pilotage-baseline.json"))
	must(t, err)
	must(t, json.Unmarshal(data, &file))
	if file.Version != 2 || len(file.Findings) != n || file.Findings[0].File != "a.json" {
		t.Fatalf("baseline file (%d findings expected):\n%s", n, data)
	}

	code, out, stderr = cli(t, tmp, "", "--no-config", "--baseline", "pilotage-baseline.json", a)
	if code != 0 || !strings.HasPrefix(out, "0 errors") || !strings.Contains(stderr, "suppressed by baseline") {
		t.Fatalf("--baseline on the same input: exit %d\n%s%s", code, out, stderr)
	}

	// Lines move: still suppressed, since matching ignores positions.
	orig, err := os.ReadFile(filepath.Join(tmp, a))
	must(t, err)
	must(t, os.WriteFile(filepath.Join(tmp, a), append([]byte("\n\n\n"), orig...), 0o644))
	if code, out, _ := cli(t, tmp, "", "--no-config", "--baseline", "pilotage-baseline.json", a); code != 0 {
		t.Fatalf("moved lines resurfaced findings: exit %d\n%s", code, out)
	}

	// A new file with the same defects: new findings, which still fail.
	b := badCopy(t, tmp, "b.json")
	code, out, _ = cli(t, tmp, "", "--no-config", "-q", "--baseline", "pilotage-baseline.json", a, b)
	if code != 1 || strings.Count(out, "\n") != n || strings.Contains(out, "a.json") {
		t.Fatalf("new findings: exit %d, want %d lines all in b.json:\n%s", code, n, out)
	}

	// The baseline works from another directory, via its own location.
	sub := filepath.Join(tmp, "sub")
	must(t, os.Mkdir(sub, 0o755))
	if code, out, _ := cli(t, sub, "", "--no-config", "--baseline", "../pilotage-baseline.json", "../a.json"); code != 0 {
		t.Fatalf("from a subfolder: exit %d\n%s", code, out)
	}

	// Fixed defects are reported as stale entries on stderr.
	gd, err := os.ReadFile(good)
	must(t, err)
	must(t, os.WriteFile(filepath.Join(tmp, a), gd, 0o644))
	code, _, stderr = cli(t, tmp, "", "--no-config", "--baseline", "pilotage-baseline.json", a)
	if code != 0 || !strings.Contains(stderr, "no longer occur") {
		t.Fatalf("stale entries: exit %d, %s", code, stderr)
	}

	if code, _, stderr := cli(t, tmp, "", "--no-config", "--baseline", "missing.json", a); code != 2 || stderr == "" {
		t.Fatalf("missing baseline: exit %d", code)
	}
}
