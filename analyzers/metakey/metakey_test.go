package metakey_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/pilotagekit/pilotagekit/analyzers/internal/analyzertest"
	"github.com/pilotagekit/pilotagekit/analyzers/metakey"
)

func TestGoSDKWithFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analyzertest.Dir(t), metakey.Analyzer, "metakey/gosdk")
}

func TestMCPGo(t *testing.T) {
	analysistest.Run(t, analyzertest.Dir(t), metakey.Analyzer, "metakey/mcpgo")
}

func TestCompliantServerIsQuiet(t *testing.T) {
	analysistest.Run(t, analyzertest.Dir(t), metakey.Analyzer, "metakey/good")
}
