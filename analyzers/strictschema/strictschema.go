package strictschema

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"

	"github.com/pilotagekit/pilotagekit/analyzers/internal/sdk"
	"github.com/pilotagekit/pilotagekit/analyzers/internal/toolfind"
	ptypes "github.com/pilotagekit/pilotagekit/pkg/types"
)

//go:embed doc.go
var doc string

// Analyzer reports loop-tool input schemas that an SDK or a client would
// enforce before the Pilotage handler can route the fault.
var Analyzer = &analysis.Analyzer{
	Name:     "strictschema",
	Doc:      sdk.MustExtractDoc(doc, "strictschema"),
	URL:      "https://pkg.go.dev/github.com/pilotagekit/pilotagekit/analyzers/strictschema",
	Requires: []*analysis.Analyzer{inspect.Analyzer, toolfind.Analyzer},
	Run:      run,
}

// enforcement says what happens to a request that breaks the schema.
func enforcement(k toolfind.Kind) string {
	switch k {
	case toolfind.GoSDKTyped:
		return "go-sdk's mcp.AddTool validates arguments against it and answers a violation with an isError result that has no structuredContent, before the handler runs"
	case toolfind.GoSDKRaw:
		return "Server.AddTool publishes it as is, and a client that validates against it refuses the request before Pilotage sees it"
	default:
		return "mcp-go publishes it, and with server.WithInputSchemaValidation answers a violation with an isError result that has no structuredContent, before the handler runs"
	}
}

var mcpgoProps = map[string]string{
	"WithString": "string", "WithBoolean": "boolean", "WithNumber": "number", "WithInteger": "integer",
	"WithObject": "object", "WithArray": "array", "WithAny": "",
}

var mcpgoConstraints = map[string]string{
	"Enum": "enum", "Pattern": "pattern", "MinLength": "minLength", "MaxLength": "maxLength",
	"Min": "minimum", "Max": "maximum", "MultipleOf": "multipleOf", "MinItems": "minItems",
	"MaxItems": "maxItems", "UniqueItems": "uniqueItems", "MinProperties": "minProperties",
	"MaxProperties": "maxProperties", "PropertyNames": "propertyNames", "WithStringEnumItems": "enum",
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[toolfind.Analyzer].(*toolfind.Result)
	b := &builder{pass: pass, vals: res.Values()}
	var strictVictims, validated []string
	for _, t := range res.Tools {
		name := t.Name
		if name == "" {
			name = "?"
		}
		if t.Kind == toolfind.MCPGo && t.Fixed {
			// The binding's access-tool schemas require members.
			validated = append(validated, name)
		}
		if !t.Loop {
			continue
		}
		s, ownsClosed := b.toolSchema(t, name)
		if t.Kind == toolfind.MCPGo && !ownsClosed {
			strictVictims = append(strictVictims, name)
		}
		if s == nil {
			continue
		}
		if t.Kind == toolfind.MCPGo && canFail(s) {
			validated = append(validated, name)
		}
		b.check(t, name, s)
	}
	if len(validated) > 0 {
		sort.Strings(validated)
		validated = slices.Compact(validated)
		// The plugin module must not pull in lint for its Plural.
		noun := "tool"
		if len(validated) > 1 {
			noun = "tools"
		}
		for _, call := range res.Validation {
			pass.Report(analysis.Diagnostic{
				Pos: call.Pos(), End: call.End(),
				Message: fmt.Sprintf(`server.WithInputSchemaValidation makes mcp-go answer arguments that fail an input schema with an isError result that has no structuredContent, before the handler runs; for Pilotage %s %s that breaks the result envelope (structuredContent is REQUIRED, Part III §6), and a missing required member or a wrong JSON type is a carrier fault that belongs in a JSON-RPC error (Part III §7.1): drop the option and check those members in the handler`,
					noun, quoteList(validated)),
			})
		}
	}
	if len(strictVictims) > 0 {
		sort.Strings(strictVictims)
		for _, call := range res.StrictDefault {
			pass.Report(analysis.Diagnostic{
				Pos: call.Pos(), End: call.End(),
				Message: fmt.Sprintf(`server.WithStrictInputSchemaDefault sets "additionalProperties": false on loop tool %s; %s, so unknown members never reach Pilotage's error routing (Part III §4.6): drop the option or give each loop tool mcp.WithSchemaAdditionalProperties(true)`,
					quoteList(strictVictims), enforcement(toolfind.MCPGo)),
			})
		}
	}
	return nil, nil
}

