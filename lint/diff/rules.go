package diff

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/schemacheck"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// The diff rules, one variable each, so a check names the rule it reports
// and a typo is a compile error.
var (
	languageRemoved = &lint.Rule{
		ID: "diff-language-removed", Severity: lint.Error, Spec: "Part II §3.3, §5.1",
		Summary: "A Language of the old snapshot is gone, or its identifier changed.",
		Doc:     "Agents and Hosts address a Language by its identifier: guides, catalog calls and the program declaration of every loop tool name it, and clients key guide caches by it (Part II §11.2). When an identifier disappears every stored program, cached guide and configured policy for it stops working; a changed `version` part says the grammar changed incompatibly. Keep the old Language next to the new one until its users have moved. The change breaks every agent, Host policy and stored program that names the old identifier.",
		Bad:     `old: "languages": [{"name": "buildingflow/1", ...}]   new: "languages": [{"name": "buildingflow/2", ...}]`,
		Good:    `old: "languages": [{"name": "buildingflow/1", ...}]   new: "languages": [{"name": "buildingflow/1", ...}, {"name": "buildingflow/2", ...}]`,
	}
	languageAdded = &lint.Rule{
		ID: "diff-language-added", Severity: lint.Info, Spec: "Part II §5.1",
		Summary: "The new snapshot exposes a Language the old one did not.",
		Doc:     "An added Language breaks nobody: clients that do not know it ignore it. It is reported so that a reviewer sees the surface grow and checks that its guides, loop tools and capabilities are complete.",
		Bad:     `old: "languages": [{"name": "a/1"}]   new: "languages": [{"name": "a/1"}, {"name": "b/1"}]`,
		Good:    `old and new: "languages": [{"name": "a/1"}]`,
	}
	capabilityRemoved = &lint.Rule{
		ID: "diff-capability-removed", Severity: lint.Error, Spec: "Part II §4.1, §4.2",
		Summary: "A capability a Language declared in the old snapshot is no longer declared.",
		Doc:     "Clients decide what they may do from the effective capability map: an agent that validated, planned, executed or fetched traces through a Language loses that ability, and a Host whose policy relies on a plan before execution may now receive none. Comparison is on the effective map, so moving a declaration between the Server and Language levels is not a change. The change breaks the agents and Hosts that used the capability.",
		Bad:     `old: "capabilities": {"guides": true, "validate": true, "plan": true}   new: {"guides": true, "validate": true}`,
		Good:    `old and new: "capabilities": {"guides": true, "validate": true, "plan": true}`,
	}
	subfeatureRemoved = &lint.Rule{
		ID: "diff-subfeature-removed", Severity: lint.Error, Spec: "Part II §4.1, §4.2",
		Summary: "A sub-feature a Language declared in the old snapshot is no longer declared.",
		Doc:     "Sub-features such as `execute.idempotency`, `execute.test_run`, `catalog.changed_since` or `guides.topic_fetch` change how clients behave: an agent that retried executions safely with an idempotency key, or synchronised its catalog with changed_since, must now fall back. Removing one is a breaking change even when its parent capability stays.",
		Bad:     `old: "execute": {"idempotency": true}   new: "execute": true`,
		Good:    `old and new: "execute": {"idempotency": true}`,
	}
	capabilityAdded = &lint.Rule{
		ID: "diff-capability-added", Severity: lint.Info, Spec: "Part II §4.1, §4.2",
		Summary: "A Language declares a capability or sub-feature it did not declare before.",
		Doc:     "Adding a capability or a sub-feature is compatible and breaks no client: clients that do not use it are unaffected. It is reported so that a reviewer checks the obligations it brings (loop tools, manifest members, guide content).",
		Bad:     `old: "capabilities": {"guides": true, "validate": true}   new: {"guides": true, "validate": true, "plan": true}`,
		Good:    `old and new: "capabilities": {"guides": true, "validate": true}`,
	}
	loopToolRenamed = &lint.Rule{
		ID: "diff-loop-tool-renamed", Severity: lint.Error, Spec: "Part III §4.3",
		Summary: "A Language's validate, execute or trace loop tool has a new name.",
		Doc:     "Loop tool names are Server-selected, but agents and Host policies are configured with them (allow-lists, approval rules, recorded prompts). Renaming the tool of a stage that still exists breaks those silently: the old name draws an unknown-tool error. Keep the old name, or expose both for a transition.",
		Bad:     `old: "loop": {"validate": "validate_flow"}   new: "loop": {"validate": "check_flow"}`,
		Good:    `old and new: "loop": {"validate": "validate_flow"}`,
	}
	loopToolRemoved = &lint.Rule{
		ID: "diff-loop-tool-removed", Severity: lint.Error, Spec: "Part III §4.3",
		Summary: "A loop tool of the old snapshot is gone while its stage is still declared.",
		Doc:     "When a Language still declares a capability but its loop member is gone, or the tool it names has left tools/list, clients that called the tool get an unknown-tool error. (When the capability itself is removed, diff-capability-removed reports it instead.) The change breaks every client that calls the tool.",
		Bad:     `old tools/list: [{"name": "run_flow"}, ...]   new tools/list: [...] (run_flow missing, loop.execute still "run_flow")`,
		Good:    `old and new tools/list: [{"name": "run_flow"}, ...]`,
	}
	programArgumentRenamed = &lint.Rule{
		ID: "diff-program-argument-renamed", Severity: lint.Error, Spec: "Part III §5",
		Summary: "The argument that carries a Language's program in a loop tool has a new name.",
		Doc:     "The program declaration `_meta[\"io.github.jafarsa0/pilotage\"].argument` tells clients where to put the program. Generic clients read it each time, but recorded calls, tests, Host policies and agents prompted with examples put the program under the old name and now send a request the tool rejects or misreads. The change breaks every caller that puts the program under the old name.",
		Bad:     `old: {"argument": "flow", "language": "buildingflow/1"}   new: {"argument": "program", "language": "buildingflow/1"}`,
		Good:    `old and new: {"argument": "flow", "language": "buildingflow/1"}`,
	}
	reservedArgumentRemoved = &lint.Rule{
		ID: "diff-reserved-argument-removed", Severity: lint.Error, Spec: "Part III §4.4",
		Summary: "A loop tool no longer declares a reserved argument it declared before.",
		Doc:     "Reserved members such as `input`, `context`, `trace_level`, `expected_catalog_version`, `idempotency_key`, `store` or `run_id` carry Part II request members. A client that sent one (drift protection with expected_catalog_version, idempotent retries, stored runs) now sends a member the tool's schema no longer admits, or relies on a guarantee that is gone. The change breaks the clients that send the member. Both schemas are read as a validator applies them (allOf parts, a root $ref into $defs); a new schema that declares no member at all, or has a part behind an external $ref or a conditional branch that may declare it, is not judged.",
		Bad:     `old: "properties": {"flow": {}, "expected_catalog_version": {"type": "string"}}   new: "properties": {"flow": {}}`,
		Good:    `old and new: "properties": {"flow": {}, "expected_catalog_version": {"type": "string"}}`,
	}
	requiredArgumentAdded = &lint.Rule{
		ID: "diff-required-argument-added", Severity: lint.Error, Spec: "Part III §4, §4.6",
		Summary: "A tool requires an argument the old snapshot did not require.",
		Doc:     "Every existing caller omits a newly required argument, so every existing call now fails schema validation with a carrier error. Keeping new arguments optional keeps existing callers working. The change breaks every existing caller. Both schemas are read as a validator applies them: a member required in an allOf part (zod's .and()) or behind a root $ref (Pydantic's recursive model under $defs) is required. A tool whose old schema has a part behind an external $ref or a conditional branch (anyOf, if), which may have required the member already, is not judged.",
		Bad:     `old: "required": ["language"]   new: "required": ["language", "verb"]`,
		Good:    `old and new: "required": ["language"]`,
	}
	executionWeakened = &lint.Rule{
		ID: "diff-execution-weakened", Severity: lint.Error, Spec: "Part II §5.1, §6.5.7",
		Summary: "A Language's execution mode offers less than before.",
		Doc:     "The modes a Language offers are ordered by inclusion: `both` offers `immediate` and `deploy`; `immediate` and `deploy` offer one each and neither includes the other. A change that drops a mode the old snapshot offered (both to immediate or deploy, immediate to deploy, deploy to immediate, or the member gone while execute stays) breaks clients that ran programs that way.",
		Bad:     `old: "execution": "both"   new: "execution": "immediate"`,
		Good:    `old: "execution": "immediate"   new: "execution": "both"`,
	}
	traceWeakened = &lint.Rule{
		ID: "diff-trace-weakened", Severity: lint.Error, Spec: "Part II §5.1, §5.8.1",
		Summary: "A Language's trace ceiling is lower than before.",
		Doc:     "Trace levels are ordered none < summary < full. Lowering the declared ceiling from `full` to `summary` removes step inputs and complete outputs from every trace, which Hosts that verify runs or audit them relied on. The change breaks the Hosts that verify or audit runs with the lost detail.",
		Bad:     `old: "trace": "full"   new: "trace": "summary"`,
		Good:    `old: "trace": "summary"   new: "trace": "full"`,
	}
	retentionWeakened = &lint.Rule{
		ID: "diff-retention-weakened", Severity: lint.Error, Spec: "Part II §5.1, §6.6",
		Summary: "A Language retains runs for less time than before.",
		Doc:     "Retention is ordered: an ISO 8601 duration > `session` > `none`, and a longer duration > a shorter one. Durations are compared by their approximate length with 365-day years and 30-day months (pkg/types Duration.Approx), so P1M and P30D are equal and neither weakens the other. Shorter retention makes trace fetches of runs the old policy kept fail with not_found. The change breaks the clients that fetch traces of runs the old policy kept.",
		Bad:     `old: "retention": "P7D"   new: "retention": "session"`,
		Good:    `old: "retention": "session"   new: "retention": "P7D"`,
	}
	versionMajorChanged = &lint.Rule{
		ID: "diff-version-major-changed", Severity: lint.Error, Spec: "Part II §11.1",
		Summary: "The manifest's Pilotage major version changed.",
		Doc:     "Minor versions are strictly additive, but a new major version may change anything, and a client implementing the old major must not use the Server (Part II §11.1). Every existing client stops working. The change breaks every existing client.",
		Bad:     `old: "pilotage": "1.1"   new: "pilotage": "2.0"`,
		Good:    `old: "pilotage": "1.0"   new: "pilotage": "1.1"`,
	}
	manifestRemoved = &lint.Rule{
		ID: "diff-manifest-removed", Severity: lint.Error, Spec: "Part III §3.1",
		Summary: "The old input carries a Pilotage manifest and the new snapshot or capture, which would record one, carries none.",
		Doc:     "Agents discover every Language, capability and loop tool through the pilotage_manifest result. When a new snapshot or capture records no manifest (the tool is gone, or its call now fails), every Language of the old one disappears at once, and without this rule the Language checks would have nothing to compare and stay silent. The rule applies when the new input is a snapshot, a capture or a pilotage_manifest result, the forms that record the call; a tools/list or initialize result alone never carries the manifest result and is not judged. The change breaks every agent that discovers the surface through pilotage_manifest.",
		Bad:     `old snapshot: {"manifest": {"pilotage": "1.1", "languages": [...]}, "tools": {...}}   new snapshot: {"tools": {...}}`,
		Good:    `old and new snapshot: {"manifest": {"pilotage": "1.1", "languages": [...]}, "tools": {...}}`,
	}
	toolRemoved = &lint.Rule{
		ID: "diff-tool-removed", Severity: lint.Error, Spec: "Part III §4",
		Summary: "A tool of the old tools/list is gone from the new one.",
		Doc:     "Agents, Host policies and recorded prompts call tools by name; a tool that leaves tools/list makes each such call an unknown-tool error. Losing a fixed tool (pilotage_manifest, pilotage_get_guide, pilotage_catalog) also takes away what clients discover the surface through, and a new listing with no tools at all breaks every caller. The rule compares tool lists only when both inputs carry one, and leaves a loop tool the old manifest names to diff-loop-tool-removed and diff-loop-tool-renamed. Keep the tool, or keep the old name next to the new one until its callers have moved.",
		Bad:     `old tools/list: [{"name": "pilotage_manifest"}, {"name": "list_devices"}]   new: [{"name": "pilotage_manifest"}]`,
		Good:    `old and new tools/list: [{"name": "pilotage_manifest"}, {"name": "list_devices"}]`,
	}
	toolAdded = &lint.Rule{
		ID: "diff-tool-added", Severity: lint.Info, Spec: "Part III §4",
		Summary: "tools/list has a tool the old snapshot did not.",
		Doc:     "A new tool breaks no client. It is reported so that a reviewer sees the surface grow, and checks that a new Pilotage tool is named in the manifest and described for cold start.",
		Bad:     `old tools/list: [{"name": "pilotage_manifest"}]   new: [{"name": "pilotage_manifest"}, {"name": "pilotage_catalog"}]`,
		Good:    `old and new tools/list: [{"name": "pilotage_manifest"}]`,
	}
)

