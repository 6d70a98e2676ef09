// Package toolfind is a helper analyzer that finds the MCP tools a package
// registers with go-sdk or mcp-go and decides which of them are Pilotage
// tools. It reports nothing; strictschema and envelope consume its result.
//
// A tool is a Pilotage loop tool when its _meta carries a Pilotage program
// declaration (Part III §5) or when its name appears as a loop tool in a
// manifest value built in the same package (a "loop" object of a map
// literal or of a JSON string constant, Part III §4.3). The analysis is
// per package: a manifest built in another package is not seen, but the
// program declaration, which every validate and execute tool must carry,
// is.
package toolfind

import (
	"encoding/json"
	"go/ast"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/pilotagekit/pilotagekit/analyzers/internal/sdk"
	ptypes "github.com/pilotagekit/pilotagekit/pkg/types"
)

// Analyzer computes a *Result for the package.
var Analyzer = &analysis.Analyzer{
	Name:       "pilotagetools",
	Doc:        "find the MCP tools a package registers and which of them are Pilotage tools",
	URL:        "https://pkg.go.dev/github.com/pilotagekit/pilotagekit/analyzers/internal/toolfind",
	Requires:   []*analysis.Analyzer{inspect.Analyzer},
	Run:        run,
	ResultType: reflect.TypeFor[*Result](),
}

// Kind says how a tool was registered, which decides what the SDK does
// with its schema, its handler's error and its result.
type Kind int

const (
	// GoSDKTyped is go-sdk's generic mcp.AddTool[In, Out].
	GoSDKTyped Kind = iota + 1
	// GoSDKRaw is go-sdk's (*mcp.Server).AddTool.
	GoSDKRaw
	// MCPGo is mcp-go's (*server.MCPServer).AddTool or AddTools.
	MCPGo
)

// Tool is one registration.
type Tool struct {
	Kind     Kind
	Register *ast.CallExpr // the registering call
	Name     string        // "" when not a constant
	// Def is the tool value: a composite literal of the SDK's Tool type or
	// an mcp-go mcp.NewTool call; nil when it could not be followed.
	Def ast.Expr
	// Fields holds the tool's fields, from Def and from later assignments
	// to the variable holding it (tool.Meta = ...).
	Fields map[string]ast.Expr

	Declared  bool     // its _meta carries a Pilotage program declaration
	Arguments []string // program arguments named by the declaration
	// Stage is the loop stage the manifest binds the name to, "" if none.
	Stage ptypes.Stage
	// Loop is Declared or Stage != "".
	Loop bool
	// Fixed is a fixed-name access tool (Part III §4).
	Fixed bool

	In, Out types.Type // go-sdk typed registrations only
	// Handler is the handler's *ast.FuncLit or *ast.FuncDecl when it is
	// declared in this package.
	Handler ast.Node
}

// Pilotage reports whether t is a Pilotage tool of any kind.
func (t *Tool) Pilotage() bool { return t.Loop || t.Fixed }

// Result lists the registrations of a package.
type Result struct {
	Tools []*Tool
	// StrictDefault holds mcp-go server.WithStrictInputSchemaDefault calls.
	StrictDefault []*ast.CallExpr

	values *Values
}

// Values follows identifiers to the expressions they are initialised or
// assigned with in the package.
type Values struct {
	info   *types.Info
	init   map[types.Object]ast.Expr
	fields map[types.Object]map[string]ast.Expr
	funcs  map[*types.Func]*ast.FuncDecl
}

// Resolve follows e through parentheses, & and variables initialised once
// in the package, to the expression that built the value.
func (v *Values) Resolve(e ast.Expr) ast.Expr {
	for range 8 { // bounded: a cycle of assignments must not hang
		e = sdk.Unparen(e)
		if call, ok := e.(*ast.CallExpr); ok {
			// A helper of the package that returns one expression, such as
			// func decl() *mcp.Meta { return mcp.NewMetaFromMap(...) }.
			if r := v.returned(call); r != nil {
				e = r
				continue
			}
			return e
		}
		id, ok := e.(*ast.Ident)
		if !ok {
			return e
		}
		init, ok := v.init[v.info.Uses[id]]
		if !ok {
			return e
		}
		e = init
	}
	return e
}

