package manifest_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulestest"
)

// TestLocaleListIsNoManifest (issue 30 §4): a JSON whose "languages" holds
// the locales of an app or i18n config is no manifest. Found by a walk it
// gets silence; named on the command line it fails closed with input-kind
// alone, since the linter cannot tell what it is. A manifest whose entries
// lack their version member is still one, walked or named.
func TestLocaleListIsNoManifest(t *testing.T) {
	root := rulestest.Root(t)
	for _, tc := range []struct {
		file     string
		manifest bool
	}{
		{"fixtures/engine/input-kind/bad-i18n-config.json", false},
		{"fixtures/engine/input-kind/bad-i18n-locales.json", false},
		{"fixtures/manifest/manifest-version/bad-missing.json", true},
	} {
		data, err := os.ReadFile(filepath.Join(root, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		for _, explicit := range []bool{false, true} {
			res, err := lint.Run(context.Background(), []lint.Input{{Name: tc.file, Data: data, Explicit: explicit}}, &lint.Options{Rules: rules.Lint()})
			if err != nil {
				t.Fatal(err)
			}
			var manifestRule, inputKind, other int
			for _, f := range res.Findings {
				switch {
				case f.Rule == "manifest-version":
					manifestRule++
				case f.Rule == lint.InputKindRule.ID:
					inputKind++
				default:
					other++
				}
			}
			switch {
			case tc.manifest && (manifestRule != 1 || inputKind != 0):
				t.Errorf("%s (named %v): %d manifest-version and %d input-kind findings, want the manifest judged: %+v", tc.file, explicit, manifestRule, inputKind, res.Findings)
			case !tc.manifest && explicit && (inputKind != 1 || manifestRule+other != 0):
				t.Errorf("%s named: %+v, want one input-kind finding and nothing else", tc.file, res.Findings)
			case !tc.manifest && !explicit && len(res.Findings) != 0:
				t.Errorf("%s walked: %+v, want silence", tc.file, res.Findings)
			}
		}
	}
}