// checks pairs each check with the rules it reports, in the order they run.
var checks = []struct {
	check func(*comparison)
	rules []*lint.Rule
}{
	{checkLanguages, []*lint.Rule{languageRemoved, languageAdded}},
	{checkCapabilities, []*lint.Rule{capabilityRemoved, subfeatureRemoved, capabilityAdded}},
	{checkLoopTools, []*lint.Rule{loopToolRenamed, loopToolRemoved}},
	{checkToolArguments, []*lint.Rule{programArgumentRenamed, reservedArgumentRemoved, requiredArgumentAdded}},
	{checkLanguageMembers, []*lint.Rule{executionWeakened, traceWeakened, retentionWeakened, versionMajorChanged}},
	{checkToolsAdded, []*lint.Rule{toolAdded}},
	{checkToolsRemoved, []*lint.Rule{toolRemoved}},
	{checkManifestRemoved, []*lint.Rule{manifestRemoved}},
	{checkCatalogVersionContent, []*lint.Rule{catalogVersionContent}},
	{checkGuideVersionContent, []*lint.Rule{guideVersionContent}},
}

// langPair is one Language present under the same identifier in both
// snapshots.
type langPair struct{ old, new *snapshot.Language }

func (c *comparison) pairs() []langPair {
	var out []langPair
	for _, o := range c.old.Languages {
		if o.Name == "" {
			continue
		}
		if n := c.new.Language(o.Name); n != nil {
			out = append(out, langPair{o, n})
		}
	}
	return out
}

