package envelope

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/pilotagekit/pilotagekit/analyzers/internal/sdk"
	"github.com/pilotagekit/pilotagekit/analyzers/internal/toolfind"
)

// verdict is what an error value can hold, as far as the package shows.
type verdict int

const (
	// plain: some error it can hold is not a *jsonrpc.Error, or its
	// origin cannot be followed (another package, an interface method, a
	// function value).
	plain verdict = iota
	// wire: every non-nil error it can hold is a *jsonrpc.Error, and it
	// can hold one.
	wire
	// open: it holds only nil, or it leads back into a value or function
	// still being followed (a loop, a recursive helper); the other paths
	// decide.
	open
)

// tracer follows an error value through the SSA form of the package:
// variables however often assigned, phis, named results, the results of
// package functions to any depth, and (where the SDK keeps a wrapped
// code) fmt.Errorf with %w. SSA gives each value its definitions, so a
// reassigned err is judged by the assignments that reach the return, not
// by every assignment in the function.
type tracer struct {
	pkg *ssa.Package
	// wrapKeeps: the registration keeps the code of a *jsonrpc.Error
	// wrapped with %w (go-sdk's Server.AddTool, not the typed mcp.AddTool).
	wrapKeeps bool
	// following holds the values and function results on the current
	// path, so that a cycle ends instead of recursing forever.
	following map[any]bool
}

type result struct {
	fn    *ssa.Function
	index int
}

// isWire reports whether t is *jsonrpc.Error (an alias of go-sdk's
// internal WireError, so the match is on the type it denotes).
func isWire(t types.Type) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	return ok && sdk.IsNamed(p.Elem(), sdk.GoSDKJSONRPC2, "WireError")
}

func (t *tracer) enter(key any) bool {
	if t.following[key] {
		return false
	}
	t.following[key] = true
	return true
}

func (t *tracer) value(v ssa.Value) verdict {
	if isWire(v.Type()) {
		return wire
	}
	switch x := v.(type) {
	case *ssa.Const:
		if x.IsNil() {
			return open
		}
	case *ssa.MakeInterface:
		if isWire(x.X.Type()) {
			return wire
		}
	case *ssa.ChangeInterface:
		return t.value(x.X)
	case *ssa.Phi:
		if !t.enter(x) {
			return open
		}
		defer delete(t.following, x)
		return t.merge(x.Edges)
	case *ssa.Call:
		return t.call(&x.Call, 0)
	case *ssa.Extract:
		if call, ok := x.Tuple.(*ssa.Call); ok {
			return t.call(&call.Call, x.Index)
		}
	case *ssa.UnOp:
		// A variable kept in memory: a named result under defer, or one
		// whose address is taken.
		if alloc, ok := x.X.(*ssa.Alloc); ok && x.Op == token.MUL {
			return t.stored(alloc)
		}
	}
	return plain
}

// merge is the verdict of a value that may be any of vs.
func (t *tracer) merge(vs []ssa.Value) verdict {
	some := false
	for _, v := range vs {
		switch t.value(v) {
		case plain:
			return plain
		case wire:
			some = true
		}
	}
	if some {
		return wire
	}
	return open
}

// call is the verdict of result index of a call: a function of this
// package is followed into every return statement it has.
func (t *tracer) call(c *ssa.CallCommon, index int) verdict {
	if c.IsInvoke() {
		return plain
	}
	callee := c.StaticCallee()
	if callee == nil {
		return plain
	}
	if t.wrapKeeps && index == 0 && isErrorf(callee) {
		return t.wrapped(c)
	}
	if callee.Blocks == nil && callee.Origin() != nil {
		callee = callee.Origin()
	}
	if callee.Blocks == nil || callee.Pkg != t.pkg {
		return plain
	}
	key := result{callee, index}
	if !t.enter(key) {
		return open
	}
	defer delete(t.following, key)
	var vs []ssa.Value
	for _, b := range callee.Blocks {
		if r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && index < len(r.Results) {
			vs = append(vs, r.Results[index])
		}
	}
	return t.merge(vs)
}

// stored is the verdict of a variable in memory: every value stored to
// it; an address that escapes anywhere else is not followed.
func (t *tracer) stored(alloc *ssa.Alloc) verdict {
	if !t.enter(alloc) {
		return open
	}
	defer delete(t.following, alloc)
	var vs []ssa.Value
	for _, r := range *alloc.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr != alloc {
				return plain
			}
			vs = append(vs, r.Val)
		case *ssa.UnOp, *ssa.DebugRef:
		default:
			return plain
		}
	}
	return t.merge(vs)
}

func isErrorf(fn *ssa.Function) bool {
	return fn.Pkg != nil && fn.Pkg.Pkg.Path() == "fmt" && fn.Name() == "Errorf" && fn.Signature.Recv() == nil
}

// wrapped is the verdict of fmt.Errorf(format, args...): wire when the
// format wraps with %w and an argument is a *jsonrpc.Error, which
// errors.As then finds.
func (t *tracer) wrapped(c *ssa.CallCommon) verdict {
	if len(c.Args) != 2 {
		return plain
	}
	format, ok := c.Args[0].(*ssa.Const)
	if !ok || format.Value == nil || format.Value.Kind() != constant.String || !strings.Contains(constant.StringVal(format.Value), "%w") {
		return plain
	}
	slice, ok := c.Args[1].(*ssa.Slice)
	if !ok {
		return plain
	}
	array, ok := slice.X.(*ssa.Alloc)
	if !ok {
		return plain
	}
	for _, r := range *array.Referrers() {
		ia, ok := r.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		for _, s := range *ia.Referrers() {
			if st, ok := s.(*ssa.Store); ok && st.Addr == ia && t.value(st.Val) == wire {
				return wire
			}
		}
	}
	return plain
}

// functions maps the syntax of every function of the package, literals
// included, to its SSA form.
func functions(src []*ssa.Function) map[ast.Node]*ssa.Function {
	m := map[ast.Node]*ssa.Function{}
	var add func(fn *ssa.Function)
	add = func(fn *ssa.Function) {
		if s := fn.Syntax(); s != nil {
			m[s] = fn
		}
		for _, a := range fn.AnonFuncs {
			add(a)
		}
	}
	for _, fn := range src {
		add(fn)
	}
	return m
}

// carrier reports whether the error a handler's return statement returns
// is a *jsonrpc.Error that go-sdk puts on the wire as the JSON-RPC error
// it is, code and all: the carrier channel of Part III §7.1, which a
// handler may choose for a structural fault (a missing schema-required
// member, a member of the wrong JSON type). The typed mcp.AddTool passes
// only the *jsonrpc.Error itself through; Server.AddTool also keeps the
// code of one wrapped with %w.
func (c *checker) carrier(k toolfind.Kind, fn *ssa.Function, ret *ast.ReturnStmt) bool {
	if k != toolfind.GoSDKTyped && k != toolfind.GoSDKRaw {
		return false
	}
	if fn == nil {
		return false
	}
	for _, b := range fn.Blocks {
		r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || r.Pos() != ret.Return || len(r.Results) == 0 {
			continue
		}
		t := &tracer{pkg: fn.Pkg, wrapKeeps: k == toolfind.GoSDKRaw, following: map[any]bool{}}
		return t.value(r.Results[len(r.Results)-1]) == wire
	}
	// A return SSA dropped as unreachable: judged by its static type.
	return isWire(c.pass.TypesInfo.TypeOf(ret.Results[len(ret.Results)-1]))
}
