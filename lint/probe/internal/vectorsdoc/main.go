// Command vectorsdoc writes docs/vectors.md: go run ./internal/vectorsdoc
// VECTORS.json OUT.md, run by go generate in lint/probe.
package main

import (
	"fmt"
	"os"

	"github.com/pilotagekit/pilotagekit/lint/probe"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: vectorsdoc VECTORS.json OUT.md")
		os.Exit(2)
	}
	in, err := os.ReadFile(os.Args[1])
	if err == nil {
		var out []byte
		if out, err = probe.VectorsMarkdown(in); err == nil {
			err = os.WriteFile(os.Args[2], out, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "vectorsdoc:", err)
		os.Exit(1)
	}
}
