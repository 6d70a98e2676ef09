package binding

import (
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/schemacheck"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// The tool-surface rules of the MCP binding (Part III §3.1, §4.1-§4.3) and
// the program declaration (§5).

func bindingToolRules() []*lint.Rule {
	return []*lint.Rule{
		&lint.Rule{
			ID: "binding-manifest-tool", Severity: lint.Error, Spec: "Part III §3.1",
			Quote:   "A conformant Server MUST expose an MCP tool named: pilotage_manifest",
			Keyword: "MUST",
			Summary: "tools/list lacks pilotage_manifest, its input schema is not an object schema that requires nothing, or its recorded result is an error.",
			Doc:     "pilotage_manifest is the guaranteed discovery path and the only reliable way a Client detects Pilotage on every revision, transport and host: a conformant Server MUST expose it, and its input schema is an object with no required members so that an agent can call it with {} before knowing anything. Extra optional properties are tolerated; a required member or a non-object schema makes the first call fail. A recorded pilotage_manifest result with isError: true is reported once, here, and no manifest rule judges its error object.",
			Bad:     `{"name": "pilotage_manifest", "inputSchema": {"type": "object", "properties": {"language": {"type": "string"}}, "required": ["language"]}}`,
			Good:    `{"name": "pilotage_manifest", "inputSchema": {"type": "object", "properties": {}}}`,
			Scope:   "The tool listing of a Pilotage Server (all recorded pages) and the recorded pilotage_manifest result, on every revision and version: the tool is listed, its inputSchema (read as a validator reads it) is an object schema that requires nothing, and its recorded result is not an error. A listing that shows no Pilotage tool at all, recorded by a Client not known to declare Pilotage, is a skipped check rather than a finding; an answer recorded for the tool while the listing lacks it is no Pilotage signal. A tool named pilotage_manifest whose recorded answer is a success with no manifest in structuredContent (a harbour pilot's cargo manifest), in an input nothing else marks as Pilotage (no identifier, no other fixed tool), is no Pilotage signal either, so the file is not judged (snapshot.ManifestDisproved).",
			Exceptions: []lint.Exception{
				{Spec: "Part III §1.3", Quote: "3. A Server MAY hide those tools from Clients that did not declare Pilotage.", Fixture: "lookalikes/good-hidden"},
				{Spec: "Part III §1.2", Quote: "A Server that: 1. exposes `pilotage_manifest`; and 2. returns a valid Pilotage manifest thereby declares Pilotage support.", Fixture: "good-audit-cargo-manifest"},
				{Spec: "Part III §1.3", Quote: "MUST NOT infer Pilotage semantics from tools with similar names.", Fixture: "good-lookalike-n01-ship-pilotage-tools"},
			},
			Check: bindingManifestToolCheck,
		},
		&lint.Rule{
			ID: "binding-guide-tool", Severity: lint.Error, Spec: "Part III §4.1",
			Quote:   "The `language` member is REQUIRED, including on a Server exposing only one Language.",
			Keyword: "REQUIRED",
			Summary: "tools/list lacks pilotage_get_guide, or its input schema deviates from Part III §4.1.",
			Doc:     "pilotage_get_guide binds the learn operation that every Language declares, so a Server exposing Pilotage MUST list it with the binding-defined schema: language, id and topic as strings, language (and nothing else) required. Clients form guide requests from that schema without reading it, so a missing member, another type or another required member breaks them; each finding names the member. topic serves only guides.topic_fetch: where no Language declares it a request carrying topic can only be refused, so leaving topic out of the schema is no deviation (without a manifest that check is skipped). Extra optional properties are tolerated because a generic Client never sends them, and stricter keywords such as additionalProperties: false are allowed because the access-tool schemas are intentionally strict (Part III §7.1).",
			Bad:     `{"name": "pilotage_get_guide", "inputSchema": {"type": "object", "properties": {"language": {"type": "string"}, "id": {"type": "integer"}}, "required": ["language", "id"]}}`,
			Good:    `{"name": "pilotage_get_guide", "inputSchema": {"type": "object", "properties": {"language": {"type": "string"}, "id": {"type": "string"}, "topic": {"type": "string"}}, "required": ["language"]}}`,
			Scope:   "pilotage_get_guide in the listing of a Server that lists Pilotage tools: present, with the Part III §4.1 schema read as a validator reads it (a local $ref, allOf and a nullable union are followed, and a member declared by several allOf parts is held to all of them; extra optional members and stricter keywords are allowed). A member, keyword or requirement that a part behind an external $ref or a conditional branch (anyOf, if) may hold is not reported missing: that check is skipped. topic may be left out when no Language of the manifest declares guides.topic_fetch (without a manifest, skipped).",
			Exceptions: []lint.Exception{
				{Spec: "Part III §1.3", Quote: "3. A Server MAY hide those tools from Clients that did not declare Pilotage.", Fixture: "lookalikes/good-hidden"},
				{Spec: "Part III §4.1", Quote: "When: - `id` is supplied; - `topic` is supplied; - `guides.topic_fetch` is declared, the response uses the same guide shape, but `body` contains only the requested topic.", Fixture: "lookalikes/good-audit-sub-features-undeclared"},
			},
			Check: bindingGuideToolCheck,
		},
		&lint.Rule{
			ID: "binding-catalog-tool", Severity: lint.Error, Spec: "Part III §4.2",
			Quote:   "A Server MUST expose it exactly when at least one Language declares `catalog`.",
			Keyword: "MUST",
			Summary: "pilotage_catalog is listed without a Language declaring catalog (or missing with one), or its input schema deviates from Part III §4.2.",
			Doc:     "A Server MUST expose pilotage_catalog exactly when at least one Language declares catalog, with the binding-defined schema: language, verb, kind, tag, q, cursor, id and catalog_version as strings, verb enumerated as list, get and changed_since, limit an integer with minimum 1, and language and verb (only) required. Each finding names the member. q serves only catalog.search and catalog_version only catalog.changed_since: where no Language declares the sub-feature, a request carrying the member can only be refused, so leaving it out of the schema is no deviation (without a manifest that check is skipped). Extra optional properties are tolerated and stricter keywords allowed, as for pilotage_get_guide. Whether the tool should exist needs the manifest; without one only its schema is checked.",
			Bad:     `{"name": "pilotage_catalog", "inputSchema": {"type": "object", "properties": {"language": {"type": "string"}, "verb": {"type": "string"}, "limit": {"type": "number"}}, "required": ["language", "verb"]}}`,
			Good:    `{"name": "pilotage_catalog", "inputSchema": {"type": "object", "properties": {"language": {"type": "string"}, "verb": {"type": "string", "enum": ["list", "get", "changed_since"]}, "limit": {"type": "integer", "minimum": 1}, "...": {}}, "required": ["language", "verb"]}}`,
			Scope:   "pilotage_catalog in the listing: present exactly when a Language of the manifest declares catalog (judged only with a manifest), with the Part III §4.2 schema read as a validator reads it (a local $ref such as Pydantic's $defs enum, allOf and nullable unions are followed; a member declared by several allOf parts is held to all of them, so the verbs it admits are those every enum admits and its least value the highest bound; an integer's exclusiveMinimum 0 is minimum 1; an enum of strings is a string type). A member, keyword or requirement that a part behind an external $ref or a conditional branch may hold is not reported missing: that check is skipped. Under a manifest of a later minor the verb enum may hold verbs beyond list, get and changed_since. q and catalog_version may be left out when no Language of the manifest declares catalog.search, respectively catalog.changed_since (without a manifest, skipped).",
			Exceptions: []lint.Exception{
				{Spec: "Part III §1.3", Quote: "3. A Server MAY hide those tools from Clients that did not declare Pilotage.", Fixture: "lookalikes/good-hidden"},
				{Spec: "Part II §11.1", Quote: "The unknown-member and unknown-value rules allow an earlier minor Client to interact safely with a later minor Server.", Fixture: "good-later-minor-verb"},
				{Spec: "Part III §4.2", Quote: "- `q`, when `catalog.search` is declared.", Fixture: "lookalikes/good-audit-sub-features-undeclared"},
				{Spec: "Part III §4.2", Quote: "- is accepted only when `catalog.changed_since` is declared.", Fixture: "lookalikes/good-audit-sub-features-undeclared"},
			},
			Check: bindingCatalogToolCheck,
		},
		&lint.Rule{
			ID: "binding-loop-tool-exists", Severity: lint.Error, Spec: "Part III §4.3",
			Quote:   "Every declared name MUST exist in `tools/list`.",
			Keyword: "MUST",
			Summary: "A loop tool named in the manifest is not in tools/list.",
			Doc:     "Every tool name a Language's loop object declares (validate, execute, trace) MUST exist in tools/list: the manifest is how an agent finds the loop, and a name that does not resolve leaves it with a Language it cannot check or run. The finding sits at the name in the manifest. The check needs both the manifest and tools/list.",
			Bad:     `"loop": {"validate": "validate_flow"}   (tools/list has no validate_flow)`,
			Good:    `"loop": {"validate": "validate_flow"}   (tools/list lists validate_flow)`,
			Scope:   "The validate, execute and trace members of every Language's loop in the authoritative manifest, against the recorded listing; judged only with both. A member a later minor adds is not a 1.1 loop member, and a listing that shows no Pilotage tool, recorded by a Client not known to declare Pilotage, is a skipped check.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §1.3", Quote: "3. A Server MAY hide those tools from Clients that did not declare Pilotage.", Fixture: "lookalikes/good-hidden"},
				{Spec: "Part II §11.1", Quote: "The unknown-member and unknown-value rules allow an earlier minor Client to interact safely with a later minor Server.", Fixture: "good-later-minor-member"},
			},
			Check: bindingLoopToolExistsCheck,
		},
		&lint.Rule{
			ID: "binding-tool-name-unique", Severity: lint.Warning, Spec: "MCP 2025-11-25 Tools, tool names; Part III §4",
			Quote:   "Tool names SHOULD be unique within a server.",
			Keyword: "SHOULD",
			Summary: "Two tools in tools/list have the same name.",
			Doc:     "Pilotage tools are addressed by name through tools/call: the manifest's loop object and the fixed access tools name exactly one tool each. When two entries share a name, Clients and hosts keep one of them unpredictably, so the schema or program declaration an agent reads may not be the one the Server serves. The finding sits at the second occurrence.",
			Bad:     `{"tools": [{"name": "run_flow", ...}, {"name": "run_flow", ...}]}`,
			Good:    `{"tools": [{"name": "run_flow", ...}, {"name": "trace_run", ...}]}`,
			Check:   bindingToolNameUniqueCheck,
		},
		&lint.Rule{
			ID: "binding-shared-loop-tool", Severity: lint.Error, Spec: "Part III §4.3; Part III §5",
			Quote:   "A tool accepting Programs from more than one Language MUST use: { \"languages\": [ { \"argument\": \"workflow\", \"language\": \"workflow/v1\" }, { \"argument\": \"query\", \"language\": \"sql/postgres-15\" } ] }",
			Keyword: "MUST",
			Summary: "A validate or execute tool shared by several Languages does not declare them all in languages[].",
			Doc:     "Two Languages MAY share one validate or execute tool only by giving each its own program-bearing argument, declared through the languages array of the Part III §5 program declaration; no other sharing mechanism is permitted. A shared tool with the single argument/language form, or whose languages array omits a Language that names the tool in its loop object, leaves Clients unable to tell which argument carries which Language's program. Duplicate arguments and the declaration's shape are reported by binding-program-declaration. A trace-fetch tool carries no program and may serve several Languages. The check needs the manifest.",
			Bad:     `"_meta": {"io.github.jafarsa0/pilotage": {"argument": "flow", "language": "buildingflow/1"}}   (loop tool of buildingflow/1 and lightflow/1)`,
			Good:    `"_meta": {"io.github.jafarsa0/pilotage": {"languages": [{"argument": "flow", "language": "buildingflow/1"}, {"argument": "scene", "language": "lightflow/1"}]}}`,
			Scope:   "Validate and execute tools that two or more Languages of the manifest name in their loop, with a program declaration object: it must use the languages array and list every such Language. Trace-fetch tools, which carry no program, may serve several Languages.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §4.3", Quote: "This rule applies to both validate and execute tools.", Fixture: "good-shared-trace"},
			},
			Check: bindingSharedLoopToolCheck,
		},
		&lint.Rule{
			ID: "binding-program-declaration", Severity: lint.Error, Spec: "Part III §5",
			Quote:   "Every MCP tool accepting a Program MUST carry a Pilotage declaration in its `tools/list` entry.",
			Keyword: "MUST",
			Summary: "A validate or execute tool lacks the program declaration, or the declaration is malformed or does not match the schema and manifest.",
			Doc:     "Every tool accepting a program MUST say under _meta[\"io.github.jafarsa0/pilotage\"] which argument carries it and in which Language: argument and language for one Language, or a languages array of {argument, language} entries with distinct arguments, which a tool accepting programs of two or more Languages MUST use and one of a single Language may (no sentence forbids a one-entry array, which some frameworks always write). It is the only way a generic Client finds the program argument, which has no fixed name. The named argument must be a property of the tool's input schema, the language a Language of the manifest, and a Language's validate or execute tool must declare that Language. Every validate and execute loop tool must carry one; a declaration on another tool that accepts a program is checked the same way. Trace-fetch tools carry none.",
			Bad:     `{"name": "validate_flow", "inputSchema": {"type": "object", "properties": {"flow": {}}}}`,
			Good:    `{"name": "validate_flow", "inputSchema": {"type": "object", "properties": {"flow": {}}}, "_meta": {"io.github.jafarsa0/pilotage": {"argument": "flow", "language": "buildingflow/1"}}}`,
			Scope:   "Every listed validate and execute loop tool (by the manifest's loop map) and every other tool carrying a declaration under the full key: the declaration's presence and shape, its argument among the inputSchema's properties (read as a validator reads them: a root $ref, allOf parts and $defs; an argument that a part behind an external $ref or a branch of anyOf, oneOf or if may declare is not reported, the check is skipped), its Language among the manifest's. A languages array must have entries, but one entry is allowed: Part III §5 requires the array for two or more Languages and forbids it for none. Trace-fetch tools and the fixed access tools take no program and need none; a declaration under a shorthand key is meta-key's error, whose fix supplies this one. Members a later minor may add to the declaration are ignored, not reported.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §5", Quote: "A tool accepting Programs from more than one Language MUST use:", Fixture: "lookalikes/good-audit-one-entry-array"},
			},
			Check: bindingProgramDeclarationCheck,
		},
	}
}

