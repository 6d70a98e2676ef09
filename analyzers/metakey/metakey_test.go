package metakey_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/pilotagekit/pilotagekit/analyzers/metakey"
)

func testdata(t *testing.T) string {
	dir, err := filepath.Abs("../testdata")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestGoSDKWithFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata(t), metakey.Analyzer, "metakey/gosdk")
}

func TestMCPGo(t *testing.T) {
	analysistest.Run(t, testdata(t), metakey.Analyzer, "metakey/mcpgo")
}

func TestCompliantServerIsQuiet(t *testing.T) {
	analysistest.Run(t, testdata(t), metakey.Analyzer, "metakey/good")
}
