package rules

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// The cold-start signposts (Part III §3.4) constrain what a description
// communicates, never its wording, so each duty is a set of accepted
// phrases matched case-insensitively as whole words. The lists are the
// rules' documentation: they are printed in each rule's Doc.
var (
	signpostPilotage = []string{"pilotage", types.ExtensionID}
	signpostFirst    = []string{"first", "start", "starts", "start here", "starting point", "begin", "begin here", "beginning", "entry point", "entrypoint", "before anything else", "before any other", "before using"}
	signpostLearn    = []string{"learn", "learning", "guide", "guides", "guidance", "documentation", "docs", "tutorial", "tutorials", "teach", "teaches", "teaching", "manual", "how-to"}
	signpostLookup   = []string{"lookup", "look up", "looks up", "looking up", "search", "searches", "catalog", "catalogue", "catalogs", "inventory", "directory"}
	signpostValidate = []string{"validate", "validates", "validation", "validator", "check", "checks", "checking", "checker", "verify", "verifies", "verification", "lint", "lints", "linting"}
	signpostExecute  = []string{"execute", "executes", "execution", "run", "runs", "running", "deploy", "deploys", "deployment", "invoke", "invokes", "invocation"}
	signpostFetch    = []string{"fetch", "fetches", "fetching", "inspect", "inspects", "inspection", "retrieve", "retrieves", "retrieval", "get", "gets", "read", "reads", "replay", "replays", "look up", "looks up", "explain", "explains"}
	signpostTrace    = []string{"trace", "traces", "run record", "run records", "execution record", "execution records", "run history", "run log", "run logs", "past run", "earlier run", "previous run", "stored run"}

	rePilotage = signpostRE(signpostPilotage...)
	reFirst    = signpostRE(signpostFirst...)
	reManifest = signpostRE(types.ToolManifest)
	reLearn    = signpostRE(signpostLearn...)
	reLookup   = signpostRE(signpostLookup...)
	reValidate = signpostRE(signpostValidate...)
	reExecute  = signpostRE(signpostExecute...)
	reFetch    = signpostRE(signpostFetch...)
	reTrace    = signpostRE(signpostTrace...)
)

const signpostMatching = " Matching is case-insensitive and by whole words (a space inside a phrase also matches a hyphen)."