// bindingCanonical parses a binding-defined schema from pkg/types into
// nodes, so deviations can be reported member by member in the spec's
// order.
func bindingCanonical(raw json.RawMessage) *source.Node {
	f := source.Parse("pkg/types", raw, source.Options{})
	return f.Docs[0].Root
}

// fixedInputSchemas are the binding-defined input schemas of the fixed
// tools, parsed on first use rather than at package init.
type fixedInputSchemas struct {
	once                     sync.Once
	manifest, guide, catalog *source.Node
}

var bindingSchemas fixedInputSchemas

func fixedSchemas() *fixedInputSchemas {
	s := &bindingSchemas
	s.once.Do(func() {
		s.manifest = bindingCanonical(types.ManifestInputSchema)
		s.guide = bindingCanonical(types.GetGuideInputSchema)
		s.catalog = bindingCanonical(types.CatalogInputSchema)
	})
	return s
}

// bindingFixedSchema reports how tool t's input schema deviates from the
// binding-defined schema want: the type, each defined member's type, enum
// and minimum, and the required set. The schema is read as a validator
// applies it (schemacheck.Resolver): a member behind a local $ref or in an
// allOf counts, a member declared by several parts is constrained by all
// of them, and a nullable union widens a member's type only by null, which
// no Client following the binding sends. Something the schema may hold in
// a part the Resolver cannot see (an external $ref, a conditional branch)
// is never reported missing: the check is skipped instead. Extra optional
// members and extra keywords are left alone. Under a later minor version
// (later) an enum may hold values that minor added beyond the binding's
// (Part II §11.1).
func bindingFixedSchema(p *lint.Pass, t *snapshot.Tool, want *source.Node, spec string, later bool) {
	s := t.InputSchema
	if s == nil {
		p.ReportMissing(t.Node, "%s has no inputSchema; declare the %s schema", t.Name, spec)
		return
	}
	if !s.IsObject() {
		p.Report(s, "the inputSchema of %s is %s; make it the %s object schema", t.Name, s.Kind.Article(), spec)
		return
	}
	f := bindingFixed{p: p, t: t, r: schemacheck.NewResolver(s), spec: spec, later: later}
	// Where a missing member or requirement is reported: the object schema
	// a named root ({"$ref": "#/$defs/Args"}) really is.
	schema := f.r.Deref(s)
	if !schema.IsObject() {
		schema = s
	}
	f.keyword([]*source.Node{s}, s, "", "type", want.Get("type"))
	if wp := want.Get("properties"); wp != nil {
		f.properties(wp)
	}
	wantReq := map[string]bool{}
	for _, r := range want.Get("required").Items() {
		wantReq[r.Text()] = true
	}
	req := schema.Get("required")
	if req != nil && !req.IsArray() {
		p.Report(req, "required in %s's inputSchema is %s; make it an array (%s)", t.Name, req.Kind.Article(), spec)
		return
	}
	has := map[string]bool{}
	for _, r := range f.r.RequiredNames(s) {
		has[r.Text()] = true
		if !wantReq[r.Text()] {
			p.Report(r, "%s's inputSchema requires member %s, which %s leaves optional; remove it from required so that Clients following the binding can call the tool", t.Name, r.Text(), spec)
		}
	}
	for _, w := range want.Get("required").Items() {
		switch {
		case has[w.Text()]:
		case !f.r.Whole(s):
			p.Skip(f.opaque("whether it requires " + w.Text()))
		case req == nil:
			p.ReportMissing(schema, "%s's inputSchema does not require member %s; add \"required\": [%s] (%s)", t.Name, w.Text(), bindingRequiredList(want), spec)
		default:
			p.Report(req, "%s's inputSchema does not require member %s; add it to required (%s)", t.Name, w.Text(), spec)
		}
	}
}

