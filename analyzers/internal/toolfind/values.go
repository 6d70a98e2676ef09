package toolfind

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/pilotagekit/pilotagekit/analyzers/internal/sdk"
)

// Values follows identifiers to the expressions they are initialised or
// assigned with in the package, and remembers what is assigned through
// them afterwards (tool.Meta = ..., schema["additionalProperties"] = false,
// s.Properties["mode"].Enum = ...), because servers build tools and schemas
// that way as often as in one literal.
type Values struct {
	info    *types.Info
	init    map[types.Object]ast.Expr
	assigns map[types.Object][]Assign
	ranges  map[types.Object]*ast.RangeStmt
	funcs   map[*types.Func]*ast.FuncDecl
}

// Step is one step of an assignment's target below the variable: a field
// (x.Name) or a constant string key (x["name"]).
type Step struct {
	Name  string
	Field bool // a selector; otherwise a map key
}

// Assign is a later assignment through a variable: x.Path... = Value.
type Assign struct {
	Path   []Step
	Value  ast.Expr
	Stmt   *ast.AssignStmt
	Target ast.Expr // the left side
}

// Env binds range variables to the element a loop iteration sees.
type Env map[types.Object]ast.Expr

// Resolve follows e through parentheses, & and variables initialised once
// in the package, to the expression that built the value.
func (v *Values) Resolve(e ast.Expr) ast.Expr {
	e, _ = v.chain(e, nil)
	return e
}

// chain is Resolve that also returns the variables it went through, the
// outermost first, and substitutes the range variables env binds.
func (v *Values) chain(e ast.Expr, env Env) (ast.Expr, []types.Object) {
	var objs []types.Object
	for range 8 { // bounded: a cycle of assignments must not hang
		e = sdk.Unparen(e)
		switch x := e.(type) {
		case *ast.CallExpr:
			// A helper of the package that returns one value, such as
			// func decl() *mcp.Meta { return mcp.NewMetaFromMap(...) }.
			if r := v.returned(x); r != nil {
				e = r
				continue
			}
			return e, objs
		case *ast.SelectorExpr:
			// t.Tool, where t resolves to a struct literal (a loop over
			// []server.ServerTool), or t.Name of a tool.
			if r := v.field(x, env); r != nil {
				e = r
				continue
			}
			return e, objs
		case *ast.IndexExpr:
			// handlers[t.Name], where handlers is a map literal.
			if r := v.index(x, env); r != nil {
				e = r
				continue
			}
			return e, objs
		case *ast.Ident:
			obj := v.info.Uses[x]
			if b, ok := env[obj]; ok {
				objs = append(objs, obj)
				e = b
				continue
			}
			init, ok := v.init[obj]
			if !ok {
				return e, objs
			}
			objs = append(objs, obj)
			e = init
		default:
			return e, objs
		}
	}
	return e, objs
}

// ResolveIn is Resolve inside a loop iteration that binds env.
func (v *Values) ResolveIn(e ast.Expr, env Env) ast.Expr {
	e, _ = v.chain(e, env)
	return e
}

// field resolves x.Sel when x is built by a struct literal that sets Sel,
// or by mcp-go's mcp.NewTool (whose first argument is the Name).
func (v *Values) field(x *ast.SelectorExpr, env Env) ast.Expr {
	if _, isPkg := v.info.Uses[identOf(x.X)].(*types.PkgName); isPkg {
		return nil
	}
	base := v.ResolveIn(x.X, env)
	switch b := base.(type) {
	case *ast.CompositeLit:
		if f := sdk.Fields(b)[x.Sel.Name]; f != nil {
			return f.Value
		}
		for _, a := range v.Assigns(x.X, env) {
			if len(a.Path) == 1 && a.Path[0].Field && a.Path[0].Name == x.Sel.Name {
				return a.Value
			}
		}
	case *ast.CallExpr:
		if x.Sel.Name == "Name" && len(b.Args) > 0 && sdk.IsFuncIn(sdk.Callee(v.info, b), sdk.MCPGoMCP, "NewTool", "NewToolWithRawSchema") {
			return b.Args[0]
		}
	}
	return nil
}

