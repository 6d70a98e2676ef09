package metakey

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/pilotagekit/pilotagekit/analyzers/internal/sdk"
	ptypes "github.com/pilotagekit/pilotagekit/pkg/types"
)

//go:embed doc.go
var doc string

// Analyzer reports shorthand and legacy Pilotage _meta keys and extension
// names.
var Analyzer = &analysis.Analyzer{
	Name:     "metakey",
	Doc:      sdk.MustExtractDoc(doc, "metakey"),
	URL:      "https://pkg.go.dev/github.com/pilotagekit/pilotagekit/analyzers/metakey",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run:      run,
}

// context says what a string key or argument names.
type context int

const (
	anyMap    context = iota // a key of some map literal
	metaMap                  // a _meta key
	extension                // an extension identifier
)

func run(pass *analysis.Pass) (any, error) {
	in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	for cur := range in.Root().Preorder((*ast.CompositeLit)(nil), (*ast.CallExpr)(nil), (*ast.IndexExpr)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.CompositeLit:
			if !isStringKeyedMap(pass.TypesInfo.TypeOf(n)) {
				continue
			}
			ctx := literalContext(pass, n, cur)
			for _, elt := range n.Elts {
				if kv, ok := elt.(*ast.KeyValueExpr); ok {
					check(pass, kv.Key, ctx)
				}
			}
		case *ast.CallExpr:
			fn := sdk.Callee(pass.TypesInfo, n)
			if len(n.Args) > 0 &&
				(sdk.IsMethod(fn, sdk.GoSDKMCP, "ServerCapabilities", "AddExtension") ||
					sdk.IsMethod(fn, sdk.GoSDKMCP, "ClientCapabilities", "AddExtension")) {
				check(pass, n.Args[0], extension)
			}
		case *ast.IndexExpr:
			if isMetaMapExpr(pass.TypesInfo, n.X) {
				check(pass, n.Index, metaMap)
			}
		}
	}
	return nil, nil
}

// literalContext decides what the keys of a map literal name, from the
// literal's own type and from where it is used.
func literalContext(pass *analysis.Pass, lit *ast.CompositeLit, cur inspector.Cursor) context {
	info := pass.TypesInfo
	if sdk.IsNamed(info.TypeOf(lit), sdk.GoSDKMCP, "Meta") {
		return metaMap
	}
	// Walk up through & and parentheses to the expression that uses the map.
	parent := cur.Parent()
	for {
		switch p := parent.Node().(type) {
		case *ast.ParenExpr, *ast.UnaryExpr:
			parent = parent.Parent()
			continue
		case *ast.KeyValueExpr:
			if sdk.Unparen(p.Value) != lit {
				return anyMap
			}
			outer, ok := parent.Parent().Node().(*ast.CompositeLit)
			if !ok {
				return anyMap
			}
			if key, ok := p.Key.(*ast.Ident); ok && isSDKStruct(info.TypeOf(outer)) {
				switch key.Name {
				case "Meta", "AdditionalFields":
					return metaMap
				case "Extensions":
					return extension
				}
			}
			if k, ok := sdk.String(info, p.Key); ok {
				switch k {
				case "_meta":
					return metaMap
				case "extensions":
					return extension
				}
			}
		case *ast.CallExpr:
			fn := sdk.Callee(info, p)
			switch {
			case sdk.IsFunc(fn, sdk.MCPGoMCP, "NewMetaFromMap"):
				return metaMap
			case sdk.IsFunc(fn, sdk.MCPGoServer, "WithExtensions"):
				return extension
			}
		case *ast.AssignStmt:
			for i, rhs := range p.Rhs {
				if sdk.Unparen(rhs) != lit || i >= len(p.Lhs) {
					continue
				}
				if sel, ok := p.Lhs[i].(*ast.SelectorExpr); ok && isSDKField(info, sel) {
					switch sel.Sel.Name {
					case "Meta", "AdditionalFields":
						return metaMap
					case "Extensions":
						return extension
					}
				}
			}
		}
		return anyMap
	}
}