func init() {
	register(
		&lint.Rule{
			ID: "signpost-welcome", Severity: lint.Error, Spec: "Part III §3.4",
			Summary: "The initialize instructions (or the server/discover description) do not name Pilotage and send the agent to pilotage_manifest first.",
			Doc:     "Whenever Pilotage tools are exposed, the initialize result's instructions MUST name Pilotage and direct the agent to call pilotage_manifest first, so an agent arriving with nothing knows where the loop starts. On the stateless revision 2026-07-28 the same duty applies to the server description text of the server/discover result (instructions, description or serverInfo.description) when one exists; when none exists the entry-point description carries the duty alone and this rule is silent. Exposure is read from tools/list; without it a conforming text passes and a missing or non-conforming one is listed as a skipped cross-check, since a Server may hide its Pilotage tools from some Clients. Accepted words naming Pilotage: " + quoteList(signpostPilotage) + "; the text must contain pilotage_manifest and one of " + quoteList(signpostFirst) + "." + signpostMatching + " Missing instructions are a finding of this rule.",
			Bad:     `{"instructions": "Building automation server."}`,
			Good:    `{"instructions": "This server speaks Pilotage. Call pilotage_manifest first."}`,
			Check:   bindingWelcomeCheck,
		},
		&lint.Rule{
			ID: "signpost-entry-point", Severity: lint.Error, Spec: "Part III §3.4",
			Summary: "The pilotage_manifest description does not mark it as the starting point.",
			Doc:     "The pilotage_manifest description MUST identify the tool as the starting point, enough for an agent reading tools/list alone to conclude: call this first. It is the load-bearing signpost, because every host shows tool descriptions while not all show instructions. Accepted words: " + quoteList(signpostFirst) + "." + signpostMatching + " A missing or empty description is a finding of this rule.",
			Bad:     `{"name": "pilotage_manifest", "description": "Returns the manifest."}`,
			Good:    `{"name": "pilotage_manifest", "description": "Start here: returns the Pilotage manifest."}`,
			Check:   bindingEntryPointCheck,
		},
		&lint.Rule{
			ID: "signpost-guide-stage", Severity: lint.Error, Spec: "Part III §3.4",
			Summary: "The pilotage_get_guide description does not say it serves the learn stage.",
			Doc:     "The pilotage_get_guide description MUST state that the tool serves the learn stage, the guides, so that an uninstructed agent knows where to learn a Language before writing a program. Accepted words: " + quoteList(signpostLearn) + "." + signpostMatching + " A missing or empty description is a finding of this rule.",
			Bad:     `{"name": "pilotage_get_guide", "description": "Returns text for a language."}`,
			Good:    `{"name": "pilotage_get_guide", "description": "Learn a Language: returns its guides."}`,
			Check:   bindingGuideStageCheck,
		},
		&lint.Rule{
			ID: "signpost-catalog-stage", Severity: lint.Error, Spec: "Part III §3.4",
			Summary: "The pilotage_catalog description does not say it serves the lookup stage.",
			Doc:     "When any Language declares catalog, the pilotage_catalog description MUST state that the tool serves the lookup stage, the catalog, so an agent knows where to find the environment-bound names a program may use. Without a manifest the rule checks pilotage_catalog whenever it is listed. Accepted words: " + quoteList(signpostLookup) + "." + signpostMatching + " A missing or empty description is a finding of this rule.",
			Bad:     `{"name": "pilotage_catalog", "description": "Query verbs: list, get, changed_since."}`,
			Good:    `{"name": "pilotage_catalog", "description": "Look up the catalog of names a program may use."}`,
			Check:   bindingCatalogStageCheck,
		},
		&lint.Rule{
			ID: "signpost-loop-tool", Severity: lint.Error, Spec: "Part III §3.4",
			Summary: "A loop tool's description does not state its stage or name the Language(s) it serves.",
			Doc: "Loop-tool names are chosen per Language, so for an uninstructed agent the description is the only reliable signal of what a loop tool is: it MUST state the stage it serves and the Language name(s) it serves. Accepted stage words: validate: " + quoteList(signpostValidate) + "; execute: " + quoteList(signpostExecute) + "; trace fetch: one of " + quoteList(signpostFetch) + " together with one of " + quoteList(signpostTrace) + "." + signpostMatching +
				" A Language is named by its full identifier (buildingflow/1) or by its family alone (buildingflow) when no other Language of the manifest shares that family; a family shared by two Languages does not say which one is served, and a family followed by a slash (buildingflow/10) names another identifier. Languages come from the manifest, or without one from the tool's program declaration (an inferred trace-fetch tool's Language cannot be known and is skipped). A missing or empty description is a finding of this rule.",
			Bad:   `{"name": "run_flow", "description": "Runs it."}`,
			Good:  `{"name": "run_flow", "description": "Execute stage for buildingflow/1 programs."}`,
			Check: bindingLoopToolSignpostsCheck,
		},
	)
}

// signpostDescription returns a tool's description, reporting a missing,
// non-string or blank one; ok is false when there is nothing to match.
func signpostDescription(p *lint.Pass, t *snapshot.Tool, duty string) (string, bool) {
	d := t.Description
	switch {
	case d == nil:
		p.ReportMissing(t.Node, "%s has no description; add one that %s", t.Name, duty)
	case !d.IsString():
		p.Report(d, "the description of %s is %s; make it a string that %s", t.Name, d.Kind.Article(), duty)
	case strings.TrimSpace(d.Text) == "":
		p.Report(d, "the description of %s is empty; write one that %s", t.Name, duty)
	default:
		return d.Text, true
	}
	return "", false
}

// signpostToolCheck reports a fixed tool whose description lacks every
// phrase of re: msg at the description, or signpostDescription's finding
// (naming duty) when there is no text to match.
func signpostToolCheck(p *lint.Pass, t *snapshot.Tool, re *lazyRE, duty, msg string) {
	if text, ok := signpostDescription(p, t, duty); ok && !re.MatchString(text) {
		p.Report(t.Description, "%s", msg)
	}
}

// signpostServerText returns the server-description text surface of the stateless
// revision, when the discover result has one.
func signpostServerText(discover *source.Node) *source.Node {
	for _, n := range []*source.Node{discover.Get("instructions"), discover.Get("description"), discover.Path("serverInfo", "description")} {
		if n != nil {
			return n
		}
	}
	return nil
}

