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
	// Assigns are the assignments through the variables holding the tool
	// (tool.InputSchema.Properties["mode"] = ...).
	Assigns []Assign
	// Env binds the variables of the loop that registers the tool, if any.
	Env Env

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
	// Validation holds mcp-go server.WithInputSchemaValidation calls.
	Validation []*ast.CallExpr

	values *Values
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
			var in, out types.Type
			if inst, ok := info.Instances[sdk.FuncIdent(call.Fun)]; ok && inst.TypeArgs.Len() == 2 {
				in, out = inst.TypeArgs.At(0), inst.TypeArgs.At(1)
			}
			res.register(pass, vals, func() *Tool { return &Tool{Kind: GoSDKTyped, Register: call, In: in, Out: out} }, call.Args[1], call.Args[2])
		case sdk.IsMethod(fn, sdk.GoSDKMCP, "Server", "AddTool") && len(call.Args) == 2:
			res.register(pass, vals, func() *Tool { return &Tool{Kind: GoSDKRaw, Register: call} }, call.Args[0], call.Args[1])
		case sdk.IsMethod(fn, sdk.MCPGoServer, "MCPServer", "AddTool") && len(call.Args) == 2:
			res.register(pass, vals, func() *Tool { return &Tool{Kind: MCPGo, Register: call} }, call.Args[0], call.Args[1])
		case sdk.IsMethod(fn, sdk.MCPGoServer, "MCPServer", "AddTools"):
			args := call.Args
			if call.Ellipsis.IsValid() && len(args) == 1 {
				// s.AddTools(tools...): the elements of the slice.
				args = nil
				for _, el := range vals.Elements(call.Args[0], nil) {
					args = append(args, el.Value)
				}
			}
			for _, arg := range args {
				lit, ok := vals.Resolve(arg).(*ast.CompositeLit)
				if !ok || !sdk.IsNamed(info.TypeOf(lit), sdk.MCPGoServer, "ServerTool") {
					continue
				}
				f := sdk.Fields(lit)
				if f["Tool"] != nil && f["Handler"] != nil {
					res.add(pass, vals, &Tool{Kind: MCPGo, Register: call}, f["Tool"].Value, f["Handler"].Value, nil)
				}
			}
		case sdk.IsFunc(fn, sdk.MCPGoServer, "WithInputSchemaValidation"):
			res.Validation = append(res.Validation, call)
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

// register adds the tool a registering call names, or, when the call sits
// in a loop over a literal list of tools (for _, t := range tools() {
// s.AddTool(t, handlers[t.Name]) }), one tool per element.
func (r *Result) register(pass *analysis.Pass, vals *Values, tool func() *Tool, toolExpr, handler ast.Expr) {
	envs := vals.Iterations(toolExpr, handler)
	if envs == nil {
		r.add(pass, vals, tool(), toolExpr, handler, nil)
		return
	}
	for _, env := range envs {
		r.add(pass, vals, tool(), toolExpr, handler, env)
	}
}

func (r *Result) add(pass *analysis.Pass, vals *Values, t *Tool, toolExpr, handler ast.Expr, env Env) {
	info := pass.TypesInfo
	t.Def = vals.ResolveIn(toolExpr, env)
	t.Env = env
	t.Fields = map[string]ast.Expr{}
	switch d := t.Def.(type) {
	case *ast.CompositeLit:
		for name, kv := range sdk.Fields(d) {
			t.Fields[name] = kv.Value
		}
	case *ast.CallExpr:
		switch fn := sdk.Callee(info, d); {
		case sdk.IsFunc(fn, sdk.MCPGoMCP, "NewTool") && len(d.Args) > 0:
			t.Fields["Name"] = d.Args[0]
		case sdk.IsFunc(fn, sdk.MCPGoMCP, "NewToolWithRawSchema") && len(d.Args) == 3:
			// NewToolWithRawSchema(name, description, schema) sets Name
			// and RawInputSchema.
			t.Fields["Name"] = d.Args[0]
			t.Fields["RawInputSchema"] = d.Args[2]
		}
	}
	t.Assigns = vals.Assigns(toolExpr, env)
	for _, a := range t.Assigns {
		if len(a.Path) == 1 && a.Path[0].Field {
			t.Fields[a.Path[0].Name] = a.Value
		}
	}
	if n, ok := t.Fields["Name"]; ok {
		t.Name, _ = sdk.String(info, n)
	}
	if m, ok := t.Fields["Meta"]; ok {
		t.Arguments, t.Declared = declaration(info, vals, m)
	}
	h := vals.ResolveIn(handler, env)
	// mcp-go's typed wrappers keep the handler's result and error contract.
	if call, ok := h.(*ast.CallExpr); ok && len(call.Args) == 1 &&
		sdk.IsFuncIn(sdk.Callee(info, call), sdk.MCPGoMCP, "NewTypedToolHandler", "NewStructuredToolHandler") {
		h = call.Args[0]
	}
	t.Handler = vals.Func(h, env)
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
