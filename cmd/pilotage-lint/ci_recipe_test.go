package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

type workflow struct {
	Permissions map[string]string `yaml:"permissions"`
	Jobs        map[string]struct {
		Steps []struct {
			Name string            `yaml:"name"`
			Uses string            `yaml:"uses"`
			Run  string            `yaml:"run"`
			If   string            `yaml:"if"`
			With map[string]string `yaml:"with"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// TestGitHubActionsRecipe runs the documented workflow's pilotage-lint
// command as the job would, on a checkout with a defective and then a
// clean snapshot, and checks that the install path is this module's
// command and that the SARIF upload reads the file the lint step wrote,
// even when the lint step fails.
func TestGitHubActionsRecipe(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "workflows", "pilotage-lint.yml"))
	must(t, err)
	gomod, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	must(t, err)
	good, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "examples", "good-server.snapshot.json"))
	must(t, err)
	module := regexp.MustCompile(`(?m)^module (\S+)`).FindSubmatch(gomod)[1]
	var wf workflow
	must(t, yaml.Unmarshal(data, &wf))
	if wf.Permissions["security-events"] != "write" {
		t.Errorf("upload-sarif needs permissions: security-events: write")
	}
	if len(wf.Jobs) != 1 {
		t.Fatalf("want one job, got %d", len(wf.Jobs))
	}
	var install, lintCmd, sarifFile, sarifIf string
	for _, job := range wf.Jobs {
		for _, s := range job.Steps {
			switch {
			case strings.HasPrefix(s.Run, "go install "):
				install = strings.TrimSpace(strings.TrimPrefix(s.Run, "go install "))
			case strings.HasPrefix(s.Run, "pilotage-lint "):
				lintCmd = strings.TrimSpace(s.Run)
			case strings.HasPrefix(s.Uses, "github/codeql-action/upload-sarif@"):
				sarifFile, sarifIf = s.With["sarif_file"], s.If
			}
		}
	}
	pkg, version, _ := strings.Cut(install, "@")
	if pkg != string(module)+"/cmd/pilotage-lint" || version == "" {
		t.Errorf("install step installs %q, want %s/cmd/pilotage-lint@VERSION", install, module)
	}
	if !strings.Contains(sarifIf, "!cancelled()") && !strings.Contains(sarifIf, "always()") {
		t.Errorf("the SARIF upload must run when the lint step fails (findings): if: %q", sarifIf)
	}
	args := strings.Fields(lintCmd)[1:]
	if !strings.Contains(lintCmd, "--output sarif="+sarifFile+" ") {
		t.Errorf("the lint step does not write %q, the file upload-sarif reads: %s", sarifFile, lintCmd)
	}

	checkout := t.TempDir()
	badCopy(t, checkout, "snapshots/pilotage-server.json")
	code, out, stderr := cli(t, checkout, "", args...)
	if code != 1 || !strings.Contains(out, "snapshots/pilotage-server.json:") || !strings.Contains(out, "\n::error file=snapshots/pilotage-server.json,") {
		t.Fatalf("defective snapshot: exit %d, stderr %s\n%s", code, stderr, out)
	}
	for _, f := range []string{sarifFile, "pilotage-lint.xml"} {
		if fi, err := os.Stat(filepath.Join(checkout, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	must(t, os.WriteFile(filepath.Join(checkout, "snapshots", "pilotage-server.json"), good, 0o644))
	if code, out, stderr := cli(t, checkout, "", args...); code != 0 || strings.Contains(out, "::") {
		t.Fatalf("clean snapshot: exit %d, stderr %s\n%s", code, stderr, out)
	}
}