// returned returns the single returned expression of the package function
// call calls, when its body is just that return statement.
func (v *Values) returned(call *ast.CallExpr) ast.Expr {
	var id *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return nil
	}
	fn, ok := v.info.Uses[id].(*types.Func)
	if !ok {
		return nil
	}
	d := v.funcs[fn.Origin()]
	if d == nil || d.Body == nil || len(d.Body.List) != 1 {
		return nil
	}
	ret, ok := d.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return nil
	}
	return ret.Results[0]
}

// FieldAssigns returns the fields assigned through the variable e names
// (x.Meta = ...), keyed by field name.
func (v *Values) FieldAssigns(e ast.Expr) map[string]ast.Expr {
	id, ok := sdk.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	return v.fields[v.info.Uses[id]]
}

// Func returns the body-bearing node of a function value: a literal, or
// the declaration of a function of this package.
func (v *Values) Func(e ast.Expr) ast.Node {
	e = v.Resolve(e)
	switch x := e.(type) {
	case *ast.FuncLit:
		return x
	case *ast.Ident, *ast.SelectorExpr:
		var id *ast.Ident
		if sel, ok := x.(*ast.SelectorExpr); ok {
			id = sel.Sel
		} else {
			id = x.(*ast.Ident)
		}
		if fn, ok := v.info.Uses[id].(*types.Func); ok {
			if d := v.funcs[fn.Origin()]; d != nil && d.Body != nil {
				return d
			}
		}
	}
	return nil
}

func newValues(pass *analysis.Pass, in *inspector.Inspector) *Values {
	v := &Values{
		info:   pass.TypesInfo,
		init:   map[types.Object]ast.Expr{},
		fields: map[types.Object]map[string]ast.Expr{},
		funcs:  map[*types.Func]*ast.FuncDecl{},
	}
	seen := map[types.Object]int{}
	record := func(id *ast.Ident, e ast.Expr) {
		obj := pass.TypesInfo.ObjectOf(id)
		if obj == nil {
			return
		}
		if _, isVar := obj.(*types.Var); !isVar {
			return
		}
		seen[obj]++
		v.init[obj] = e
	}
	for cur := range in.Root().Preorder((*ast.ValueSpec)(nil), (*ast.AssignStmt)(nil), (*ast.FuncDecl)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.FuncDecl:
			if fn, ok := pass.TypesInfo.Defs[n.Name].(*types.Func); ok {
				v.funcs[fn] = n
			}
		case *ast.ValueSpec:
			if len(n.Values) == len(n.Names) {
				for i, id := range n.Names {
					record(id, n.Values[i])
				}
			}
		case *ast.AssignStmt:
			if len(n.Lhs) != len(n.Rhs) {
				continue
			}
			for i, lhs := range n.Lhs {
				switch l := lhs.(type) {
				case *ast.Ident:
					record(l, n.Rhs[i])
				case *ast.SelectorExpr:
					if id, ok := l.X.(*ast.Ident); ok {
						if obj := pass.TypesInfo.Uses[id]; obj != nil {
							if v.fields[obj] == nil {
								v.fields[obj] = map[string]ast.Expr{}
							}
							v.fields[obj][l.Sel.Name] = n.Rhs[i]
						}
					}
				}
			}
		}
	}
	// A variable assigned more than once has no single value to follow.
	for obj, n := range seen {
		if n > 1 {
			delete(v.init, obj)
		}
	}
	return v
}

// Values returns the value index of the package, so that strictschema and
// envelope follow variables the same way toolfind did.
func (r *Result) Values() *Values { return r.values }

