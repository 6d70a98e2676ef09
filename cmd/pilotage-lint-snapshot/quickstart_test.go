package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeQuickStartProbe runs the README's quick-start probe block as
// written, from the repository root, with its two output files moved into
// a temporary folder, and checks the figures the README promises.
func TestReadmeQuickStartProbe(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs three programs")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile("(?s)Then probe a running server.*?```sh\n(.*?)```").FindSubmatch(readme)
	if block == nil {
		t.Fatal("README lost its quick-start probe block")
	}
	promise := regexp.MustCompile("`(probe coverage: [^`]*)`").FindSubmatch(readme)
	if promise == nil {
		t.Fatal("README no longer states the probe coverage line")
	}
	lines := strings.Split(strings.TrimSpace(string(block[1])), "\n")
	if len(lines) != 3 {
		t.Fatalf("the quick-start probe block has %d commands, this test runs 3", len(lines))
	}
	dir := t.TempDir()
	repl := strings.NewReplacer("server.snapshot.json", filepath.Join(dir, "server.snapshot.json"), "report.html", filepath.Join(dir, "report.html"))
	var outs []string
	for i, line := range lines {
		cmd := exec.Command("sh", "-c", repl.Replace(line))
		cmd.Dir = "../.."
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("command %d (%s): %v\n%s", i+1, line, err, out)
		}
		outs = append(outs, string(out))
	}
	if !strings.Contains(outs[1], "0 errors, ") || !strings.Contains(outs[1], string(promise[1])) {
		t.Errorf("the second command does not print what the README says (%q):\n%s", promise[1], outs[1])
	}
	if page, err := os.ReadFile(filepath.Join(dir, "report.html")); err != nil || !strings.Contains(string(page), "PIL-EXECUTE-STORE-UNSUPPORTED-B") {
		t.Errorf("report.html lacks the probes: %v", err)
	}
}
