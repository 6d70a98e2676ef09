package diff_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pilotagekit/pilotagekit/internal/fuzzcheck"
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/diff"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
)

// FuzzCompare compares two documents of any bytes, detected or forced to
// any input kind. A check that panics is contained as an internal-error
// finding; here that is a failure, like a panic outside the checks, a
// finding without a position, message or spec section, or a comparison
// that takes more than 10s.
func FuzzCompare(f *testing.F) {
	olds, _ := filepath.Glob(filepath.Join(fixtureRoot, "*", "*.old.json"))
	for _, o := range olds {
		a, errA := os.ReadFile(o)
		b, errB := os.ReadFile(strings.TrimSuffix(o, ".old.json") + ".new.json")
		if errA == nil && errB == nil && len(a)+len(b) < 16<<10 {
			f.Add(a, b, uint8(0))
		}
	}
	for k := range len(snapshot.Kinds) + 1 {
		f.Add([]byte(`{"tools": [{"name": "a"}]}`), []byte(`{"tools": {"error": {}}}`), uint8(k))
		f.Add([]byte(`null`), []byte(``), uint8(k))
	}
	f.Fuzz(func(t *testing.T, old, new []byte, kind uint8) {
		stop := time.AfterFunc(10*time.Second, func() { panic("comparing two inputs took more than 10s") })
		defer stop.Stop()
		opt := &diff.Options{}
		if k := int(kind) % (len(snapshot.Kinds) + 1); k > 0 {
			opt.InputKind = snapshot.Kinds[k-1]
		}
		res, err := diff.Compare(&lint.Input{Name: "old.json", Data: old, Explicit: true}, &lint.Input{Name: "new.json", Data: new, Explicit: true}, opt)
		if err != nil {
			return // an input diff cannot read is the caller's error to report
		}
		for i := range res.Findings {
			if err := fuzzcheck.Finding(&res.Findings[i]); err != nil {
				t.Fatal(err)
			}
		}
	})
}
