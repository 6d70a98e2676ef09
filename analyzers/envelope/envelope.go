package envelope

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"

	"github.com/pilotagekit/pilotagekit/analyzers/internal/sdk"
	"github.com/pilotagekit/pilotagekit/analyzers/internal/toolfind"
)

//go:embed doc.go
var doc string

// Analyzer reports Pilotage tool handlers whose results the SDK turns into
// something other than a Pilotage result envelope.
var Analyzer = &analysis.Analyzer{
	Name:     "envelope",
	Doc:      sdk.MustExtractDoc(doc, "envelope"),
	URL:      "https://pkg.go.dev/github.com/pilotagekit/pilotagekit/analyzers/envelope",
	Requires: []*analysis.Analyzer{inspect.Analyzer, toolfind.Analyzer},
	Run:      run,
}

const requestError = `return a request-error result instead: isError true and structuredContent {"error": {"kind": ..., "message": ...}}, with a nil error`

// errorFate says what the SDK makes of an error the handler returns.
func errorFate(k toolfind.Kind) string {
	switch k {
	case toolfind.GoSDKTyped:
		return "go-sdk's mcp.AddTool turns it into an isError result whose only content is the error text, with no structuredContent (a *jsonrpc.Error becomes a JSON-RPC error response)"
	case toolfind.GoSDKRaw:
		return "go-sdk's Server.AddTool sends it as a JSON-RPC error response with code 0, a carrier protocol error"
	default:
		return "mcp-go sends it as JSON-RPC error -32603 (Internal error), a carrier protocol error"
	}
}

// mcp-go helpers that build a result without structuredContent.
var unstructured = []string{
	"NewToolResultText", "NewToolResultError", "NewToolResultErrorf", "NewToolResultErrorFromErr",
	"NewToolResultImage", "NewToolResultAudio", "NewToolResultResource",
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[toolfind.Analyzer].(*toolfind.Result)
	c := &checker{pass: pass, vals: res.Values()}
	for _, t := range res.Tools {
		if !t.Pilotage() || t.Handler == nil {
			continue
		}
		c.handler(t)
	}
	return nil, nil
}

type checker struct {
	pass *analysis.Pass
	vals *toolfind.Values
}

func (c *checker) handler(t *toolfind.Tool) {
	var body *ast.BlockStmt
	switch h := t.Handler.(type) {
	case *ast.FuncLit:
		body = h.Body
	case *ast.FuncDecl:
		body = h.Body
	}
	if body == nil {
		return
	}
	name := t.Name
	if name == "" {
		name = "?"
	}
	info := c.pass.TypesInfo
	// The SDK fills structuredContent from a typed handler's Out unless Out
	// is an interface, where a nil out leaves it alone.
	outFills := t.Kind == toolfind.GoSDKTyped && t.Out != nil && !types.IsInterface(t.Out)
	nres := 2
	if t.Kind == toolfind.GoSDKTyped {
		nres = 3
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // a nested function's returns are not the handler's
		case *ast.ReturnStmt:
			if len(n.Results) != nres {
				return true
			}
			errExpr := n.Results[nres-1]
			if c.carrier(t.Kind, errExpr) {
				return true
			}
			if !sdk.IsNil(info, errExpr) {
				c.pass.Report(analysis.Diagnostic{
					Pos: errExpr.Pos(), End: errExpr.End(),
					Message: fmt.Sprintf("handler of Pilotage tool %q returns a Go error; %s, not a Pilotage request error (Part III §7.1): %s",
						name, errorFate(t.Kind), requestError),
				})
				return true
			}
			if outFills {
				return true
			}
			if t.Kind == toolfind.GoSDKTyped && !sdk.IsNil(info, n.Results[1]) {
				return true // a non-nil out becomes structuredContent
			}
			c.result(name, n.Results[0])
		}
		if outFills {
			c.isError(t, name, n)
		}
		return true
	})
}

// carrier reports whether e is a *jsonrpc.Error that go-sdk puts on the
// wire as the JSON-RPC error it is, code and all: the carrier channel of
// Part III §7.1, which a handler may choose for a structural fault (a
// missing schema-required member, a member of the wrong JSON type). The
// typed mcp.AddTool passes only the *jsonrpc.Error itself through;
// Server.AddTool also keeps the code of one wrapped with %w.
func (c *checker) carrier(k toolfind.Kind, e ast.Expr) bool {
	if k != toolfind.GoSDKTyped && k != toolfind.GoSDKRaw {
		return false
	}
	if c.isWireError(e, 0) {
		return true
	}
	if k != toolfind.GoSDKRaw {
		return false
	}
	info := c.pass.TypesInfo
	call, ok := c.vals.Resolve(e).(*ast.CallExpr)
	if !ok || !sdk.IsFunc(sdk.Callee(info, call), "fmt", "Errorf") || len(call.Args) < 2 {
		return false
	}
	if format, ok := sdk.String(info, call.Args[0]); !ok || !strings.Contains(format, "%w") {
		return false
	}
	return slices.ContainsFunc(call.Args[1:], func(a ast.Expr) bool { return c.isWireError(a, 0) })
}