// bindingFixed is one fixed tool's input schema being compared with its
// binding-defined schema.
type bindingFixed struct {
	p     *lint.Pass
	t     *snapshot.Tool
	r     *schemacheck.Resolver
	spec  string
	later bool
}

// subFeatureMembers are the members of a fixed tool's binding-defined
// schema that serve a sub-feature alone: topic the topic form of
// guides.topic_fetch, q the search filter of catalog.search, and
// catalog_version the baseline of catalog.changed_since (Part III §4.1,
// §4.2). Where no Language declares the sub-feature a request carrying
// the member can only be refused (§4.2: "a verb not enabled by the
// declared sub-features is a request error"), so a schema that leaves the
// member out loses no request a Client may make.
var subFeatureMembers = map[string]map[string][2]string{
	types.ToolGetGuide: {"topic": {string(types.CapGuides), types.SubTopicFetch}},
	types.ToolCatalog: {
		"q":               {string(types.CapCatalog), types.SubSearch},
		"catalog_version": {string(types.CapCatalog), types.SubChangedSince},
	},
}

// mayOmit reports whether member, missing from the schema, is one that
// serves a sub-feature no Language of the manifest (authoritative or
// inline) declares. Without a manifest that cannot be told, and the
// check is skipped rather than reported.
// When it may not, why names the Language that needs it.
func (f bindingFixed) mayOmit(member string) (omit bool, why string) {
	sf, ok := subFeatureMembers[f.t.Name][member]
	if !ok {
		return false, ""
	}
	s := f.p.Snap
	if s.Manifest == nil && s.InlineManifest == nil {
		f.p.Skip(fmt.Sprintf("member %s of %s's inputSchema against the Languages declaring %s.%s (no manifest)", member, f.t.Name, sf[0], sf[1]))
		return true, ""
	}
	for _, l := range append(slices.Clip(s.Languages), s.InlineLanguages...) {
		if l.Caps.SubFeature(sf[0], sf[1]) {
			return false, fmt.Sprintf(", which %s needs for %s.%s", l.Label(), sf[0], sf[1])
		}
	}
	return true, ""
}

