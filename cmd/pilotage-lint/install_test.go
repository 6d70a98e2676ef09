package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeInstall runs the README's install-from-a-clone command with
// GOBIN in a temporary folder, then checks the three tools are there and
// that pilotage-lint finds pilotage-lint-snapshot beside itself, with
// nothing on PATH.
func TestReadmeInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("installs the tools")
	}
	readme, err := os.ReadFile(repoPath(t, "README.md"))
	must(t, err)
	_, rest, ok := strings.Cut(string(readme), "## Install\n")
	if !ok {
		t.Fatal("README lost its Install section")
	}
	_, rest, _ = strings.Cut(rest, "```sh\n")
	command, _, _ := strings.Cut(rest, "\n```")
	if command != "go install ./cmd/..." {
		t.Fatalf("the README's first install command is %q; update this test", command)
	}
	gobin := t.TempDir()
	cmd := exec.Command("sh", "-c", command)
	cmd.Dir = repoPath(t, ".")
	cmd.Env = append(os.Environ(), "GOBIN="+gobin)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", command, err, out)
	}
	for _, tool := range []string{"pilotage-lint", "pilotage-lint-snapshot", "pilotage-vet"} {
		if _, err := os.Stat(filepath.Join(gobin, tool)); err != nil {
			t.Errorf("%s was not installed: %v", tool, err)
		}
	}
	lint := filepath.Join(gobin, "pilotage-lint")
	if out, err := exec.Command(lint, "--version").Output(); err != nil || !strings.HasPrefix(string(out), "pilotage-lint ") {
		t.Errorf("--version: %v %q", err, out)
	}
	help := exec.Command(lint, "snapshot", "--help")
	help.Env = append(os.Environ(), "PATH="+t.TempDir())
	out, err := help.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "usage: pilotage-lint snapshot") || !strings.Contains(string(out), "--header") {
		t.Errorf("pilotage-lint snapshot --help beside its helper: %v\n%s", err, out)
	}
}
