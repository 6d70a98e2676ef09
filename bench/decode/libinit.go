//go:build libinit

// Built with -tags libinit (bench/run.sh's libinit), the floor also runs
// the package initialisation of santhosh-tekuri/jsonschema/v6, which
// compiles the meta-schemas of five drafts before main: the difference
// between the two is a start-up cost pilotage-lint pays and cannot avoid
// while it uses that library.

package main

import _ "github.com/santhosh-tekuri/jsonschema/v6"
