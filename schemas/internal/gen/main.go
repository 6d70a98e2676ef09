// Command gen writes the generated schema files into the current directory
// (run by `go generate ./schemas`).
package main

import (
	"fmt"
	"os"

	"github.com/pilotagekit/pilotagekit/schemas/internal/generate"
)

func main() {
	files, err := generate.Files()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for name, b := range files {
		if err := os.WriteFile(name, b, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
