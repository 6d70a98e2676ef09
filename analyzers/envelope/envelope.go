package envelope

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ssa"

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
	Requires: []*analysis.Analyzer{inspect.Analyzer, toolfind.Analyzer, buildssa.Analyzer},
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
	src := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA).SrcFuncs
	c := &checker{pass: pass, vals: res.Values(), funcs: functions(src)}
	for _, t := range res.Tools {
		if !t.Pilotage() || t.Handler == nil {
			continue
		}
		c.handler(t)
	}
	return nil, nil
}

type checker struct {
	pass  *analysis.Pass
	vals  *toolfind.Values
	funcs map[ast.Node]*ssa.Function
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
			if c.carrier(t.Kind, c.funcs[t.Handler], n) {
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