// toolSchema builds the schema of t and reports inferred strict schemas.
// ownsClosed is true when the tool decides additionalProperties itself,
// which mcp-go's strict server default then leaves alone.
func (b *builder) toolSchema(t *toolfind.Tool, name string) (s *schema, ownsClosed bool) {
	info := b.pass.TypesInfo
	switch t.Kind {
	case toolfind.GoSDKTyped, toolfind.GoSDKRaw:
		if e, ok := t.Fields["InputSchema"]; ok && !sdk.IsNil(info, e) {
			return b.fromExpr(e), true
		}
		if t.Kind == toolfind.GoSDKTyped && isStruct(t.In) {
			b.pass.Report(analysis.Diagnostic{
				Pos: t.Register.Fun.Pos(), End: t.Register.Fun.End(),
				Message: fmt.Sprintf(`mcp.AddTool infers the input schema of loop tool %q from %s with "additionalProperties": false and every field without omitempty required; it validates arguments against that schema and answers an unknown member or a missing field with an isError result that has no structuredContent, before the handler runs (Part III §4.6): set Tool.InputSchema to a permissive schema (type "object", reserved members typed only)`,
					name, types.TypeString(t.In, types.RelativeTo(b.pass.Pkg))),
			})
		}
		return nil, true
	}
	// mcp-go
	if e, ok := t.Fields["RawInputSchema"]; ok {
		return b.fromExpr(e), true
	}
	call, ok := t.Def.(*ast.CallExpr)
	if !ok || !sdk.IsFunc(sdk.Callee(info, call), sdk.MCPGoMCP, "NewTool") {
		return nil, false
	}
	s = newSchema()
	s.typ = "object"
	for _, opt := range b.options(call, 1) {
		oc, ok := opt.(*ast.CallExpr)
		if !ok {
			continue
		}
		fn := sdk.Callee(info, oc)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != sdk.MCPGoMCP {
			continue
		}
		switch {
		case fn.Name() == "WithInputSchema":
			in := "T"
			if inst, ok := info.Instances[sdk.FuncIdent(oc.Fun)]; ok && inst.TypeArgs.Len() == 1 {
				in = types.TypeString(inst.TypeArgs.At(0), types.RelativeTo(b.pass.Pkg))
			}
			b.pass.Report(analysis.Diagnostic{
				Pos: oc.Pos(), End: oc.End(),
				Message: fmt.Sprintf(`mcp.WithInputSchema[%s] gives loop tool %q an input schema with "additionalProperties": false and every field without omitempty required; %s (Part III §4.6): declare the members with mcp.WithString/WithObject/WithAny, or pass a permissive mcp.WithRawInputSchema`,
					in, name, enforcement(t.Kind)),
			})
			// The message above covers the closed schema and the required
			// fields; what remains is an enum from a field's tag.
			if inst, ok := info.Instances[sdk.FuncIdent(oc.Fun)]; ok && inst.TypeArgs.Len() == 1 {
				s = b.structSchema(inst.TypeArgs.At(0), oc, "", true, 0)
				s.closed, s.required = nil, nil
				return s, true
			}
			return nil, true
		case fn.Name() == "WithRawInputSchema" && len(oc.Args) == 1:
			return b.fromExpr(oc.Args[0]), true
		case fn.Name() == "WithSchemaAdditionalProperties" && len(oc.Args) == 1:
			ownsClosed = true
			if v, ok := sdk.Bool(info, oc.Args[0]); ok && !v {
				s.closed = &fact{keyword: "additionalProperties", expr: oc,
					fix: replaceWith(oc.Args[0], "true", "Allow unknown members")}
			}
		default:
			typ, isProp := mcpgoProps[fn.Name()]
			if !isProp || len(oc.Args) == 0 {
				continue
			}
			pname, ok := sdk.String(info, oc.Args[0])
			if !ok {
				continue
			}
			ps := newSchema()
			ps.typ = typ
			for _, po := range b.options(oc, 1) {
				pc, ok := po.(*ast.CallExpr)
				if !ok {
					continue
				}
				pf := sdk.Callee(info, pc)
				if pf == nil || pf.Pkg() == nil || pf.Pkg().Path() != sdk.MCPGoMCP {
					continue
				}
				switch {
				case pf.Name() == "Required":
					s.required = append(s.required, named{pname, pc})
				case pf.Name() == "AdditionalProperties" && len(pc.Args) == 1:
					if v, ok := sdk.Bool(info, pc.Args[0]); ok && !v {
						ps.closed = &fact{keyword: "additionalProperties", expr: pc,
							fix: replaceWith(pc.Args[0], "true", "Allow unknown members")}
					}
				default:
					if kw, ok := mcpgoConstraints[pf.Name()]; ok {
						ps.constraints[kw] = fact{keyword: kw, expr: pc}
					}
				}
			}
			s.props[pname] = &property{key: oc.Args[0], schema: ps}
		}
	}
	// tool.InputSchema.Properties["mode"] = ..., tool.InputSchema.AdditionalProperties = false.
	for _, a := range t.Assigns {
		if len(a.Path) > 1 && a.Path[0].Field && a.Path[0].Name == "InputSchema" {
			b.apply(s, a.Path[1:], a.Value, a.Stmt)
			if keyword(a.Path[1].Name) == "additionalProperties" {
				ownsClosed = true
			}
		}
	}
	return s, ownsClosed
}

