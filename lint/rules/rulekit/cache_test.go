package rulekit

import (
	"runtime"
	"testing"
	"time"

	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
)

// TestModelCacheReleases: a model lives as long as its snapshot, so a run
// over many inputs does not keep every model it built.
func TestModelCacheReleases(t *testing.T) {
	size := func() int {
		models.Lock()
		defer models.Unlock()
		return len(models.m)
	}
	before := size()
	for range 20 {
		s, err := snapshot.Build(source.Parse("m.json", []byte(`{"calls": []}`), source.Options{}), "")
		if err != nil {
			t.Fatal(err)
		}
		if a, b := Of(s), Of(s); a != b {
			t.Fatal("two models for one snapshot")
		}
	}
	if size() < before+1 {
		t.Fatal("Of cached nothing")
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		runtime.GC()
		if size() <= before {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("%d models outlived their snapshots", size()-before)
}
