package strictschema_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/pilotagekit/pilotagekit/analyzers/internal/analyzertest"
	"github.com/pilotagekit/pilotagekit/analyzers/strictschema"
)

func TestGoSDK(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analyzertest.Dir(t), strictschema.Analyzer, "strictschema/gosdk")
}

func TestMCPGo(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analyzertest.Dir(t), strictschema.Analyzer, "strictschema/mcpgo")
}

func TestCompliantServerIsQuiet(t *testing.T) {
	analysistest.Run(t, analyzertest.Dir(t), strictschema.Analyzer, "strictschema/good")
}

func TestFollowsValues(t *testing.T) {
	analysistest.Run(t, analyzertest.Dir(t), strictschema.Analyzer, "strictschema/flow")
}

// TestRawSchemas: mcp-go's NewToolWithRawSchema, and a go-sdk map schema
// marshalled to json.RawMessage, both polarities (issue 33 §6).
func TestRawSchemas(t *testing.T) {
	analysistest.Run(t, analyzertest.Dir(t), strictschema.Analyzer, "strictschema/rawschema")
}