// index resolves m[k] when m is built by a map literal and k is constant.
func (v *Values) index(x *ast.IndexExpr, env Env) ast.Expr {
	k, ok := sdk.String(v.info, v.ResolveIn(x.Index, env))
	if !ok {
		return nil
	}
	for _, el := range v.Elements(x.X, env) {
		if el.Key != nil {
			if ek, ok := sdk.String(v.info, v.ResolveIn(el.Key, env)); ok && ek == k {
				return el.Value
			}
		}
	}
	return nil
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// Element is one element of a slice, array or map literal.
type Element struct {
	Key   ast.Expr // nil in a slice without index keys
	Value ast.Expr
}

// Elements lists the elements of the slice, array or map literal e
// resolves to, followed by those assigned through its variables
// (m["name"] = ...); nil when e is built some other way.
func (v *Values) Elements(e ast.Expr, env Env) []Element {
	return v.elements(e, env, map[*ast.CallExpr]bool{})
}

// elements is Elements, with the appends already being followed: list =
// append(list, x) makes list's value an append of itself, and following
// it again would never end.
func (v *Values) elements(e ast.Expr, env Env, busy map[*ast.CallExpr]bool) []Element {
	r, objs := v.chain(e, env)
	if call, ok := r.(*ast.CallExpr); ok && len(call.Args) > 0 {
		// append(list, more...) and append(list, a, b).
		if b, ok := v.info.Uses[identOf(call.Fun)].(*types.Builtin); ok && b.Name() == "append" {
			if busy[call] {
				return nil
			}
			busy[call] = true
			defer delete(busy, call)
			out := v.elements(call.Args[0], env, busy)
			for i, a := range call.Args[1:] {
				if call.Ellipsis.IsValid() && i == len(call.Args)-2 {
					out = append(out, v.elements(a, env, busy)...)
				} else {
					out = append(out, Element{Value: a})
				}
			}
			return out
		}
	}
	lit, ok := r.(*ast.CompositeLit)
	if !ok {
		return nil
	}
	switch types.Unalias(v.info.TypeOf(lit)).Underlying().(type) {
	case *types.Slice, *types.Array, *types.Map:
	default:
		return nil
	}
	var out []Element
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			out = append(out, Element{Key: kv.Key, Value: kv.Value})
		} else {
			out = append(out, Element{Value: elt})
		}
	}
	for _, a := range v.assignsOf(objs) {
		if len(a.Path) == 1 && !a.Path[0].Field {
			if ix, ok := ast.Unparen(a.Target).(*ast.IndexExpr); ok {
				out = append(out, Element{Key: ix.Index, Value: a.Value})
			}
		}
	}
	return out
}

// Assigns returns the assignments made through the variables that hold
// the value of e, the variable that built it first, in source order
// within each variable.
func (v *Values) Assigns(e ast.Expr, env Env) []Assign {
	_, objs := v.chain(e, env)
	return v.assignsOf(objs)
}

func (v *Values) assignsOf(objs []types.Object) []Assign {
	var out []Assign
	for i := len(objs) - 1; i >= 0; i-- {
		out = append(out, v.assigns[objs[i]]...)
	}
	return out
}

// FieldAssigns returns the fields assigned through the variables that hold
// the value of e (x.Meta = ...), keyed by field name.
func (v *Values) FieldAssigns(e ast.Expr, env Env) map[string]ast.Expr {
	m := map[string]ast.Expr{}
	for _, a := range v.Assigns(e, env) {
		if len(a.Path) == 1 && a.Path[0].Field {
			m[a.Path[0].Name] = a.Value
		}
	}
	return m
}

// returned returns what the package function call calls returns, when its
// body has a single return statement, its last, with one result: a helper
// that builds a tool, a schema or a slice of tools and returns it.
func (v *Values) returned(call *ast.CallExpr) ast.Expr {
	id := sdk.FuncIdent(call.Fun)
	if id == nil {
		return nil
	}
	fn, ok := v.info.Uses[id].(*types.Func)
	if !ok {
		return nil
	}
	d := v.funcs[fn.Origin()]
	if d == nil || d.Body == nil || len(d.Body.List) == 0 {
		return nil
	}
	ret, ok := d.Body.List[len(d.Body.List)-1].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return nil
	}
	returns := 0
	ast.Inspect(d.Body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			returns++
		}
		return true
	})
	if returns != 1 {
		return nil
	}
	return ret.Results[0]
}

// Func returns the body-bearing node of a function value: a literal, or
// the declaration of a function of this package.
func (v *Values) Func(e ast.Expr, env Env) ast.Node {
	e = v.ResolveIn(e, env)
	switch x := e.(type) {
	case *ast.FuncLit:
		return x
	case *ast.Ident, *ast.SelectorExpr:
		id := sdk.FuncIdent(x)
		if fn, ok := v.info.Uses[id].(*types.Func); ok {
			if d := v.funcs[fn.Origin()]; d != nil && d.Body != nil {
				return d
			}
		}
	}
	return nil
}