// renamedTo guesses which NEW Language an OLD one became when its
// identifier is gone: a new identifier of the same family, or the one at
// the same position with the same title.
func (c *comparison) renamedTo(o *snapshot.Language) *snapshot.Language {
	oid, _ := types.ParseLanguageID(o.Name)
	var candidates []*snapshot.Language
	for _, n := range c.new.Languages {
		if n.Name == "" || c.old.Language(n.Name) != nil {
			continue
		}
		candidates = append(candidates, n)
	}
	for _, n := range candidates {
		if nid, err := types.ParseLanguageID(n.Name); err == nil && oid.Family != "" && nid.Family == oid.Family {
			return n
		}
	}
	ot, _ := o.Node.Str("title")
	for _, n := range candidates {
		if nt, _ := n.Node.Str("title"); n.Index == o.Index && ot != "" && nt == ot {
			return n
		}
	}
	return nil
}

func checkLanguages(c *comparison) {
	if c.old.Manifest == nil && !c.fresh || c.new.Manifest == nil && !c.gone {
		return
	}
	renamed := map[*snapshot.Language]bool{}
	for _, o := range c.old.Languages {
		if o.Name == "" || c.new.Language(o.Name) != nil {
			continue
		}
		if n := c.renamedTo(o); n != nil {
			renamed[n] = true
			c.report(languageRemoved, n.Node.Get("name"), "Language %q is now named %q; clients and stored programs that name %q break, so keep the old Language alongside the new one", o.Name, n.Name, o.Name)
			continue
		}
		c.report(languageRemoved, o.Node.Get("name"), "Language %q is gone from the new manifest; clients that use it break, so keep it until its users have moved", o.Name)
	}
	for _, n := range c.new.Languages {
		if n.Name == "" || renamed[n] || c.old.Language(n.Name) != nil {
			continue
		}
		c.report(languageAdded, n.Node.Get("name"), "Language %q is new; check that its guides, loop tools and capabilities are complete", n.Name)
	}
}

