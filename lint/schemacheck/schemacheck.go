// Package schemacheck compiles the JSON Schemas found inside lint inputs
// (a tool's inputSchema and outputSchema, a manifest's context_schema, a
// catalog's input_schema) without ever leaving the document.
//
// Those schemas come from servers the user does not control. A `$ref` or a
// `$schema` naming `file:`, `http:`, a relative path or /dev/zero would make
// a naive compiler open a file, hang on a fifo or fetch a URL from inside a
// pre-commit hook. Compile is the one place the linter turns a schema into a
// validator: every rule that compiles or validates against a schema found in
// an input MUST use it rather than calling jsonschema.NewCompiler itself,
// whose default loader reads files.
//
// Typical use in a rule:
//
//	sch, issues := schemacheck.Compile(tool.OutputSchema)
//	for _, is := range issues {
//		if is.Key {
//			p.ReportKey(is.Node, "%s", is.Message)
//		} else {
//			p.Report(is.Node, "%s", is.Message)
//		}
//	}
//	if sch != nil {
//		err := sch.Validate(result.Value())
//		...
//	}
//
// A rule asks the schema a question the way a validator would answer it.
// Whether a value fits is FitOf (accepted, a value fault, a structural
// fault, or unknown offline) or Structural, both validating with the
// library, "format" asserting only where the dialect says so. What the
// schema declares (is member x declared, required, of which JSON types,
// with which enum) is a Resolver's to read, through local $refs, allOf
// and nullable unions, so that no rule walks "properties" by hand and
// misses Pydantic's $defs or zod's allOf; before a rule reports something
// missing it asks the Resolver whether the schema is Whole (no part behind
// an external $ref or a conditional branch that may hold it).
package schemacheck

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"

	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// IssueKind classifies an Issue, so a rule can choose which to report.
type IssueKind uint8

// The kinds of Issue.
const (
	// ExternalRef is a $ref (or $dynamicRef, $recursiveRef) to anything
	// outside the document. It is never followed.
	ExternalRef IssueKind = iota + 1
	// BadRegex is a pattern or patternProperties name that does not
	// compile: in Scan's issues, one Go's RE2 cannot compile (so Go clients
	// cannot validate it); in Compile's, one that neither RE2 nor an
	// ECMA-262 engine compiles. Compile leaves out, without an issue, a
	// pattern that may be valid ECMA-262 although neither engine knows its
	// syntax (a long Unicode property name such as \p{Letter}), and says
	// so with an UncheckedRegex issue.
	BadRegex
	// UncheckedRegex is, in Compile's issues, a pattern that may be valid
	// ECMA-262 but that no engine here compiles: values were not checked
	// against it.
	UncheckedRegex
	// UnknownDialect is a $schema that names no JSON Schema draft the
	// linter knows.
	UnknownDialect
	// Invalid is any other reason the schema does not compile: it breaks
	// its meta-schema, a local reference does not resolve, an $id or
	// anchor is duplicated.
	Invalid
)

// Issue is one defect of a schema, located at the node to report.
type Issue struct {
	Kind IssueKind
	// Node is the offending value, never nil.
	Node *source.Node
	// Key is true when the defect is the member's name rather than its
	// value (a patternProperties name): report it with Pass.ReportKey.
	Key bool
	// Ref is the reference as written, for ExternalRef.
	Ref string
	// Message is one sentence saying what is wrong and how to fix it.
	Message string
}

// rootURL names the document for the compiler. The mem scheme has no
// loader, so nothing that resolves against it can be fetched.
const rootURL = "mem:///schema.json"

// Draft is the dialect of schemas without $schema: MCP tool schemas default
// to JSON Schema 2020-12.
var Draft = jsonschema.Draft2020

// ErrRefused is what the compiler's loader answers for every URL.
var ErrRefused = errors.New("pilotage-lint never loads a schema from outside the document")

// refusingLoader is the compiler's only way to reach a resource that is not
// the document itself; it refuses, and remembers what was asked for so a
// test can prove nothing was.
type refusingLoader struct{ asked *[]string }

func (l refusingLoader) Load(u string) (any, error) {
	if l.asked != nil {
		*l.asked = append(*l.asked, u)
	}
	return nil, ErrRefused
}

// loadHook, when set by a test, receives every URL the loader refused.
var loadHook func(string)

// Compile compiles the schema at n. External references, unknown $schema
// dialects and regular expressions Go cannot compile are reported as issues
// and left out of the compiled schema (an external $ref then accepts
// anything), so the rest of the schema still validates. The schema is nil
// when it does not compile even so; issues then say why.
func Compile(n *source.Node) (*jsonschema.Schema, []Issue) {
	return compile(n, compileOpts{})
}

