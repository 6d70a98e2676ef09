package canonical

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/constant"
	"maps"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/pilotagekit/pilotagekit/analyzers/internal/sdk"
	ptypes "github.com/pilotagekit/pilotagekit/pkg/types"
)

//go:embed doc.go
var doc string

// Analyzer reports pkg/types literals whose constants contradict the spec.
var Analyzer = &analysis.Analyzer{
	Name:     "canonical",
	Doc:      sdk.MustExtractDoc(doc, "canonical"),
	URL:      "https://pkg.go.dev/github.com/pilotagekit/pilotagekit/analyzers/canonical",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	if pass.Pkg.Path() == sdk.Types {
		// pkg/types builds zero values on purpose (a decoder resets its
		// receiver); the checks are for code that uses it.
		return nil, nil
	}
	in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	c := &checker{pass: pass, inManifest: map[*ast.CompositeLit]bool{}}
	for cur := range in.Root().Preorder((*ast.CompositeLit)(nil)) {
		lit := cur.Node().(*ast.CompositeLit)
		t := pass.TypesInfo.TypeOf(lit)
		switch {
		case sdk.IsNamed(t, sdk.Types, "Outcome"):
			c.outcome(lit)
		case sdk.IsNamed(t, sdk.Types, "RequestErrorBody"):
			c.requestError(lit)
		case sdk.IsNamed(t, sdk.Types, "Manifest"):
			c.manifest(lit)
		case sdk.IsNamed(t, sdk.Types, "Language"):
			if !c.inManifest[lit] {
				c.language(lit, nil)
			}
		case sdk.IsNamed(t, sdk.Types, "CapabilityDeclaration"):
			if !c.inManifest[lit] {
				c.alone(lit)
			}
		case sdk.IsNamed(t, sdk.Types, "Capability"):
			if c.says(lit) == absent {
				c.report(lit, "this types.Capability literal sets no Form, so it says nothing: its zero value is absent and a capability declaration leaves it out; write types.Declare(), types.DeclareWith(sub...) or types.Undeclare() (Part II §4.2)")
			}
		}
	}
	return nil, nil
}

type checker struct {
	pass *analysis.Pass
	// inManifest marks the Language and declaration literals that a
	// Manifest literal has already checked with its Server-level default.
	inManifest map[*ast.CompositeLit]bool
}

// tri is a value known to be true, known to be false, or unknown.
type tri int

const (
	unknown tri = iota
	yes
	no
	// absent is a types.Capability that says nothing: no Form, or
	// FormAbsent.
	absent
)

func (c *checker) boolField(f map[string]*ast.KeyValueExpr, name string) tri {
	kv := f[name]
	if kv == nil {
		return no // the zero value
	}
	if v, ok := sdk.Bool(c.pass.TypesInfo, kv.Value); ok {
		if v {
			return yes
		}
		return no
	}
	return unknown
}

// nullness of a types.NullableString expression.
type nullness int

const (
	nullUnknown nullness = iota
	nullAbsent
	nullNull
	nullString
)