// capNames lists the capability identifiers to compare: the spec's, then
// any other the old declarations name, in order.
func capNames(l *snapshot.Language) []string {
	var out []string
	for _, c := range types.Capabilities {
		out = append(out, string(c))
	}
	for _, decl := range []*source.Node{l.Caps.Lang, l.Caps.Server} {
		if decl == nil {
			continue
		}
		for _, k := range decl.Kids() {
			if !slices.Contains(out, k.Key()) {
				out = append(out, k.Key())
			}
		}
	}
	return out
}

// subNames lists the sub-features to compare for capability cp: the
// spec's and any the declarations of either snapshot set to true.
func subNames(cp string, ls ...*snapshot.Language) []string {
	out := append([]string(nil), types.SubFeatures[types.CapabilityName(cp)]...)
	for _, l := range ls {
		d := l.Caps.Decl(cp)
		if !d.IsObject() {
			continue
		}
		for _, k := range d.Kids() {
			if !slices.Contains(out, k.Key()) {
				out = append(out, k.Key())
			}
		}
	}
	return out
}

// where returns the node to report a capability change at: the NEW
// governing value when there is one, else the OLD one.
func where(o, n *snapshot.Language, cp string) *source.Node {
	if d := n.Caps.Decl(cp); d != nil {
		return d
	}
	if d := o.Caps.Decl(cp); d != nil {
		return d
	}
	return n.Node.Get("name")
}

