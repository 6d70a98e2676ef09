package golangci_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCustomGolangciLint builds golangci-lint v2.15.0 with the plugin the
// way `golangci-lint custom` does (golangci-lint's main package plus a
// blank import of the plugin) and runs it on the pilotage-vet end-to-end
// module. `golangci-lint custom` itself clones the golangci-lint
// repository with git, which needs more than the module proxy; building
// the same program from the module cache does not. It takes minutes, so
// it runs only with PILOTAGE_GOLANGCI=1.
func TestCustomGolangciLint(t *testing.T) {
	if os.Getenv("PILOTAGE_GOLANGCI") == "" {
		t.Skip("set PILOTAGE_GOLANGCI=1 to build golangci-lint v2.15.0 with the plugin")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	build := t.TempDir()
	gcl := goOut(t, build, "go", "mod", "download", "-json", "github.com/golangci/golangci-lint/v2@v2.15.0")
	var mod struct{ Dir string }
	if err := json.Unmarshal([]byte(gcl), &mod); err != nil || mod.Dir == "" {
		t.Fatalf("locating golangci-lint: %v\n%s", err, gcl)
	}
	mainGo, err := os.ReadFile(filepath.Join(mod.Dir, "cmd", "golangci-lint", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(build, "main.go"), string(mainGo))
	write(t, filepath.Join(build, "plugins.go"), "package main\n\nimport _ \"github.com/pilotagekit/pilotagekit/plugin/golangci\"\n")
	write(t, filepath.Join(build, "go.mod"), `module customgcl

go 1.26.0

require (
	github.com/golangci/golangci-lint/v2 v2.15.0
	github.com/pilotagekit/pilotagekit/plugin/golangci v0.0.0
)

replace (
	github.com/pilotagekit/pilotagekit => `+root+`
	github.com/pilotagekit/pilotagekit/plugin/golangci => `+filepath.Join(root, "plugin", "golangci")+`
)
`)
	goOut(t, build, "go", "mod", "tidy")
	bin := filepath.Join(build, "custom-gcl")
	goOut(t, build, "go", "build", "-o", bin, ".")

	// Lint a copy of the end-to-end module with only the plugin enabled.
	e2e := filepath.Join(root, "cmd", "pilotage-vet", "testdata", "e2e")
	work := t.TempDir()
	goOut(t, root, "cp", "-r", e2e+"/.", work)
	write(t, filepath.Join(work, ".golangci.yml"), `version: "2"
linters:
  default: none
  enable:
    - pilotage
  settings:
    custom:
      pilotage:
        type: module
        description: Pilotage checks for Go MCP servers
issues:
  uniq-by-line: false
`)
	cmd := exec.Command(bin, "run", "--output.text.print-issued-lines=false", "--show-stats=false", "./...")
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOLANGCI_LINT_CACHE="+t.TempDir())
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	_ = cmd.Run() // exits 1 when it reports
	got := out.String()
	t.Logf("golangci-lint output:\n%s", got)

	// Every pilotage-vet finding on the module comes out of golangci-lint,
	// attributed to the plugin.
	golden, err := os.ReadFile(filepath.Join(root, "cmd", "pilotage-vet", "testdata", "e2e.standalone.golden"))
	if err != nil {
		t.Fatal(err)
	}
	// golangci-lint prints "FILE:LINE:COL: ANALYZER: MESSAGE (pilotage)".
	lines := strings.Split(strings.TrimSpace(got), "\n")
	for _, want := range strings.Split(strings.TrimSpace(string(golden)), "\n") {
		parts := strings.SplitN(want, ": ", 2)
		found := false
		for _, l := range lines {
			if strings.HasPrefix(l, parts[0]+": ") && strings.HasSuffix(l, ": "+parts[1]+" (pilotage)") {
				found = true
			}
		}
		if !found {
			t.Errorf("missing from golangci-lint output: %s", want)
		}
	}
	if len(lines) != strings.Count(string(golden), "\n") {
		t.Errorf("golangci-lint reported %d lines, pilotage-vet %d", len(lines), strings.Count(string(golden), "\n"))
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func goOut(t *testing.T, dir string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}