// isWireError reports whether e is, or is built as, a *jsonrpc.Error. That
// is an alias of go-sdk's internal WireError, so the match is on the type
// it denotes.
//
// An error from a helper of the package (args, err := parse(req)) is one
// when every error the helper returns is nil or one.
func (c *checker) isWireError(e ast.Expr, depth int) bool {
	info := c.pass.TypesInfo
	if p, ok := types.Unalias(info.TypeOf(e)).(*types.Pointer); ok && sdk.IsNamed(p.Elem(), sdk.GoSDKJSONRPC2, "WireError") {
		return true
	}
	// An error-typed variable or helper result holding &jsonrpc.Error{...}.
	if lit, ok := c.vals.Resolve(e).(*ast.CompositeLit); ok {
		return sdk.IsNamed(info.TypeOf(lit), sdk.GoSDKJSONRPC2, "WireError")
	}
	results, ok := c.vals.Results(e)
	if !ok || depth > 3 {
		return false
	}
	some := false
	for _, r := range results {
		if sdk.IsNil(info, r) {
			continue
		}
		if !c.isWireError(r, depth+1) {
			return false
		}
		some = true
	}
	return some
}

// result reports a returned result that carries no structuredContent.
func (c *checker) result(name string, e ast.Expr) {
	info := c.pass.TypesInfo
	if sdk.IsNil(info, e) {
		c.pass.Report(analysis.Diagnostic{
			Pos: e.Pos(), End: e.End(),
			Message: fmt.Sprintf("handler of Pilotage tool %q returns a nil result, which has no structuredContent; every Pilotage result carries its Part II response object there (Part III §6)", name),
		})
		return
	}
	v := c.vals.Resolve(e)
	switch x := v.(type) {
	case *ast.CallExpr:
		fn := sdk.Callee(info, x)
		for _, u := range unstructured {
			if sdk.IsFunc(fn, sdk.MCPGoMCP, u) {
				c.pass.Report(analysis.Diagnostic{
					Pos: e.Pos(), End: e.End(),
					Message: fmt.Sprintf("handler of Pilotage tool %q returns mcp.%s, which has no structuredContent; every Pilotage result carries its Part II response object there, and a request error is isError true with structuredContent {\"error\": {...}} (Part III §6, §7.2): use mcp.NewToolResultStructured and set IsError where it is a request error",
						name, u),
				})
			}
		}
	case *ast.CompositeLit:
		t := info.TypeOf(x)
		if !sdk.IsNamed(t, sdk.GoSDKMCP, "CallToolResult") && !sdk.IsNamed(t, sdk.MCPGoMCP, "CallToolResult") {
			return
		}
		f := sdk.Fields(x)
		if f == nil || f["StructuredContent"] != nil || f["RawStructuredContent"] != nil {
			return
		}
		assigned := c.vals.FieldAssigns(e, nil)
		if assigned["StructuredContent"] != nil || assigned["RawStructuredContent"] != nil {
			return
		}
		c.pass.Report(analysis.Diagnostic{
			Pos: e.Pos(), End: e.End(),
			Message: fmt.Sprintf("handler of Pilotage tool %q returns a result without structuredContent; every Pilotage result carries its Part II response object there (Part III §6)", name),
		})
	}
}

// isError reports a typed go-sdk handler with a concrete Out that marks
// its result as an error.
func (c *checker) isError(t *toolfind.Tool, name string, n ast.Node) {
	info := c.pass.TypesInfo
	var at ast.Node
	switch n := n.(type) {
	case *ast.KeyValueExpr:
		if id, ok := n.Key.(*ast.Ident); ok && id.Name == "IsError" {
			if v, ok := sdk.Bool(info, n.Value); ok && !v {
				return
			}
			if isResultField(info, id) {
				at = n
			}
		}
	case *ast.AssignStmt:
		for i, lhs := range n.Lhs {
			sel, ok := lhs.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "IsError" || i >= len(n.Rhs) || !isResultField(info, sel.Sel) {
				continue
			}
			if v, ok := sdk.Bool(info, n.Rhs[i]); ok && !v {
				continue
			}
			at = n
		}
	case *ast.CallExpr:
		if sdk.IsMethod(sdk.Callee(info, n), sdk.GoSDKMCP, "CallToolResult", "SetError") {
			at = n
		}
	}
	if at == nil {
		return
	}
	c.pass.Report(analysis.Diagnostic{
		Pos: at.Pos(), End: at.End(),
		Message: fmt.Sprintf("typed handler of Pilotage tool %q sets IsError, but go-sdk overwrites structuredContent with the marshalled Out (%s) even when IsError is true, so the request error's {\"error\": {...}} is lost (Part III §7.2): register the tool with Out = any and set StructuredContent yourself",
			name, types.TypeString(t.Out, types.RelativeTo(c.pass.Pkg))),
	})
}

// isResultField reports whether id denotes the IsError field of go-sdk's
// CallToolResult.
func isResultField(info *types.Info, id *ast.Ident) bool {
	v, ok := info.ObjectOf(id).(*types.Var)
	return ok && v.IsField() && v.Pkg() != nil && v.Pkg().Path() == sdk.GoSDKMCP
}
