package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cfgHeader starts a YAML block of the docs that is a whole config file.
const cfgHeader = "# .pilotage-lint.yaml\n"

// TestDocsExamples runs every example of the docs written as a text block
// that starts with "$ pilotage-lint ARGS" and compares what the command
// prints with the rest of the block, so a sample cannot go stale. The
// commands run from the top of the repository. An example that follows a
// config file (a YAML block starting "# .pilotage-lint.yaml", with no other
// block between them) runs with that file at the top of a copy of the
// repository (its folders linked), and must print nothing on standard
// error: no entry of a config the docs show may match nothing.
func TestDocsExamples(t *testing.T) {
	top, err := filepath.Abs(filepath.Join("..", ".."))
	must(t, err)
	var n, withConfig int
	for _, doc := range []string{"README.md", "docs/ci.md", "docs/integrations.md", "docs/releasing.md"} {
		data, err := os.ReadFile(filepath.Join(top, doc))
		if err != nil {
			t.Fatal(err)
		}
		cfg := ""
		for _, b := range fencedBlocks(string(data)) {
			if b.lang == "yaml" && strings.HasPrefix(b.body, cfgHeader) {
				cfg = b.body
				continue
			}
			after, ok := strings.CutPrefix(b.body, "$ pilotage-lint ")
			if b.lang != "text" || !ok {
				cfg = ""
				continue
			}
			cmdline, want, _ := strings.Cut(after, "\n")
			n++
			useCfg := cfg
			cfg = ""
			if useCfg != "" {
				withConfig++
			}
			t.Run(doc+": "+cmdline, func(t *testing.T) {
				dir := top
				if useCfg != "" {
					dir = withConfigFile(t, top, useCfg)
				}
				t.Chdir(dir)
				var out, errb bytes.Buffer
				run(strings.Fields(cmdline), strings.NewReader(""), &out, &errb)
				if out.String() != want {
					t.Errorf("%s: the sample of\n  pilotage-lint %s\nis stale; replace it with:\n%s", doc, cmdline, out.String())
				}
				if useCfg != "" && errb.String() != "" {
					t.Errorf("%s: with its config, pilotage-lint %s says on standard error:\n%s", doc, cmdline, errb.String())
				}
			})
		}
	}
	if n < 2 || withConfig < 1 {
		t.Errorf("found %d examples, %d with a config; the docs lost theirs", n, withConfig)
	}
}

type fenced struct{ lang, body string }

// fencedBlocks returns the ``` blocks of a Markdown text, in order.
func fencedBlocks(text string) []fenced {
	var out []fenced
	var cur *fenced
	var body strings.Builder
	for _, line := range strings.SplitAfter(text, "\n") {
		if strings.HasPrefix(line, "```") {
			if cur == nil {
				cur = &fenced{lang: strings.TrimSpace(strings.TrimPrefix(line, "```"))}
				body.Reset()
				continue
			}
			cur.body = body.String()
			out = append(out, *cur)
			cur = nil
			continue
		}
		if cur != nil {
			body.WriteString(line)
		}
	}
	return out
}

// withConfigFile makes a folder that looks like the top of the repository
// (each entry a link to the real one) with cfg as its .pilotage-lint.yaml
// and its own .git, so that discovery finds cfg and stops there.
func withConfigFile(t *testing.T, top, cfg string) string {
	t.Helper()
	dir := t.TempDir()
	entries, err := os.ReadDir(top)
	must(t, err)
	for _, e := range entries {
		if e.Name() == ".git" || strings.HasPrefix(e.Name(), ".pilotage-lint.") {
			continue
		}
		must(t, os.Symlink(filepath.Join(top, e.Name()), filepath.Join(dir, e.Name())))
	}
	must(t, os.Mkdir(filepath.Join(dir, ".git"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, ".pilotage-lint.yaml"), []byte(cfg), 0o644))
	return dir
}
