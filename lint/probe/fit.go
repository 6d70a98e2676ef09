package probe

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint/schemacheck"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// A probe request must reach the Language, not the schema validator in
// front of it: a request its tool's inputSchema rejects for a structural
// fault (a missing required member, a wrong JSON type) is rightly answered
// with a carrier error (Part III §4.6, §7.1), whatever its deliberate
// defect, and the answer would judge nothing. So every request is checked
// against the declared schema with the schema library before it is sent,
// the program is sent in another JSON type where its first one does not
// fit, and a probe no value of which fits is skipped with that reason.
//
// For the fixed access tools any violation counts: their binding-defined
// schemas are strict on purpose and a violation is carrier-level (Part III
// §7.1). For the loop tools only structural faults count: a loop-tool
// schema that constrains a value beyond its JSON type breaks Part III §4.6
// itself, and the server MUST still answer the value fault on the
// Pilotage channel, which is what the probe asks.

// schemaOf compiles the input schema declared for tool, or returns nil
// when none is known or it does not compile (the schema rules report
// that; the probe then sends as it would without a schema).
func (t *Target) schemaOf(tool string) *jsonschema.Schema {
	if t.compiled == nil {
		t.compiled = map[string]*jsonschema.Schema{}
	}
	if s, ok := t.compiled[tool]; ok {
		return s
	}
	s := compile(t.InputSchemas[tool])
	t.compiled[tool] = s
	return s
}

func compile(raw json.RawMessage) *jsonschema.Schema {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	f := source.Parse("schema.json", raw, source.Options{})
	if len(f.Docs) == 0 {
		return nil
	}
	s, _ := schemacheck.Compile(f.Docs[0].Root)
	return s
}

// instance turns a request's arguments into the value a validator reads.
func instance(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(b))
}

// fits returns the fault that makes tool's input schema reject args, or
// nil when the schema accepts them, or accepts them but for value
// constraints a loop-tool schema may not declare.
func (t *Target) fits(tool string, args map[string]any) error {
	s := t.schemaOf(tool)
	if s == nil {
		return nil
	}
	v, err := instance(args)
	if err != nil {
		return err
	}
	err = s.Validate(v)
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	access := tool == types.ToolGetGuide || tool == types.ToolCatalog
	if !access && !structural(ve) {
		return nil
	}
	return errors.New(summary(ve))
}

// structural reports whether a validation error comes down to a wrong JSON
// type or a missing required member: every branch of an anyOf or oneOf
// fails that way, or some cause of any other keyword does.
func structural(e *jsonschema.ValidationError) bool {
	switch e.ErrorKind.(type) {
	case *kind.Type, *kind.Required:
		return true
	case *kind.AnyOf, *kind.OneOf:
		if len(e.Causes) == 0 {
			return false
		}
		for _, c := range e.Causes {
			if !structural(c) {
				return false
			}
		}
		return true
	}
	for _, c := range e.Causes {
		if structural(c) {
			return true
		}
	}
	return false
}

var english = message.NewPrinter(language.English)

// summary is the first leaf of a validation error, where and what: "at
// /flow: got string, want object or null".
func summary(e *jsonschema.ValidationError) string {
	for len(e.Causes) > 0 {
		e = e.Causes[0]
	}
	at := "/" + strings.Join(e.InstanceLocation, "/")
	return fmt.Sprintf("at %s: %s", at, e.ErrorKind.LocalizedString(english))
}

// programTypes are the JSON types the probe can give its made-up programs,
// in the order it tries them: a string first, since only a string (or an
// array of one) certainly cannot parse.
var programTypes = []string{"string", "array", "object"}

// Fit checks reqs against their tools' declared input schemas and returns
// them as they are to be sent: a made-up program (garbage or empty) in the
// first JSON type the schema accepts, or a Skip when some request fits in
// no form the probe can build.
func (t *Target) Fit(reqs []Request) ([]Request, *Skip) {
	var out []Request
	for _, r := range reqs {
		err := t.fits(r.Tool, r.Args)
		if err == nil {
			out = append(out, r)
			continue
		}
		arg := t.programArgOf(r.Tool)
		alt, ok := t.refit(r, arg)
		if !ok {
			return nil, &Skip{NoFit, fmt.Sprintf("%s of %s's inputSchema (%v)", ReasonNoFit, r.Tool, err)}
		}
		out = append(out, alt)
	}
	return out, nil
}

// programArgOf names the program-bearing argument of a loop tool of the
// Language, or "".
func (t *Target) programArgOf(tool string) string {
	switch tool {
	case t.Language.Loop.Validate:
		return t.ValidateArg
	case t.Language.Loop.Execute:
		return t.ExecuteArg
	}
	return ""
}

// refit sends the made-up program of r in the other JSON types, and
// returns the first form the schema accepts.
func (t *Target) refit(r Request, arg string) (Request, bool) {
	v, ok := r.Args[arg]
	if arg == "" || !ok {
		return r, false
	}
	var build func(string) any
	for _, typ := range append([]string{""}, programTypes...) {
		switch {
		case reflect.DeepEqual(v, Garbage(typ)):
			build = Garbage
		case reflect.DeepEqual(v, Empty(typ)):
			build = Empty
		}
	}
	if build == nil {
		return r, false
	}
	for _, typ := range programTypes {
		a := build(typ)
		if reflect.DeepEqual(a, v) {
			continue
		}
		args := map[string]any{}
		for k, x := range r.Args {
			args[k] = x
		}
		args[arg] = a
		if t.fits(r.Tool, args) == nil {
			return Request{Tool: r.Tool, Args: args}, true
		}
	}
	return r, false
}

// contextFits reports whether the Language's context_schema accepts v;
// true when the schema cannot be read, so that no probe claims a context
// breaks a schema nobody could check.
func (t *Target) contextFits(v any) bool {
	if t.contextSchema == nil {
		t.contextSchema = compile(t.Language.ContextSchema)
		if t.contextSchema == nil {
			return true
		}
	}
	x, err := instance(v)
	return err != nil || t.contextSchema.Validate(x) == nil
}

// badContexts are the contexts validate-context-rejected tries, in order:
// first a value of another JSON type than the schema's own, then values of
// each type in turn; the probe sends the first that the context_schema
// rejects and the validate tool's schema accepts.
func badContexts(schema json.RawMessage) []any {
	var out []any
	var s struct {
		Type any `json:"type"`
	}
	if json.Unmarshal(schema, &s) == nil {
		switch s.Type {
		case "object":
			out = append(out, "pilotage-probe: not an object")
		case "string", "number", "integer", "boolean", "array", "null":
			out = append(out, map[string]any{"pilotage-probe": "a value of the wrong type"})
		}
	}
	return append(out,
		map[string]any{},
		map[string]any{"pilotage-probe": "a value of the wrong type"},
		"pilotage-probe: not an object",
		[]any{"pilotage-probe"},
		0,
		false,
		nil,
	)
}
