package strictschema

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"regexp"
	"slices"
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
	constraints map[string]fact // on this (sub)schema, beyond its type
	typ         string
}

func newSchema() *schema {
	return &schema{props: map[string]*property{}, constraints: map[string]fact{}}
}

type property struct {
	key    ast.Node
	schema *schema
}

type named struct {
	name string
	expr ast.Node
}

type fact struct {
	keyword string
	expr    ast.Node
	fix     []analysis.SuggestedFix
	// via names the construct that states the fact when expr is not the
	// keyword itself, such as jsonschema.For[T].
	via string
}

// span is a source range that no single expression covers, such as a
// struct field's name.
type span struct{ pos, end token.Pos }

func (s span) Pos() token.Pos { return s.pos }
func (s span) End() token.Pos { return s.end }

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

// keyword maps a jsonschema.Schema or mcp-go ToolInputSchema field name to
// the keyword it encodes (AdditionalProperties to additionalProperties);
// map keys are keywords already.
func keyword(name string) string {
	if name == "" {
		return name
	}
	return strings.ToLower(name[:1]) + name[1:]
}

type builder struct {
	pass *analysis.Pass
	vals *toolfind.Values
}

// fromExpr reads a schema value: a jsonschema.Schema literal, a map
// literal, jsonschema.For[T], JSON text in a string constant or
// json.RawMessage/[]byte conversion of one, or the json.Marshal of any of
// these (the bytes passed on as json.RawMessage); then the assignments made
// through the variables holding it (schema["additionalProperties"] =
// false, s.Properties["mode"].Enum = ...), in order.
func (b *builder) fromExpr(e ast.Expr) *schema {
	return b.fromExprIn(e, nil)
}

func (b *builder) fromExprIn(e ast.Expr, env toolfind.Env) *schema {
	info := b.pass.TypesInfo
	var s *schema
	switch x := b.vals.ResolveIn(e, env).(type) {
	case *ast.CompositeLit:
		t := info.TypeOf(x)
		if sdk.IsNamed(t, sdk.JSONSchema, "Schema") || sdk.IsNamed(t, sdk.MCPGoMCP, "ToolInputSchema") {
			s = b.fromLit(x)
		} else if t != nil {
			if _, ok := t.Underlying().(*types.Map); ok {
				s = b.fromLit(x)
			}
		}
	case *ast.CallExpr:
		// json.RawMessage(`...`) and []byte(`...`) conversions.
		if tv, ok := info.Types[x.Fun]; ok && tv.IsType() && len(x.Args) == 1 {
			return b.fromExprIn(x.Args[0], env)
		}
		// json.Marshal(schema) of a map or struct built in the package,
		// the bytes then passed as json.RawMessage.
		if sdk.IsFuncIn(sdk.Callee(info, x), "encoding/json", "Marshal", "MarshalIndent") && len(x.Args) > 0 {
			return b.fromExprIn(x.Args[0], env)
		}
		s = b.fromFor(x)
	case *ast.BasicLit:
		if str, ok := sdk.String(info, x); ok {
			return b.fromJSON(x, str)
		}
	}
	if s == nil {
		return nil
	}
	for _, a := range b.vals.Assigns(e, env) {
		b.apply(s, a.Path, a.Value, a.Stmt)
	}
	return s
}

// fromLit reads a jsonschema.Schema, ToolInputSchema or map literal.
func (b *builder) fromLit(lit *ast.CompositeLit) *schema {
	info := b.pass.TypesInfo
	s := newSchema()
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		var name string
		if id, ok := kv.Key.(*ast.Ident); ok && isStructLit(info, lit) {
			name = id.Name
		} else if name, ok = sdk.String(info, kv.Key); !ok {
			continue
		}
		b.member(s, keyword(name), kv.Value, kv)
	}
	return s
}

