package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/internal/needtool"
)

// toolList is a tools/list result with one tool per name, indented as a
// snapshot tool writes it, so that git's rename detection sees similar
// files.
func toolList(names ...string) []byte {
	type tool struct {
		Name        string         `json:"name"`
		Description string         `json:"description"`
		InputSchema map[string]any `json:"inputSchema"`
	}
	var ts []tool
	for _, n := range names {
		ts = append(ts, tool{n, fmt.Sprintf("The %s tool of the Harborview dock server: it does %s for one berth at a time, and reports what it did.", n, n),
			map[string]any{"type": "object", "properties": map[string]any{"berth": map[string]any{"type": "string"}}, "required": []string{"berth"}}})
	}
	b, _ := json.MarshalIndent(map[string]any{"tools": ts}, "", "  ")
	return append(b, '\n')
}

// scratchRepo makes a git repository in a new folder, makes it the working
// directory, and returns a function that runs git there.
func scratchRepo(t *testing.T) func(args ...string) string {
	t.Helper()
	needtool.Path(t, "apt-get install git", "git")
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q")
	return git
}

func write(t *testing.T, name string, data []byte) {
	t.Helper()
	must(t, os.MkdirAll(filepath.Dir(name), 0o755))
	must(t, os.WriteFile(name, data, 0o644))
}

// TestDiffAgainstRevision is the end-to-end test of diff --against: in a
// scratch repository, commit snapshots, then break one, delete one and
// rename one (changing it a little); diff --against HEAD~1 finds each
// change on a line of the NEW file (a deleted file's at its old lines),
// names the OLD location REV:path, and a scoped ignore accepts exactly one.
func TestDiffAgainstRevision(t *testing.T) {
	git := scratchRepo(t)
	write(t, "snaps/berths.json", toolList("list_berths", "book_berth", "cancel_berth"))
	write(t, "snaps/locks.json", toolList("lock_dock", "unlock_dock"))
	write(t, "snaps/weather.json", toolList("weather_now", "tide_table", "wind_forecast", "swell_forecast"))
	write(t, "snaps/package.json", []byte(`{"name": "snaps", "version": "1.0.0"}`+"\n"))
	write(t, "other/outside.json", toolList("outside"))
	git("add", ".")
	git("commit", "-q", "-m", "base")

	write(t, "snaps/berths.json", toolList("list_berths", "book_berth"))
	git("rm", "-q", "snaps/locks.json")
	git("mv", "snaps/weather.json", "snaps/marine.json")
	write(t, "snaps/marine.json", toolList("weather_now", "tide_table", "wind_forecast"))
	must(t, os.Remove("other/outside.json"))
	git("commit", "-q", "-a", "-m", "break, delete, rename")
	if got := git("diff", "--name-status", "-M", "HEAD~1", "--", "snaps"); !strings.Contains(got, "R") {
		t.Fatalf("git does not see the rename:\n%s", got)
	}

	removed := `error diff-tool-removed: tool %q is gone from tools/list; agents and Host policies that call it break, so keep it or keep its old name beside the new one (Part III §4)`
	want := strings.Join([]string{
		"snaps/berths.json:2:12: " + fmt.Sprintf(removed, "cancel_berth"),
		"HEAD~1:snaps/berths.json:34:15: note: the old location",
		"snaps/locks.json:4:15: " + fmt.Sprintf(removed, "lock_dock"),
		"HEAD~1:snaps/locks.json:4:15: note: the old location; the file was deleted since HEAD~1",
		"snaps/locks.json:19:15: " + fmt.Sprintf(removed, "unlock_dock"),
		"HEAD~1:snaps/locks.json:19:15: note: the old location; the file was deleted since HEAD~1",
		"snaps/marine.json:2:12: " + fmt.Sprintf(removed, "swell_forecast"),
		"HEAD~1:snaps/weather.json:49:15: note: the old location",
		"4 errors, 0 warnings, 0 infos in 3 files",
		"",
	}, "\n")
	code, out, errOut := cli(t, "", "", "diff", "--no-config", "--against", "HEAD~1", "snaps")
	if code != exitFindings || out != want || errOut != "" {
		t.Errorf("exit %d, stderr %q, output:\n%s\nwant:\n%s", code, errOut, out, want)
	}
	// Each finding of a file that still exists is on a line of it.
	for _, l := range strings.Split(out, "\n") {
		if f, _, ok := strings.Cut(l, ":"); ok && strings.HasPrefix(l, "snaps/") && f != "snaps/locks.json" {
			if _, err := os.Stat(f); err != nil {
				t.Errorf("finding on a file that does not exist: %s", l)
			}
		}
	}

	// One scoped ignore accepts the rename's removal, and nothing else.
	write(t, ".pilotage-lint.yaml", []byte("ignore:\n  - rule: diff-tool-removed\n    path: snaps/marine.json\n    pointer: /tools/[name=swell_forecast]\n"))
	code, out, _ = cli(t, "", "", "diff", "--against", "HEAD~1", "snaps")
	if code != exitFindings || strings.Contains(out, "swell_forecast") || !strings.Contains(out, "3 errors, 0 warnings, 0 infos in 3 files") {
		t.Errorf("scoped ignore: exit %d, output:\n%s", code, out)
	}
	// Scoped to another path, it accepts nothing.
	write(t, ".pilotage-lint.yaml", []byte("ignore:\n  - rule: diff-tool-removed\n    path: snaps/berths.json\n    pointer: /tools/[name=swell_forecast]\n"))
	if _, out, _ = cli(t, "", "", "diff", "--against", "HEAD~1", "snaps"); !strings.Contains(out, "4 errors") {
		t.Errorf("an ignore scoped to another file took effect:\n%s", out)
	}
	must(t, os.Remove(".pilotage-lint.yaml"))

	// A new snapshot is all additions; the same revision finds no change.
	write(t, "snaps/new.json", toolList("hail_pilot"))
	code, out, _ = cli(t, "", "", "diff", "--no-config", "--fail-on", "info", "--against", "HEAD", "snaps")
	if code != exitFindings || out != "snaps/new.json:4:15: info diff-tool-added: tool \"hail_pilot\" is new (Part III §4)\n0 errors, 0 warnings, 1 info in 3 files\n" {
		t.Errorf("against HEAD: exit %d, output:\n%s", code, out)
	}

	// REV:path compares one file; - with --stdin-filename pipes it.
	code, out, _ = cli(t, "", "", "diff", "--no-config", "--against", "HEAD~1:snaps/berths.json")
	if code != exitFindings || !strings.HasPrefix(out, "snaps/berths.json:2:12: "+fmt.Sprintf(removed, "cancel_berth")+"\nHEAD~1:snaps/berths.json:34:15: note: the old location\n") {
		t.Errorf("REV:path: exit %d, output:\n%s", code, out)
	}
	old := git("show", "HEAD~1:snaps/berths.json")
	code, out, _ = cli(t, "", old, "diff", "--no-config", "--stdin-filename", "main:snaps/berths.json", "-", "snaps/berths.json")
	if code != exitFindings || !strings.Contains(out, "main:snaps/berths.json:34:15: note: the old location") {
		t.Errorf("--stdin-filename: exit %d, output:\n%s", code, out)
	}
}

