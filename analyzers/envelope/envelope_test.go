package envelope_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/pilotagekit/pilotagekit/analyzers/envelope"
)

func testdata(t *testing.T) string {
	dir, err := filepath.Abs("../testdata")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestGoSDK(t *testing.T) {
	analysistest.Run(t, testdata(t), envelope.Analyzer, "envelope/gosdk")
}

func TestMCPGo(t *testing.T) {
	analysistest.Run(t, testdata(t), envelope.Analyzer, "envelope/mcpgo")
}

func TestCompliantServerIsQuiet(t *testing.T) {
	analysistest.Run(t, testdata(t), envelope.Analyzer, "envelope/good")
}