func (c *checker) nullable(e ast.Expr) nullness {
	info := c.pass.TypesInfo
	e = sdk.Unparen(e)
	if call, ok := e.(*ast.CallExpr); ok {
		fn := sdk.Callee(info, call)
		switch {
		case sdk.IsFunc(fn, sdk.Types, "NullValue"):
			return nullNull
		case sdk.IsFunc(fn, sdk.Types, "StringValue"):
			return nullString
		}
		return nullUnknown
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok || !sdk.IsNamed(info.TypeOf(lit), sdk.Types, "NullableString") {
		return nullUnknown
	}
	f := sdk.Fields(lit)
	if f == nil {
		return nullUnknown
	}
	set, null, invalid := c.boolField(f, "Set"), c.boolField(f, "Null"), c.boolField(f, "Invalid")
	switch {
	case set == no:
		return nullAbsent
	case set == yes && null == yes:
		return nullNull
	case set == yes && null == no && invalid == no:
		return nullString
	}
	return nullUnknown
}

func (c *checker) outcome(lit *ast.CompositeLit) {
	f := sdk.Fields(lit)
	if f == nil {
		return
	}
	ok := c.boolField(f, "OK")
	if ok == unknown {
		return
	}
	okExpr := ast.Node(lit)
	if f["OK"] != nil {
		okExpr = f["OK"]
	}
	if kv := f["Error"]; kv != nil {
		switch n := c.nullable(kv.Value); {
		case ok == yes && n == nullString:
			c.report(kv.Value, "Outcome has OK true and a non-null Error; error must be null exactly when ok is true (Part II §5.7): use types.NullValue()")
		case ok == no && n == nullNull:
			c.report(kv.Value, "Outcome has OK false and a null Error; a failed outcome carries a human-readable error (Part II §5.7): use types.StringValue(...)")
		}
	}
	if kv := f["Status"]; kv != nil {
		s, isConst := sdk.String(c.pass.TypesInfo, kv.Value)
		if !isConst {
			return
		}
		want, reserved := ptypes.OutcomeStatus(s).ReservedOK()
		if reserved && want != (ok == yes) {
			c.report(okExpr, fmt.Sprintf("Outcome has reserved status %q with OK %v; %q always has ok %v (Part II §5.7)", s, ok == yes, s, want))
		}
	}
}

func (c *checker) requestError(lit *ast.CompositeLit) {
	f := sdk.Fields(lit)
	if f == nil || f["Kind"] == nil {
		return
	}
	k, ok := sdk.String(c.pass.TypesInfo, f["Kind"].Value)
	if !ok || ptypes.ErrorKind(k).IsKnown() {
		return
	}
	c.report(f["Kind"].Value, fmt.Sprintf("request-error kind %q is outside the closed set of Part III §7.2 (not_found, invalid_request, unknown_baseline, idempotency_conflict, bounds_exceeded, unsupported, internal); a Client reads it as internal", k))
}

// capability is what a declaration literal says about one capability.
type capability struct {
	state tri          // declared, undeclared (false), unknown
	key   ast.Expr     // the map key, for reporting
	decl  *declaration // the map it came from
}

type declaration struct {
	lit  *ast.CompositeLit
	caps map[ptypes.CapabilityName]capability
}

// declaration reads a CapabilityDeclaration literal.
func (c *checker) declaration(e ast.Expr) *declaration {
	lit, ok := sdk.Unparen(e).(*ast.CompositeLit)
	if !ok || !sdk.IsNamed(c.pass.TypesInfo.TypeOf(lit), sdk.Types, "CapabilityDeclaration") {
		return nil
	}
	d := &declaration{lit: lit, caps: map[ptypes.CapabilityName]capability{}}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		name, ok := sdk.String(c.pass.TypesInfo, kv.Key)
		if !ok {
			continue
		}
		// A value that says nothing is left out on encode, so it is not
		// in the map the receiver reads.
		state := c.capValue(kv.Value)
		if state == absent {
			continue
		}
		d.caps[ptypes.CapabilityName(name)] = capability{state: state, key: kv.Key, decl: d}
	}
	return d
}

// capValue reads a types.Capability value: a literal's Form, or the
// constructor that built it.
func (c *checker) capValue(e ast.Expr) tri {
	e = sdk.Unparen(e)
	if call, ok := e.(*ast.CallExpr); ok {
		fn := sdk.Callee(c.pass.TypesInfo, call)
		switch {
		case sdk.IsFuncIn(fn, sdk.Types, "Declare", "DeclareWith"):
			return yes
		case sdk.IsFunc(fn, sdk.Types, "Undeclare"):
			return no
		}
		return unknown
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return unknown
	}
	return c.says(lit)
}

// says reads a types.Capability literal's Form.
func (c *checker) says(lit *ast.CompositeLit) tri {
	f := sdk.Fields(lit)
	if f == nil {
		return unknown
	}
	form := int64(ptypes.FormAbsent)
	if kv := f["Form"]; kv != nil {
		tv, ok := c.pass.TypesInfo.Types[kv.Value]
		if !ok || tv.Value == nil {
			return unknown
		}
		v, exact := constant.Int64Val(tv.Value)
		if !exact {
			return unknown
		}
		form = v
	}
	switch ptypes.CapabilityForm(form) {
	case ptypes.FormAbsent:
		return absent
	case ptypes.FormTrue, ptypes.FormObject:
		return yes
	}
	return no
}

