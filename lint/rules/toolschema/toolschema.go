package toolschema

import (
	"slices"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/schemacheck"
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
	// res reads the inputSchema the way a validator applies it: a named
	// root $ref, allOf composition (zod's .and()), $defs references and
	// Pydantic's nullable unions (schemacheck.Resolver).
	res *schemacheck.Resolver
	// root is the inputSchema, the document local references resolve
	// against; schema is the object schema that lists the members: root,
	// or the definition a root $ref names (zod-to-json-schema with a name
	// writes {"$ref": "#/definitions/Name", "definitions": {...}}).
	root, schema *source.Node
	// members are the member declarations of every part of the schema
	// (root, a root $ref's target, allOf members), in order; a name
	// declared by two parts appears twice, since both apply.
	members []*source.Node
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
		root := lt.Tool.InputSchema
		res := schemacheck.NewResolver(root)
		schema := res.Deref(root)
		if !schema.IsObject() {
			schema = root
		}
		out = append(out, loopTool{LoopTool: lt, res: res, root: root, schema: schema, members: res.Members(root), programArgs: programArgs(lt.Tool)})
	}
	return out
}

// member returns the first declaration of member name, or nil.
func (lt loopTool) member(name string) *source.Node { return lt.res.Member(lt.root, name) }

// required returns the "required" entry naming member name in any part of
// the schema, or nil.
func (lt loopTool) required(name string) *source.Node { return lt.res.Required(lt.root, name) }

// requiredAt is where a missing required entry is reported: the schema's
// own "required" array, or the schema.
func (lt loopTool) requiredAt() *source.Node {
	if req := lt.schema.Get("required"); req.IsArray() {
		return req
	}
	return lt.schema
}

// propertiesAt is where a missing member is reported: the schema's own
// "properties" object, or the schema.
func (lt loopTool) propertiesAt() *source.Node {
	if props := lt.schema.Get("properties"); props.IsObject() {
		return props
	}
	return lt.schema
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
// format is here only where it asserts: the library decides per dialect
// (schemacheck.FormatAsserts).
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

// reader judges which keywords of a schema can reject an instance, within
// one inputSchema document.
type reader struct {
	res *schemacheck.Resolver
	// memo remembers whether a $ref target constrains, so shared
	// definitions are judged once and reference cycles end (a target
	// still being judged counts as permissive).
	memo map[refKey]bool
}

type refKey struct {
	n         *source.Node
	allowType bool
}

func (lt loopTool) reader() *reader { return &reader{res: lt.res, memo: map[refKey]bool{}} }

// permissive reports whether schema s accepts every instance: true, or an
// object holding only annotations (and local references to permissive
// schemas).
func (r *reader) permissive(s *source.Node) bool {
	return len(r.constraints(s, false)) == 0
}

// constraints returns the keyword values of schema s that can reject an
// instance, in document order. With allowType, "type" is not reported:
// a reserved member may state its JSON type. Local $refs are followed
// and the $ref itself is reported when its target constrains; a $ref the
// document cannot resolve is reported as a constraint. A format is one
// only where it asserts in the schema's dialect.
func (r *reader) constraints(s *source.Node, allowType bool) []*source.Node {
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
		if !assertionKeywords[k.Key()] || (allowType && k.Key() == "type") || r.trivial(k, allowType) {
			continue
		}
		if allowType && (k.Key() == "anyOf" || k.Key() == "oneOf") {
			if r.typeUnion(k) {
				continue
			}
			// Of a nullable union (Pydantic's Optional[Mode]) only the
			// non-null member can constrain; name what in it does.
			if nn := r.res.NonNull(s); nn != nil && slices.Contains(k.Kids(), nn) {
				out = append(out, r.constraints(nn, allowType)...)
				continue
			}
		}
		if k.Key() == "format" {
			if asserts, decided := schemacheck.FormatAsserts(r.res.Root(), k); !asserts || !decided {
				continue
			}
		}
		if k.Key() == "$ref" && k.IsString() {
			if target := r.res.Target(k); target != nil {
				key := refKey{target, allowType}
				c, done := r.memo[key]
				if !done {
					r.memo[key] = false
					c = len(r.constraints(target, allowType)) > 0
					r.memo[key] = c
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

// typeUnion reports whether an anyOf or oneOf only lists JSON types, each
// branch constraining nothing beyond its type: Pydantic writes
// Optional[str] as anyOf [{"type": "string"}, {"type": "null"}], which
// widens the member's JSON type as "type": ["string", "null"] does and
// constrains nothing.
func (r *reader) typeUnion(k *source.Node) bool {
	if !k.IsArray() || len(k.Kids()) == 0 {
		return false
	}
	for _, b := range k.Kids() {
		if len(r.constraints(b, true)) > 0 {
			return false
		}
	}
	return true
}

// trivial reports whether an assertion keyword's value constrains nothing:
// true or permissive subschemas, an empty required, or an allOf whose
// members constrain nothing (with allowType, beyond a JSON type: older
// Pydantic 2 wraps a described $ref as allOf [{"$ref": ...}]).
func (r *reader) trivial(k *source.Node, allowType bool) bool {
	sub := func(n *source.Node) bool { return len(r.constraints(n, false)) == 0 }
	switch {
	case k.Key() == "required":
		return k.IsArray() && len(k.Kids()) == 0
	case k.Key() == "allOf":
		if !k.IsArray() {
			return false
		}
		for _, e := range k.Kids() {
			if len(r.constraints(e, allowType)) > 0 {
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