// opaque names a check skipped because part of the schema lies where the
// Resolver cannot read it.
func (f bindingFixed) opaque(what string) string {
	return fmt.Sprintf("%s of %s's inputSchema (part of it is behind a $ref outside the document or applies only under a condition)", what, f.t.Name)
}

// properties reports each member the binding defines (wp) that the schema
// lacks or declares otherwise.
func (f bindingFixed) properties(wp *source.Node) {
	s, t, spec := f.t.InputSchema, f.t, f.spec
	var props *source.Node
	if ps := f.r.Keywords(s, "properties"); len(ps) > 0 {
		props = ps[0]
	}
	switch {
	case props == nil && !f.r.Whole(s):
		f.p.Skip(f.opaque("the members"))
		return
	case props == nil:
		f.p.ReportMissing(s, "the inputSchema of %s has no properties; declare %s as %s defines them", t.Name, bindingMemberList(wp), spec)
		return
	case !props.IsObject():
		f.p.Report(props, "the properties of %s's inputSchema are %s; make them an object declaring %s as %s defines them", t.Name, props.Kind.Article(), bindingMemberList(wp), spec)
		return
	}
	for _, w := range wp.Kids() {
		decls := f.r.Declarations(s, w.Key())
		if len(decls) == 0 {
			if !f.r.Whole(s) {
				f.p.Skip(f.opaque("member " + w.Key()))
				continue
			}
			omit, why := f.mayOmit(w.Key())
			if omit {
				continue
			}
			f.p.ReportMissing(props, "%s's inputSchema does not declare member %s%s; add it as %s (%s)", t.Name, w.Key(), why, bindingCompact(w), spec)
			continue
		}
		if i := slices.IndexFunc(decls, func(d *source.Node) bool { return !d.IsObject() }); i >= 0 {
			f.p.Report(decls[i], "member %s of %s's inputSchema is %s; make it %s (%s)", w.Key(), t.Name, decls[i].Kind.Article(), bindingCompact(w), spec)
			continue
		}
		for _, kw := range w.Kids() {
			f.keyword(decls, decls[0], w.Key(), kw.Key(), kw)
		}
	}
}