// effective merges the Language-level declaration over the Server-level
// one, identifier by identifier (Part II §4.2). Either may be nil.
func effective(server, language *declaration) map[ptypes.CapabilityName]capability {
	m := map[ptypes.CapabilityName]capability{}
	for _, d := range []*declaration{server, language} {
		if d != nil {
			maps.Copy(m, d.caps)
		}
	}
	return m
}

// dependencies reports each declared capability whose dependency is
// undeclared in eff. With complete false, an absent dependency is not
// known to be undeclared.
func (c *checker) dependencies(eff map[ptypes.CapabilityName]capability, complete bool, where string) {
	for _, name := range ptypes.Capabilities {
		cp, ok := eff[name]
		if !ok || cp.state != yes {
			continue
		}
		dep := name.Dependency()
		if dep == "" {
			continue
		}
		d, present := eff[dep]
		if present && d.state != no || !present && !complete {
			continue
		}
		c.report(cp.key, fmt.Sprintf("%s declares %q but %q, which it depends on, is undeclared (Part II §4.1, §4.3)", where, name, dep))
	}
}

func (c *checker) manifest(lit *ast.CompositeLit) {
	f := sdk.Fields(lit)
	if f == nil {
		return
	}
	var server *declaration
	if kv := f["Capabilities"]; kv != nil {
		server = c.declaration(kv.Value)
		if server != nil {
			c.inManifest[server.lit] = true
		}
	}
	kv := f["Languages"]
	if kv == nil {
		return
	}
	langs, ok := sdk.Unparen(kv.Value).(*ast.CompositeLit)
	if !ok {
		return
	}
	for _, elt := range langs.Elts {
		if l, ok := sdk.Unparen(elt).(*ast.CompositeLit); ok {
			c.inManifest[l] = true
			c.language(l, server)
		}
	}
	if server != nil && len(langs.Elts) == 0 {
		c.dependencies(effective(server, nil), true, "the Server-level capability declaration")
	}
}

// language checks one Language literal. server is the Server-level
// default when the literal sits in a Manifest literal, nil otherwise.
func (c *checker) language(lit *ast.CompositeLit, server *declaration) {
	f := sdk.Fields(lit)
	if f == nil {
		return
	}
	var own *declaration
	if kv := f["Capabilities"]; kv != nil {
		own = c.declaration(kv.Value)
		if own != nil {
			c.inManifest[own.lit] = true
		}
	}
	inManifest := server != nil || c.inManifest[lit]
	eff := effective(server, own)
	name := "Language"
	if kv := f["Name"]; kv != nil {
		if s, ok := sdk.String(c.pass.TypesInfo, kv.Value); ok {
			name = fmt.Sprintf("Language %q", s)
		}
	}
	c.dependencies(eff, inManifest, name)
	if kv := f["Retention"]; kv != nil {
		r, ok := sdk.String(c.pass.TypesInfo, kv.Value)
		if ok && ptypes.Retention(r) == ptypes.RetentionNone {
			if tf, ok := eff[ptypes.CapTraceFetch]; ok && tf.state == yes {
				c.report(tf.key, fmt.Sprintf(`%s declares "trace_fetch" with retention "none"; a Language that retains no runs has none to fetch (Part II §4.3 rule 5)`, name))
			}
		}
	}
}

// alone checks a declaration seen outside any Manifest or Language
// literal: only an explicit false makes a dependency undeclared.
func (c *checker) alone(lit *ast.CompositeLit) {
	if d := c.declaration(lit); d != nil {
		c.dependencies(effective(nil, d), false, "capability declaration")
	}
}

func (c *checker) report(n ast.Node, msg string) {
	c.pass.Report(analysis.Diagnostic{Pos: n.Pos(), End: n.End(), Message: msg})
}
