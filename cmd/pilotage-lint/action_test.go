package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

type action struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []struct {
			Name  string            `yaml:"name"`
			Uses  string            `yaml:"uses"`
			Run   string            `yaml:"run"`
			Shell string            `yaml:"shell"`
			If    string            `yaml:"if"`
			Env   map[string]string `yaml:"env"`
			With  map[string]string `yaml:"with"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

var inputRef = regexp.MustCompile(`inputs\.([a-z-]+)`)

// TestAction checks action.yml and runs its lint and diff scripts as the
// runner would, with pilotage-lint built from this checkout: annotations
// and a SARIF file for a defective snapshot, and a diff finding for a
// snapshot whose trace ceiling dropped since the base revision.
func TestAction(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pilotage-lint and runs git")
	}
	data, err := os.ReadFile(repoPath(t, "action.yml"))
	must(t, err)
	var a action
	must(t, yaml.Unmarshal(data, &a))
	if a.Runs.Using != "composite" {
		t.Fatalf("runs.using %q", a.Runs.Using)
	}
	scripts := map[string]string{}
	envs := map[string]map[string]string{}
	for _, s := range a.Runs.Steps {
		// Inputs reach scripts through env only: spliced into the text, a
		// path could inject shell code.
		if strings.Contains(s.Run, "${{") {
			t.Errorf("step %q splices an expression into its script", s.Name)
		}
		for _, text := range append([]string{s.If, s.Uses}, values(s.Env, s.With)...) {
			for _, m := range inputRef.FindAllStringSubmatch(text, -1) {
				if _, ok := a.Inputs[m[1]]; !ok {
					t.Errorf("step %q uses undeclared input %s", s.Name, m[1])
				}
			}
		}
		scripts[s.Name], envs[s.Name] = s.Run, s.Env
	}
	// Go's module and build caches are kept, keyed by the action's own
	// go.sum, which exists in this repository.
	var cached bool
	for _, st := range a.Runs.Steps {
		if strings.HasPrefix(st.Uses, "actions/setup-go@") {
			cached = st.With["cache"] == "true" && st.With["cache-dependency-path"] == "${{ github.action_path }}/go.sum"
		}
	}
	if _, err := os.Stat(repoPath(t, "go.sum")); err != nil || !cached {
		t.Errorf("setup-go does not cache by the action's go.sum (%v)", err)
	}
	lintScript, diffScript := scripts["Lint"], scripts["Diff snapshots against the base revision"]
	if !strings.Contains(lintScript, "--format github") || diffScript == "" {
		t.Fatalf("action.yml lost its lint or diff step")
	}

	bin := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, "pilotage-lint"), ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	work := t.TempDir()
	runStep := func(script string, env map[string]string, inputs map[string]string) (string, error) {
		cmd := exec.Command("bash", "-c", script)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "NO_COLOR=1",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		for k, v := range env {
			m := inputRef.FindStringSubmatch(v)
			if m == nil {
				t.Fatalf("env %s=%s names no input", k, v)
			}
			val, ok := inputs[m[1]]
			if !ok {
				val = a.Inputs[m[1]].Default
			}
			cmd.Env = append(cmd.Env, k+"="+val)
		}
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	git := func(args ...string) {
		t.Helper()
		if out, err := runStep("git "+strings.Join(args, " "), nil, nil); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	copyFile := func(src, dst string) {
		t.Helper()
		b, err := os.ReadFile(src)
		must(t, err)
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(work, dst)), 0o755))
		must(t, os.WriteFile(filepath.Join(work, dst), b, 0o644))
	}

	// Lint: a defective snapshot fails the step, annotates, writes SARIF.
	copyFile(repoPath(t, "fixtures/examples/bad-server.snapshot.json"), "snapshots/pilotage-server.json")
	out, err := runStep(lintScript, envs["Lint"], map[string]string{"sarif": "true", "args": "--no-config"})
	if err == nil || !strings.Contains(out, "::error file=snapshots/pilotage-server.json,line=") {
		t.Errorf("lint step on a defective snapshot: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(work, "pilotage-lint.sarif")); err != nil {
		t.Errorf("no SARIF file: %v", err)
	}

	// Diff: the base has the compliant snapshot, HEAD the faulty one.
	must(t, os.Remove(filepath.Join(work, "snapshots/pilotage-server.json")))
	git("init", "-q", "-b", "main")
	copyFile(filepath.Join(repoPath(t, "lint/snapshotter/testdata"), "compliant.snapshot.json"), "snapshots/pilotage-server.json")
	git("add", "snapshots")
	git("commit", "-qm", "base")
	git("checkout", "-q", "-b", "feature")
	copyFile(filepath.Join(repoPath(t, "lint/snapshotter/testdata"), "faulty.snapshot.json"), "snapshots/pilotage-server.json")
	copyFile(repoPath(t, "fixtures/examples/good-server.snapshot.json"), "snapshots/new-server.json")
	git("add", "snapshots")
	git("commit", "-qm", "head")
	out, err = runStep(diffScript, envs["Diff snapshots against the base revision"], map[string]string{"diff-base": "main"})
	if err == nil || !strings.Contains(out, "::error file=snapshots/pilotage-server.json") || !strings.Contains(out, "diff-trace-weakened") {
		t.Errorf("diff step: %v\n%s", err, out)
	}
	// A snapshot the base does not have is all additions: notices, which
	// do not fail the step.
	if !strings.Contains(out, "::notice file=snapshots/new-server.json") || strings.Contains(out, "::error file=snapshots/new-server.json") {
		t.Errorf("the diff step's additions:\n%s", out)
	}
	// A deleted snapshot is all removals; a renamed one is diffed with
	// its old path.
	git("rm", "-q", "snapshots/new-server.json")
	git("mv", "snapshots/pilotage-server.json", "snapshots/pilotage-renamed.json")
	git("commit", "-qm", "delete-and-rename")
	out, err = runStep(diffScript, envs["Diff snapshots against the base revision"], map[string]string{"diff-base": "HEAD~1"})
	if err == nil || !strings.Contains(out, "::error file=snapshots/new-server.json") || strings.Contains(out, "pilotage-renamed.json") {
		t.Errorf("diff step, deleted and renamed: %v\n%s", err, out)
	}
	// No change, no finding.
	out, err = runStep(diffScript, envs["Diff snapshots against the base revision"], map[string]string{"diff-base": "HEAD"})
	if err != nil {
		t.Errorf("diff against itself: %v\n%s", err, out)
	}
}

func values(ms ...map[string]string) []string {
	var out []string
	for _, m := range ms {
		for _, v := range m {
			out = append(out, v)
		}
	}
	return out
}

// TestActionWorkflow checks the README's workflow against action.yml: it
// uses this action with inputs the action declares, and checks out enough
// history for diff-base.
func TestActionWorkflow(t *testing.T) {
	data, err := os.ReadFile(repoPath(t, "action.yml"))
	must(t, err)
	var a action
	must(t, yaml.Unmarshal(data, &a))
	block := readmeBlock(t, "```yaml\n# .github/workflows/pilotage.yml\n")
	var wf workflow
	must(t, yaml.Unmarshal([]byte(block), &wf))
	steps := wf.Jobs["pilotage"].Steps
	if len(steps) != 2 || !strings.HasPrefix(steps[0].Uses, "actions/checkout@") || steps[0].With["fetch-depth"] != "0" {
		t.Fatalf("the workflow must check out full history, then use the action: %+v", steps)
	}
	if !strings.HasPrefix(steps[1].Uses, "pilotagekit/pilotagekit@v") {
		t.Errorf("the workflow uses %q", steps[1].Uses)
	}
	for k := range steps[1].With {
		if _, ok := a.Inputs[k]; !ok {
			t.Errorf("the workflow passes %s, which action.yml does not declare", k)
		}
	}
	if wf.Permissions["security-events"] != "write" {
		t.Errorf("sarif: true needs security-events: write")
	}
}