// keyword compares one keyword of a schema (every declaration of a member
// in decls, all of which apply, or the whole input schema when member is
// "") with the binding's value want; a missing keyword is reported at at.
func (f bindingFixed) keyword(decls []*source.Node, at *source.Node, member, kw string, want *source.Node) {
	if want == nil {
		return
	}
	where := "the inputSchema of " + f.t.Name
	if member != "" {
		where = "member " + member + " of " + f.t.Name + "'s inputSchema"
	}
	var got []*source.Node
	for _, d := range decls {
		got = append(got, f.r.Keywords(d, kw)...)
	}
	missing := func() {
		if slices.ContainsFunc(decls, func(d *source.Node) bool { return !f.r.Whole(d) }) {
			f.p.Skip(f.opaque(fmt.Sprintf("%q of %s", kw, where)))
			return
		}
		f.p.ReportMissing(at, "%s lacks \"%s\": %s; add it (%s)", where, kw, bindingCompact(want), f.spec)
	}
	var bad *source.Node
	switch kw {
	case "type":
		// The types a value may have, read from type, enum and const
		// across every part: an enum of strings is a string.
		ts, ok := f.r.TypesAll(decls)
		switch {
		case !ok:
			missing()
			return
		case !want.IsString() || schemacheck.OnlyType(ts, want.Text()):
			return
		}
		bad = f.typeAt(got, want.Text())
		if bad == nil {
			f.p.Report(at, "%s admits values of type %s where %s defines \"type\": %s; use the binding's type", where, strings.Join(ts, ", "), f.spec, bindingCompact(want))
			return
		}
	case "enum":
		if len(got) == 0 {
			missing()
			return
		}
		if bad = bindingEnumAt(f.r, decls, want, f.later); bad == nil {
			return
		}
	case "minimum":
		ts, _ := f.r.TypesAll(decls)
		bound, at2 := bindingLowerBound(f.r, decls, schemacheck.OnlyType(ts, "integer"))
		switch {
		case at2 == nil:
			missing()
			return
		case bindingSameNumber(bound, want):
			return
		case at2.Key() == "exclusiveMinimum":
			f.p.Report(at2, "%s has \"exclusiveMinimum\": %s, so its least value is %s where %s defines \"minimum\": %s; use the binding's value", where, at2.Text(), bound, f.spec, bindingCompact(want))
			return
		}
		bad = at2
	default:
		if len(got) == 0 {
			missing()
			return
		}
		if bindingSameJSON(got[0], want) {
			return
		}
		bad = got[0]
	}
	f.p.Report(bad, "%s has \"%s\": %s where %s defines %s; use the binding's value", where, kw, bindingCompact(bad), f.spec, bindingCompact(want))
}

// typeAt returns the "type" keyword among got that lets in a type other
// than want and null, or shuts want out: the one to fix.
func (f bindingFixed) typeAt(got []*source.Node, want string) *source.Node {
	for _, k := range got {
		if ts, ok := f.r.Types(k.Parent); ok && !schemacheck.OnlyType(ts, want) {
			return k
		}
	}
	return nil
}

// bindingLowerBound returns the least value the declarations of a member
// admit, as the text of a number, and the keyword that sets it; nil when
// none bounds it from below. For an integer member an exclusiveMinimum
// counts too, since "exclusiveMinimum": 0 (Pydantic's gt=0) admits exactly
// what "minimum": 1 does; several bounds (in several parts) meet at the
// highest.
func bindingLowerBound(r *schemacheck.Resolver, decls []*source.Node, integer bool) (string, *source.Node) {
	var best *big.Float
	var at *source.Node
	for _, d := range decls {
		for _, kw := range []string{"minimum", "exclusiveMinimum"} {
			if kw == "exclusiveMinimum" && !integer {
				continue
			}
			for _, k := range r.Keywords(d, kw) {
				v, ok := new(big.Float).SetString(k.Text())
				if k.Kind != source.Number || !ok {
					continue
				}
				if integer {
					v = bindingIntegerBound(v, kw == "exclusiveMinimum")
				}
				if best == nil || v.Cmp(best) > 0 {
					best, at = v, k
				}
			}
		}
	}
	if best == nil {
		return "", nil
	}
	return best.Text('g', -1), at
}

// bindingIntegerBound is the least integer a bound admits: the ceiling of
// an inclusive one, the next integer above an exclusive one.
func bindingIntegerBound(v *big.Float, exclusive bool) *big.Float {
	i, acc := v.Int(nil)
	switch {
	case exclusive && acc != big.Above:
		i.Add(i, big.NewInt(1)) // floor(v) + 1
	case !exclusive && acc == big.Below:
		i.Add(i, big.NewInt(1)) // ceil(v)
	}
	return new(big.Float).SetInt(i)
}

func bindingSameNumber(text string, want *source.Node) bool {
	a, ok1 := new(big.Float).SetString(text)
	b, ok2 := new(big.Float).SetString(want.Text())
	return ok1 && ok2 && want.Kind == source.Number && a.Cmp(b) == 0
}

// bindingEnumAt compares the values the enums of a member's declarations
// all admit (schemacheck.Resolver.EnumValues, less a null a nullable
// member adds) with the binding's as sets, and returns the enum to fix, or
// nil when they agree; under a later minor version the member may admit
// more values than the binding's (values that minor may have added).
func bindingEnumAt(r *schemacheck.Resolver, decls []*source.Node, want *source.Node, later bool) *source.Node {
	admitted, enums := r.EnumValues(decls)
	if len(enums) == 0 {
		return nil
	}
	if i := slices.IndexFunc(enums, func(e *source.Node) bool { return !e.IsArray() }); i >= 0 {
		return enums[i]
	}
	if !want.IsArray() {
		return enums[0]
	}
	admitted = slices.DeleteFunc(admitted, (*source.Node).IsNull)
	for _, k := range want.Kids() {
		same := func(v *source.Node) bool { return source.Equal(v, k) }
		if slices.ContainsFunc(admitted, same) {
			continue
		}
		// The enum that shuts the binding's value out.
		for _, e := range enums {
			if !slices.ContainsFunc(e.Kids(), same) {
				return e
			}
		}
	}
	if later || len(admitted) == len(want.Kids()) {
		return nil
	}
	return enums[0]
}

