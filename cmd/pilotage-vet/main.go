// Command pilotage-vet runs the Pilotage analyzers on Go packages.
//
// Standalone:
//
//	pilotage-vet ./...
//
// As a vet tool, alongside or instead of the standard checks:
//
//	go vet -vettool=$(command -v pilotage-vet) ./...
//
// The analyzers are metakey, strictschema, envelope and canonical; see
// the package documentation of github.com/pilotagekit/pilotagekit/analyzers
// for what each reports. Each can be turned off with -NAME=false.
// --version prints what -V=full does.
package main

import (
	"os"

	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/pilotagekit/pilotagekit/analyzers"
)

func main() {
	// The go command asks a vet tool -V=full; a person asks --version, as
	// of every other tool, and gets the same answer.
	for i, a := range os.Args[1:] {
		if a == "--version" || a == "-version" {
			os.Args[i+1] = "-V=full"
		}
	}
	multichecker.Main(analyzers.All...)
}
