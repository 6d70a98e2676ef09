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
package main

import (
	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/pilotagekit/pilotagekit/analyzers"
)

func main() { multichecker.Main(analyzers.All...) }
