package schemacheck

import (
	"bytes"
	"errors"
	"testing"

	"github.com/pilotagekit/pilotagekit/schemas"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestEmbeddedMetaValid is what lets Embedded skip meta-validation: every
// embedded schema, loaded under its real $id, passes the 2020-12
// meta-schema, and compiles the trusted way too.
func TestEmbeddedMetaValid(t *testing.T) {
	for _, name := range schemas.Names() {
		b, _ := schemas.Get(name)
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		c := jsonschema.NewCompiler()
		c.UseLoader(refusingLoader{})
		if err := c.AddResource(schemas.ID(name), doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := c.Compile(schemas.ID(name)); err != nil {
			t.Errorf("%s is not valid against its meta-schema: %v", name, err)
		}
		if Embedded(name) == nil {
			t.Errorf("Embedded(%s) is nil", name)
		}
	}
}

// TestEmbeddedSkipsMetaValidation proves the trusted URL is what the
// library exempts: a schema breaking its meta-schema compiles there.
func TestEmbeddedSkipsMetaValidation(t *testing.T) {
	compile := func(url string) error {
		c := jsonschema.NewCompiler()
		c.UseLoader(refusingLoader{})
		if err := c.AddResource(url, map[string]any{"minLength": "five"}); err != nil {
			t.Fatal(err)
		}
		_, err := c.Compile(url)
		return err
	}
	if err := compile("mem:///broken.json"); err == nil {
		t.Fatal("the library no longer meta-validates ordinary documents; the check below proves nothing")
	}
	var sve *jsonschema.SchemaValidationError
	if err := compile(trustedBase + "broken.json"); errors.As(err, &sve) {
		t.Fatalf("the library validated a document under %s against its meta-schema (%v); Embedded pays for meta-validation again", trustedBase, err)
	}
}

// TestEmbeddedValidates checks the trusted compile keeps its meaning.
func TestEmbeddedValidates(t *testing.T) {
	s := Embedded(schemas.LanguageEntry)
	if err := s.Validate(map[string]any{}); err == nil {
		t.Fatal("an empty Language entry validated")
	}
}