func bindingWelcomeCheck(p *lint.Pass) {
	s := p.Snap
	res, what := bindingServerResult(s)
	// The duty holds "whenever the Pilotage tools are exposed", which only
	// tools/list shows: a Server may hide them from some Clients (§1.3).
	// Without tools/list a welcome text that does its job is still fine;
	// one that does not may be legitimate, so that is a skipped check.
	exposed, _ := bindingExposed(s)
	listed := s.ToolsArray != nil
	if listed && !exposed {
		return
	}
	if res == nil {
		if listed {
			p.Skip("the welcome text (no " + what + " in the input)")
		}
		return
	}
	unknown := func() {
		p.Skip("the welcome text (no tools/list to show whether Pilotage tools are exposed)")
	}
	var text *source.Node
	if s.Stateless() {
		// Only when the revision has a server-description text; otherwise
		// the entry-point description carries the whole duty.
		if text = signpostServerText(res); text == nil {
			return
		}
		what = "the server/discover description"
	} else {
		if text = res.Get("instructions"); text == nil {
			if !listed {
				unknown()
				return
			}
			p.ReportMissing(res, "the initialize result has no instructions; add text that names Pilotage and tells the agent to call %s first", types.ToolManifest)
			return
		}
		what = "the initialize instructions"
	}
	var lacks []string
	if text.IsString() {
		if !rePilotage.MatchString(text.Text) {
			lacks = append(lacks, "name Pilotage")
		}
		if !reManifest.MatchString(text.Text) || !reFirst.MatchString(text.Text) {
			lacks = append(lacks, "tell the agent to call "+types.ToolManifest+" first")
		}
		if len(lacks) == 0 {
			return
		}
	}
	switch {
	case !listed:
		unknown()
	case !text.IsString():
		p.Report(text, "the welcome text in %s is %s; make it a string that names Pilotage and tells the agent to call %s first", what, text.Kind.Article(), types.ToolManifest)
	default:
		p.Report(text, "the welcome text in %s does not %s; say so, for example \"This server speaks Pilotage: call %s first.\"", what, strings.Join(lacks, " or "), types.ToolManifest)
	}
}

func bindingEntryPointCheck(p *lint.Pass) {
	t := p.Snap.Tool(types.ToolManifest)
	if t == nil {
		return
	}
	signpostToolCheck(p, t, reFirst,
		"marks this tool as the starting point (for example \"Start here: call this first.\")",
		"the pilotage_manifest description does not mark the tool as the starting point; say so, for example \"Start here: call this first.\"")
}

func bindingGuideStageCheck(p *lint.Pass) {
	t := p.Snap.Tool(types.ToolGetGuide)
	if t == nil {
		return
	}
	signpostToolCheck(p, t, reLearn,
		"states it serves the learn stage, the guides",
		"the pilotage_get_guide description does not say it serves the learn stage; mention learning or the guides, for example \"Learn a Language: returns its guides.\"")
}

func bindingAnyCatalog(s *snapshot.Snapshot) bool {
	for _, l := range s.Languages {
		if l.Caps.Declared(string(types.CapCatalog)) {
			return true
		}
	}
	return false
}

func bindingCatalogStageCheck(p *lint.Pass) {
	t := p.Snap.Tool(types.ToolCatalog)
	if t == nil || p.Snap.Manifest != nil && !bindingAnyCatalog(p.Snap) {
		return
	}
	signpostToolCheck(p, t, reLookup,
		"states it serves the lookup stage, the catalog",
		"the pilotage_catalog description does not say it serves the lookup stage; mention looking names up in the catalog, for example \"Look up the catalog of names a program may use.\"")
}

// signpostStage reports whether text states stage st.
func signpostStage(st types.Stage, text string) bool {
	switch st {
	case types.StageValidate:
		return reValidate.MatchString(text)
	case types.StageExecute:
		return reExecute.MatchString(text)
	case types.StageTraceFetch:
		return reFetch.MatchString(text) && reTrace.MatchString(text)
	}
	return true
}

var signpostStageWords = map[types.Stage]string{
	types.StageValidate:   `"validate" or a synonym such as "check" or "verify"`,
	types.StageExecute:    `"execute" or a synonym such as "run" or "deploy"`,
	types.StageTraceFetch: `"fetch" and "trace", or synonyms such as "inspect" and "run record"`,
}

