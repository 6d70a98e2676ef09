package envelope_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/pilotagekit/pilotagekit/analyzers/envelope"
	"github.com/pilotagekit/pilotagekit/analyzers/internal/analyzertest"
)

func TestGoSDK(t *testing.T) {
	analysistest.Run(t, analyzertest.Dir(t), envelope.Analyzer, "envelope/gosdk")
}

func TestMCPGo(t *testing.T) {
	analysistest.Run(t, analyzertest.Dir(t), envelope.Analyzer, "envelope/mcpgo")
}

func TestCompliantServerIsQuiet(t *testing.T) {
	analysistest.Run(t, analyzertest.Dir(t), envelope.Analyzer, "envelope/good")
}

// TestHelperChains: an error built by a helper of a helper, to any depth,
// through cycles, reassignments, named results and %w (issue 30 §6).
func TestHelperChains(t *testing.T) {
	analysistest.Run(t, analyzertest.Dir(t), envelope.Analyzer, "envelope/chain")
}