// check reports key if it is a non-normative form of the Pilotage key in
// the given context.
func check(pass *analysis.Pass, key ast.Expr, ctx context) {
	s, ok := sdk.String(pass.TypesInfo, key)
	if !ok || s == ptypes.ExtensionID {
		return
	}
	var msg string
	fixable := true
	switch {
	case s == ptypes.LegacyExtensionID:
		what := "key"
		if ctx == extension {
			what = "extension name"
		}
		msg = fmt.Sprintf("%s %q is the legacy dotted identifier, which is not wire-normative; use %q (Part III §1.1)",
			what, s, ptypes.ExtensionID)
	case s == ptypes.ShorthandMetaKey && ctx == metaMap:
		msg = fmt.Sprintf("_meta key %q is a shorthand that receivers must ignore; Pilotage metadata goes under %q (Part III §2)",
			s, ptypes.ExtensionID)
	case s == ptypes.ShorthandMetaKey && ctx == extension:
		msg = fmt.Sprintf("extension name %q is not the Pilotage extension identifier; declare %q (Part III §1.1)",
			s, ptypes.ExtensionID)
	case strings.HasPrefix(s, ptypes.VendorPrefix) && ctx == metaMap:
		msg = fmt.Sprintf("_meta key %q is not defined: the binding defines exactly one Pilotage _meta key, %q (Part III §2)",
			s, ptypes.ExtensionID)
		fixable = false
	default:
		return
	}
	d := analysis.Diagnostic{Pos: key.Pos(), End: key.End(), Message: msg}
	if fixable {
		edit := analysis.TextEdit{Pos: key.Pos(), End: key.End(), NewText: []byte(strconv.Quote(ptypes.ExtensionID))}
		// A reference to a pkg/types constant becomes types.ExtensionID, so
		// the import stays in use.
		if sel, ok := ast.Unparen(key).(*ast.SelectorExpr); ok {
			if pkgName, ok := pass.TypesInfo.Uses[identOf(sel.X)].(*types.PkgName); ok && pkgName.Imported().Path() == sdk.Types {
				edit = analysis.TextEdit{Pos: sel.Sel.Pos(), End: sel.Sel.End(), NewText: []byte("ExtensionID")}
			}
		}
		d.SuggestedFixes = []analysis.SuggestedFix{{
			Message:   fmt.Sprintf("Replace with %q", ptypes.ExtensionID),
			TextEdits: []analysis.TextEdit{edit},
		}}
	}
	pass.Report(d)
}

// isMetaMapExpr reports whether e denotes a _meta map: a go-sdk mcp.Meta
// value or the AdditionalFields of an mcp-go Meta.
func isMetaMapExpr(info *types.Info, e ast.Expr) bool {
	if sdk.IsNamed(info.TypeOf(e), sdk.GoSDKMCP, "Meta") {
		return true
	}
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "AdditionalFields" && isSDKField(info, sel)
}

// isSDKField reports whether sel selects a field declared in an SDK package.
func isSDKField(info *types.Info, sel *ast.SelectorExpr) bool {
	s, ok := info.Selections[sel]
	if !ok || s.Kind() != types.FieldVal {
		return false
	}
	return isSDKPkg(s.Obj().Pkg())
}

func isSDKStruct(t types.Type) bool {
	n := sdk.Named(t)
	if n == nil {
		return false
	}
	_, isStruct := n.Underlying().(*types.Struct)
	return isStruct && isSDKPkg(n.Obj().Pkg())
}

func isSDKPkg(p *types.Package) bool {
	if p == nil {
		return false
	}
	switch p.Path() {
	case sdk.GoSDKMCP, sdk.MCPGoMCP, sdk.MCPGoServer:
		return true
	}
	return false
}

func isStringKeyedMap(t types.Type) bool {
	if t == nil {
		return false
	}
	m, ok := t.Underlying().(*types.Map)
	if !ok {
		return false
	}
	b, ok := m.Key().Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := e.(*ast.Ident)
	return id
}
