package toolschema

import (
	"net/url"
	"slices"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// This file holds the helpers the family shares; the rules live in
// reserved.go, permissive.go, annotations.go and output.go (with the
// result shapes in shapes.go).

// loopTool is a loop tool present in tools/list with an object inputSchema.
type loopTool struct {
	*snapshot.LoopTool
	// root is the inputSchema, the document local references resolve
	// against; schema is the object schema that lists the members: root,
	// or the definition a root $ref names (zod-to-json-schema with a name
	// writes {"$ref": "#/definitions/Name", "definitions": {...}}).
	root, schema *source.Node
	// props is the inputSchema's "properties" object, or nil.
	props *source.Node
	// programArgs are the argument names of the tool's program declaration
	// (Part III §5), in declaration order.
	programArgs []string
}

// loopTools returns the snapshot's loop tools that tools/list carries; a
// loop tool named by the manifest but missing from tools/list is the
// binding rules' finding, not this family's.
func loopTools(p *lint.Pass) []loopTool {
	var out []loopTool
	for _, lt := range p.Snap.LoopTools() {
		if lt.Tool == nil || !lt.Tool.InputSchema.IsObject() {
			continue
		}
		root, schema := lt.Tool.InputSchema, lt.Tool.InputSchema
		if ref := root.Get("$ref"); ref.IsString() && !root.Has("properties") {
			if target := resolveLocalRef(root, ref); target.IsObject() {
				schema = target
			}
		}
		props := schema.Get("properties")
		if !props.IsObject() {
			props = nil
		}
		out = append(out, loopTool{LoopTool: lt, root: root, schema: schema, props: props, programArgs: programArgs(lt.Tool)})
	}
	return out
}

// programArgs reads the argument names of a program declaration in either
// form; malformed entries are the binding rules' concern and are skipped.
func programArgs(t *snapshot.Tool) []string {
	var out []string
	for _, b := range rulekit.ProgramBindings(t.ProgramDeclaration()) {
		if a, ok := b.Str("argument"); ok && a != "" {
			out = append(out, a)
		}
	}
	return out
}

// shared reports whether the declaration uses the multi-Language form.
func (lt loopTool) shared() bool {
	return lt.Tool.ProgramDeclaration().Get("languages").IsArray()
}

func (lt loopTool) isProgramArg(name string) bool { return slices.Contains(lt.programArgs, name) }

// reserved returns the reserved-name entry for a member of this tool when
// the name is reserved on a stage the tool serves and is not the tool's
// program argument.
func (lt loopTool) reserved(name string) (types.ReservedArg, bool) {
	ra, ok := types.LookupReservedArg(name)
	if !ok || lt.isProgramArg(name) {
		return ra, false
	}
	for s := range lt.Stages {
		if ra.ReservedOn(s) {
			return ra, true
		}
	}
	return ra, false
}

// languages returns the Languages the tool serves on stage s; nil when the
// stage was inferred without a manifest.
func (lt loopTool) languages(s types.Stage) []*snapshot.Language { return lt.Stages[s] }

// requiredEntry returns the element of the inputSchema's "required" array
// naming member, or nil.
func requiredEntry(schema *source.Node, member string) *source.Node {
	for _, r := range schema.Get("required").Items() {
		if r.Kind == source.String && r.Text() == member {
			return r
		}
	}
	return nil
}

// stageNoun names a stage the way the spec's prose does.
func stageNoun(s types.Stage) string {
	if s == types.StageTraceFetch {
		return "trace-fetch"
	}
	return string(s)
}

// Keywords of the applicator and validation vocabularies (drafts 4 to
// 2020-12) that can make a validator reject an instance. Everything else
// (title, description, default, examples, deprecated, $comment, readOnly,
// unknown keywords) only describes the value (JSON Schema 2020-12 §6.5).
// format is here because many validators assert it although 2020-12 makes
// it an annotation by default.
var assertionKeywords = map[string]bool{
	"type": true, "enum": true, "const": true, "pattern": true, "format": true,
	"minLength": true, "maxLength": true, "minimum": true, "maximum": true,
	"exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true,
	"not": true, "allOf": true, "anyOf": true, "oneOf": true, "if": true, "then": true, "else": true,
	"$ref": true, "$dynamicRef": true, "$recursiveRef": true,
	"properties": true, "patternProperties": true, "additionalProperties": true,
	"unevaluatedProperties": true, "propertyNames": true, "required": true,
	"minProperties": true, "maxProperties": true, "dependentRequired": true,
	"dependentSchemas": true, "dependencies": true,
	"items": true, "prefixItems": true, "additionalItems": true, "unevaluatedItems": true,
	"contains": true, "minContains": true, "maxContains": true,
	"minItems": true, "maxItems": true, "uniqueItems": true, "contentSchema": true,
}

// permissive reports whether schema s accepts every instance: true, or an
// object holding only annotations (and local references to permissive
// schemas, followed within root).
func permissive(root, s *source.Node) bool {
	return len(constraints(root, s, false, refMemo{})) == 0
}

// refMemo remembers whether a $ref target constrains, so shared
// definitions are judged once and reference cycles end (a target still
// being judged counts as permissive).
type refMemo map[refKey]bool

type refKey struct {
	n         *source.Node
	allowType bool
}

// constraints returns the keyword values of schema s that can reject an
// instance, in document order. With allowType, "type" is not reported:
// a reserved member may state its JSON type. Local $refs are followed
// within root and the $ref itself is reported when its target constrains;
// a $ref the document cannot resolve is reported as a constraint.
func constraints(root, s *source.Node, allowType bool, seen refMemo) []*source.Node {
	switch {
	case s == nil:
		return nil
	case s.IsBool():
		if s.Truth() {
			return nil
		}
		return []*source.Node{s}
	case !s.IsObject():
		return nil
	}
	var out []*source.Node
	for _, k := range s.Kids() {
		if !assertionKeywords[k.Key()] || (allowType && k.Key() == "type") || trivial(root, k, seen) {
			continue
		}
		if allowType && k.Key() == "anyOf" && typeUnion(root, k, seen) {
			continue
		}
		if k.Key() == "$ref" && k.IsString() {
			if target := resolveLocalRef(root, k); target != nil {
				key := refKey{target, allowType}
				c, done := seen[key]
				if !done {
					seen[key] = false
					c = len(constraints(root, target, allowType, seen)) > 0
					seen[key] = c
				}
				if !c {
					continue
				}
			}
		}
		out = append(out, k)
	}
	return out
}

// typeUnion reports whether an anyOf only lists JSON types, each branch
// constraining nothing beyond its type: Pydantic writes Optional[str] as
// anyOf [{"type": "string"}, {"type": "null"}], which widens the member's
// JSON type as "type": ["string", "null"] does and constrains nothing.
func typeUnion(root, k *source.Node, seen refMemo) bool {
	if !k.IsArray() || len(k.Kids()) == 0 {
		return false
	}
	for _, b := range k.Kids() {
		if len(constraints(root, b, true, seen)) > 0 {
			return false
		}
	}
	return true
}

// trivial reports whether an assertion keyword's value constrains nothing:
// true or permissive subschemas, an empty required or empty allOf.
func trivial(root, k *source.Node, seen refMemo) bool {
	sub := func(n *source.Node) bool { return len(constraints(root, n, false, seen)) == 0 }
	switch {
	case k.Key() == "required" || k.Key() == "allOf":
		if !k.IsArray() {
			return false
		}
		for _, e := range k.Kids() {
			if k.Key() == "required" || !sub(e) {
				return false
			}
		}
		return true
	case k.Key() == "additionalProperties" || k.Key() == "unevaluatedProperties" || k.Key() == "propertyNames" ||
		k.Key() == "additionalItems" || k.Key() == "unevaluatedItems" || k.Key() == "then" || k.Key() == "else" ||
		(k.Key() == "items" && !k.IsArray()):
		return sub(k)
	case k.Key() == "properties" || k.Key() == "patternProperties" || k.Key() == "dependentSchemas":
		if !k.IsObject() {
			return false
		}
		for _, e := range k.Kids() {
			if !sub(e) {
				return false
			}
		}
		return true
	}
	return false
}

// resolveLocalRef resolves a "#..." JSON Pointer reference against the
// document root the schema lives in, or returns nil.
func resolveLocalRef(root, ref *source.Node) *source.Node {
	frag, ok := strings.CutPrefix(ref.Text(), "#")
	if !ok {
		return nil
	}
	if u, err := url.PathUnescape(frag); err == nil {
		frag = u
	}
	n, ok := root.Resolve(frag)
	if !ok {
		return nil
	}
	return n
}

// jsonTypes returns the JSON Schema type names a "type" value allows, or
// nil when the value is malformed.
func jsonTypes(t *source.Node) []string {
	if t.IsString() {
		return []string{t.Text()}
	}
	var out []string
	for _, e := range t.Items() {
		if !e.IsString() {
			return nil
		}
		out = append(out, e.Text())
	}
	return out
}