func run(pass *analysis.Pass) (any, error) {
	in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	vals := newValues(pass, in)
	res := &Result{values: vals}
	loops := manifestLoops(pass, in, vals)
	info := pass.TypesInfo

	for cur := range in.Root().Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		fn := sdk.Callee(info, call)
		switch {
		case sdk.IsFunc(fn, sdk.GoSDKMCP, "AddTool") && len(call.Args) == 3:
			t := &Tool{Kind: GoSDKTyped, Register: call}
			if inst, ok := info.Instances[sdk.FuncIdent(call.Fun)]; ok && inst.TypeArgs.Len() == 2 {
				t.In, t.Out = inst.TypeArgs.At(0), inst.TypeArgs.At(1)
			}
			res.add(pass, vals, t, call.Args[1], call.Args[2])
		case sdk.IsMethod(fn, sdk.GoSDKMCP, "Server", "AddTool") && len(call.Args) == 2:
			res.add(pass, vals, &Tool{Kind: GoSDKRaw, Register: call}, call.Args[0], call.Args[1])
		case sdk.IsMethod(fn, sdk.MCPGoServer, "MCPServer", "AddTool") && len(call.Args) == 2:
			res.add(pass, vals, &Tool{Kind: MCPGo, Register: call}, call.Args[0], call.Args[1])
		case sdk.IsMethod(fn, sdk.MCPGoServer, "MCPServer", "AddTools"):
			for _, arg := range call.Args {
				lit, ok := vals.Resolve(arg).(*ast.CompositeLit)
				if !ok || !sdk.IsNamed(info.TypeOf(lit), sdk.MCPGoServer, "ServerTool") {
					continue
				}
				f := sdk.Fields(lit)
				if f["Tool"] != nil && f["Handler"] != nil {
					res.add(pass, vals, &Tool{Kind: MCPGo, Register: call}, f["Tool"].Value, f["Handler"].Value)
				}
			}
		case sdk.IsFunc(fn, sdk.MCPGoServer, "WithStrictInputSchemaDefault"):
			res.StrictDefault = append(res.StrictDefault, call)
		}
	}
	for _, t := range res.Tools {
		if st, ok := loops[t.Name]; ok && t.Name != "" {
			t.Stage = st
		}
		t.Loop = t.Declared || t.Stage != ""
		for _, f := range ptypes.FixedTools {
			t.Fixed = t.Fixed || t.Name == f
		}
	}
	return res, nil
}

func (r *Result) add(pass *analysis.Pass, vals *Values, t *Tool, toolExpr, handler ast.Expr) {
	info := pass.TypesInfo
	t.Def = vals.Resolve(toolExpr)
	t.Fields = map[string]ast.Expr{}
	switch d := t.Def.(type) {
	case *ast.CompositeLit:
		for name, kv := range sdk.Fields(d) {
			t.Fields[name] = kv.Value
		}
	case *ast.CallExpr:
		if sdk.IsFunc(sdk.Callee(info, d), sdk.MCPGoMCP, "NewTool") && len(d.Args) > 0 {
			t.Fields["Name"] = d.Args[0]
		}
	}
	for name, e := range vals.FieldAssigns(toolExpr) {
		t.Fields[name] = e
	}
	if n, ok := t.Fields["Name"]; ok {
		t.Name, _ = sdk.String(info, n)
	}
	if m, ok := t.Fields["Meta"]; ok {
		t.Arguments, t.Declared = declaration(info, vals, m)
	}
	h := sdk.Unparen(handler)
	// mcp-go's typed wrappers keep the handler's result and error contract.
	if call, ok := h.(*ast.CallExpr); ok && len(call.Args) == 1 &&
		sdk.IsFuncIn(sdk.Callee(info, call), sdk.MCPGoMCP, "NewTypedToolHandler", "NewStructuredToolHandler") {
		h = call.Args[0]
	}
	t.Handler = vals.Func(h)
	r.Tools = append(r.Tools, t)
}

// declaration finds a Pilotage program declaration in a _meta expression
// and returns the program arguments it names.
func declaration(info *types.Info, vals *Values, meta ast.Expr) (args []string, ok bool) {
	m := vals.Resolve(meta)
	// mcp-go: mcp.NewMetaFromMap(map) or &mcp.Meta{AdditionalFields: map}.
	if call, isCall := m.(*ast.CallExpr); isCall && len(call.Args) == 1 &&
		sdk.IsFunc(sdk.Callee(info, call), sdk.MCPGoMCP, "NewMetaFromMap") {
		m = vals.Resolve(call.Args[0])
	}
	lit, isLit := m.(*ast.CompositeLit)
	if !isLit {
		return nil, false
	}
	if sdk.IsNamed(info.TypeOf(lit), sdk.MCPGoMCP, "Meta") {
		if f := sdk.Fields(lit)["AdditionalFields"]; f != nil {
			if lit, isLit = vals.Resolve(f.Value).(*ast.CompositeLit); !isLit {
				return nil, false
			}
		}
	}
	for _, elt := range lit.Elts {
		kv, isKV := elt.(*ast.KeyValueExpr)
		if !isKV {
			continue
		}
		k, _ := sdk.String(info, kv.Key)
		// The shorthand and dotted keys still show what the author meant;
		// metakey reports the key itself.
		if k != ptypes.MetaKey && k != ptypes.LegacyExtensionID && k != ptypes.ShorthandMetaKey {
			continue
		}
		if args, ok = declArgs(info, vals, kv.Value); ok {
			return args, true
		}
	}
	return nil, false
}