// isStructLit reports whether lit builds a struct, also where its type
// is elided from a map or slice of pointers.
func isStructLit(info *types.Info, lit *ast.CompositeLit) bool {
	t := info.TypeOf(lit)
	if t == nil {
		return false
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	_, ok := t.Underlying().(*types.Struct)
	return ok
}

// member records that keyword kw of s is set to value, by the literal
// element or assignment at; a later setting replaces an earlier one.
func (b *builder) member(s *schema, kw string, value ast.Expr, at ast.Node) {
	info := b.pass.TypesInfo
	switch kw {
	case "type":
		s.typ, _ = sdk.String(info, value)
	case "additionalProperties":
		s.closed = b.closedBy(value, at)
	case "properties":
		s.props = map[string]*property{}
		b.addProperties(s, value)
	case "required":
		s.required = b.stringList(value)
		delete(s.constraints, kw)
		if len(s.required) > 0 {
			s.constraints[kw] = fact{keyword: kw, expr: at}
		}
	default:
		if !constraintKeywords[kw] {
			return
		}
		if sdk.IsNil(info, value) {
			delete(s.constraints, kw)
		} else {
			s.constraints[kw] = fact{keyword: kw, expr: at}
		}
	}
}

// closedBy returns the additionalProperties: false fact that setting
// additionalProperties to value states, or nil when value admits unknown
// members (true, nil, the empty schema) or cannot be judged.
func (b *builder) closedBy(value ast.Expr, at ast.Node) *fact {
	info := b.pass.TypesInfo
	if v, ok := sdk.Bool(info, value); ok {
		if v {
			return nil
		}
		return &fact{keyword: "additionalProperties", expr: at, fix: replaceWith(value, "true", "Allow unknown members")}
	}
	sub, ok := b.vals.Resolve(value).(*ast.CompositeLit)
	if !ok || len(sub.Elts) != 1 {
		return nil
	}
	if sdk.IsNamed(info.TypeOf(sub), sdk.JSONSchema, "Schema") {
		not := sdk.Fields(sub)["Not"]
		if not == nil {
			return nil
		}
		// {Not: {}} denies every member; the empty schema admits them.
		return &fact{keyword: "additionalProperties", expr: at, fix: []analysis.SuggestedFix{{
			Message:   "Allow unknown members",
			TextEdits: []analysis.TextEdit{{Pos: not.Pos(), End: not.End()}},
		}}}
	}
	if ss := b.fromLit(sub); ss != nil && ss.constraints["not"].expr != nil {
		return &fact{keyword: "additionalProperties", expr: at}
	}
	return nil
}

// apply replays an assignment through a schema variable: path is what
// the assignment sets below it (["additionalProperties"],
// ["Properties", "mode", "Enum"]).
func (b *builder) apply(s *schema, path []toolfind.Step, value ast.Expr, at ast.Node) {
	if len(path) == 0 {
		return
	}
	kw := keyword(path[0].Name)
	if len(path) == 1 {
		b.member(s, kw, value, at)
		return
	}
	if kw != "properties" || path[1].Field {
		return
	}
	name := path[1].Name
	if len(path) == 2 {
		s.props[name] = &property{key: at, schema: b.memberSchema(value)}
		return
	}
	p := s.props[name]
	if p == nil {
		p = &property{key: at, schema: newSchema()}
		s.props[name] = p
	}
	b.apply(p.schema, path[2:], value, at)
}

// memberSchema reads a member's schema; one it cannot read is unknown,
// which constrains nothing it can report.
func (b *builder) memberSchema(e ast.Expr) *schema {
	if s := b.fromExpr(e); s != nil {
		return s
	}
	return newSchema()
}

// addProperties reads a properties value, a jsonschema.Schema map or a
// map[string]any literal alike, with the members assigned to it later.
func (b *builder) addProperties(s *schema, value ast.Expr) {
	for _, el := range b.vals.Elements(value, nil) {
		if el.Key == nil {
			continue
		}
		if k, ok := sdk.String(b.pass.TypesInfo, el.Key); ok {
			s.props[k] = &property{key: el.Key, schema: b.memberSchema(el.Value)}
		}
	}
	for _, a := range b.vals.Assigns(value, nil) {
		if len(a.Path) > 1 && !a.Path[0].Field {
			b.apply(s, append([]toolfind.Step{{Name: "properties", Field: false}}, a.Path...), a.Value, a.Stmt)
		}
	}
}

// fromFor reads jsonschema.For[T]() and jsonschema.ForType(reflect.TypeFor[T]()).
func (b *builder) fromFor(call *ast.CallExpr) *schema {
	info := b.pass.TypesInfo
	fn := sdk.Callee(info, call)
	var t types.Type
	switch {
	case sdk.IsFunc(fn, sdk.JSONSchema, "For"):
		if inst, ok := info.Instances[sdk.FuncIdent(call.Fun)]; ok && inst.TypeArgs.Len() == 1 {
			t = inst.TypeArgs.At(0)
		}
	case sdk.IsFunc(fn, sdk.JSONSchema, "ForType") && len(call.Args) > 0:
		arg, ok := b.vals.Resolve(call.Args[0]).(*ast.CallExpr)
		if !ok || !sdk.IsFunc(sdk.Callee(info, arg), "reflect", "TypeFor") {
			return nil
		}
		if inst, ok := info.Instances[sdk.FuncIdent(arg.Fun)]; ok && inst.TypeArgs.Len() == 1 {
			t = inst.TypeArgs.At(0)
		}
	}
	if t == nil {
		return nil
	}
	via := fmt.Sprintf("jsonschema.For[%s] closes every struct", types.TypeString(t, types.RelativeTo(b.pass.Pkg)))
	return b.structSchema(t, call, via, false, 0)
}

// structSchema is the schema jsonschema-go infers from a Go type: a struct
// is closed and requires every field without omitempty or omitzero. With
// tagEnums, a jsonschema:"enum=..." tag adds an enum, as mcp-go's
// mcp.WithInputSchema[T] does; jsonschema-go v0.4.3 itself rejects such a
// tag (For returns an error and go-sdk's mcp.AddTool panics), so there is
// no schema to judge.
func (b *builder) structSchema(t types.Type, at ast.Node, via string, tagEnums bool, depth int) *schema {
	s := newSchema()
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || depth > 4 {
		s.typ = jsonType(t)
		return s
	}
	s.typ = "object"
	s.closed = &fact{keyword: "additionalProperties", expr: at, via: via}
	for i := range st.NumFields() {
		f := st.Field(i)
		if !f.Exported() || f.Embedded() {
			continue
		}
		tag := reflect.StructTag(st.Tag(i))
		name, opts, _ := strings.Cut(tag.Get("json"), ",")
		if name == "-" && opts == "" {
			continue
		}
		if name == "" {
			name = f.Name()
		}
		pos := ast.Node(at)
		if f.Pkg() == b.pass.Pkg {
			pos = span{f.Pos(), f.Pos() + token.Pos(len(f.Name()))}
		}
		if !slices.Contains(strings.Split(opts, ","), "omitempty") && !slices.Contains(strings.Split(opts, ","), "omitzero") {
			s.required = append(s.required, named{name, pos})
		}
		sub := b.structSchema(f.Type(), at, via, tagEnums, depth+1)
		if tagEnums {
			for part := range strings.SplitSeq(tag.Get("jsonschema"), ",") {
				if strings.HasPrefix(strings.TrimSpace(part), "enum=") {
					sub.constraints["enum"] = fact{keyword: "enum", expr: pos, via: `its jsonschema:"enum=..." tag`}
				}
			}
		}
		s.props[name] = &property{key: pos, schema: sub}
	}
	if len(s.required) > 0 {
		s.constraints["required"] = fact{keyword: "required", expr: at, via: via}
	}
	return s
}

// jsonType is the JSON type jsonschema-go gives a non-struct Go type, ""
// where it sets none.
func jsonType(t types.Type) string {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsString != 0:
			return "string"
		case u.Info()&types.IsBoolean != 0:
			return "boolean"
		case u.Info()&types.IsInteger != 0:
			return "integer"
		case u.Info()&types.IsFloat != 0:
			return "number"
		}
	case *types.Slice, *types.Array:
		return "array"
	case *types.Map:
		return "object"
	}
	return ""
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
	s := newSchema()
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
		s.constraints["required"] = fact{keyword: "required", expr: lit}
	}
	for k := range m {
		if constraintKeywords[k] {
			s.constraints[k] = fact{keyword: k, expr: lit}
		}
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

func replaceWith(e ast.Expr, text, msg string) []analysis.SuggestedFix {
	return []analysis.SuggestedFix{{
		Message:   msg,
		TextEdits: []analysis.TextEdit{{Pos: e.Pos(), End: e.End(), NewText: []byte(text)}},
	}}
}
