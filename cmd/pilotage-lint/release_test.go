package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestReleaseConfig keeps .goreleaser.yaml in step with the commands and
// with the platforms .ci/run cross-compiles: every main package under cmd/
// is built for every platform, archived, and checksummed. (No pinned
// goreleaser installs from the registries here, so this test stands in
// for goreleaser check.)
func TestReleaseConfig(t *testing.T) {
	data, err := os.ReadFile(repoPath(t, ".goreleaser.yaml"))
	must(t, err)
	var cfg struct {
		Version int `yaml:"version"`
		Builds  []struct {
			ID     string   `yaml:"id"`
			Main   string   `yaml:"main"`
			Binary string   `yaml:"binary"`
			Env    []string `yaml:"env"`
			Goos   []string `yaml:"goos"`
			Goarch []string `yaml:"goarch"`
		} `yaml:"builds"`
		Archives []struct {
			IDs []string `yaml:"ids"`
		} `yaml:"archives"`
		Checksum struct {
			Algorithm string `yaml:"algorithm"`
		} `yaml:"checksum"`
	}
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	must(t, dec.Decode(&cfg))
	if cfg.Version != 2 || cfg.Checksum.Algorithm != "sha256" || len(cfg.Archives) != 1 {
		t.Fatalf("want version 2, one archive, sha256 checksums: %+v", cfg)
	}
	ci, err := os.ReadFile(repoPath(t, ".ci/run"))
	must(t, err)
	goos := strings.Fields(regexp.MustCompile(`for goos in ([a-z ]+);`).FindStringSubmatch(string(ci))[1])
	goarch := strings.Fields(regexp.MustCompile(`for goarch in ([a-z0-9 ]+);`).FindStringSubmatch(string(ci))[1])
	ciCmds := regexp.MustCompile(`\./cmd/[a-z-]+`).FindAllString(string(ci), -1)

	cmds, err := os.ReadDir(repoPath(t, "cmd"))
	must(t, err)
	var built []string
	for _, b := range cfg.Builds {
		built = append(built, b.Main)
		if "./cmd/"+b.Binary != b.Main || b.ID != b.Binary {
			t.Errorf("build %s: binary %s from %s", b.ID, b.Binary, b.Main)
		}
		if !slices.Equal(b.Goos, goos) || !slices.Equal(b.Goarch, goarch) {
			t.Errorf("build %s targets %v × %v; .ci/run cross-compiles %v × %v", b.ID, b.Goos, b.Goarch, goos, goarch)
		}
		if !slices.Contains(b.Env, "CGO_ENABLED=0") {
			t.Errorf("build %s must not need cgo to cross-compile", b.ID)
		}
		if !slices.Contains(cfg.Archives[0].IDs, b.ID) {
			t.Errorf("build %s is in no archive", b.ID)
		}
	}
	for _, c := range cmds {
		if !c.IsDir() {
			continue
		}
		main := "./cmd/" + c.Name()
		if !slices.Contains(built, main) {
			t.Errorf("%s is not released", main)
		}
		if !slices.Contains(ciCmds, main) {
			t.Errorf(".ci/run does not cross-compile %s", main)
		}
	}
}