// TestDiffAgainstFailsClosed: a revision that is not there, a folder
// outside git, and a target set with no snapshot are exit 2 with a
// message; --allow-empty accepts the empty set.
func TestDiffAgainstFailsClosed(t *testing.T) {
	git := scratchRepo(t)
	write(t, "snaps/a.json", toolList("a"))
	must(t, os.MkdirAll("empty", 0o755))
	git("add", ".")
	git("commit", "-q", "-m", "base")
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--against", "nope", "snaps"}, exitUsage, `pilotage-lint diff: --against "nope": no such commit in this repository (a shallow clone may lack it: fetch it, or check out with fetch-depth 0)`},
		{[]string{"--against", "HEAD", "empty"}, exitUsage, "pilotage-lint diff: no snapshots were targeted: path empty at HEAD and in the work tree; check the paths and --exclude, or pass --allow-empty"},
		{[]string{"--against", "HEAD", "--exclude", "a.json", "snaps"}, exitUsage, "no snapshots were targeted"},
		{[]string{"--against", "HEAD", "--allow-empty", "empty"}, exitOK, ""},
		{[]string{"--against", "HEAD", "missing"}, exitUsage, "pilotage-lint diff: missing: no such file or directory"},
		{[]string{"--against", "HEAD"}, exitUsage, "give the paths to compare with --against"},
		{[]string{"--against", "HEAD", "snaps"}, exitOK, ""},
		{[]string{"--against", "HEAD:snaps/a.json", "a", "b"}, exitUsage, "names one file"},
		{[]string{"--against", "HEAD:snaps/gone.json"}, exitUsage, "snaps/gone.json"},
	} {
		code, _, errOut := cli(t, "", "", append([]string{"diff", "--no-config"}, tc.args...)...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d, want %d; stderr %q, want %q", tc.args, code, tc.code, errOut, tc.msg)
		}
	}
	outside := t.TempDir()
	t.Chdir(outside)
	write(t, "a.json", toolList("a"))
	if code, _, errOut := cli(t, "", "", "diff", "--against", "HEAD", "."); code != exitUsage || !strings.Contains(errOut, "--against needs a git work tree") {
		t.Errorf("outside git: exit %d, stderr %q", code, errOut)
	}
}

// TestDiffAgainstGitProcesses: the git processes diff --against starts do
// not grow with the number of snapshots: the tree is listed once, with the
// object id of every file, and the blobs are read through one git cat-file
// --batch per repository. Before, each file started six (one ls-tree per
// component of its path, then cat-file): 1,205 for 200 snapshots under
// a/b/c/d/ (review B 1i).
func TestDiffAgainstGitProcesses(t *testing.T) {
	git := scratchRepo(t)
	const n = 200
	for i := range n {
		write(t, fmt.Sprintf("a/b/c/d/s%03d.json", i), toolList(fmt.Sprintf("tool_%d", i), "list_berths"))
	}
	git("add", ".")
	git("commit", "-q", "-m", "base")
	write(t, "a/b/c/d/s007.json", toolList("tool_7"))
	must(t, os.Remove("a/b/c/d/s100.json"))

	// A git on PATH that counts its runs, then runs the real one.
	real, err := exec.LookPath("git")
	must(t, err)
	bin := t.TempDir()
	count := filepath.Join(bin, "count")
	write(t, filepath.Join(bin, "git"), []byte("#!/bin/sh\necho \"$*\" >> '"+count+"'\nexec '"+real+"' \"$@\"\n"))
	must(t, os.Chmod(filepath.Join(bin, "git"), 0o755))
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))

	code, out, errOut := cli(t, "", "", "diff", "--no-config", "--against", "HEAD", "a")
	if code != exitFindings || errOut != "" || strings.Count(out, "error diff-tool-removed") != 3 || !strings.Contains(out, "3 errors, 0 warnings, 0 infos in 200 files") {
		t.Errorf("exit %d, stderr %q, output:\n%s", code, errOut, out)
	}
	data, err := os.ReadFile(count)
	must(t, err)
	if runs := strings.Count(string(data), "\n"); runs > 10 {
		t.Errorf("%d git processes for %d snapshots, want at most 10:\n%s", runs, n, data[:min(len(data), 2000)])
	}
}