// compileOpts vary a compilation; one with any option set is never cached.
type compileOpts struct {
	// lax are formats the compiled schema treats as annotations (see
	// FitOf).
	lax []string
	// at, when set, is the pointer of a subschema of the document, which
	// compile returns compiled in place instead of the root.
	at string
}

func compile(n *source.Node, opts compileOpts) (*jsonschema.Schema, []Issue) {
	lax := opts.lax
	plain := lax == nil && opts.at == ""
	if n == nil {
		return nil, nil
	}
	if n.Kind != source.Object && n.Kind != source.Bool {
		return nil, []Issue{{Kind: Invalid, Node: n, Message: fmt.Sprintf("a JSON Schema must be an object or a boolean, not a %s; write {} to accept anything", n.Kind)}}
	}
	// A schema from which scan drops nothing and reports nothing compiles
	// the same wherever it appears, and only such schemas are cached: a hit
	// needs no scan.
	key := contentKey(n)
	if sch := cached(key); sch != nil && plain {
		return sch, nil
	}
	sc := scan(n, regexps{})
	clean := len(sc.issues) == 0 && len(sc.drop) == 0 && plain
	c := jsonschema.NewCompiler()
	c.DefaultDraft(Draft)
	c.UseRegexpEngine(sc.regexps.engine)
	for _, f := range lax {
		c.RegisterFormat(&jsonschema.Format{Name: f, Validate: func(any) error { return nil }})
	}
	var asked []string
	c.UseLoader(refusingLoader{&asked})
	// A meta-schema the document carries itself is given to the compiler
	// under its $id, so the library reads its $vocabulary (whether format
	// asserts, say) without anything being fetched.
	for u, m := range sc.metaSchemas {
		if err := c.AddResource(u, value(m, sc.drop)); err != nil {
			return nil, append(sc.issues, Issue{Kind: Invalid, Node: m, Message: fmt.Sprintf("the meta-schema this schema names cannot be loaded (%v); fix it so that it is a valid JSON Schema", err)})
		}
	}
	if err := c.AddResource(rootURL, value(n, sc.drop)); err != nil {
		return nil, append(sc.issues, Issue{Kind: Invalid, Node: n, Message: fmt.Sprintf("the schema cannot be loaded (%v); fix it so that it is a valid JSON Schema", err)})
	}
	sch, err := c.Compile(rootURL)
	for _, u := range asked {
		if loadHook != nil {
			loadHook(u)
		}
	}
	if err != nil {
		if is, ok := sc.issueFor(err); ok {
			sc.add(is)
		}
		return nil, sc.issues
	}
	if clean && len(sc.issues) == 0 {
		remember(key, sch)
	}
	if opts.at != "" {
		loc := (&url.URL{Scheme: "mem", Path: "/schema.json", Fragment: opts.at}).String()
		if sch, err = c.Compile(loc); err != nil {
			return nil, sc.issues
		}
	}
	return sch, sc.issues
}

// Scan reports what Compile would report about references, dialects and
// regular expressions, without compiling: it walks the schema once, so a
// rule can afford it for every tool of a gateway-sized tools/list.
func Scan(n *source.Node) []Issue {
	if n == nil || n.Kind != source.Object || !mayHaveIssues(n) {
		return nil
	}
	return scan(n, nil).issues
}

// mayHaveIssues reports whether any schema object under n holds a keyword
// check looks at. Almost no published schema does, and this walk, unlike
// scan, allocates nothing: it visits the schemas Subschemas returns, in
// place, and a switch on the member name costs less than the keyword sets'
// hashing (a gateway has ten thousand schemas to clear).
func mayHaveIssues(n *source.Node) bool {
	if n.Kind != source.Object {
		return false
	}
	for _, k := range n.Kids() {
		switch k.Key() {
		case "$ref", "$dynamicRef", "$recursiveRef", "$schema", "pattern", "patternProperties":
			return true
		case "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
			"unevaluatedItems", "unevaluatedProperties", "additionalItems", "contentSchema":
			if mayHaveIssues(k) {
				return true
			}
		case "items":
			if !k.IsArray() && mayHaveIssues(k) {
				return true
			}
			if k.IsArray() && anyHasIssues(k.Kids()) {
				return true
			}
		case "allOf", "anyOf", "oneOf", "prefixItems":
			if k.IsArray() && anyHasIssues(k.Kids()) {
				return true
			}
		case "properties", "$defs", "definitions", "dependentSchemas", "dependencies":
			if k.IsObject() && anyHasIssues(k.Kids()) {
				return true
			}
		}
	}
	return false
}

