package main_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestVersionFull checks the answer to -V=full in the form the go command
// parses to key its vet cache (cmd/go/internal/work/buildid.go): "NAME
// version VERSION ...", and for a devel build a final buildID= field.
func TestVersionFull(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pilotage-vet")
	}
	out, err := exec.Command(build(t), "-V=full").Output()
	if err != nil {
		t.Fatalf("-V=full: %v", err)
	}
	f := strings.Fields(string(out))
	if len(f) < 3 || f[1] != "version" {
		t.Fatalf("-V=full printed %q; want NAME version VERSION ...", out)
	}
	if f[2] == "devel" && !strings.HasPrefix(f[len(f)-1], "buildID=") {
		t.Errorf("-V=full printed %q; a devel build must end in buildID=...", out)
	}
}

// TestVersionFlag: --version and -version answer as -V=full does.
func TestVersionFlag(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pilotage-vet")
	}
	bin := build(t)
	want, err := exec.Command(bin, "-V=full").Output()
	if err != nil {
		t.Fatalf("-V=full: %v", err)
	}
	for _, flag := range []string{"--version", "-version"} {
		got, err := exec.Command(bin, flag).Output()
		if err != nil {
			t.Fatalf("%s: %v", flag, err)
		}
		if string(got) != string(want) {
			t.Errorf("%s printed %q; want what -V=full prints, %q", flag, got, want)
		}
	}
}
