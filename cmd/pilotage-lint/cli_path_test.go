package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDiffFailOnReachesJUnit: JUnit failures must agree with the exit
// status. On main before the shared finish step, diff --fail-on info
// exited 1 while its JUnit report said failures="0".
func TestDiffFailOnReachesJUnit(t *testing.T) {
	info := []string{diffFixtures + "diff-language-added/bad.old.json", diffFixtures + "diff-language-added/bad.new.json"}
	failures := regexp.MustCompile(`<testsuites[^>]* failures="(\d+)"`)
	code, stdout, stderr := runCLI(append([]string{"diff", "--fail-on", "info", "--format", "junit"}, info...)...)
	if m := failures.FindStringSubmatch(stdout); code != exitFindings || m == nil || m[1] == "0" {
		t.Errorf("exit %d (stderr %s) with JUnit:\n%s", code, stderr, stdout)
	}
	out := filepath.Join(t.TempDir(), "diff.xml")
	code, _, stderr = runCLI(append([]string{"diff", "--no-config", "--fail-on", "info", "--output", "junit=" + out}, info...)...)
	file, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("exit %d, stderr %s: %v", code, stderr, err)
	}
	if m := failures.FindStringSubmatch(string(file)); code != exitFindings || m == nil || m[1] == "0" {
		t.Errorf("--output junit: exit %d with JUnit:\n%s", code, file)
	}
}

// TestDiffReadsConfig: diff reads .pilotage-lint.yaml like lint, and a diff
// rule's severity there does not break plain lint.
func TestDiffReadsConfig(t *testing.T) {
	tmp := t.TempDir()
	must(t, os.WriteFile(filepath.Join(tmp, ".pilotage-lint.yaml"), []byte("severity:\n  diff-trace-weakened: warning\n  json-bom: info\n"), 0o644))
	old := repoPath(t, "fixtures/diff/diff-trace-weakened/bad.old.json")
	new := repoPath(t, "fixtures/diff/diff-trace-weakened/bad.new.json")
	code, out, stderr := cli(t, tmp, "", "diff", old, new)
	if code != exitOK || !strings.Contains(out, "warning diff-trace-weakened") {
		t.Errorf("diff with config: exit %d, stderr %s, out:\n%s", code, stderr, out)
	}
	if code, out, stderr := cli(t, tmp, "", old); code == exitUsage {
		t.Errorf("lint with a diff rule in the config: exit 2, stderr %s, out:\n%s", stderr, out)
	}
}

// TestUsageErrors: a wrong flag or a missing argument on any subcommand says
// what was wrong and repeats the usage line, exit 2.
func TestUsageErrors(t *testing.T) {
	snapshotTool(t) // snapshot's usage errors come from the binary it hands off to
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--nope", "x.json"}, "unknown flag: --nope"},
		{[]string{"--no-config"}, "no input paths"},
		{[]string{"diff", "--nope"}, "unknown flag: --nope"},
		{[]string{"diff", "a.json"}, "give exactly two inputs"},
		{[]string{"snapshot", "--nope"}, "unknown flag: --nope"},
		{[]string{"snapshot"}, "give a server command after -- or --url"},
		{[]string{"rules", "--nope"}, "unknown flag: --nope"},
		{[]string{"rules", "extra"}, `unknown rule "extra"`},
		{[]string{"help", "extra"}, `unknown command "extra"`},
		{[]string{"init", "--nope"}, "unknown flag: --nope"},
	} {
		code, _, stderr := runCLI(tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) || !strings.Contains(stderr, "usage: pilotage-lint") {
			t.Errorf("%q: exit %d, stderr %q; want exit 2, %q and the usage line", tc.args, code, stderr, tc.want)
		}
	}
}

// TestEngineRulesFromTheCommandLine: --disable and --severity reach the
// engine's findings, and --print-config counts what really runs.
func TestEngineRulesFromTheCommandLine(t *testing.T) {
	tmp := t.TempDir()
	must(t, os.WriteFile(filepath.Join(tmp, "pkg.json"), []byte(`{"name": "my-server", "version": "1.0.0"}`), 0o644))
	if code, out, _ := cli(t, tmp, "", "--no-config", "pkg.json"); code != exitFindings || !strings.Contains(out, "error input-kind") {
		t.Errorf("default: exit %d\n%s", code, out)
	}
	if code, out, _ := cli(t, tmp, "", "--no-config", "--disable", "input-kind", "pkg.json"); code != exitOK || strings.Contains(out, "input-kind") {
		t.Errorf("--disable input-kind: exit %d\n%s", code, out)
	}
	if code, out, _ := cli(t, tmp, "", "--no-config", "--severity", "input-kind=warning", "pkg.json"); code != exitOK || !strings.Contains(out, "warning input-kind") {
		t.Errorf("--severity input-kind=warning: exit %d\n%s", code, out)
	}
	if code, _, stderr := cli(t, tmp, "", "--no-config", "--disable", "internal-error", "pkg.json"); code != exitUsage || !strings.Contains(stderr, "internal-error cannot be disabled") {
		t.Errorf("--disable internal-error: exit %d, stderr %s", code, stderr)
	}
	_, out, _ := cli(t, tmp, "", "--no-config", "--print-config", "--disable", "input-kind,cross-checks-skipped")
	if !strings.Contains(out, "off: input-kind.") || !strings.Contains(out, "# Deprecated, no effect: cross-checks-skipped.") {
		t.Errorf("--print-config:\n%s", out)
	}
}