// bindingSameJSON compares a keyword value with the binding's as
// bindingDifference does (numbers by value).
func bindingSameJSON(a, b *source.Node) bool {
	at, _, _ := bindingDifference(a, b)
	return at == nil
}

// bindingCompact renders a small JSON value for a message.
func bindingCompact(n *source.Node) string {
	b, err := json.Marshal(n.Value())
	if err != nil {
		return "?"
	}
	return string(b)
}

func bindingMemberList(props *source.Node) string {
	names := make([]string, len(props.Kids()))
	for i, k := range props.Kids() {
		names[i] = k.Key()
	}
	return strings.Join(names, ", ")
}

func bindingRequiredList(schema *source.Node) string {
	var names []string
	for _, r := range schema.Get("required").Items() {
		names = append(names, r.Text())
	}
	return rulekit.QuoteList(names)
}

// hiddenSkip says why the presence of what in tools/list was not judged.
func hiddenSkip(what string) string {
	return what + " in tools/list (it lists no Pilotage tool, and a Server MAY hide them from a Client that did not declare Pilotage; record with a Client that declares it, such as pilotage-lint snapshot)"
}

func bindingManifestToolCheck(p *lint.Pass) {
	s := p.Snap
	if mr := s.ManifestResult; mr != nil && rulekit.True(mr.Get("isError")) {
		kind, _ := mr.Path("structuredContent", "error", "kind").Value().(string)
		if kind != "" {
			kind = " (kind " + kind + ")"
		}
		p.Report(mr.Get("isError"), "%s answered with an error%s instead of the manifest, so no manifest can be judged; the manifest must be retrievable before any other Pilotage interaction (Part II §5.1), so fix the failure and record the result again", types.ToolManifest, kind)
	}
	if s.ToolsArray == nil {
		return
	}
	t := s.Tool(types.ToolManifest)
	if t == nil {
		if s.ToolsMayBeHidden() {
			p.Skip(hiddenSkip(types.ToolManifest))
			return
		}
		p.ReportMissing(s.ToolsArray, "tools/list has no %s tool; expose it, with an object input schema that requires nothing, as the guaranteed way to discover Pilotage", types.ToolManifest)
		return
	}
	bindingFixedSchema(p, t, fixedSchemas().manifest, "Part III §3.1", rulekit.Of(s).LaterMinor())
}

func bindingGuideToolCheck(p *lint.Pass) {
	s := p.Snap
	if s.ToolsArray == nil {
		return
	}
	t := s.Tool(types.ToolGetGuide)
	if t == nil {
		// Without any Pilotage tool the missing pilotage_manifest says it
		// all; one finding per missing surface is enough.
		if exposed, _ := bindingExposed(s); exposed {
			p.ReportMissing(s.ToolsArray, "tools/list has no %s tool; expose it with the Part III §4.1 schema, since every Language declares guides", types.ToolGetGuide)
		}
		return
	}
	bindingFixedSchema(p, t, fixedSchemas().guide, "Part III §4.1", rulekit.Of(s).LaterMinor())
}

func bindingCatalogToolCheck(p *lint.Pass) {
	s := p.Snap
	if s.ToolsArray == nil {
		return
	}
	t := s.Tool(types.ToolCatalog)
	switch {
	case s.Manifest == nil:
		p.Skip("pilotage_catalog presence against the Languages declaring catalog (no manifest)")
	case t == nil && bindingAnyCatalog(s) && s.ToolsMayBeHidden():
		p.Skip(hiddenSkip(types.ToolCatalog))
	case t == nil && bindingAnyCatalog(s):
		p.ReportMissing(s.ToolsArray, "a Language declares catalog but tools/list has no %s tool; expose it with the Part III §4.2 schema", types.ToolCatalog)
	case t != nil && !bindingAnyCatalog(s):
		p.Report(t.Node.Get("name"), "%s is listed but no Language declares catalog; remove the tool or declare catalog on the Languages that have environment-bound names", types.ToolCatalog)
	}
	if t != nil {
		bindingFixedSchema(p, t, fixedSchemas().catalog, "Part III §4.2", rulekit.Of(s).LaterMinor())
	}
}

func bindingLoopToolExistsCheck(p *lint.Pass) {
	s := p.Snap
	if s.Manifest == nil || s.ToolsArray == nil {
		if s.Manifest != nil || s.ToolsArray != nil {
			p.Skip("loop tools named in the manifest against tools/list")
		}
		return
	}
	if s.ToolsMayBeHidden() {
		p.Skip(hiddenSkip("the loop tools"))
		return
	}
	for _, l := range s.Languages {
		loop := l.Node.Get("loop")
		for _, m := range loop.Items() {
			if !loop.IsObject() || m.Kind != source.String || m.Text() == "" {
				continue
			}
			// A member a later minor adds is not a 1.1 loop member.
			if _, ok := snapshot.LoopStage(m.Key()); !ok {
				continue
			}
			if s.Tool(m.Text()) == nil {
				p.Report(m, "the manifest names %s as the %s tool of %s but tools/list has no such tool; list it or fix the name", m.Text(), m.Key(), l.Label())
			}
		}
	}
}

