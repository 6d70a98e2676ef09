package binding

import (
	"regexp"
	"strings"
	"testing"
)

// signpostPattern is the regular expression the word scan replaced, kept
// here as the reference the scan must agree with.
func signpostPattern(phrases []string) *regexp.Regexp {
	alts := make([]string, len(phrases))
	for i, ph := range phrases {
		parts := strings.Fields(ph)
		for j, w := range parts {
			parts[j] = regexp.QuoteMeta(w)
		}
		alts[i] = strings.Join(parts, `[\s-]+`)
	}
	return regexp.MustCompile(`(?i)(?:^|[^\pL\pN_])(?:` + strings.Join(alts, "|") + `)(?:$|[^\pL\pN_])`)
}

var signpostSamples = []string{
	"", "first", "First!", "firstly", "_first", "first_", "1first", "the FIRST tool", "call this before others",
	"look up names", "look-up names", "look  -  up", "lookup", "look_up", "look\tup", "look\nup", "lookups",
	"how-to guide", "how to", "d'abord, appelez", "Appelez-le d'abord.", "trace d'exécution", "trace d’exécution",
	"Führt das Programm aus", "führt", "FÜHRT", "prüfen", "PRÜFEN", "überprüfen Sie", "catálogo", "CATÁLOGO",
	"an earlier run did", "what an earlier  run did", "what-an-earlier-run-did", "run records", "run record s",
	"start2", "²start", "start²", "çstart", "startç", "vor-", "-vor-", "ΔΡΑΣΗ run", "run日本", "日本run",
	"Carries out a flow or installs it", "carry-out", "carry  out", "carryout", "carry\vout", "carry\u00a0out", "carry\u0085out",
}

// TestSignpostWordsMatchThePattern holds the scan to the regular
// expression it replaced, on every word list and a set of edge cases.
func TestSignpostWordsMatchThePattern(t *testing.T) {
	lists := map[string][]string{
		"first": signpostFirst, "learn": signpostLearn, "lookup": signpostLookup,
		"validate": signpostValidate, "execute": signpostExecute, "fetch": signpostFetch,
	}
	for name, list := range lists {
		re, scan := signpostPattern(list), signpostWords(list...)
		samples := append([]string(nil), signpostSamples...)
		for _, w := range list {
			samples = append(samples, w, strings.ToUpper(w), "x "+w+" y", "x"+w, w+"x", "("+w+")", strings.ReplaceAll(w, " ", "-"))
		}
		for _, s := range samples {
			if got, want := scan.MatchString(s), re.MatchString(s); got != want {
				t.Errorf("%s list on %q: scan says %v, the pattern %v", name, s, got, want)
			}
		}
	}
}

func FuzzSignpostWords(f *testing.F) {
	for _, s := range signpostSamples {
		f.Add(s)
	}
	re, scan := signpostPattern(signpostExecute), signpostWords(signpostExecute...)
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := scan.MatchString(s), re.MatchString(s); got != want {
			t.Errorf("on %q: scan says %v, the pattern %v", s, got, want)
		}
	})
}
