// Package sdk resolves the symbols of the Go MCP SDKs that the pilotage-vet
// analyzers understand. Every match goes through go/types: a call or type is
// recognised by its package path and object name, never by how the source
// spells it, so renamed imports, dot imports and look-alike local types are
// handled correctly.
package sdk

import (
	"go/ast"
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// Package paths of the SDKs and of this module's constants.
const (
	GoSDKMCP     = "github.com/modelcontextprotocol/go-sdk/mcp"
	GoSDKJSONRPC = "github.com/modelcontextprotocol/go-sdk/jsonrpc"
	// GoSDKJSONRPC2 declares WireError, which jsonrpc.Error aliases.
	GoSDKJSONRPC2 = "github.com/modelcontextprotocol/go-sdk/internal/jsonrpc2"
	JSONSchema    = "github.com/google/jsonschema-go/jsonschema"
	MCPGoMCP      = "github.com/mark3labs/mcp-go/mcp"
	MCPGoServer   = "github.com/mark3labs/mcp-go/server"
	Types         = "github.com/pilotagekit/pilotagekit/pkg/types"
)

// Callee returns the function or method called by call, with generic
// instantiations mapped back to their origin so that they compare equal
// to the declared object. It returns nil for calls of function values,
// conversions and builtins.
func Callee(info *types.Info, call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil {
		return nil
	}
	return fn.Origin()
}

// IsFunc reports whether fn is the package-level function path.name.
func IsFunc(fn *types.Func, path, name string) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != path || fn.Name() != name {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	return sig != nil && sig.Recv() == nil
}

// IsFuncIn reports whether fn is a package-level function of path whose
// name is one of names.
func IsFuncIn(fn *types.Func, path string, names ...string) bool {
	for _, n := range names {
		if IsFunc(fn, path, n) {
			return true
		}
	}
	return false
}

// IsMethod reports whether fn is the method recv.name declared in path,
// with either a value or a pointer receiver.
func IsMethod(fn *types.Func, path, recv, name string) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != path || fn.Name() != name {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return false
	}
	return IsNamed(sig.Recv().Type(), path, recv)
}

// IsNamed reports whether t, or the type t points to, is the named type
// path.name (an alias is followed to what it denotes).
func IsNamed(t types.Type, path, name string) bool {
	n := Named(t)
	if n == nil {
		return false
	}
	obj := n.Origin().Obj()
	return obj.Pkg() != nil && obj.Pkg().Path() == path && obj.Name() == name
}

// Named returns the named type t is, or points to, following aliases; nil
// for any other type and for a nil t.
func Named(t types.Type) *types.Named {
	if t == nil {
		return nil
	}
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	n, _ := t.(*types.Named)
	return n
}

// String returns the constant string value of e, if it has one. Named
// constants such as types.MetaKey resolve to their values.
func String(info *types.Info, e ast.Expr) (string, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

// Bool returns the constant boolean value of e, if it has one.
func Bool(info *types.Info, e ast.Expr) (bool, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Bool {
		return false, false
	}
	return constant.BoolVal(tv.Value), true
}

// IsNil reports whether e is the untyped nil.
func IsNil(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.IsNil()
}

// Unparen strips parentheses and a leading & from e: the analyzers look at
// composite literals whether or not their address is taken.
func Unparen(e ast.Expr) ast.Expr {
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.UnaryExpr:
			if x.Op.String() != "&" {
				return e
			}
			e = x.X
		default:
			return e
		}
	}
}

// Fields maps the keys of a struct composite literal to their values. It
// returns nil for positional literals, which the SDK types never need.
func Fields(lit *ast.CompositeLit) map[string]*ast.KeyValueExpr {
	m := map[string]*ast.KeyValueExpr{}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return nil
		}
		if id, ok := kv.Key.(*ast.Ident); ok {
			m[id.Name] = kv
		}
	}
	return m
}

// FuncIdent returns the identifier naming the function in a call's Fun,
// through package selectors and explicit instantiation (mcp.AddTool[In, Out]).
func FuncIdent(e ast.Expr) *ast.Ident {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return x
	case *ast.SelectorExpr:
		return x.Sel
	case *ast.IndexExpr:
		return FuncIdent(x.X)
	case *ast.IndexListExpr:
		return FuncIdent(x.X)
	}
	return nil
}
