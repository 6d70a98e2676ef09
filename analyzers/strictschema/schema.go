package strictschema

import (
	"encoding/json"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/pilotagekit/pilotagekit/analyzers/internal/sdk"
	"github.com/pilotagekit/pilotagekit/analyzers/internal/toolfind"
)

// schema is what the analyzer knows of a tool's input schema, each fact
// tied to the expression that states it.
type schema struct {
	closed      *fact // additionalProperties: false
	props       map[string]*property
	required    []named
	constraints []fact // on this (sub)schema, beyond its type
	typ         string
}

type property struct {
	key    ast.Expr
	schema *schema
}

type named struct {
	name string
	expr ast.Expr
}

type fact struct {
	keyword string
	expr    ast.Expr
	fix     []analysis.SuggestedFix
}

// Keywords that constrain a value beyond its JSON type. Keywords that
// only describe (title, description, default, examples) are not here.
var constraintKeywords = map[string]bool{
	"enum": true, "const": true, "pattern": true, "format": true,
	"minLength": true, "maxLength": true, "minimum": true, "maximum": true,
	"exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true,
	"minItems": true, "maxItems": true, "uniqueItems": true,
	"minProperties": true, "maxProperties": true,
	"propertyNames": true, "not": true, "allOf": true, "anyOf": true, "oneOf": true,
}

// Field names of jsonschema.Schema, mapped to keywords.
var goSchemaFields = func() map[string]string {
	m := map[string]string{}
	for k := range constraintKeywords {
		m[strings.ToUpper(k[:1])+k[1:]] = k
	}
	return m
}()

type builder struct {
	pass *analysis.Pass
	vals *toolfind.Values
}

// fromExpr reads a schema value: a jsonschema.Schema literal, a map
// literal, or JSON text in a string constant or json.RawMessage/[]byte
// conversion of one.
func (b *builder) fromExpr(e ast.Expr) *schema {
	info := b.pass.TypesInfo
	e = b.vals.Resolve(e)
	switch x := e.(type) {
	case *ast.CompositeLit:
		t := info.TypeOf(x)
		if sdk.IsNamed(t, sdk.JSONSchema, "Schema") {
			return b.fromGoSchema(x)
		}
		if t != nil {
			if _, ok := t.Underlying().(*types.Map); ok {
				return b.fromMap(x)
			}
		}
	case *ast.CallExpr:
		// json.RawMessage(`...`) and []byte(`...`) conversions.
		if tv, ok := info.Types[x.Fun]; ok && tv.IsType() && len(x.Args) == 1 {
			return b.fromExpr(x.Args[0])
		}
	case *ast.BasicLit:
		if s, ok := sdk.String(info, x); ok {
			return b.fromJSON(x, s)
		}
	}
	return nil
}

func (b *builder) fromGoSchema(lit *ast.CompositeLit) *schema {
	info := b.pass.TypesInfo
	s := &schema{props: map[string]*property{}}
	for name, kv := range sdk.Fields(lit) {
		switch name {
		case "Type":
			s.typ, _ = sdk.String(info, kv.Value)
		case "AdditionalProperties":
			sub, ok := b.vals.Resolve(kv.Value).(*ast.CompositeLit)
			if !ok || !sdk.IsNamed(info.TypeOf(sub), sdk.JSONSchema, "Schema") {
				continue
			}
			not := sdk.Fields(sub)["Not"]
			if not == nil || len(sub.Elts) != 1 {
				continue
			}
			f := &fact{keyword: "additionalProperties", expr: kv}
			// {Not: {}} denies every member; the empty schema admits them.
			f.fix = []analysis.SuggestedFix{{
				Message:   "Allow unknown members",
				TextEdits: []analysis.TextEdit{{Pos: not.Pos(), End: not.End()}},
			}}
			s.closed = f
		case "Properties":
			b.addProperties(s, kv)
		case "Required":
			b.addRequired(s, kv)
		default:
			if kw, ok := goSchemaFields[name]; ok {
				s.constraints = append(s.constraints, fact{keyword: kw, expr: kv})
			}
		}
	}
	return s
}

func (b *builder) fromMap(lit *ast.CompositeLit) *schema {
	info := b.pass.TypesInfo
	s := &schema{props: map[string]*property{}}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		k, ok := sdk.String(info, kv.Key)
		if !ok {
			continue
		}
		switch k {
		case "type":
			s.typ, _ = sdk.String(info, kv.Value)
		case "additionalProperties":
			if v, ok := sdk.Bool(info, kv.Value); ok && !v {
				s.closed = &fact{keyword: k, expr: kv, fix: replaceWith(kv.Value, "true", "Allow unknown members")}
			} else if sub, ok := b.vals.Resolve(kv.Value).(*ast.CompositeLit); ok {
				if ss := b.fromMap(sub); ss != nil && len(sub.Elts) == 1 && hasConstraint(ss, "not") {
					s.closed = &fact{keyword: k, expr: kv}
				}
			}
		case "properties":
			b.addProperties(s, kv)
		case "required":
			b.addRequired(s, kv)
		default:
			if constraintKeywords[k] {
				s.constraints = append(s.constraints, fact{keyword: k, expr: kv})
			}
		}
	}
	return s
}