func checkCapabilities(c *comparison) {
	for _, p := range c.pairs() {
		for _, cp := range capNames(p.old) {
			od, nd := p.old.Caps.Declared(cp), p.new.Caps.Declared(cp)
			switch {
			case od && !nd:
				c.report(capabilityRemoved, where(p.old, p.new, cp), "Language %q no longer declares %q; clients that relied on it break, so keep declaring it or publish a new Language", p.new.Name, cp)
				continue
			case !od && nd:
				c.report(capabilityAdded, where(p.old, p.new, cp), "Language %q now declares %q", p.new.Name, cp)
			}
			if !nd {
				continue
			}
			for _, sub := range subNames(cp, p.old, p.new) {
				os, ns := p.old.Caps.SubFeature(cp, sub), p.new.Caps.SubFeature(cp, sub)
				at := p.new.Caps.Decl(cp)
				if v := at.Get(sub); v != nil {
					at = v
				}
				switch {
				case od && os && !ns:
					c.report(subfeatureRemoved, at, "Language %q no longer declares %s; clients that relied on it break, so keep declaring it", p.new.Name, member(cp, sub))
				case !os && ns:
					c.report(capabilityAdded, at, "Language %q now declares %s", p.new.Name, member(cp, sub))
				}
			}
		}
	}
}

