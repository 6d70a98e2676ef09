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

// instance turns a request's arguments into the value a validator reads.
func instance(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(b))
}

// fits returns the fault that makes tool's input schema reject args, or
// nil when the schema accepts them, cannot be judged offline, or rejects
// them on a loop tool only for value constraints such a schema may not
// declare. The schema library decides (schemacheck.FitOf).
func (t *Target) fits(tool string, args map[string]any) error {
	s := t.InputSchemas[tool]
	if s == nil {
		return nil
	}
	v, err := instance(args)
	if err != nil {
		return err
	}
	fit, verr := schemacheck.FitOf(s, v)
	access := tool == types.ToolGetGuide || tool == types.ToolCatalog
	if fit == schemacheck.StructuralFault || access && fit == schemacheck.ValueFault {
		return errors.New(summary(fit, verr))
	}
	return nil
}

var english = message.NewPrinter(language.English)

// summary names a rejection: its kind and the library's first leaf,
// where and what ("structural fault at /flow: got string, want object").
func summary(fit schemacheck.Fit, err error) string {
	var e *jsonschema.ValidationError
	if !errors.As(err, &e) {
		return fit.String()
	}
	for len(e.Causes) > 0 {
		e = e.Causes[0]
	}
	return fmt.Sprintf("%s at /%s: %s", fit, strings.Join(e.InstanceLocation, "/"), e.ErrorKind.LocalizedString(english))
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
// true when the library cannot tell, so that no probe claims a context
// breaks a schema nobody could judge.
func (t *Target) contextFits(v any) bool {
	if t.contextSchema == nil {
		t.contextSchema = source.ParseValue(t.Language.ContextSchema)
		if t.contextSchema == nil {
			return true
		}
	}
	x, err := instance(v)
	if err != nil {
		return true
	}
	fit, _ := schemacheck.FitOf(t.contextSchema, x)
	return !fit.Rejects()
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
