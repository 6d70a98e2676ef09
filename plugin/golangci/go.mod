module github.com/pilotagekit/pilotagekit/plugin/golangci

go 1.26.0

require (
	github.com/golangci/plugin-module-register v0.1.2
	github.com/pilotagekit/pilotagekit v0.0.0
	golang.org/x/tools v0.52.0
)

// The plugin ships from this repository; a released plugin resolves the
// root module by version instead.
replace github.com/pilotagekit/pilotagekit => ../..