// signpostFamilies counts the distinct Language names of each family.
func signpostFamilies(names []string) map[string]int {
	seen := map[string]bool{}
	out := map[string]int{}
	for _, n := range names {
		if id, err := types.ParseLanguageID(n); err == nil && !seen[n] {
			seen[n] = true
			out[id.Family]++
		}
	}
	return out
}

// signpostNamesLanguage reports whether text names Language name: by its
// full identifier, or by its family alone when no other Language shares
// the family (families counts them). A family followed by '/' is the start
// of another identifier ("buildingflow/10" does not name buildingflow/1).
func signpostNamesLanguage(text, name string, families map[string]int) bool {
	lower := strings.ToLower(text)
	if signpostContainsWord(lower, strings.ToLower(name), "") {
		return true
	}
	id, err := types.ParseLanguageID(name)
	return err == nil && families[id.Family] <= 1 && signpostContainsWord(lower, strings.ToLower(id.Family), "/")
}

// signpostContainsWord reports whether w occurs in t as a whole word: not
// touching a letter, digit or underscore, nor a rune of notAfter after it.
// Plain string search: it runs once per loop tool and Language, and
// compiling a pattern each time costs more than the rest of the rule on
// gateway-sized inputs.
func signpostContainsWord(t, w, notAfter string) bool {
	if w == "" {
		return false
	}
	for i := 0; i < len(t); {
		j := strings.Index(t[i:], w)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(w)
		before, _ := utf8.DecodeLastRuneInString(t[:start])
		after, _ := utf8.DecodeRuneInString(t[end:])
		if (start == 0 || !signpostWordRune(before)) && (end == len(t) || !signpostWordRune(after) && !strings.ContainsRune(notAfter, after)) {
			return true
		}
		i = start + 1
	}
	return false
}

func signpostWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsNumber(r)
}

func bindingLoopToolSignpostsCheck(p *lint.Pass) {
	s := p.Snap
	// Family uniqueness is judged against every Language the input names:
	// the manifest's, or without one those the tools declare.
	var allNames []string
	for _, l := range s.Languages {
		allNames = append(allNames, l.Name)
	}
	if s.Manifest == nil {
		for _, t := range s.Tools {
			allNames = append(allNames, bindingDeclaredLanguages(t.ProgramDeclaration())...)
		}
	}
	families := signpostFamilies(allNames)
	for _, lt := range s.LoopTools() {
		t := lt.Tool
		if t == nil {
			continue
		}
		var stages []types.Stage
		for _, st := range types.Stages {
			if lt.Serves(st) {
				stages = append(stages, st)
			}
		}
		var duty []string
		for _, st := range stages {
			duty = append(duty, signpostStageWords[st])
		}
		text, ok := signpostDescription(p, t, "states its stage ("+strings.Join(duty, ", ")+") and names the Language(s) it serves")
		if !ok {
			continue
		}
		var missing []string
		for _, st := range stages {
			if !signpostStage(st, text) {
				missing = append(missing, "its stage ("+signpostStageWords[st]+")")
			}
		}
		langs := bindingServedLanguages(lt)
		var unnamed []string
		for _, l := range langs {
			if !signpostNamesLanguage(text, l, families) {
				unnamed = append(unnamed, l)
			}
		}
		if len(unnamed) > 0 {
			missing = append(missing, "the Language it serves ("+strings.Join(unnamed, ", ")+")")
		}
		if len(missing) > 0 {
			p.Report(t.Description, "the description of loop tool %s does not state %s; an uninstructed agent learns what a loop tool is only from its description", t.Name, strings.Join(missing, " or "))
		}
	}
}

// bindingServedLanguages returns the names of the Languages a loop tool
// serves, from the manifest's loop map.
func bindingServedLanguages(lt *snapshot.LoopTool) []string {
	var names []string
	for _, ls := range lt.Stages {
		for _, l := range ls {
			names = append(names, l.Name)
		}
	}
	slices.Sort(names)
	return slices.DeleteFunc(slices.Compact(names), func(n string) bool { return n == "" })
}

// bindingDeclaredLanguages returns the language members of a program declaration
// in either form.
func bindingDeclaredLanguages(decl *source.Node) []string {
	var out []string
	for _, b := range programBindings(decl) {
		if v, ok := b.Str("language"); ok {
			out = append(out, v)
		}
	}
	return out
}
