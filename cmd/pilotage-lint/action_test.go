package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/internal/needtool"
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

// bashOnly are constructs of bash that bash 3.2 (GitHub's macOS images) or
// a POSIX shell lacks or treats otherwise: arrays (an empty one under set
// -u fails in bash 3.2), [[ ]], pipefail, here-strings, $'...' quoting,
// declare and local.
var bashOnly = regexp.MustCompile(`\[\[|\[@\]|\[\*\]|=\(|pipefail|<<<|\$'|\bdeclare\b|\blocal\b|\bmapfile\b|\breadarray\b`)

// TestAction checks action.yml and runs its scripts as the runner would,
// under bash --posix and under dash (a POSIX shell stricter than bash 3.2,
// the bash of GitHub's macOS images), with pilotage-lint built from this
// checkout: annotations and a SARIF file for a defective snapshot, a diff
// finding for a snapshot whose trace ceiling dropped since the base
// revision, the outputs that key the Go caches, and the refusal to install
// no version. Before, the Lint step expanded an empty array under set -u,
// which bash 3.2 refuses, and setup-go keyed its cache on a go.sum outside
// the workspace, which it cannot hash.
func TestAction(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pilotage-lint and runs git")
	}
	shells := map[string][]string{
		"bash --posix": {needtool.Path(t, "apt-get install bash", "bash"), "--posix", "-c"},
		"dash":         {needtool.Path(t, "apt-get install dash", "dash"), "-c"},
	}
	data, err := os.ReadFile(repoPath(t, "action.yml"))
	must(t, err)
	var a action
	must(t, yaml.Unmarshal(data, &a))
	if a.Runs.Using != "composite" {
		t.Fatalf("runs.using %q", a.Runs.Using)
	}
	type step struct {
		run, cond string
		env       map[string]string
	}
	scripts := map[string]step{}
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
		if s.Run == "" {
			continue
		}
		if s.Shell != "bash" {
			t.Errorf("step %q runs in %q; shell: bash is the one shell of every runner (Git Bash on Windows)", s.Name, s.Shell)
		}
		if m := bashOnly.FindString(s.Run); m != "" {
			t.Errorf("step %q uses %q, which bash 3.2 or a POSIX shell lacks:\n%s", s.Name, m, s.Run)
		}
		// Every script parses in both shells, including the install,
		// which cannot run offline.
		for name, sh := range shells {
			args := append(append([]string{}, sh[:len(sh)-1]...), "-n", sh[len(sh)-1], s.Run)
			if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
				t.Errorf("step %q does not parse in %s: %v\n%s", s.Name, name, err, out)
			}
		}
		scripts[s.Name] = step{s.Run, s.If, s.Env}
	}
	// setup-go's cache is off (it hashes only files under the workspace,
	// and the action's go.sum is not there); actions/cache keeps Go's
	// caches under a key that needs no file, saved right after the install.
	var restore, save string
	for _, st := range a.Runs.Steps {
		switch {
		case strings.HasPrefix(st.Uses, "actions/setup-go@") && st.With["cache"] != "false":
			t.Errorf("setup-go caches by %q, a go.sum it cannot hash", st.With["cache-dependency-path"])
		case strings.HasPrefix(st.Uses, "actions/cache/restore@"):
			restore = st.With["key"]
		case strings.HasPrefix(st.Uses, "actions/cache/save@"):
			save = st.With["key"]
		}
		if strings.Contains(st.With["key"]+st.With["cache-dependency-path"], "action_path") {
			t.Errorf("step %q keys a cache on a file outside the workspace", st.Name)
		}
	}
	if !strings.Contains(restore, "inputs.version || github.action_ref") || !strings.Contains(save, "cache-primary-key") {
		t.Errorf("the Go caches are not restored and saved by the installed version: restore %q, save %q", restore, save)
	}
	plain, withSARIF := scripts["Lint"], scripts["Lint, writing SARIF"]
	diffStep := scripts["Diff snapshots against the base revision"]
	if plain.cond != "${{ inputs.sarif != 'true' }}" || withSARIF.cond != "${{ inputs.sarif == 'true' }}" || !strings.Contains(plain.run, "--format github") || diffStep.run == "" {
		t.Fatalf("action.yml lost its lint steps (one per sarif value) or its diff step")
	}

	bin := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, "pilotage-lint"), ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for shell, sh := range shells {
		t.Run(shell, func(t *testing.T) {
			work := t.TempDir()
			runStep := func(s step, inputs map[string]string, extra ...string) (string, error) {
				cmd := exec.Command(sh[0], append(sh[1:], s.run)...)
				cmd.Dir = work
				cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "NO_COLOR=1",
					"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
				cmd.Env = append(cmd.Env, extra...)
				for k, v := range s.env {
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
				if out, err := runStep(step{run: "git " + strings.Join(args, " ")}, nil); err != nil {
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

			// The outputs that name Go's caches.
			outputs := filepath.Join(work, "github-output")
			if out, err := runStep(scripts["Locate Go's caches"], nil, "GITHUB_OUTPUT="+outputs); err != nil {
				t.Fatalf("Locate Go's caches: %v\n%s", err, out)
			}
			got, err := os.ReadFile(outputs)
			must(t, err)
			mods, _ := exec.Command("go", "env", "GOMODCACHE").Output()
			builds, _ := exec.Command("go", "env", "GOCACHE").Output()
			if want := "modules=" + string(mods) + "builds=" + string(builds); string(got) != want {
				t.Errorf("Go caches: GITHUB_OUTPUT holds %q, want %q", got, want)
			}
			must(t, os.Remove(outputs))
			// No version to install: an error annotation, exit 2.
			if out, err := runStep(scripts["No version to install"], nil); err == nil || !strings.HasPrefix(out, "::error title=pilotage-lint::no version to install") {
				t.Errorf("no version: %v\n%s", err, out)
			}

			// Lint: a defective snapshot fails the step and annotates; the
			// SARIF step writes the file too, the other does not.
			copyFile(repoPath(t, "fixtures/examples/bad-server.snapshot.json"), "snapshots/pilotage-server.json")
			out, err := runStep(plain, map[string]string{"args": "--no-config"})
			if err == nil || !strings.Contains(out, "::error file=snapshots/pilotage-server.json,line=") {
				t.Errorf("lint step on a defective snapshot: %v\n%s", err, out)
			}
			if _, err := os.Stat(filepath.Join(work, "pilotage-lint.sarif")); err == nil {
				t.Errorf("the lint step without sarif wrote a SARIF file")
			}
			// A path with a glob character is passed as it is, not
			// expanded by the shell.
			out, err = runStep(withSARIF, map[string]string{"args": "--no-config", "paths": "snapshots/*.json", "sarif-file": "reports/pilotage lint.sarif"})
			if err == nil || !strings.Contains(out, "snapshots/*.json: no such file or directory") {
				t.Errorf("a glob in paths: %v\n%s", err, out)
			}
			out, err = runStep(withSARIF, map[string]string{"args": "--no-config", "sarif-file": "reports/pilotage lint.sarif"})
			if err == nil || !strings.Contains(out, "::error file=snapshots/pilotage-server.json,line=") {
				t.Errorf("lint step writing SARIF: %v\n%s", err, out)
			}
			if _, err := os.Stat(filepath.Join(work, "reports", "pilotage lint.sarif")); err != nil {
				t.Errorf("no SARIF file: %v", err)
			}

			// Diff: the base has the compliant snapshot, HEAD the faulty one.
			must(t, os.RemoveAll(filepath.Join(work, "snapshots")))
			git("init", "-q", "-b", "main")
			copyFile(filepath.Join(repoPath(t, "lint/snapshotter/testdata"), "compliant.snapshot.json"), "snapshots/pilotage-server.json")
			git("add", "snapshots")
			git("commit", "-qm", "base")
			git("checkout", "-q", "-b", "feature")
			copyFile(filepath.Join(repoPath(t, "lint/snapshotter/testdata"), "faulty.snapshot.json"), "snapshots/pilotage-server.json")
			copyFile(repoPath(t, "fixtures/examples/good-server.snapshot.json"), "snapshots/new-server.json")
			git("add", "snapshots")
			git("commit", "-qm", "head")
			out, err = runStep(diffStep, map[string]string{"diff-base": "main"})
			if err == nil || !strings.Contains(out, "::error file=snapshots/pilotage-server.json") || !strings.Contains(out, "diff-trace-weakened") {
				t.Errorf("diff step: %v\n%s", err, out)
			}
			// A snapshot the base does not have is all additions: notices,
			// which do not fail the step.
			if !strings.Contains(out, "::notice file=snapshots/new-server.json") || strings.Contains(out, "::error file=snapshots/new-server.json") {
				t.Errorf("the diff step's additions:\n%s", out)
			}
			// A deleted snapshot is all removals; a renamed one is diffed
			// with its old path.
			git("rm", "-q", "snapshots/new-server.json")
			git("mv", "snapshots/pilotage-server.json", "snapshots/pilotage-renamed.json")
			git("commit", "-qm", "delete-and-rename")
			out, err = runStep(diffStep, map[string]string{"diff-base": "HEAD~1"})
			if err == nil || !strings.Contains(out, "::error file=snapshots/new-server.json") || strings.Contains(out, "pilotage-renamed.json") {
				t.Errorf("diff step, deleted and renamed: %v\n%s", err, out)
			}
			// No change, no finding.
			out, err = runStep(diffStep, map[string]string{"diff-base": "HEAD"})
			if err != nil {
				t.Errorf("diff against itself: %v\n%s", err, out)
			}
		})
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