func bindingToolNameUniqueCheck(p *lint.Pass) {
	first := make(map[string]*snapshot.Tool, len(p.Snap.Tools))
	for _, t := range p.Snap.Tools {
		n := t.Node.Get("name")
		if !n.IsString() {
			continue
		}
		if f := first[t.Name]; f != nil {
			p.Report(n, "a second tool is named %s (the first is at %s); give each tool a distinct name", t.Name, f.Node.Pointer())
			continue
		}
		first[t.Name] = t
	}
}

// bindingProgramLanguages returns the distinct Languages a loop tool serves
// as validate or execute tool, in manifest order.
func bindingProgramLanguages(lt *snapshot.LoopTool) []*snapshot.Language {
	seen := map[*snapshot.Language]bool{}
	var out []*snapshot.Language
	for _, st := range []types.Stage{types.StageValidate, types.StageExecute} {
		for _, l := range lt.Stages[st] {
			if !seen[l] {
				seen[l] = true
				out = append(out, l)
			}
		}
	}
	slices.SortFunc(out, func(a, b *snapshot.Language) int { return a.Index - b.Index })
	return out
}

func bindingSharedLoopToolCheck(p *lint.Pass) {
	s := p.Snap
	if s.Manifest == nil {
		if s.ToolsArray != nil {
			p.Skip("loop tools shared between Languages (no manifest)")
		}
		return
	}
	for _, lt := range s.LoopTools() {
		langs := bindingProgramLanguages(lt)
		decl := lt.Tool.ProgramDeclaration()
		if len(langs) < 2 || !decl.IsObject() {
			continue
		}
		var names []string
		for _, l := range langs {
			names = append(names, l.Label())
		}
		arr := decl.Get("languages")
		if !arr.IsArray() {
			p.With(loopMembersNaming(lt)...).Report(decl, "%s is the loop tool of %s but its program declaration does not use the languages array; declare one {argument, language} entry per Language, each with its own program argument", lt.Name, strings.Join(names, " and "))
			continue
		}
		declared := map[string]bool{}
		for _, b := range arr.Kids() {
			if v, ok := b.Str("language"); ok {
				declared[v] = true
			}
		}
		var missing []string
		for _, l := range langs {
			if l.Name != "" && !declared[l.Name] {
				missing = append(missing, l.Name)
			}
		}
		if len(missing) > 0 {
			p.With(loopMembersNaming(lt)...).Report(arr, "%s is shared by %s but its languages array has no entry for %s; add an {argument, language} entry with a distinct program argument for each", lt.Name, strings.Join(names, " and "), strings.Join(missing, ", "))
		}
	}
}

// bindingProgramStage returns the stage for which tool t, as a loop tool
// lt, accepts a program (execute before validate), or "".
func bindingProgramStage(t *snapshot.Tool, lt *snapshot.LoopTool) types.Stage {
	if t == nil || lt == nil || lt.Tool != t {
		return ""
	}
	switch {
	case lt.Serves(types.StageExecute):
		return types.StageExecute
	case lt.Serves(types.StageValidate):
		return types.StageValidate
	}
	return ""
}

// bindingUndeclaredLoopTools returns the validate and execute loop tools
// with no program declaration under the full key and no shorthand key
// (meta-key's error) either: binding-program-declaration reports each.
func bindingUndeclaredLoopTools(s *snapshot.Snapshot) []*snapshot.Tool {
	var out []*snapshot.Tool
	for _, lt := range s.LoopTools() {
		t := lt.Tool
		if bindingProgramStage(t, lt) != "" && t.ProgramDeclaration() == nil && !bindingHasShorthandKey(t.Meta) {
			out = append(out, t)
		}
	}
	return out
}

func bindingProgramDeclarationCheck(p *lint.Pass) {
	s := p.Snap
	loops := map[string]*snapshot.LoopTool{}
	for _, lt := range s.LoopTools() {
		loops[lt.Name] = lt
	}
	for _, t := range s.Tools {
		lt := loops[t.Name]
		stage := bindingProgramStage(t, lt)
		decl := t.ProgramDeclaration()
		if decl == nil {
			// Metadata under a shorthand key is meta-key's error, whose
			// fix (move it under the full key) also supplies this one.
			if stage != "" && !bindingHasShorthandKey(t.Meta) {
				at := t.Node
				if t.Meta.IsObject() {
					at = t.Meta
				}
				if legacy := bindingLegacyKey(t.Meta); legacy != nil {
					p.With(loopMembersNaming(lt)...).ReportKey(legacy, "%s is a %s loop tool whose program declaration sits under the dotted legacy key %q, which Clients do not read; move it under _meta[%q]", t.Name, stage, legacy.Key(), types.MetaKey)
					continue
				}
				p.With(loopMembersNaming(lt)...).ReportMissing(at, "%s is a %s loop tool but carries no program declaration; add _meta[%q] = {\"argument\": <program argument>, \"language\": <Language>}", t.Name, stage, types.MetaKey)
			}
			continue
		}
		// meta-value-object reports a non-object; the fixed access tools
		// take no program, so a Pilotage _meta value there is no declaration.
		if !decl.IsObject() || stage == "" && bindingFixedTool(t.Name) {
			continue
		}
		bindings := bindingDeclarationShape(p, t, decl)
		// The Language a single-Language validate or execute tool must
		// declare; a shared tool's coverage is binding-shared-loop-tool's.
		want := ""
		if stage != "" {
			if langs := bindingProgramLanguages(lt); len(langs) == 1 {
				want = langs[0].Name
			}
		}
		// Read as a validator does: a property behind allOf or $ref counts,
		// and one a part the Resolver cannot see may declare is not missing.
		schema := schemacheck.NewResolver(t.InputSchema)
		found, shapeOK := false, true
		for _, b := range bindings {
			if b.arg != nil && b.arg.IsString() && t.InputSchema.IsObject() && len(schema.Declarations(t.InputSchema, b.arg.Text())) == 0 {
				if !schema.Whole(t.InputSchema) {
					p.Skip(fmt.Sprintf("program argument %s among the members of %s's inputSchema (part of it is behind a $ref outside the document or applies only under a condition)", b.arg.Text(), t.Name))
				} else {
					p.Report(b.arg, "the program declaration of %s names argument %s, which its inputSchema does not declare; add %s to properties or name the argument that carries the program", t.Name, b.arg.Text(), b.arg.Text())
				}
			}
			if !b.lang.IsString() {
				shapeOK = false
				continue
			}
			if b.lang.Text() == want {
				found = true
			}
			if s.Manifest == nil {
				p.Skip("program declaration languages against the manifest")
				continue
			}
			// For a single-Language loop tool the mismatch below says
			// which Language to declare, which is the better fix.
			if s.Language(b.lang.Text()) == nil && (want == "" || len(bindings) > 1) {
				p.Report(b.lang, "the program declaration of %s names Language %s, which the manifest does not declare; use the name of a manifest Language", t.Name, b.lang.Text())
			}
		}
		if want != "" && !found && shapeOK && len(bindings) > 0 {
			at := decl
			if len(bindings) == 1 {
				at = bindings[0].lang
			}
			p.Report(at, "%s is the %s tool of %s in the manifest but its program declaration names another Language; declare \"language\": %q", t.Name, stage, want, want)
		}
	}
}