// options lists the arguments of call from the first'th on, spreading a
// final slice argument (mcp.NewTool(name, opts...)) into its elements and
// following each to the call that builds it, through variables and
// helpers of the package.
func (b *builder) options(call *ast.CallExpr, first int) []ast.Expr {
	if len(call.Args) <= first {
		return nil
	}
	args := call.Args[first:]
	var out []ast.Expr
	for i, a := range args {
		if i == len(args)-1 && call.Ellipsis.IsValid() {
			for _, el := range b.vals.Elements(a, nil) {
				out = append(out, b.vals.Resolve(el.Value))
			}
			continue
		}
		out = append(out, b.vals.Resolve(a))
	}
	return out
}

func (b *builder) check(t *toolfind.Tool, name string, s *schema) {
	enf := enforcement(t.Kind)
	if s.closed != nil {
		b.pass.Report(analysis.Diagnostic{
			Pos: s.closed.expr.Pos(), End: s.closed.expr.End(),
			Message: fmt.Sprintf(`loop tool %q sets "additionalProperties": false on its input schema%s; %s, so unknown members never reach Pilotage's error routing (Part III §4.6): leave additionalProperties unset`,
				name, s.closed.through(), enf),
			SuggestedFixes: s.closed.fix,
		})
	}
	stage := t.Stage
	if stage == "" {
		// program_ref is reserved on execute tools only (Part III §4.4),
		// and a loop tool may not use a reserved name for anything else.
		if _, ok := s.props[ptypes.ArgProgramRef]; ok {
			stage = ptypes.StageExecute
		}
	}
	var names []string
	for n := range s.props {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := s.props[n]
		isProgram := slices.Contains(t.Arguments, n)
		arg, isReserved := ptypes.LookupReservedArg(n)
		if isReserved && stage != "" && !arg.ReservedOn(stage) {
			isReserved = false
		}
		if !isProgram && !isReserved {
			continue
		}
		var cs []fact
		for _, c := range p.schema.constraints {
			cs = append(cs, c)
		}
		if p.schema.closed != nil {
			cs = append(cs, *p.schema.closed)
		}
		sort.Slice(cs, func(i, j int) bool { return cs[i].expr.Pos() < cs[j].expr.Pos() })
		for _, c := range cs {
			var msg string
			if isProgram {
				msg = fmt.Sprintf(`loop tool %q constrains its program argument %q with %s%s; %s, so an invalid program becomes a schema failure instead of diagnostics (Part III §4.6): give the program argument a permissive schema such as {}`,
					name, n, c.keyword, c.through(), enf)
			} else {
				typ := arg.JSONType
				want := `{}`
				if typ != "" {
					want = fmt.Sprintf(`{"type": %q}`, typ)
				}
				msg = fmt.Sprintf(`loop tool %q constrains reserved member %q with %s%s, beyond its JSON type; %s, so a bad value becomes a schema failure instead of a Pilotage request error (Part III §4.6): declare it as %s`,
					name, n, c.keyword, c.through(), enf, want)
			}
			b.pass.Report(analysis.Diagnostic{Pos: c.expr.Pos(), End: c.expr.End(), Message: msg, SuggestedFixes: c.fix})
		}
	}
	if stage == ptypes.StageExecute {
		for _, r := range s.required {
			if r.name != ptypes.ArgProgramRef && !slices.Contains(t.Arguments, r.name) {
				continue
			}
			b.pass.Report(analysis.Diagnostic{
				Pos: r.expr.Pos(), End: r.expr.End(),
				Message: fmt.Sprintf(`execute tool %q marks %q required; %s, so a request choosing the other runnable fails as a schema error instead of an invalid_request (Part III §4.6): keep it in properties but not in required`,
					name, r.name, enf),
			})
		}
	}
}

// canFail reports whether arguments can fail s under mcp-go's validation,
// which skips a schema without type, properties, required and
// additionalProperties: it requires a member, types or constrains one, or
// is closed.
func canFail(s *schema) bool {
	if s.closed != nil || len(s.required) > 0 {
		return true
	}
	for _, p := range s.props {
		if p.schema.typ != "" || len(p.schema.constraints) > 0 || p.schema.closed != nil {
			return true
		}
	}
	return false
}

// through names, in parentheses, what states f when it is not the keyword
// itself.
func (f fact) through() string {
	if f.via == "" {
		return ""
	}
	return " (" + f.via + ")"
}

func isStruct(t types.Type) bool {
	if t == nil {
		return false
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	_, ok := t.Underlying().(*types.Struct)
	return ok
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}
