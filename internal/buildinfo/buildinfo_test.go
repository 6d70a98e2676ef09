package buildinfo

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

func TestFromInfo(t *testing.T) {
	for _, tc := range []struct {
		main     string
		settings map[string]string
		want     string
	}{
		{"v0.3.1", map[string]string{"vcs.revision": "0123456789abcdef"}, "v0.3.1"},
		{"v0.0.0-20261203075406-bb8fe8ca932c+dirty", nil, "v0.0.0-20261203075406-bb8fe8ca932c+dirty"},
		{"(devel)", map[string]string{"vcs.revision": "bb8fe8ca932cc8935f147315e28659b880dfdcf9"}, "devel+bb8fe8ca932c"},
		{"(devel)", map[string]string{"vcs.revision": "bb8fe8ca932cc8935f147315e28659b880dfdcf9", "vcs.modified": "true"}, "devel+bb8fe8ca932c-dirty"},
		{"(devel)", nil, "devel"},
		{"", nil, "devel"},
	} {
		bi := &debug.BuildInfo{Main: debug.Module{Version: tc.main}}
		for k, v := range tc.settings {
			bi.Settings = append(bi.Settings, debug.BuildSetting{Key: k, Value: v})
		}
		if got := fromInfo(bi); got != tc.want {
			t.Errorf("main %q settings %v: got %q, want %q", tc.main, tc.settings, got, tc.want)
		}
	}
}

// TestCloneBuildReportsRevision builds pilotage-lint from a fresh clone of
// this repository, as `go install ./cmd/...` does, and checks --version
// names the commit.
func TestCloneBuildReportsRevision(t *testing.T) {
	if testing.Short() {
		t.Skip("clones the repository and builds")
	}
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not in a git checkout: %v", err)
	}
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	clone := filepath.Join(t.TempDir(), "clone")
	if out, err := exec.Command("git", "clone", "-q", "--no-local", strings.TrimSpace(string(top)), clone).CombinedOutput(); err != nil {
		t.Skipf("git clone: %v\n%s", err, out)
	}
	bin := filepath.Join(t.TempDir(), "pilotage-lint")
	build := exec.Command("go", "build", "-o", bin, "./cmd/pilotage-lint")
	build.Dir = clone
	// The go command stamps VCS information by default; this machine's go
	// env may turn it off, which a user's does not.
	build.Env = append(os.Environ(), "GOFLAGS=-buildvcs=true")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if rev := strings.TrimSpace(string(head))[:12]; !strings.Contains(string(out), rev) {
		t.Errorf("--version printed %q; want the revision %s", out, rev)
	}
}

// TestStampedVersion builds pilotage-lint as npm/build.sh does, with the
// version given by -X, and checks --version prints it rather than the
// revision.
func TestStampedVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	bin := filepath.Join(t.TempDir(), "pilotage-lint")
	build := exec.Command("go", "build", "-ldflags", "-X github.com/pilotagekit/pilotagekit/internal/buildinfo.stamped=v9.8.7-rc.1", "-o", bin, "../../cmd/pilotage-lint")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != "pilotage-lint v9.8.7-rc.1" {
		t.Errorf("--version printed %q; want the stamped version", got)
	}
}
