package canonical_test

import (
	"reflect"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/pilotagekit/pilotagekit/analyzers/canonical"
	"github.com/pilotagekit/pilotagekit/analyzers/internal/analyzertest"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analyzertest.Dir(t), canonical.Analyzer, "canonical/bad")
}

func TestCompliantValuesAreQuiet(t *testing.T) {
	analysistest.Run(t, analyzertest.Dir(t), canonical.Analyzer, "canonical/good")
}

// The analyzer matches pkg/types fields by name; this keeps those names,
// and the testdata stand-in that mirrors them, honest when pkg/types moves.
func TestMatchedNamesExistInPkgTypes(t *testing.T) {
	fields := map[reflect.Type][]string{
		reflect.TypeFor[types.Outcome]():          {"OK", "Status", "Error"},
		reflect.TypeFor[types.NullableString]():   {"Set", "Null", "Value", "Invalid"},
		reflect.TypeFor[types.RequestErrorBody](): {"Kind"},
		reflect.TypeFor[types.Capability]():       {"Form"},
		reflect.TypeFor[types.Language]():         {"Name", "Capabilities", "Retention"},
		reflect.TypeFor[types.Manifest]():         {"Languages", "Capabilities"},
	}
	for typ, names := range fields {
		for _, n := range names {
			if _, ok := typ.FieldByName(n); !ok {
				t.Errorf("pkg/types.%s has no field %s", typ.Name(), n)
			}
		}
	}
	if reflect.TypeFor[types.CapabilityDeclaration]().Kind() != reflect.Map {
		t.Error("pkg/types.CapabilityDeclaration is no longer a map")
	}
	_ = types.NullValue()
	_ = types.StringValue("")
}
