// Command libinit is the decode-only floor (bench/decode) plus the package
// initialisation of santhosh-tekuri/jsonschema/v6, which compiles the
// meta-schemas of five drafts before main: the difference between the two
// is a start-up cost pilotage-lint pays and cannot avoid while it uses that
// library.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	_ "github.com/santhosh-tekuri/jsonschema/v6"
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