type bindingDecl struct{ arg, lang *source.Node }

// bindingDeclarationShape reports shape defects of a program declaration
// and returns its argument/language pairs.
func bindingDeclarationShape(p *lint.Pass, t *snapshot.Tool, decl *source.Node) []bindingDecl {
	arg, lang, arr := decl.Get("argument"), decl.Get("language"), decl.Get("languages")
	if arr != nil && (arg != nil || lang != nil) {
		p.Report(decl, "the program declaration of %s mixes argument/language with languages; use argument and language for one Language or only the languages array for several", t.Name)
	}
	if arr == nil {
		if arg == nil || lang == nil {
			p.ReportMissing(decl, "the program declaration of %s lacks %s; declare both argument (the program-bearing argument) and language (a manifest Language)", t.Name, bindingLacks(arg, lang))
		}
		bindingStringMember(p, t, arg, "argument")
		bindingStringMember(p, t, lang, "language")
		if arg == nil && lang == nil {
			return nil
		}
		return []bindingDecl{{arg, lang}}
	}
	if !arr.IsArray() {
		p.Report(arr, "languages in the program declaration of %s is %s; make it an array of {argument, language} objects", t.Name, arr.Kind.Article())
		return nil
	}
	// Part III §5 requires the array for two or more Languages and
	// forbids it for none: a framework that always writes it declares one
	// Language with a one-entry array. An empty array declares nothing.
	if len(arr.Kids()) == 0 {
		p.Report(arr, "the languages array of %s's program declaration is empty, so it names no program argument; list one {argument, language} entry for each Language the tool accepts programs in", t.Name)
	}
	var out []bindingDecl
	seen := map[string]bool{}
	for _, e := range arr.Kids() {
		if !e.IsObject() {
			p.Report(e, "an entry of %s's languages array is %s; make it an {argument, language} object", t.Name, e.Kind.Article())
			continue
		}
		a, l := e.Get("argument"), e.Get("language")
		if a == nil || l == nil {
			p.ReportMissing(e, "an entry of %s's languages array lacks %s; give every entry both argument and language", t.Name, bindingLacks(a, l))
		}
		bindingStringMember(p, t, a, "argument")
		bindingStringMember(p, t, l, "language")
		if a.IsString() {
			if seen[a.Text()] {
				p.Report(a, "argument %s appears twice in %s's languages array; give each Language its own program argument so a request's Language is unambiguous", a.Text(), t.Name)
			}
			seen[a.Text()] = true
		}
		out = append(out, bindingDecl{a, l})
	}
	return out
}

func bindingLacks(arg, lang *source.Node) string {
	switch {
	case arg == nil && lang == nil:
		return "argument and language"
	case arg == nil:
		return "argument"
	}
	return "language"
}

func bindingStringMember(p *lint.Pass, t *snapshot.Tool, n *source.Node, name string) {
	if n == nil {
		return
	}
	if !n.IsString() || n.Text() == "" {
		p.Report(n, "%s in the program declaration of %s is not a non-empty string; write the %s name as a string", name, t.Name, name)
	}
}

func bindingHasShorthandKey(meta *source.Node) bool {
	for _, k := range meta.Items() {
		if meta.IsObject() && bindingShorthandKey(k.Key()) {
			return true
		}
	}
	return false
}

// bindingLegacyKey returns the member of meta named by the dotted legacy
// identifier, or nil.
func bindingLegacyKey(meta *source.Node) *source.Node {
	for _, k := range meta.Items() {
		if meta.IsObject() && strings.ToLower(k.Key()) == types.LegacyExtensionID {
			return k
		}
	}
	return nil
}

// loopMembersNaming returns, as related locations, the manifest loop members
// that name loop tool lt, so a finding at the tool shows why it is one.
func loopMembersNaming(lt *snapshot.LoopTool) []lint.Also {
	var out []lint.Also
	seen := map[*snapshot.Language]bool{}
	for _, langs := range lt.Stages {
		for _, l := range langs {
			if seen[l] {
				continue
			}
			seen[l] = true
			for _, m := range l.Node.Get("loop").Items() {
				if m.IsString() && m.Text() == lt.Name {
					out = append(out, lint.Also{Node: m, Note: fmt.Sprintf("the manifest names %s as the %s tool of %s here", lt.Name, m.Key(), l.Label())})
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Node.Start < out[j].Node.Start })
	return out
}
