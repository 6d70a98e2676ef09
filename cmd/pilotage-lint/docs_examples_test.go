package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocsExamples runs every example of the docs written as a text block
// that starts with "$ pilotage-lint ARGS" and compares what the command
// prints with the rest of the block, so a sample cannot go stale. The
// commands run from the top of the repository.
func TestDocsExamples(t *testing.T) {
	var n int
	for _, doc := range []string{"README.md", "docs/ci.md", "docs/integrations.md", "docs/releasing.md"} {
		data, err := os.ReadFile(filepath.Join("..", "..", doc))
		if err != nil {
			t.Fatal(err)
		}
		rest := string(data)
		for {
			_, after, ok := strings.Cut(rest, "```text\n$ pilotage-lint ")
			if !ok {
				break
			}
			block, next, _ := strings.Cut(after, "```")
			rest = next
			cmdline, want, _ := strings.Cut(block, "\n")
			n++
			t.Run(doc+": "+cmdline, func(t *testing.T) {
				t.Chdir("../..")
				var out, errb bytes.Buffer
				run(strings.Fields(cmdline), strings.NewReader(""), &out, &errb)
				if out.String() != want {
					t.Errorf("%s: the sample of\n  pilotage-lint %s\nis stale; replace it with:\n%s", doc, cmdline, out.String())
				}
			})
		}
	}
	if n < 2 {
		t.Errorf("found %d examples; the docs lost theirs", n)
	}
}
