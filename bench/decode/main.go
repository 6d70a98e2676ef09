// Command decode is the floor pilotage-lint is measured against: it reads
// each file and decodes it with encoding/json into any, and nothing else.
package main

import (
	"encoding/json"
	"fmt"
	"os"
)

func main() {
	for _, p := range os.Args[1:] {
		data, err := os.ReadFile(p)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			fmt.Fprintln(os.Stderr, p, err)
			os.Exit(1)
		}
	}
}