// member names a sub-feature as the spec writes it, execute.test_run, and
// quotes a name that is not a plain word: a newline or quote in a
// hand-edited snapshot must not break the one-line message.
func member(capability, sub string) string {
	name := capability + "." + sub
	plain := func(r rune) bool {
		return r == '_' || r == '.' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	if name == "." || strings.IndexFunc(name, func(r rune) bool { return !plain(r) }) >= 0 {
		return strconv.Quote(name)
	}
	return name
}

// loopPair is one loop stage of one Language, with its tool in each
// snapshot (a tool is nil when tools/list lacks it).
type loopPair struct {
	lang             string
	stage            types.Stage
	oldName, newName string
	oldTool, newTool *snapshot.Tool
}

// loopPairs pairs the loop members of each Language both snapshots keep; a
// stage's name is its loop member's (Part III §4.3), so types.Stages is the
// one list of them.
func (c *comparison) loopPairs() []loopPair {
	var out []loopPair
	for _, p := range c.pairs() {
		ol, nl := p.old.Node.Get("loop"), p.new.Node.Get("loop")
		for _, st := range types.Stages {
			on, _ := ol.Str(string(st))
			nn, _ := nl.Str(string(st))
			if on == "" || nn == "" {
				continue
			}
			out = append(out, loopPair{p.new.Name, st, on, nn, c.old.Tool(on), c.new.Tool(nn)})
		}
	}
	return out
}

func checkLoopTools(c *comparison) {
	for _, p := range c.pairs() {
		ol, nl := p.old.Node.Get("loop"), p.new.Node.Get("loop")
		for _, st := range types.Stages {
			on, _ := ol.Str(string(st))
			nn, _ := nl.Str(string(st))
			switch {
			case on == "":
			case nn == "":
				if p.new.Caps.Declared(string(st.Capability())) {
					c.report(loopToolRemoved, ol.Get(string(st)), "Language %q no longer names a %s tool although it still declares %s; clients calling %q break", p.new.Name, string(st), st.Capability(), on)
				}
			case on != nn:
				c.report(loopToolRenamed, nl.Get(string(st)), "the %s tool of Language %q was %q and is now %q; clients and Host policies configured with %q break, so keep the old name", string(st), p.new.Name, on, nn, on)
			case c.old.Tool(on) != nil && c.new.Tool(nn) == nil && c.new.ToolsArray != nil:
				c.report(loopToolRemoved, c.old.Tool(on).Node.Get("name"), "tool %q, the %s tool of Language %q, is gone from tools/list; clients calling it break", on, string(st), p.new.Name)
			}
		}
	}
}

// programArgument returns the node naming the argument that carries
// Language lang's programs in tool t.
func programArgument(t *snapshot.Tool, lang string) *source.Node {
	d := t.ProgramDeclaration()
	if l, _ := d.Str("language"); l == lang {
		return d.Get("argument")
	}
	langs := d.Get("languages")
	if !langs.IsArray() {
		return nil
	}
	for _, e := range langs.Kids() {
		if l, _ := e.Str("language"); l == lang {
			return e.Get("argument")
		}
	}
	return nil
}

// args reads a tool's inputSchema as a validator applies it
// (schemacheck.Resolver): a named root (Pydantic's recursive model, a
// $ref into $defs) and allOf parts (zod's .and()) declare and require
// members too.
type args struct {
	r    *schemacheck.Resolver
	root *source.Node
	// props are the "properties" values of every part, read once: a
	// loop tool is asked for each reserved argument.
	props []*source.Node
}

func argsOf(t *snapshot.Tool) args {
	return args{r: schemacheck.NewResolver(t.InputSchema), root: t.InputSchema}
}

// withProps returns a with its declared members read.
func (a args) withProps() args {
	a.props = a.r.Keywords(a.root, "properties")
	return a
}

// required returns the entries naming each required member, each once.
func (a args) required() []*source.Node { return a.r.RequiredNames(a.root) }

// declared returns the first declaration of member name, or nil (after
// withProps).
func (a args) declared(name string) *source.Node {
	for _, p := range a.props {
		if m := p.Get(name); p.IsObject() && m != nil {
			return m
		}
	}
	return nil
}

// declares reports whether the schema declares any member at all (after
// withProps).
func (a args) declares() bool { return len(a.props) > 0 && a.props[0].IsObject() }

// whole reports whether what the schema declares and requires can all be
// read: no part behind an external $ref, none applying only under a
// condition. What such a part may hold is never taken as absent.
func (a args) whole() bool { return a.r.Whole(a.root) }

func checkToolArguments(c *comparison) {
	type toolPair struct{ old, new *snapshot.Tool }
	var tools []toolPair
	seen := map[[2]string]bool{}
	add := func(o, n *snapshot.Tool) {
		if o == nil || n == nil || seen[[2]string{o.Name, n.Name}] {
			return
		}
		seen[[2]string{o.Name, n.Name}] = true
		tools = append(tools, toolPair{o, n})
	}
	for _, name := range types.FixedTools {
		add(c.old.Tool(name), c.new.Tool(name))
	}
	for _, lp := range c.loopPairs() {
		add(lp.oldTool, lp.newTool)
		if lp.oldTool == nil || lp.newTool == nil {
			continue
		}
		if lp.stage != types.StageTraceFetch {
			oa, na := programArgument(lp.oldTool, lp.lang), programArgument(lp.newTool, lp.lang)
			if oa.IsString() && na.IsString() && oa.Text() != na.Text() {
				c.report(programArgumentRenamed, na, "tool %q now takes %s programs in argument %q instead of %q; callers that send %q break, so keep the old argument name", lp.newName, lp.lang, na.Text(), oa.Text(), oa.Text())
			}
		}
		oa, na := argsOf(lp.oldTool).withProps(), argsOf(lp.newTool).withProps()
		if !na.declares() || !na.whole() {
			continue
		}
		for _, ra := range types.ReservedArgs {
			if !ra.ReservedOn(lp.stage) {
				continue
			}
			if op := oa.declared(ra.Name); op != nil && na.declared(ra.Name) == nil {
				c.reportKey(reservedArgumentRemoved, op, "tool %q no longer declares reserved argument %q; clients that send it break, so keep it in the input schema", lp.newName, ra.Name)
			}
		}
	}
	// Any other tool kept under its name breaks its callers the same way.
	for _, t := range c.new.Tools {
		add(c.old.Tool(t.Name), t)
	}
	for _, tp := range tools {
		// What an old part outside the document or a conditional branch
		// required cannot be told, so nothing is newly required against it.
		old := argsOf(tp.old)
		if !old.whole() {
			continue
		}
		var was []string
		for _, r := range old.required() {
			was = append(was, r.Text())
		}
		for _, r := range argsOf(tp.new).required() {
			if !slices.Contains(was, r.Text()) {
				c.report(requiredArgumentAdded, r, "tool %q now requires %q; every existing call omits it and fails, so make it optional", tp.new.Name, r.Text())
			}
		}
	}
}

// modes returns the execution modes an "execution" value offers.
func modes(v string) []string {
	switch types.ExecutionMode(v) {
	case types.ExecutionBoth:
		return []string{string(types.ExecutionImmediate), string(types.ExecutionDeploy)}
	case types.ExecutionImmediate, types.ExecutionDeploy:
		return []string{v}
	}
	return nil
}

// retentionRank orders retention values: none < session < any duration,
// and durations by approximate length. ok is false for a malformed value,
// which is not compared.
func retentionRank(v string) (kind int, length float64, ok bool) {
	p, err := types.ParseRetention(v)
	if err != nil {
		return 0, 0, false
	}
	switch p.Kind {
	case types.RetentionKindNone:
		return 0, 0, true
	case types.RetentionKindSession:
		return 1, 0, true
	}
	return 2, float64(p.Duration.Approx()), true
}

func checkLanguageMembers(c *comparison) {
	if ov, _ := c.old.Manifest.Str("pilotage"); ov != "" {
		nv, _ := c.new.Manifest.Str("pilotage")
		nn := c.new.Manifest.Get("pilotage")
		a, err1 := types.ParseVersion(ov)
		b, err2 := types.ParseVersion(nv)
		if err1 == nil && err2 == nil && a.Major != b.Major {
			c.report(versionMajorChanged, nn, "the Pilotage version changed from %s to %s, a new major version; clients implementing %d.x must not use this Server, so keep major %d or serve the new version separately", a, b, a.Major, a.Major)
		}
	}
	for _, p := range c.pairs() {
		if !p.new.Caps.Declared(string(types.CapExecute)) || !p.old.Caps.Declared(string(types.CapExecute)) {
			continue
		}
		member := func(l *snapshot.Language, k string) (*source.Node, string) {
			n := l.Node.Get(k)
			if n == nil {
				return nil, ""
			}
			return n, n.Text()
		}
		at := func(n *source.Node, o *snapshot.Language, k string) *source.Node {
			if n != nil {
				return n
			}
			return o.Node.Get(k)
		}
		// execution: the old modes must all still be offered.
		on, ov := member(p.old, "execution")
		nn, nv := member(p.new, "execution")
		if om := modes(ov); on.IsString() && len(om) > 0 && (nn == nil || nn.IsString()) {
			nm := modes(nv)
			for _, m := range om {
				if !slices.Contains(nm, m) {
					c.report(executionWeakened, at(nn, p.old, "execution"), "Language %q no longer offers %s execution (execution was %q, now %s); clients that ran programs that way break", p.new.Name, m, ov, shown(nn))
					break
				}
			}
		}
		// trace: the ceiling must not go down.
		on, ov = member(p.old, "trace")
		nn, nv = member(p.new, "trace")
		if on.IsString() && types.TraceLevel(ov).IsKnown() && (nn == nil || nn.IsString()) {
			if nr := types.TraceLevel(nv).Rank(); nn == nil || (nr >= 0 && nr < types.TraceLevel(ov).Rank()) {
				c.report(traceWeakened, at(nn, p.old, "trace"), "Language %q lowered its trace ceiling from %q to %s; clients that verify or audit runs lose detail they relied on", p.new.Name, ov, shown(nn))
			}
		}
		// retention: none < session < duration, durations by length.
		on, ov = member(p.old, "retention")
		nn, nv = member(p.new, "retention")
		ok1, ol, okO := retentionRank(ov)
		nk, nlen, okN := retentionRank(nv)
		if on.IsString() && okO && (nn == nil || (nn.IsString() && okN)) {
			if nn == nil || nk < ok1 || (nk == ok1 && nk == 2 && nlen < ol) {
				c.report(retentionWeakened, at(nn, p.old, "retention"), "Language %q retains runs for less than before (retention was %q, now %s); trace fetches of runs the old policy kept now fail", p.new.Name, ov, shown(nn))
			}
		}
	}
}

func checkToolsAdded(c *comparison) {
	if c.old.ToolsArray == nil && !c.fresh || c.new.ToolsArray == nil {
		return
	}
	for _, t := range c.new.Tools {
		if t.Name != "" && c.old.Tool(t.Name) == nil {
			c.report(toolAdded, t.Node.Get("name"), "tool %q is new", t.Name)
		}
	}
}

// shown quotes a NEW member's value for a message, or says it is gone.
func shown(n *source.Node) string {
	if n == nil {
		return "absent"
	}
	return strconv.Quote(n.Text())
}

// checkToolsRemoved reports each tool of OLD's list that NEW's list lacks,
// except the loop tools the old manifest names for a Language NEW keeps:
// checkLoopTools explains those with their stage.
func checkToolsRemoved(c *comparison) {
	if c.old.ToolsArray == nil || c.new.ToolsArray == nil && !c.gone {
		return
	}
	loop := map[string]bool{}
	for _, p := range c.pairs() {
		l := p.old.Node.Get("loop")
		for _, st := range types.Stages {
			if name, _ := l.Str(string(st)); name != "" {
				loop[name] = true
			}
		}
	}
	for _, t := range c.old.Tools {
		if t.Name == "" || loop[t.Name] || c.new.Tool(t.Name) != nil {
			continue
		}
		if slices.Contains(types.FixedTools, t.Name) {
			c.report(toolRemoved, t.Node.Get("name"), "fixed tool %q is gone from tools/list; agents that discover or use the Pilotage surface through it break, so keep serving it", t.Name)
			continue
		}
		c.report(toolRemoved, t.Node.Get("name"), "tool %q is gone from tools/list; agents and Host policies that call it break, so keep it or keep its old name beside the new one", t.Name)
	}
}

// checkManifestRemoved reports a new snapshot, capture or pilotage_manifest
// result without a manifest when the old input had one: the Language
// checks compare manifests and would otherwise say nothing.
func checkManifestRemoved(c *comparison) {
	if c.old.Manifest == nil || c.new.Manifest != nil {
		return
	}
	switch c.new.Kind {
	case snapshot.KindSnapshot, snapshot.KindCapture, snapshot.KindJSONRPC, snapshot.KindCallResult:
	default:
		return
	}
	at := c.new.ManifestResult
	if at == nil && len(c.new.Files) > 0 && len(c.new.Files[0].Docs) > 0 {
		at = c.new.Files[0].Docs[0].Root
	}
	c.report(manifestRemoved, at, "the new input records no Pilotage manifest although the old one declared %d %s; agents that discover the surface through pilotage_manifest break, so serve it again", len(c.old.Languages), lint.Plural(len(c.old.Languages), "Language"))
}