// Iterations returns, when exprs use the variables of a range loop over a
// slice, array or map literal (for _, t := range tools() {...}), one
// environment per element, binding the loop's variables to its key and
// value; nil otherwise.
func (v *Values) Iterations(exprs ...ast.Expr) []Env {
	var loop *ast.RangeStmt
	for _, e := range exprs {
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && loop == nil {
				if r, ok := v.ranges[v.info.Uses[id]]; ok {
					loop = r
				}
			}
			return loop == nil
		})
	}
	if loop == nil {
		return nil
	}
	var envs []Env
	for _, el := range v.Elements(loop.X, nil) {
		env := Env{}
		if id, ok := loop.Key.(*ast.Ident); ok && el.Key != nil {
			if obj := v.info.ObjectOf(id); obj != nil {
				env[obj] = el.Key
			}
		}
		if id, ok := loop.Value.(*ast.Ident); ok {
			if obj := v.info.ObjectOf(id); obj != nil {
				env[obj] = el.Value
			}
		}
		envs = append(envs, env)
	}
	return envs
}

func newValues(pass *analysis.Pass, in *inspector.Inspector) *Values {
	v := &Values{
		info:    pass.TypesInfo,
		init:    map[types.Object]ast.Expr{},
		assigns: map[types.Object][]Assign{},
		ranges:  map[types.Object]*ast.RangeStmt{},
		funcs:   map[*types.Func]*ast.FuncDecl{},
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
	for cur := range in.Root().Preorder((*ast.ValueSpec)(nil), (*ast.AssignStmt)(nil), (*ast.FuncDecl)(nil), (*ast.RangeStmt)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.FuncDecl:
			if fn, ok := pass.TypesInfo.Defs[n.Name].(*types.Func); ok {
				v.funcs[fn] = n
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok {
					if obj := pass.TypesInfo.ObjectOf(id); obj != nil {
						v.ranges[obj] = n
						seen[obj] += 2 // a new value each iteration
					}
				}
			}
		case *ast.ValueSpec:
			switch {
			case len(n.Values) == len(n.Names):
				for i, id := range n.Names {
					record(id, n.Values[i])
				}
			case len(n.Values) == 1 && len(n.Names) == 2:
				// s, err := jsonschema.For[T](nil): the first result.
				record(n.Names[0], n.Values[0])
			}
		case *ast.AssignStmt:
			if len(n.Lhs) == 2 && len(n.Rhs) == 1 {
				if id, ok := n.Lhs[0].(*ast.Ident); ok {
					if _, isCall := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); isCall {
						record(id, n.Rhs[0])
					}
				}
				if id, ok := n.Lhs[1].(*ast.Ident); ok {
					record(id, nil) // an error, or the ok of a comma-ok form
				}
				continue
			}
			if len(n.Lhs) != len(n.Rhs) {
				continue
			}
			for i, lhs := range n.Lhs {
				if id, ok := lhs.(*ast.Ident); ok {
					record(id, n.Rhs[i])
					continue
				}
				if obj, path := v.target(lhs); obj != nil {
					v.assigns[obj] = append(v.assigns[obj], Assign{Path: path, Value: n.Rhs[i], Stmt: n, Target: lhs})
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
	for obj, e := range v.init {
		if e == nil {
			delete(v.init, obj)
		}
	}
	return v
}

// target splits the left side of an assignment such as
// s.Properties["mode"].Enum into the variable s and the path below it; a
// nil object when it is anything else (an index that is not a constant
// string, a call, a dereference of a function result).
func (v *Values) target(lhs ast.Expr) (types.Object, []Step) {
	var path []Step
	e := lhs
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.TypeAssertExpr:
			e = x.X
		case *ast.SelectorExpr:
			path = append([]Step{{Name: x.Sel.Name, Field: true}}, path...)
			e = x.X
		case *ast.IndexExpr:
			k, ok := sdk.String(v.info, x.Index)
			if !ok {
				return nil, nil
			}
			path = append([]Step{{Name: k}}, path...)
			e = x.X
		case *ast.Ident:
			obj := v.info.Uses[x]
			if _, isVar := obj.(*types.Var); !isVar || len(path) == 0 {
				return nil, nil
			}
			return obj, path
		default:
			return nil, nil
		}
	}
}