// addProperties reads a properties value, a jsonschema.Schema map or a
// map[string]any literal alike: a composite literal of string-keyed
// member schemas.
func (b *builder) addProperties(s *schema, kv *ast.KeyValueExpr) {
	props, ok := b.vals.Resolve(kv.Value).(*ast.CompositeLit)
	if !ok {
		return
	}
	for _, elt := range props.Elts {
		pkv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if k, ok := sdk.String(b.pass.TypesInfo, pkv.Key); ok {
			if sub := b.fromExpr(pkv.Value); sub != nil {
				s.props[k] = &property{key: pkv.Key, schema: sub}
			}
		}
	}
}

// addRequired reads a required list; a non-empty one is a constraint.
func (b *builder) addRequired(s *schema, kv *ast.KeyValueExpr) {
	s.required = b.stringList(kv.Value)
	if len(s.required) > 0 {
		s.constraints = append(s.constraints, fact{keyword: "required", expr: kv})
	}
}

var closedJSON = regexp.MustCompile(`"additionalProperties"\s*:\s*false`)

// fromJSON reads JSON text; every fact points at the literal that holds it.
func (b *builder) fromJSON(lit *ast.BasicLit, text string) *schema {
	var v any
	if json.Unmarshal([]byte(text), &v) != nil {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	s := jsonSchema(lit, m)
	// A raw string holding a single top-level "additionalProperties": false
	// can be fixed in place; anything subtler is left to the author.
	if s.closed != nil && lit.Kind == token.STRING && strings.HasPrefix(lit.Value, "`") {
		if locs := closedJSON.FindAllStringIndex(lit.Value, -1); len(locs) == 1 {
			start := lit.Pos() + token.Pos(locs[0][0])
			end := lit.Pos() + token.Pos(locs[0][1])
			s.closed.fix = []analysis.SuggestedFix{{
				Message:   "Allow unknown members",
				TextEdits: []analysis.TextEdit{{Pos: start, End: end, NewText: []byte(`"additionalProperties": true`)}},
			}}
		}
	}
	return s
}

func jsonSchema(lit ast.Expr, m map[string]any) *schema {
	s := &schema{props: map[string]*property{}}
	s.typ, _ = m["type"].(string)
	if ap, ok := m["additionalProperties"]; ok {
		if b, ok := ap.(bool); ok && !b {
			s.closed = &fact{keyword: "additionalProperties", expr: lit}
		}
		if sub, ok := ap.(map[string]any); ok && len(sub) == 1 && sub["not"] != nil {
			s.closed = &fact{keyword: "additionalProperties", expr: lit}
		}
	}
	if props, ok := m["properties"].(map[string]any); ok {
		for k, v := range props {
			if sub, ok := v.(map[string]any); ok {
				s.props[k] = &property{key: lit, schema: jsonSchema(lit, sub)}
			}
		}
	}
	if req, ok := m["required"].([]any); ok {
		for _, r := range req {
			if name, ok := r.(string); ok {
				s.required = append(s.required, named{name, lit})
			}
		}
		s.constraints = append(s.constraints, fact{keyword: "required", expr: lit})
	}
	var kws []string
	for k := range m {
		if constraintKeywords[k] {
			kws = append(kws, k)
		}
	}
	sort.Strings(kws)
	for _, k := range kws {
		s.constraints = append(s.constraints, fact{keyword: k, expr: lit})
	}
	return s
}

func (b *builder) stringList(e ast.Expr) []named {
	lit, ok := b.vals.Resolve(e).(*ast.CompositeLit)
	if !ok {
		return nil
	}
	var out []named
	for _, elt := range lit.Elts {
		if s, ok := sdk.String(b.pass.TypesInfo, elt); ok {
			out = append(out, named{s, elt})
		}
	}
	return out
}

func hasConstraint(s *schema, kw string) bool {
	for _, c := range s.constraints {
		if c.keyword == kw {
			return true
		}
	}
	return false
}

func replaceWith(e ast.Expr, text, msg string) []analysis.SuggestedFix {
	return []analysis.SuggestedFix{{
		Message:   msg,
		TextEdits: []analysis.TextEdit{{Pos: e.Pos(), End: e.End(), NewText: []byte(text)}},
	}}
}
