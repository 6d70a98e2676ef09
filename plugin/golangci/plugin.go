// Package golangci registers the pilotage-vet analyzers as a golangci-lint
// module plugin, so a project can run them from its .golangci.yml.
//
// Build a golangci-lint that contains the plugin with a .custom-gcl.yml:
//
//	version: v2.15.0
//	plugins:
//	  - module: github.com/pilotagekit/pilotagekit/plugin/golangci
//	    import: github.com/pilotagekit/pilotagekit/plugin/golangci
//	    version: latest
//
// then `golangci-lint custom` (it writes ./custom-gcl), and enable it:
//
//	version: "2"
//	linters:
//	  enable:
//	    - pilotage
//	  settings:
//	    custom:
//	      pilotage:
//	        type: module
//	        description: Pilotage checks for Go MCP servers
//	        settings:
//	          disable: [canonical]   # optional: analyzers to leave out
//	issues:
//	  uniq-by-line: false   # several analyzers may report on one line
//
// Findings are reported under the linter name "pilotage" as
// "FILE:LINE:COL: ANALYZER: MESSAGE (pilotage)". golangci-lint keeps one
// finding per line unless issues.uniq-by-line is false.
//
// `golangci-lint custom` clones golangci-lint with git. Where only the Go
// module proxy is reachable, build the same program by hand: a module that
// requires github.com/golangci/golangci-lint/v2 v2.15.0 and this module,
// holding golangci-lint's cmd/golangci-lint/main.go and a file with
//
//	import _ "github.com/pilotagekit/pilotagekit/plugin/golangci"
//
// which is what TestCustomGolangciLint does.
package golangci

import (
	"fmt"
	"slices"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/pilotagekit/pilotagekit/analyzers"
)

func init() {
	register.Plugin("pilotage", New)
}

// Settings are the plugin's settings in .golangci.yml.
type Settings struct {
	// Disable names analyzers to leave out: metakey, strictschema,
	// envelope, canonical.
	Disable []string `json:"disable"`
}

// New is the plugin constructor golangci-lint calls with the settings.
func New(settings any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](settings)
	if err != nil {
		return nil, err
	}
	for _, name := range s.Disable {
		if !slices.ContainsFunc(analyzers.All, func(a *analysis.Analyzer) bool { return a.Name == name }) {
			return nil, fmt.Errorf("pilotage: unknown analyzer %q in disable", name)
		}
	}
	return &plugin{settings: s}, nil
}

type plugin struct {
	settings Settings
}

func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	var out []*analysis.Analyzer
	for _, a := range analyzers.All {
		if !slices.Contains(p.settings.Disable, a.Name) {
			out = append(out, a)
		}
	}
	return out, nil
}

// GetLoadMode asks for type information: every analyzer matches SDK
// symbols through go/types.
func (p *plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
