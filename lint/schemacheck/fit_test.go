package schemacheck

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/source"
)

// formatMeta is a 2020-12 dialect that requires the format-assertion
// vocabulary, carried by the schema itself under $defs.
const formatMeta = `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "urn:example:format-meta", "$dynamicAnchor": "meta",
	"$vocabulary": {"https://json-schema.org/draft/2020-12/vocab/core": true, "https://json-schema.org/draft/2020-12/vocab/applicator": true,
		"https://json-schema.org/draft/2020-12/vocab/validation": true, "https://json-schema.org/draft/2020-12/vocab/format-assertion": true}}`

func TestFitOf(t *testing.T) {
	for _, c := range []struct {
		name, schema, value string
		want                Fit
	}{
		{"2020-12 format is an annotation", `{"properties": {"e": {"type": "string", "format": "email"}}}`, `{"e": "nobody"}`, Fits},
		{"2020-12 format named explicitly", `{"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {"e": {"type": "string", "format": "email"}}}`, `{"e": "nobody"}`, Fits},
		{"2020-12 format-assertion vocabulary asserts", `{"$schema": "urn:example:format-meta", "properties": {"e": {"type": "string", "format": "email"}}, "$defs": {"meta": ` + formatMeta + `}}`, `{"e": "nobody"}`, ValueFault},
		{"2020-12 format-assertion vocabulary, valid value", `{"$schema": "urn:example:format-meta", "properties": {"e": {"type": "string", "format": "email"}}, "$defs": {"meta": ` + formatMeta + `}}`, `{"e": "a@example.com"}`, Fits},
		{"2019-09 format is an annotation", `{"$schema": "https://json-schema.org/draft/2019-09/schema", "properties": {"e": {"type": "string", "format": "email"}}}`, `{"e": "nobody"}`, Fits},
		{"draft-07 format is the validator's choice", `{"$schema": "http://json-schema.org/draft-07/schema#", "properties": {"e": {"type": "string", "format": "email"}}}`, `{"e": "nobody"}`, FitUnknown},
		{"draft-07 format, valid value", `{"$schema": "http://json-schema.org/draft-07/schema#", "properties": {"e": {"type": "string", "format": "email"}}}`, `{"e": "a@example.com"}`, Fits},
		{"draft-07 format, wrong type", `{"$schema": "http://json-schema.org/draft-07/schema#", "properties": {"e": {"type": "string", "format": "email"}}}`, `{"e": 7}`, StructuralFault},
		{"draft-07 without format", `{"$schema": "http://json-schema.org/draft-07/schema#", "properties": {"e": {"type": "string", "enum": ["a"]}}}`, `{"e": "b"}`, ValueFault},
		{"missing required member", `{"type": "object", "required": ["flow"]}`, `{}`, StructuralFault},
		{"top-level wrong type", `{"properties": {"trace_level": {"type": "string"}}}`, `{"trace_level": 3}`, StructuralFault},
		{"nested wrong type", `{"properties": {"input": {"type": "object", "properties": {"hour": {"type": "integer"}}}}}`, `{"input": {"hour": "late"}}`, StructuralFault},
		{"nested wrong type behind $ref", `{"properties": {"input": {"$ref": "#/$defs/In"}}, "$defs": {"In": {"properties": {"hour": {"type": "integer"}}}}}`, `{"input": {"hour": "late"}}`, StructuralFault},
		{"enum", `{"properties": {"trace_level": {"type": "string", "enum": ["none", "summary", "full"]}}}`, `{"trace_level": "verbose"}`, ValueFault},
		{"enum behind Pydantic's nullable $ref", `{"properties": {"mode": {"anyOf": [{"$ref": "#/$defs/Mode"}, {"type": "null"}], "default": null}}, "$defs": {"Mode": {"enum": ["immediate", "deploy"], "title": "Mode", "type": "string"}}}`, `{"mode": "later"}`, ValueFault},
		{"nullable union, value of neither type", `{"properties": {"flow": {"anyOf": [{"type": "object", "additionalProperties": true}, {"type": "null"}]}}}`, `{"flow": "garbage"}`, StructuralFault},
		{"nullable union, null", `{"properties": {"flow": {"anyOf": [{"type": "object"}, {"type": "null"}]}}}`, `{"flow": null}`, Fits},
		{"closed object", `{"properties": {"flow": {}}, "additionalProperties": false}`, `{"flow": {}, "extra": 1}`, ValueFault},
		{"value and structural faults together", `{"properties": {"a": {"enum": [1]}, "b": {"type": "string"}}}`, `{"a": 2, "b": 3}`, StructuralFault},
		{"oneOf matching twice", `{"oneOf": [{"type": "object"}, {"required": ["a"]}]}`, `{"a": 1}`, ValueFault},
		{"allOf composition", `{"allOf": [{"properties": {"flow": {}}, "required": ["flow"]}, {"properties": {"trace_level": {"type": "string"}}}]}`, `{"flow": {}, "trace_level": "x"}`, Fits},
		{"allOf composition, missing member", `{"allOf": [{"properties": {"flow": {}}, "required": ["flow"]}, {"properties": {"trace_level": {"type": "string"}}}]}`, `{"trace_level": "x"}`, StructuralFault},
		{"external reference", `{"properties": {"zone": {"$ref": "https://schemas.example.com/zone.json"}}}`, `{"zone": 1}`, FitUnknown},
		{"does not compile", `{"properties": {"a": {"maxLength": "3"}}}`, `{"a": "x"}`, FitUnknown},
		{"true schema", `true`, `{"a": 1}`, Fits},
		{"false schema", `false`, `{}`, ValueFault},
	} {
		t.Run(c.name, func(t *testing.T) {
			var v any
			d := json.NewDecoder(strings.NewReader(c.value))
			d.UseNumber()
			if err := d.Decode(&v); err != nil {
				t.Fatal(err)
			}
			got, err := FitOf(parse(t, c.schema), v)
			if got != c.want {
				t.Errorf("FitOf = %s, want %s", got, c.want)
			}
			if got.Rejects() != (err != nil) {
				t.Errorf("a rejection returns the library's error and nothing else does: %s with %v", got, err)
			}
		})
	}
}