func anyHasIssues(ns []*source.Node) bool {
	for _, m := range ns {
		if mayHaveIssues(m) {
			return true
		}
	}
	return false
}

// scanner walks the schema keywords (not the data inside enum, const,
// default or examples) to find what Compile reports and drops.
type scanner struct {
	issues []Issue
	// drop marks members left out of the compiled copy.
	drop map[*source.Node]bool
	// resources maps each resource URL in the document (the root and every
	// $id) to its node, to tell local references from external ones and
	// to locate the compiler's errors.
	resources map[string]*source.Node
	// metaRefs are references to json-schema.org left to the compiler.
	metaRefs map[string]*source.Node
	// metaSchemas are the meta-schemas a $schema names that the document
	// holds itself, by URL.
	metaSchemas map[string]*source.Node
	reported    map[*source.Node]bool
	// keys finds the target of each local reference without scanning a
	// $defs of thousands for it.
	keys memberIndex
	// regexps, set for Compile, judges patterns as ECMA-262 and keeps their
	// programs for the compiler; without it, as in Scan, a pattern is
	// judged by RE2 alone.
	regexps regexps
}

func (s *scanner) add(is Issue) {
	if s.reported[is.Node] {
		return
	}
	s.reported[is.Node] = true
	s.issues = append(s.issues, is)
}

func scan(root *source.Node, rs regexps) *scanner {
	s := &scanner{drop: map[*source.Node]bool{}, resources: map[string]*source.Node{}, metaRefs: map[string]*source.Node{}, metaSchemas: map[string]*source.Node{}, reported: map[*source.Node]bool{}, regexps: rs}
	base, _ := url.Parse(rootURL)
	s.resources[rootURL] = root
	walk(root, base, func(n *source.Node, base *url.URL) {
		if id := idOf(n); id != nil {
			s.resources[strip(base.String())] = n
		}
	})
	walk(root, base, s.check)
	return s
}

// idOf returns the $id member of a schema object ("id" in draft-04).
func idOf(n *source.Node) *source.Node { return idIn(n.Get) }

// idIn is idOf of the schema object whose members get returns.
func idIn(get func(string) *source.Node) *source.Node {
	if id := get("$id"); id.IsString() {
		return id
	}
	if id := get("id"); id.IsString() && get("$schema").IsString() && strings.Contains(get("$schema").Text(), "draft-04") {
		return id
	}
	return nil
}

// walk calls visit on every schema object under n with the base URI in
// force there.
func walk(n *source.Node, base *url.URL, visit func(*source.Node, *url.URL)) {
	if n == nil || n.Kind != source.Object {
		return
	}
	if id := idOf(n); id != nil {
		if u, err := url.Parse(id.Text()); err == nil {
			base = base.ResolveReference(u)
		}
	}
	visit(n, base)
	for _, m := range Subschemas(n) {
		walk(m, base, visit)
	}
}

// Subschemas returns the schemas directly inside schema object n, across
// drafts 4 to 2020-12: values of keywords that hold one schema, elements of
// keywords that hold an array of schemas, and member values of keywords
// that hold an object of schemas. items may be one schema or (before
// 2020-12) an array; dependencies may map to schemas or to arrays of names.
func Subschemas(n *source.Node) []*source.Node {
	var out []*source.Node
	for _, k := range n.Items() {
		switch {
		case schemaKeyword[k.Key()]:
			out = append(out, k)
		case arrayKeyword[k.Key()] && k.IsArray():
			out = append(out, k.Kids()...)
		case mapKeyword[k.Key()] && k.IsObject():
			out = append(out, k.Kids()...)
		case k.Key() == "items" && k.IsArray():
			out = append(out, k.Kids()...)
		case k.Key() == "items":
			out = append(out, k)
		case k.Key() == "dependencies" && k.IsObject():
			for _, d := range k.Kids() {
				if d.IsObject() || d.IsBool() {
					out = append(out, d)
				}
			}
		}
	}
	return out
}

