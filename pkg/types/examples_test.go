package types

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const examplesDir = "../../fixtures/spec-examples"

type exampleEntry struct {
	File    string   `json:"file"`
	Section string   `json:"section"`
	Pointer string   `json:"pointer"`
	Type    string   `json:"type"`
	Mode    string   `json:"mode"`
	Dropped []string `json:"dropped"`
	Schema  string   `json:"schema"`
	Skip    string   `json:"skip"`
}

func loadIndex(t *testing.T) []exampleEntry {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(examplesDir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	var idx struct{ Examples []exampleEntry }
	if err := json.Unmarshal(b, &idx); err != nil {
		t.Fatal(err)
	}
	return idx.Examples
}

// resolve follows an RFC 6901 pointer through generic JSON.
func resolve(v any, ptr string) (any, error) {
	if ptr == "" {
		return v, nil
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: not an object at %q", ptr, tok)
		}
		if v, ok = m[tok]; !ok {
			return nil, fmt.Errorf("%s: no member %q", ptr, tok)
		}
	}
	return v, nil
}

func remove(v any, ptr string) {
	i := strings.LastIndex(ptr, "/")
	parent, err := resolve(v, ptr[:i])
	if err != nil {
		return
	}
	if m, ok := parent.(map[string]any); ok {
		delete(m, ptr[i+1:])
	}
}

// subset reports the first place where every member of want is not equal
// in got; with exact, got must not have extra members either.
func subset(want, got any, exact bool, at string) string {
	wm, ok1 := want.(map[string]any)
	gm, ok2 := got.(map[string]any)
	if ok1 && ok2 {
		for k, wv := range wm {
			gv, ok := gm[k]
			if !ok {
				return at + "/" + k + ": missing after re-encoding"
			}
			if d := subset(wv, gv, exact, at+"/"+k); d != "" {
				return d
			}
		}
		if exact {
			for k := range gm {
				if _, ok := wm[k]; !ok {
					return at + "/" + k + ": added by re-encoding"
				}
			}
		}
		return ""
	}
	wa, ok1 := want.([]any)
	ga, ok2 := got.([]any)
	if ok1 && ok2 {
		if len(wa) != len(ga) {
			return at + ": array length differs"
		}
		for i := range wa {
			if d := subset(wa[i], ga[i], exact, fmt.Sprintf("%s/%d", at, i)); d != "" {
				return d
			}
		}
		return ""
	}
	if !reflect.DeepEqual(want, got) {
		return fmt.Sprintf("%s: %v != %v", at, want, got)
	}
	return ""
}

func newOf(name string) (any, bool) {
	switch name {
	case "CapabilityDeclaration":
		return new(CapabilityDeclaration), true
	case "RiskHints":
		return new(RiskHints), true
	case "TextRange":
		return new(TextRange), true
	case "Diagnostic":
		return new(Diagnostic), true
	case "Decision":
		return new(Decision), true
	case "GuideRequest":
		return new(GuideRequest), true
	case "CatalogRequest":
		return new(CatalogRequest), true
	case "CatalogListResult":
		return new(CatalogListResult), true
	case "CatalogGetResult":
		return new(CatalogGetResult), true
	case "CatalogChangedSinceResult":
		return new(CatalogChangedSinceResult), true
	case "ValidateRequest":
		return new(ValidateRequest), true
	case "ValidateResponse":
		return new(ValidateResponse), true
	case "ExecuteRequest":
		return new(ExecuteRequest), true
	case "ExecuteResponse":
		return new(ExecuteResponse), true
	case "Outcome":
		return new(Outcome), true
	case "TraceFetchRequest":
		return new(TraceFetchRequest), true
	case "TraceFetchResponse":
		return new(TraceFetchResponse), true
	case "Trace":
		return new(Trace), true
	case "Language":
		return new(Language), true
	case "Manifest":
		return new(Manifest), true
	case "InitializeMeta":
		return new(InitializeMeta), true
	case "GuideIndexResult":
		return new(GuideIndexResult), true
	case "GuideFetchResult":
		return new(GuideFetchResult), true
	case "ProgramDeclaration":
		return new(ProgramDeclaration), true
	case "RequestError":
		return new(RequestError), true
	case "ExtensionSettings":
		return new(ExtensionSettings), true
	}
	return nil, false
}

func TestSpecExamplesRoundTrip(t *testing.T) {
	idx := loadIndex(t)
	files, _ := filepath.Glob(filepath.Join(examplesDir, "*.json"))
	covered := map[string]bool{}
	for _, e := range idx {
		covered[e.File] = true
	}
	for _, f := range files {
		if b := filepath.Base(f); b != "index.json" && !covered[b] {
			t.Errorf("%s is not listed in index.json", b)
		}
	}
	for _, e := range idx {
		t.Run(e.File+e.Pointer+"/"+e.Type, func(t *testing.T) {
			if e.Skip != "" {
				t.Skip(e.Skip)
			}
			b, err := os.ReadFile(filepath.Join(examplesDir, e.File))
			if err != nil {
				t.Fatal(err)
			}
			var doc any
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			part, err := resolve(doc, e.Pointer)
			if err != nil {
				t.Fatal(err)
			}
			var re []byte
			switch e.Type {
			case "GetGuideInputSchema":
				re = GetGuideInputSchema
			case "CatalogInputSchema":
				re = CatalogInputSchema
			default:
				v, ok := newOf(e.Type)
				if !ok {
					t.Fatalf("no type %s", e.Type)
				}
				raw, _ := json.Marshal(part)
				if err := json.Unmarshal(raw, v); err != nil {
					t.Fatalf("decode: %v", err)
				}
				if re, err = json.Marshal(v); err != nil {
					t.Fatalf("encode: %v", err)
				}
			}
			var got any
			if err := json.Unmarshal(re, &got); err != nil {
				t.Fatal(err)
			}
			for _, d := range e.Dropped {
				remove(part, d)
			}
			if d := subset(part, got, e.Mode == "exact", ""); d != "" {
				t.Errorf("round trip (%s): %s\nre-encoded: %s", e.Mode, d, re)
			}
		})
	}
}
