package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestReadmeSampleOutput keeps the README's sample of the first command
// equal to what the command prints.
func TestReadmeSampleOutput(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const intro = "The output of the first command above, on the bundled bad example:\n\n```text\n"
	_, rest, ok := strings.Cut(string(readme), intro)
	if !ok {
		t.Fatal("README lost the sample output of its first command")
	}
	want, _, _ := strings.Cut(rest, "```")
	t.Chdir("../..")
	var out, errb bytes.Buffer
	run([]string{"--no-config", "fixtures/examples/bad-server.snapshot.json"}, strings.NewReader(""), &out, &errb)
	if out.String() != want {
		t.Fatalf("README sample is stale; replace it with:\n%s", out.String())
	}
}