// The keywords whose values are schemas, arrays of schemas, or objects whose
// member values are schemas, across drafts 4 to 2020-12 (items and
// dependencies, whose form varies, are handled in Subschemas).
var (
	schemaKeyword = set("additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
		"unevaluatedItems", "unevaluatedProperties", "additionalItems", "contentSchema")
	arrayKeyword = set("allOf", "anyOf", "oneOf", "prefixItems")
	mapKeyword   = set("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
)

func set(ws ...string) map[string]bool {
	m := map[string]bool{}
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// knownDialects are the $schema values the compiler has built in.
var knownDialects = set(
	"json-schema.org/schema",
	"json-schema.org/draft/2020-12/schema",
	"json-schema.org/draft/2019-09/schema",
	"json-schema.org/draft-07/schema",
	"json-schema.org/draft-06/schema",
	"json-schema.org/draft-04/schema",
)

func knownDialect(s string) bool {
	s = strings.TrimSuffix(s, "#")
	if r, ok := strings.CutPrefix(s, "https://"); ok {
		return knownDialects[r]
	}
	if r, ok := strings.CutPrefix(s, "http://"); ok {
		return knownDialects[r]
	}
	return false
}

// strip removes the fragment of a URL.
func strip(u string) string {
	if i := strings.IndexByte(u, '#'); i >= 0 {
		return u[:i]
	}
	return u
}

func (s *scanner) check(n *source.Node, base *url.URL) {
	for _, m := range n.Kids() {
		switch m.Key() {
		case "$ref", "$dynamicRef", "$recursiveRef":
			if m.Kind == source.String {
				s.checkRef(m, base)
			}
		case "$schema":
			if m.Kind == source.String && !knownDialect(m.Text()) && s.localMeta(m, base) {
				continue
			}
			if m.Kind == source.String && !knownDialect(m.Text()) {
				s.drop[m] = true
				s.add(Issue{Kind: UnknownDialect, Node: m, Message: fmt.Sprintf("$schema %q is not a JSON Schema dialect pilotage-lint knows, and it never fetches one; use \"https://json-schema.org/draft/2020-12/schema\" or leave $schema out", clip(m.Text()))})
			}
		case "pattern":
			if m.Kind == source.String {
				s.regexpIssue(m, false, "pattern", m.Text())
			}
		case "patternProperties":
			if m.Kind == source.Object {
				for _, k := range m.Kids() {
					s.regexpIssue(k, true, "patternProperties name", k.Key())
				}
			}
		}
	}
}

// regexpIssue reports the regular expression re of member m (its name,
// when key) if it is an issue: for Scan, one RE2 rejects, as advice to Go
// clients; for Compile, one that is not ECMA-262, which JSON Schema means,
// or one no engine here can check.
func (s *scanner) regexpIssue(m *source.Node, key bool, what, re string) {
	err := s.checkRegexp(m, re)
	switch {
	case err != nil && s.regexps == nil:
		s.add(Issue{Kind: BadRegex, Node: m, Key: key, Message: fmt.Sprintf("%s %q does not compile as a Go (RE2) regular expression (%s), so Go clients cannot validate it; avoid lookaround and backreferences", what, clip(re), reErr(err))})
	case err != nil:
		s.add(Issue{Kind: BadRegex, Node: m, Key: key, Message: fmt.Sprintf("%s %q is not an ECMA-262 regular expression, which JSON Schema requires (%s), so no client can validate against it; fix the expression", what, clip(re), reErr(err))})
	case s.regexps != nil && s.drop[m]:
		s.add(Issue{Kind: UncheckedRegex, Node: m, Key: key, Message: fmt.Sprintf("%s %q uses ECMA-262 syntax that no regular-expression engine here supports (a long Unicode property name)", what, clip(re))})
	}
}

// checkRegexp judges the regular expression re of member m, and returns
// RE2's error when it is an issue. Scan reports every expression RE2
// rejects. Compile keeps one that compiles as ECMA-262, which is what JSON
// Schema means, and leaves out of the compiled copy one that does not; of
// those it reports only one that no ECMA-262 engine could accept either.
func (s *scanner) checkRegexp(m *source.Node, re string) error {
	if s.regexps == nil {
		_, err := regexp.Compile(re)
		if err != nil {
			s.drop[m] = true
		}
		return err
	}
	prog, err, _ := s.regexps.compile(re)
	if prog != nil {
		return nil
	}
	s.drop[m] = true
	if unsupportedECMA(re) {
		return nil
	}
	return err
}

// localMeta records, and reports true for, a $schema naming a schema
// resource the document holds (an $id under $defs), other than the one
// the $schema sits in.
func (s *scanner) localMeta(m *source.Node, base *url.URL) bool {
	u, err := url.Parse(m.Text())
	if err != nil {
		return false
	}
	target := strip(base.ResolveReference(u).String())
	res := s.resources[target]
	if res == nil || res == m.Parent {
		return false
	}
	s.metaSchemas[target] = res
	return true
}

func (s *scanner) checkRef(m *source.Node, base *url.URL) {
	u, err := url.Parse(m.Text())
	if err != nil {
		s.drop[m] = true
		s.add(Issue{Kind: Invalid, Node: m, Ref: m.Text(), Message: fmt.Sprintf("%s %q is not a valid URI reference; point it at a definition in this schema, such as \"#/$defs/name\"", m.Key(), clip(m.Text()))})
		return
	}
	target := strip(base.ResolveReference(u).String())
	if res := s.resources[target]; res != nil {
		frag := u.Fragment
		if strings.HasPrefix(frag, "/") && s.keys.pointer(res, frag) == nil {
			s.drop[m] = true
			s.add(Issue{Kind: Invalid, Node: m, Ref: m.Text(), Message: fmt.Sprintf("%s %q names no value inside this schema; point it at an existing definition, such as \"#/$defs/name\"", m.Key(), clip(m.Text()))})
		}
		return
	}
	// The compiler has the drafts' meta-schemas built in; any other
	// json-schema.org URL reaches the refusing loader and is reported then.
	if strings.HasPrefix(target, "https://json-schema.org/") || strings.HasPrefix(target, "http://json-schema.org/") {
		s.metaRefs[target] = m
		return
	}
	s.drop[m] = true
	s.add(Issue{Kind: ExternalRef, Node: m, Ref: m.Text(), Message: fmt.Sprintf("%s %q points outside this schema, which no client can be relied on to fetch and pilotage-lint never follows; copy the referenced schema under $defs and refer to it as \"#/$defs/name\"", m.Key(), clip(m.Text()))})
}

func reErr(err error) string {
	var se *syntax.Error
	if errors.As(err, &se) {
		return string(se.Code)
	}
	return err.Error()
}

func clip(s string) string { return clipN(s, 80) }

// clipN shortens s to at most n bytes, on a rune boundary.
func clipN(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n - 3
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "..."
}

// value is Node.Value without the dropped members.
func value(n *source.Node, drop map[*source.Node]bool) any {
	switch n.Kind {
	case source.Array:
		out := make([]any, len(n.Kids()))
		for i, k := range n.Kids() {
			out[i] = value(k, drop)
		}
		return out
	case source.Object:
		out := make(map[string]any, len(n.Kids()))
		for _, k := range n.Kids() {
			if !drop[k] {
				out[k.Key()] = value(k, drop)
			}
		}
		return out
	}
	return n.Value()
}

// locate finds the node a compiler error URL ("base#/json/pointer") names.
func (s *scanner) locate(u string) *source.Node {
	b, frag, _ := strings.Cut(u, "#")
	n := s.resources[b]
	if n == nil {
		n = s.resources[rootURL]
	}
	if frag != "" {
		if p, err := url.PathUnescape(frag); err == nil {
			frag = p
		}
		if r, ok := n.Resolve(frag); ok {
			return r
		}
	}
	return n
}

var printer = message.NewPrinter(language.English)

// issueFor turns the compiler's error into an Issue at the right node.
func (s *scanner) issueFor(err error) (Issue, bool) {
	root := s.resources[rootURL]
	var (
		sv *jsonschema.SchemaValidationError
		re *jsonschema.InvalidRegexError
		le *jsonschema.LoadURLError
	)
	switch {
	case errors.As(err, &sv):
		n := s.locate(sv.URL)
		msg := sv.Err.Error()
		var ve *jsonschema.ValidationError
		if errors.As(sv.Err, &ve) {
			leaf := ve
			for len(leaf.Causes) > 0 {
				leaf = leaf.Causes[0]
			}
			for _, t := range leaf.InstanceLocation {
				if c := n.Path(t); c != nil {
					n = c
				}
			}
			msg = leaf.ErrorKind.LocalizedString(printer)
		}
		return Issue{Kind: Invalid, Node: n, Message: fmt.Sprintf("this is not a valid JSON Schema (%s), so clients cannot validate against it; fix the keyword", clipN(msg, 200))}, true
	case errors.As(err, &re):
		return Issue{Kind: BadRegex, Node: s.locate(re.URL), Message: fmt.Sprintf("regular expression %q does not compile in Go (RE2); avoid lookaround and backreferences", clip(re.Regex))}, true
	case errors.As(err, &le):
		n := root
		if r := s.metaRefs[strip(le.URL)]; r != nil {
			n = r
		}
		return Issue{Kind: ExternalRef, Node: n, Ref: le.URL, Message: fmt.Sprintf("the schema refers to %q outside itself, which pilotage-lint never follows; copy the referenced schema under $defs", clip(le.URL))}, true
	}
	msg := strings.ReplaceAll(strings.ReplaceAll(err.Error(), rootURL, ""), "mem:///", "")
	return Issue{Kind: Invalid, Node: root, Message: fmt.Sprintf("this schema does not compile (%s); fix it so that it is a valid JSON Schema", clipN(msg, 200))}, true
}
