package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pilotagekit/pilotagekit/internal/needtool"
)

// TestPreCommitHook runs the real pre-commit tool with this repository's
// .pre-commit-hooks.yaml: pre-commit builds pilotage-lint with `go install`
// as it would for any user, installs itself as a git hook in a sample
// repository, and must then refuse a commit of a defective snapshot while
// accepting a clean one and ignoring JSON that does not follow the naming
// convention. The hook is taken from the repository's HEAD commit, as
// pre-commit clones a revision; CI runs on a fresh clone, where HEAD is
// the code under test.
func TestPreCommitHook(t *testing.T) {
	needtool.Path(t, "apt-get install pre-commit", "pre-commit")
	root, err := exec.Command("git", "-C", "..", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not in a git checkout: %v", err)
	}
	hookRepo := strings.TrimSpace(string(root))
	rev, err := exec.Command("git", "-C", hookRepo, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(filepath.Join(hookRepo, "fixtures/examples/good-server.snapshot.json"))
	must(t, err)
	bad, err := os.ReadFile(filepath.Join(hookRepo, "fixtures/examples/bad-server.snapshot.json"))
	must(t, err)

	tmp := t.TempDir()
	repo := filepath.Join(tmp, "sample")
	must(t, os.MkdirAll(filepath.Join(repo, "snapshots"), 0o755))
	sh := hookShell(t, tmp, repo)
	// The README's .pre-commit-config.yaml, pointed at this checkout.
	config := readmeBlock(t, "```yaml\n# .pre-commit-config.yaml\n")
	config = strings.Replace(config, "https://github.com/pilotagekit/pilotagekit", hookRepo, 1)
	config = regexp.MustCompile(`rev: \S+`).ReplaceAllString(config, "rev: "+strings.TrimSpace(string(rev)))
	must(t, os.WriteFile(filepath.Join(repo, ".pre-commit-config.yaml"), []byte(config), 0o644))
	must(t, os.WriteFile(filepath.Join(repo, "mcp-good.json"), good, 0o644))
	must(t, os.WriteFile(filepath.Join(repo, "package.json"), []byte("{not json"), 0o644))
	// MCP client configs match the hook's pattern but are no server
	// surface: skipped quietly, even with comments.
	must(t, os.MkdirAll(filepath.Join(repo, ".vscode"), 0o755))
	must(t, os.MkdirAll(filepath.Join(repo, ".cursor"), 0o755))
	must(t, os.WriteFile(filepath.Join(repo, ".vscode", "mcp.json"), []byte("{\n  // the team's servers\n  \"servers\": {\"x\": {\"command\": \"npx\", \"args\": [\"-y\", \"x\"]}},\n}\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(repo, ".cursor", "mcp.json"), []byte(`{"mcpServers": {"x": {"command": "npx"}}}`), 0o644))
	must(t, os.WriteFile(filepath.Join(repo, "mcp.json"), []byte(`{"mcpServers": {"y": {"url": "https://example.com/mcp"}}}`), 0o644))

	sh(true, "git", "init", "-q")
	sh(true, "pre-commit", "install")
	sh(true, "git", "add", ".")
	out := sh(true, "git", "commit", "-q", "-m", "clean snapshot and client configs")
	if !strings.Contains(out, "pilotage-lint") || !strings.Contains(out, "Passed") {
		t.Fatalf("the hook did not run on mcp-good.json:\n%s", out)
	}
	if strings.Contains(out, "mcp.json") {
		t.Errorf("the hook said something about an MCP client config:\n%s", out)
	}

	must(t, os.WriteFile(filepath.Join(repo, "snapshots", "pilotage-server.json"), bad, 0o644))
	sh(true, "git", "add", ".")
	out = sh(false, "git", "commit", "-q", "-m", "defective snapshot")
	for _, want := range []string{"Failed", "snapshots/pilotage-server.json:", " error ", "in 1 file"} {
		if !strings.Contains(out, want) {
			t.Errorf("a defective snapshot's commit output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "package.json") {
		t.Errorf("the hook linted a file outside the naming convention:\n%s", out)
	}
}

// readmeBlock returns the body of the README's fenced block that starts
// with start (the fence line and what follows it), up to the closing fence.
func readmeBlock(t *testing.T, start string) string {
	t.Helper()
	readme, err := os.ReadFile(repoPath(t, "README.md"))
	must(t, err)
	_, rest, ok := strings.Cut(string(readme), start)
	if !ok {
		t.Fatalf("README lost the block starting %q", start)
	}
	body, _, _ := strings.Cut(rest, "```")
	_, afterFence, _ := strings.Cut(start, "\n")
	return afterFence + body
}

// TestPreCommitBaselineTwoFiles drives the real hook with a baseline across
// two snapshots: a commit that stages one of them is not told that the
// other's entries no longer occur, --write-baseline on that one file keeps
// the other's entries, and a later commit of the other still passes.
func TestPreCommitBaselineTwoFiles(t *testing.T) {
	needtool.Path(t, "apt-get install pre-commit", "pre-commit")
	root, err := exec.Command("git", "-C", "..", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not in a git checkout: %v", err)
	}
	hookRepo := strings.TrimSpace(string(root))
	rev, err := exec.Command("git", "-C", hookRepo, "rev-parse", "HEAD").Output()
	must(t, err)
	bad, err := os.ReadFile(filepath.Join(hookRepo, "fixtures/examples/bad-server.snapshot.json"))
	must(t, err)

	tmp := t.TempDir()
	repo := filepath.Join(tmp, "sample")
	must(t, os.MkdirAll(filepath.Join(repo, "snapshots"), 0o755))
	bin := filepath.Join(tmp, "bin")
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, "pilotage-lint"), ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	sh := hookShell(t, tmp, repo)
	config := "repos:\n  - repo: " + hookRepo + "\n    rev: " + strings.TrimSpace(string(rev)) + "\n    hooks:\n      - id: pilotage-lint\n        args: [--baseline, pilotage-baseline.json]\n        verbose: true\n"
	must(t, os.WriteFile(filepath.Join(repo, ".pre-commit-config.yaml"), []byte(config), 0o644))
	a, b := filepath.Join("snapshots", "pilotage-a.json"), filepath.Join("snapshots", "pilotage-b.json")
	must(t, os.WriteFile(filepath.Join(repo, a), bad, 0o644))
	must(t, os.WriteFile(filepath.Join(repo, b), bad, 0o644))
	lintBin := filepath.Join(bin, "pilotage-lint")
	out := sh(true, lintBin, "--write-baseline", "pilotage-baseline.json", "snapshots")
	if !strings.Contains(out, "recorded 20 findings in baseline pilotage-baseline.json\n") {
		t.Fatalf("adoption: %s", out)
	}

	sh(true, "git", "init", "-q")
	sh(true, "pre-commit", "install")
	sh(true, "git", "add", ".")
	out = sh(true, "git", "commit", "-q", "-m", "adopt")
	if !strings.Contains(out, "Passed") {
		t.Fatalf("the hook did not pass the baselined snapshots:\n%s", out)
	}

	// Touch a only: the hook lints a alone and must say nothing of b.
	must(t, os.WriteFile(filepath.Join(repo, a), append(bad, '\n'), 0o644))
	sh(true, "git", "add", a)
	out = sh(true, "git", "commit", "-q", "-m", "touch a")
	// verbose: true shows the hook's output even when it passes.
	if !strings.Contains(out, "Passed") || !strings.Contains(out, "10 findings suppressed by baseline") || strings.Contains(out, "no longer occur") {
		t.Errorf("a commit of one file reported the other's entries as stale:\n%s", out)
	}

	// Rewriting the baseline from a run of a alone keeps b's entries.
	out = sh(true, lintBin, "--write-baseline", "pilotage-baseline.json", a)
	if !strings.Contains(out, "recorded 10 findings in baseline pilotage-baseline.json, and kept 10 of files this run did not lint") {
		t.Errorf("partial --write-baseline: %s", out)
	}
	base, err := os.ReadFile(filepath.Join(repo, "pilotage-baseline.json"))
	must(t, err)
	if n := strings.Count(string(base), `"file": "snapshots/pilotage-b.json"`); n != 10 {
		t.Errorf("the baseline kept %d entries of b:\n%s", n, base)
	}
	// a's findings are those recorded, so the rewrite changes nothing.
	if st := sh(true, "git", "status", "--porcelain"); st != "" {
		t.Errorf("rewriting the baseline from a changed it:\n%s", st)
	}

	// b still passes, and a fixed defect of b is stale news for b only.
	must(t, os.WriteFile(filepath.Join(repo, b), append(bad, '\n'), 0o644))
	sh(true, "git", "add", b)
	out = sh(true, "git", "commit", "-q", "-m", "touch b")
	if !strings.Contains(out, "Passed") {
		t.Errorf("b lost its baseline entries:\n%s", out)
	}
	must(t, os.WriteFile(filepath.Join(repo, b), []byte(`{"tools": []}`+"\n"), 0o644))
	sh(true, "git", "add", b)
	out = sh(true, "git", "commit", "-q", "-m", "fix b")
	if !strings.Contains(out, "10 findings in baseline pilotage-baseline.json no longer occur") {
		t.Errorf("fixing b did not report b's entries as stale:\n%s", out)
	}
}

// hookShell returns a runner of commands in repo for the pre-commit tests:
// pre-commit keeps its state under tmp, reuses this machine's module cache
// instead of downloading into the hook's fresh GOPATH, and commits as a
// fixed author. A command must succeed or fail as wanted, within 8 minutes.
func hookShell(t *testing.T, tmp, repo string) func(wantOK bool, name string, args ...string) string {
	gomodcache, _ := exec.Command("go", "env", "GOMODCACHE").Output()
	env := append(os.Environ(),
		"PRE_COMMIT_HOME="+filepath.Join(tmp, "pre-commit-home"),
		"GOMODCACHE="+strings.TrimSpace(string(gomodcache)),
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
		"NO_COLOR=1",
	)
	return func(wantOK bool, name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = repo, env
		timer := time.AfterFunc(8*time.Minute, func() {
			if cmd.Process != nil {
				cmd.Process.Kill()
			}
		})
		defer timer.Stop()
		out, err := cmd.CombinedOutput()
		if (err == nil) != wantOK {
			t.Fatalf("%s %v: error %v, want success %v\n%s", name, args, err, wantOK, out)
		}
		return string(out)
	}
}
