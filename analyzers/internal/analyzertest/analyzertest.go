// Package analyzertest locates the test data the analyzers share.
package analyzertest

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the absolute path of analyzers/testdata for a test running in
// analyzers or analyzers/<name>: the analyzers share one GOPATH-style tree,
// because their test packages import the same stand-ins for the SDKs and
// pkg/types.
func Dir(t testing.TB) string {
	t.Helper()
	dir := "../testdata"
	if _, err := os.Stat("testdata/src"); err == nil {
		dir = "testdata"
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir
}
