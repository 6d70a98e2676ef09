package report_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/internal/needtool"
	"github.com/pilotagekit/pilotagekit/lint/report"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// sarifSchema compiles the official SARIF 2.1.0 schema shipped in
// testdata (from the sarif-sdk, see testdata/README.md), with formats such
// as uri asserted.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("testdata/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("sarif-schema-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func validateSARIF(t *testing.T, s *jsonschema.Schema, out []byte) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(inst); err != nil {
		t.Fatalf("SARIF output fails the SARIF 2.1.0 schema: %v\n%s", err, out)
	}
}

// sarifDoc is what GitHub code scanning reads from a SARIF upload.
type sarifDoc struct {
	Version string `json:"version"`
	Runs    []struct {
		ColumnKind string `json:"columnKind"`
		Tool       struct {
			Driver struct {
				Name  string `json:"name"`
				Rules []struct {
					ID                   string            `json:"id"`
					Name                 string            `json:"name"`
					ShortDescription     map[string]string `json:"shortDescription"`
					FullDescription      map[string]string `json:"fullDescription"`
					HelpURI              string            `json:"helpUri"`
					Help                 map[string]string `json:"help"`
					DefaultConfiguration map[string]string `json:"defaultConfiguration"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID    string            `json:"ruleId"`
			RuleIndex int               `json:"ruleIndex"`
			Level     string            `json:"level"`
			Message   map[string]string `json:"message"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI       string `json:"uri"`
						URIBaseID string `json:"uriBaseId"`
					} `json:"artifactLocation"`
					Region struct {
						StartLine, StartColumn, EndLine, EndColumn int
					} `json:"region"`
				} `json:"physicalLocation"`
				LogicalLocations []struct {
					FullyQualifiedName string `json:"fullyQualifiedName"`
					Kind               string `json:"kind"`
				} `json:"logicalLocations"`
			} `json:"locations"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
			Properties          map[string]string `json:"properties"`
		} `json:"results"`
	} `json:"runs"`
}

func TestSARIFValidatesAgainstTheSchema(t *testing.T) {
	s := sarifSchema(t)
	for name, run := range map[string]*report.Run{"sample": sampleRun(t), "awkward": awkwardRun()} {
		t.Run(name, func(t *testing.T) {
			out := render(t, "sarif", run)
			validateSARIF(t, s, out)
			var doc sarifDoc
			if err := json.Unmarshal(out, &doc); err != nil {
				t.Fatal(err)
			}
			checkSARIF(t, run, &doc)
		})
	}
}

func TestSARIFWithoutFindingsValidates(t *testing.T) {
	run := sampleRun(t)
	run.Result.Findings = nil
	validateSARIF(t, sarifSchema(t), render(t, "sarif", run))
}

// TestSchemaRejectsBrokenSARIF proves the validation bites: a log missing
// a result's message must fail.
func TestSchemaRejectsBrokenSARIF(t *testing.T) {
	out := render(t, "sarif", awkwardRun())
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
	res := v["runs"].([]any)[0].(map[string]any)["results"].([]any)[0].(map[string]any)
	delete(res, "message")
	broken, _ := json.Marshal(v)
	inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader(broken))
	if sarifSchema(t).Validate(inst) == nil {
		t.Fatal("the schema accepted a result without a message")
	}
}

func checkSARIF(t *testing.T, run *report.Run, doc *sarifDoc) {
	t.Helper()
	if doc.Version != "2.1.0" || len(doc.Runs) != 1 {
		t.Fatalf("version %q, %d runs", doc.Version, len(doc.Runs))
	}
	r := doc.Runs[0]
	if r.ColumnKind != "unicodeCodePoints" {
		t.Errorf("columnKind = %q", r.ColumnKind)
	}
	rules := r.Tool.Driver.Rules
	if len(rules) < len(run.Rules) {
		t.Fatalf("driver lists %d rules, %d ran", len(rules), len(run.Rules))
	}
	for i, want := range run.Rules {
		got := rules[i]
		if got.ID != want.ID || got.ShortDescription["text"] != want.Summary || got.FullDescription["text"] != want.Doc {
			t.Errorf("rule %d = %+v, want %s", i, got, want.ID)
		}
		if got.HelpURI != report.RulesDocURL+"#"+want.ID || !strings.Contains(got.Help["markdown"], want.Summary) {
			t.Errorf("rule %s help = %q %q", want.ID, got.HelpURI, got.Help["markdown"])
		}
		if got.DefaultConfiguration["level"] != report.SARIFLevel(want.Severity) || got.Name == "" || strings.Contains(got.Name, "-") {
			t.Errorf("rule %s level/name = %q %q", want.ID, got.DefaultConfiguration["level"], got.Name)
		}
	}
	if len(r.Results) != len(run.Result.Findings) {
		t.Fatalf("%d results for %d findings", len(r.Results), len(run.Result.Findings))
	}
	for i, f := range run.Result.Findings {
		res := r.Results[i]
		if res.RuleID != f.Rule || rules[res.RuleIndex].ID != f.Rule || res.Level != report.SARIFLevel(f.Severity) {
			t.Errorf("result %d: rule %s index %d level %s, want %s", i, res.RuleID, res.RuleIndex, res.Level, f.Rule)
		}
		if res.Message["text"] != f.Message+" ("+f.Spec+")" {
			t.Errorf("result %d message %q", i, res.Message["text"])
		}
		loc := res.Locations[0]
		reg := loc.PhysicalLocation.Region
		if reg.StartLine != f.Line || reg.StartColumn != f.Column || reg.EndLine != f.EndLine || reg.EndColumn != f.EndColumn {
			t.Errorf("result %d region %+v, finding %+v", i, reg, f)
		}
		if res.Properties["pointer"] != f.Pointer {
			t.Errorf("result %d pointer property %q, want %q", i, res.Properties["pointer"], f.Pointer)
		}
		if f.Pointer != "" && (len(loc.LogicalLocations) != 1 || loc.LogicalLocations[0].FullyQualifiedName != f.Pointer) {
			t.Errorf("result %d logical locations %+v, want %q", i, loc.LogicalLocations, f.Pointer)
		}
		if res.PartialFingerprints["pilotagePointer/v1"] == "" {
			t.Errorf("result %d has no fingerprint", i)
		}
	}
}

func TestSARIFArtifactURIs(t *testing.T) {
	out := render(t, "sarif", sampleRun(t))
	var doc sarifDoc
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, res := range doc.Runs[0].Results {
		a := res.Locations[0].PhysicalLocation.ArtifactLocation
		got[a.URI] = a.URIBaseID
	}
	want := map[string]string{
		"servers/dup.json":             "%SRCROOT%",
		"servers/we,ird:name%201.json": "%SRCROOT%",
		"file:///elsewhere/other.json": "",
	}
	for uri, base := range want {
		if b, ok := got[uri]; !ok || b != base {
			t.Errorf("artifact %q: got base %q (present %v); all: %v", uri, b, ok, got)
		}
	}
}

// TestSARIFMultitoolValidate runs Microsoft's SARIF validator, with the
// rules GitHub code scanning applies on upload, when it is installed
// (npm install -g @microsoft/sarif-multitool-linux).
func TestSARIFMultitoolValidate(t *testing.T) {
	tool := os.Getenv("SARIF_MULTITOOL")
	if tool == "" {
		wrapper, err := exec.LookPath("sarif-multitool-linux")
		if err != nil {
			needtool.Missing(t, "the SARIF Multitool is not installed (npm install -g @microsoft/sarif-multitool-linux)")
		}
		// npm's bin is a node wrapper that passes arguments through a
		// shell, which would split "Sarif;Gh"; run the binary beside it.
		real, err := filepath.EvalSymlinks(wrapper)
		if err != nil {
			t.Fatal(err)
		}
		tool = filepath.Join(filepath.Dir(real), "Sarif.Multitool")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "out.sarif")
	if err := os.WriteFile(in, render(t, "sarif", sampleRun(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "validation.sarif")
	cmd := exec.Command(tool, "validate", "--rule-kind", "Sarif;Gh", "--level", "Error;Warning", "--output", log, in)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("multitool validate: %v\n%s", err, out)
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Runs []struct {
			Results []struct {
				RuleID  string `json:"ruleId"`
				Level   string `json:"level"`
				Message struct {
					Text      string   `json:"text"`
					Arguments []string `json:"arguments"`
				} `json:"message"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	for _, r := range v.Runs {
		for _, res := range r.Results {
			if res.Level == "error" || res.Level == "warning" || res.Level == "" {
				t.Errorf("validator: %s %s %v", res.RuleID, res.Level, res.Message.Arguments)
			}
		}
	}
}