// declArgs reads "argument" and "languages[].argument" from a declaration
// value: a map literal or a struct literal with Argument/Languages fields.
func declArgs(info *types.Info, vals *Values, e ast.Expr) ([]string, bool) {
	lit, ok := vals.Resolve(e).(*ast.CompositeLit)
	if !ok {
		return nil, false
	}
	var args []string
	found := false
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		switch elemKey(info, lit, kv) {
		case "argument":
			found = true
			if s, ok := sdk.String(info, kv.Value); ok {
				args = append(args, s)
			}
		case "language":
			found = true
		case "languages":
			found = true
			if list, ok := vals.Resolve(kv.Value).(*ast.CompositeLit); ok {
				for _, el := range list.Elts {
					sub, _ := declArgs(info, vals, el)
					args = append(args, sub...)
				}
			}
		}
	}
	return args, found
}

// elemKey returns the member an element of a map or struct literal sets:
// a map's constant string key, or a struct field's name in lower case
// (Argument sets "argument").
func elemKey(info *types.Info, lit *ast.CompositeLit, kv *ast.KeyValueExpr) string {
	if id, ok := kv.Key.(*ast.Ident); ok && isStructLit(info, lit) {
		return strings.ToLower(id.Name)
	}
	key, _ := sdk.String(info, kv.Key)
	return key
}

func isStructLit(info *types.Info, lit *ast.CompositeLit) bool {
	t := info.TypeOf(lit)
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Struct)
	return ok
}

// manifestLoops collects the loop tool names of manifest values built in
// the package: "loop" members of map literals, Loop-shaped struct literals
// of pkg/types, and "loop" objects inside JSON string constants.
func manifestLoops(pass *analysis.Pass, in *inspector.Inspector, vals *Values) map[string]ptypes.Stage {
	info := pass.TypesInfo
	loops := map[string]ptypes.Stage{}
	stageOf := map[string]ptypes.Stage{
		"validate": ptypes.StageValidate, "execute": ptypes.StageExecute, "trace": ptypes.StageTraceFetch,
	}
	for cur := range in.Root().Preorder((*ast.CompositeLit)(nil), (*ast.BasicLit)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.CompositeLit:
			t := info.TypeOf(n)
			if t == nil {
				continue
			}
			// Only pkg/types decides what a struct field means.
			if isStructLit(info, n) {
				if named := sdk.Named(t); named == nil || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != sdk.Types {
					continue
				}
			}
			for _, elt := range n.Elts {
				kv, ok := elt.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				if elemKey(info, n, kv) != "loop" {
					continue
				}
				loop, ok := vals.Resolve(kv.Value).(*ast.CompositeLit)
				if !ok {
					continue
				}
				for _, le := range loop.Elts {
					lkv, ok := le.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					if st, ok := stageOf[elemKey(info, loop, lkv)]; ok {
						if name, ok := sdk.String(info, lkv.Value); ok {
							loops[name] = st
						}
					}
				}
			}
		case *ast.BasicLit:
			s, ok := sdk.String(info, n)
			if !ok || !strings.Contains(s, `"loop"`) {
				continue
			}
			var doc any
			if json.Unmarshal([]byte(s), &doc) != nil {
				continue
			}
			walkJSON(doc, func(m map[string]any) {
				loop, ok := m["loop"].(map[string]any)
				if !ok {
					return
				}
				for k, v := range loop {
					if name, ok := v.(string); ok {
						if st, ok := stageOf[k]; ok {
							loops[name] = st
						}
					}
				}
			})
		}
	}
	return loops
}

func walkJSON(v any, f func(map[string]any)) {
	switch x := v.(type) {
	case map[string]any:
		f(x)
		for _, e := range x {
			walkJSON(e, f)
		}
	case []any:
		for _, e := range x {
			walkJSON(e, f)
		}
	}
}
