package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// removedMsg is diff-tool-removed's finding about tool name.
func removedMsg(name string) string {
	return fmt.Sprintf("error diff-tool-removed: tool %q is gone from tools/list", name)
}

// TestDiffAgainstSubmodule: a snapshot inside a git submodule is compared
// at the commit the revision records for the submodule, so a tool removed
// in the submodule since then is found; a submodule that is not checked
// out, or whose recorded commit its clone lacks, fails closed. Before,
// every tool of such a snapshot was reported as new and the removal
// exited 0.
func TestDiffAgainstSubmodule(t *testing.T) {
	inner := t.TempDir()
	gitIn := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main", "-c", "protocol.file.allow=always"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git := scratchRepo(t)
	top, err := os.Getwd()
	must(t, err)
	gitIn(inner, "init", "-q")
	write(t, filepath.Join(inner, "snaps", "server.json"), toolList("list_berths", "book_berth", "cancel_berth"))
	gitIn(inner, "add", ".")
	gitIn(inner, "commit", "-q", "-m", "inner base")
	gitIn(top, "submodule", "-q", "add", inner, "dock")
	write(t, "snaps/own.json", toolList("weather_now"))
	git("add", ".")
	git("commit", "-q", "-m", "base")

	// The submodule drops a tool; the superproject records the new commit.
	write(t, "dock/snaps/server.json", toolList("list_berths", "book_berth"))
	gitIn(filepath.Join(top, "dock"), "commit", "-q", "-a", "-m", "drop cancel_berth")
	git("commit", "-q", "-a", "-m", "bump dock")
	for _, paths := range [][]string{{"."}, {"dock"}, {"dock/snaps"}, {"dock/snaps/server.json"}} {
		code, out, errOut := cli(t, "", "", append([]string{"diff", "--no-config", "--against", "HEAD~1"}, paths...)...)
		if code != exitFindings || !strings.Contains(out, "dock/snaps/server.json:2:12: "+removedMsg("cancel_berth")) || strings.Contains(out, "diff-tool-added") || errOut != "" {
			t.Errorf("%v: exit %d, stderr %q, output:\n%s", paths, code, errOut, out)
		}
	}
	// A submodule left out of the walk (by --exclude) is not read.
	if code, out, errOut := cli(t, "", "", "diff", "--no-config", "--against", "HEAD~1", "--exclude", "dock", "."); code != exitOK || errOut != "" {
		t.Errorf("--exclude dock: exit %d, stderr %q, output:\n%s", code, errOut, out)
	}

	// The revision records a commit the submodule's clone lacks.
	missing := strings.Repeat("ab", 20)
	git("update-index", "--cacheinfo", "160000,"+missing+",dock")
	git("commit", "-q", "-m", "dock at a commit nobody fetched")
	code, _, errOut := cli(t, "", "", "diff", "--no-config", "--against", "HEAD", ".")
	if want := "pilotage-lint diff: dock is a git submodule, and HEAD records its commit abababababab, which its clone lacks, so its snapshots at HEAD cannot be read; fetch it with git submodule update --init dock (or git -C dock fetch), or leave it out with --exclude dock\n"; code != exitUsage || errOut != want {
		t.Errorf("missing commit: exit %d, stderr %q, want %q", code, errOut, want)
	}
	// A submodule that is not checked out at all.
	git("update-index", "--add", "--cacheinfo", "160000,"+missing+",harbour")
	git("commit", "-q", "-m", "a submodule never cloned")
	code, _, errOut = cli(t, "", "", "diff", "--no-config", "--against", "HEAD", "--exclude", "dock", ".")
	if want := "pilotage-lint diff: harbour is a git submodule, and HEAD records its commit abababababab, but the submodule is not checked out here, so its snapshots at HEAD cannot be read; run git submodule update --init harbour (in GitHub Actions, actions/checkout with submodules: true), or leave it out with --exclude harbour\n"; code != exitUsage || errOut != want {
		t.Errorf("not checked out: exit %d, stderr %q, want %q", code, errOut, want)
	}
}

// lfsPointerText is a Git LFS pointer file, as git stores an LFS-tracked
// file and as a checkout without the LFS objects leaves it.
const lfsPointerText = "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 1873\n"