func TestFormatAsserts(t *testing.T) {
	for _, c := range []struct {
		name, schema     string
		asserts, decided bool
	}{
		{"2020-12 by default", `{"properties": {"k": {"type": "string", "format": "uuid"}}}`, false, true},
		{"2020-12 named", `{"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {"k": {"type": "string", "format": "uuid"}}}`, false, true},
		{"2020-12 with the format-assertion vocabulary", `{"$schema": "urn:example:format-meta", "properties": {"k": {"type": "string", "format": "uuid"}}, "$defs": {"meta": ` + formatMeta + `}}`, true, true},
		{"draft-07", `{"$schema": "http://json-schema.org/draft-07/schema#", "properties": {"k": {"type": "string", "format": "uuid"}}}`, false, false},
		{"behind a $ref", `{"$schema": "urn:example:format-meta", "properties": {"k": {"$ref": "#/$defs/K"}}, "$defs": {"meta": ` + formatMeta + `, "K": {"type": "string", "format": "uuid"}}}`, true, true},
		{"does not compile", `{"properties": {"k": {"type": "string", "format": "uuid", "maxLength": "x"}}}`, false, false},
	} {
		root := parse(t, c.schema)
		var format *source.Node
		r := NewResolver(root)
		for _, f := range r.Keywords(r.Member(root, "k"), "format") {
			format = f
		}
		if format == nil {
			t.Fatalf("%s: no format", c.name)
		}
		a, d := FormatAsserts(root, format)
		if a != c.asserts || d != c.decided {
			t.Errorf("%s: FormatAsserts = %v, %v; want %v, %v", c.name, a, d, c.asserts, c.decided)
		}
	}
}

// A $schema naming a meta-schema the document carries is no unknown
// dialect; one naming a meta-schema elsewhere still is.
func TestLocalMetaSchemaIsKnown(t *testing.T) {
	recordLoads(t)
	local := parse(t, `{"$schema": "urn:example:format-meta", "$defs": {"meta": `+formatMeta+`}}`)
	if is := Scan(local); len(is) != 0 {
		t.Errorf("Scan: %s", summary(is))
	}
	if sch, is := Compile(local); sch == nil || len(is) != 0 {
		t.Errorf("Compile: %s", summary(is))
	}
	elsewhere := parse(t, `{"$schema": "urn:example:format-meta"}`)
	if is := Scan(elsewhere); summary(is) != "/$schema unknown-dialect\n" {
		t.Errorf("Scan: %s", summary(is))
	}
}

func TestStructural(t *testing.T) {
	for _, c := range []struct {
		name, schema, value string
		structural, decided bool
		err                 bool
	}{
		{"fits", `{"properties": {"a": {"type": "string"}}}`, `{"a": "x"}`, false, true, false},
		{"value fault", `{"properties": {"a": {"enum": ["x"]}}}`, `{"a": "y"}`, false, true, true},
		{"structural fault", `{"required": ["a"]}`, `{}`, true, true, false},
		{"draft-07 format either way", `{"$schema": "http://json-schema.org/draft-07/schema#", "properties": {"a": {"type": "string", "format": "uuid"}}}`, `{"a": "run_1"}`, false, true, true},
		{"draft-07 format and a wrong type", `{"$schema": "http://json-schema.org/draft-07/schema#", "properties": {"a": {"type": "string", "format": "uuid"}}, "required": ["b"]}`, `{"a": "run_1"}`, true, true, false},
		{"cannot be judged", `{"$ref": "https://example.com/s.json"}`, `{}`, false, false, false},
	} {
		var v any
		d := json.NewDecoder(strings.NewReader(c.value))
		d.UseNumber()
		if err := d.Decode(&v); err != nil {
			t.Fatal(err)
		}
		st, dec, err := Structural(parse(t, c.schema), v)
		if st != c.structural || dec != c.decided || (err != nil) != c.err {
			t.Errorf("%s: Structural = %v, %v, %v; want %v, %v, error %v", c.name, st, dec, err, c.structural, c.decided, c.err)
		}
	}
}
