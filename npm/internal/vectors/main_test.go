package main

import (
	"os"
	"testing"
)

// TestFresh keeps npm/test/vectors.json equal to what the probe set of this
// commit generates, so the helper never names a test after a probe the
// binary no longer sends, nor misses one it does.
func TestFresh(t *testing.T) {
	const path = "../../test/vectors.json"
	have, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(have) != string(generate()) {
		t.Errorf("%s is stale: run go generate ./npm/internal/vectors and commit it", path)
	}
}