// TestDiffAgainstLFSPointer: a snapshot stored as a Git LFS pointer, at the
// revision or in the work tree, fails closed saying so, naming the object
// as lint does (one detector, lint/source's), and how to fetch the
// objects. Before, it failed with "unexpected 'v'".
func TestDiffAgainstLFSPointer(t *testing.T) {
	git := scratchRepo(t)
	write(t, "snaps/server.json", []byte(lfsPointerText))
	git("add", ".")
	git("commit", "-q", "-m", "base, as LFS stores it")
	write(t, "snaps/server.json", toolList("list_berths"))
	code, _, errOut := cli(t, "", "", "diff", "--no-config", "--against", "HEAD", "snaps")
	if want := "pilotage-lint diff: HEAD:snaps/server.json: the file is a Git LFS pointer (object sha256:4d7a214614ab… of 1873 bytes) at HEAD, not the snapshot, and diff --against reads revisions with git, which does not fetch LFS objects; compare by hand: git lfs pull, then git show HEAD:snaps/server.json | git lfs smudge > old.json and pilotage-lint diff old.json snaps/server.json\n"; code != exitUsage || errOut != want {
		t.Errorf("at the revision: exit %d, stderr %q, want %q", code, errOut, want)
	}
	// The work tree holds the pointer (a checkout without lfs: true).
	write(t, "snaps/server.json", toolList("list_berths"))
	git("commit", "-q", "-a", "-m", "real JSON")
	write(t, "snaps/server.json", []byte(lfsPointerText))
	code, _, errOut = cli(t, "", "", "diff", "--no-config", "--against", "HEAD", "snaps")
	if want := "pilotage-lint diff: snaps/server.json:1:1: the file is a Git LFS pointer (object sha256:4d7a214614ab… of 1873 bytes), not the JSON it stands for, so nothing in it was read; fetch the LFS objects with git lfs pull (in GitHub Actions, actions/checkout with lfs: true) and run again\n"; code != exitUsage || errOut != want {
		t.Errorf("in the work tree: exit %d, stderr %q, want %q", code, errOut, want)
	}
	// lint says the same, as a finding.
	code, out, _ := cli(t, "", "", "--no-config", "snaps")
	if code != exitFindings || !strings.Contains(out, "snaps/server.json:1:1: error json-syntax: the file is a Git LFS pointer") {
		t.Errorf("lint: exit %d, output:\n%s", code, out)
	}
}

// TestDiffAgainstSymlink: a committed symbolic link to a snapshot inside
// the repository is followed at the revision as on disk, so a tool removed
// from the file it names is found; a link out of the repository fails
// closed saying what it is. Before, the link's text was parsed as JSON.
func TestDiffAgainstSymlink(t *testing.T) {
	git := scratchRepo(t)
	write(t, "data/server.json", toolList("list_berths", "book_berth"))
	must(t, os.MkdirAll("snaps", 0o755))
	must(t, os.Symlink("../data/server.json", "snaps/current.json"))
	must(t, os.Symlink("current.json", "snaps/latest.json"))
	git("add", ".")
	git("commit", "-q", "-m", "base")
	write(t, "data/server.json", toolList("list_berths"))
	code, out, errOut := cli(t, "", "", "diff", "--no-config", "--against", "HEAD", "snaps")
	for _, f := range []string{"snaps/current.json", "snaps/latest.json"} {
		if !strings.Contains(out, f+":2:12: "+removedMsg("book_berth")) {
			t.Errorf("%s: no removal found", f)
		}
	}
	if code != exitFindings || errOut != "" {
		t.Errorf("inside: exit %d, stderr %q, output:\n%s", code, errOut, out)
	}

	outside := filepath.Join(t.TempDir(), "server.json")
	write(t, outside, toolList("list_berths"))
	must(t, os.Symlink(outside, "snaps/elsewhere.json"))
	git("add", ".")
	git("commit", "-q", "-m", "a link out")
	code, _, errOut = cli(t, "", "", "diff", "--no-config", "--against", "HEAD", "snaps")
	if want := "pilotage-lint diff: HEAD:snaps/elsewhere.json: a symbolic link to " + outside + " at HEAD, outside the repository, which diff --against does not follow; commit the snapshot itself, or compare by hand with pilotage-lint diff\n"; code != exitUsage || !strings.Contains(errOut, want) {
		t.Errorf("outside: exit %d, stderr %q, want %q", code, errOut, want)
	}
}
