package binding

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// The cold-start signposts (Part III §3.4) constrain "what the signposts
// must communicate, never their wording". What a machine decides without
// understanding language is an error: a description exists, the welcome
// text names pilotage_manifest, a loop tool's description names its
// Language. Whether a text states a stage or says "call this first" needs
// understanding, so signpost-wording only suggests, at info, and says which
// words it looked for. Its lists hold several languages and are matched
// case-insensitively as whole words; a miss means only that none of these
// words appeared.
var (
	signpostFirst = []string{
		"first", "start", "starts", "starting", "begin", "beginning", "entry point", "entrypoint", "before", "initially",
		"premier", "première", "d'abord", "commencer", "commencez", "avant", "début",
		"primero", "primera", "empezar", "empieza", "comenzar", "comienza", "antes", "inicio",
		"zuerst", "erst", "beginnen", "vor", "anfang",
		"primeiro", "começar", "comece", "prima", "iniziare", "inizia",
	}
	signpostLearn = []string{
		"learn", "learning", "guide", "guides", "guidance", "documentation", "docs", "tutorial", "tutorials", "teach", "teaches", "manual", "how-to", "instructions", "explains",
		"apprendre", "apprenez", "guía", "guías", "aprender", "aprende", "leitfaden", "anleitung", "lernen", "dokumentation", "aprenda", "guia", "guias", "imparare", "guida",
	}
	signpostLookup = []string{
		"lookup", "look up", "looks up", "search", "searches", "find", "finds", "catalog", "catalogue", "catalogs", "inventory", "directory", "names", "list",
		"chercher", "recherche", "trouver", "catálogo", "buscar", "busca", "katalog", "suchen", "nachschlagen", "catalogo", "cercare", "procurar",
	}
	signpostValidate = []string{
		"validate", "validates", "validation", "validator", "check", "checks", "checking", "verify", "verifies", "verification", "lint", "lints",
		"valider", "valide", "vérifier", "vérifie", "validar", "valida", "comprobar", "comprueba", "verificar", "prüfen", "prüft", "validieren", "überprüfen", "convalidare", "verificare",
	}
	signpostExecute = []string{
		"execute", "executes", "execution", "run", "runs", "running", "deploy", "deploys", "invoke", "invokes", "carries out", "carry out", "install", "installs", "perform", "performs", "apply", "applies",
		"exécuter", "exécute", "lancer", "lance", "déployer", "ejecutar", "ejecuta", "desplegar", "ausführen", "führt", "executar", "executa", "eseguire", "esegue",
	}
	signpostFetch = []string{
		"trace", "traces", "run record", "run records", "execution record", "run history", "run log", "past run", "earlier run", "previous run", "stored run", "what a run did", "what an earlier run did", "inspect", "replay",
		"trace d'exécution", "historique", "traza", "rastro", "historial", "ablauf", "protokoll", "verlauf", "rastreamento", "traccia",
	}

	reFirst    = signpostWords(signpostFirst...)
	reLearn    = signpostWords(signpostLearn...)
	reLookup   = signpostWords(signpostLookup...)
	reValidate = signpostWords(signpostValidate...)
	reExecute  = signpostWords(signpostExecute...)
	reFetch    = signpostWords(signpostFetch...)
)

// signpostSuggest is how each signpost-wording message ends: the words are
// a heuristic, the spec asks for content, and other wording may carry it.
const signpostSuggest = "; if the text already says so in other words, ignore this suggestion"

const signpostContent = " Part III §3.4 constrains what a signpost communicates, never its wording, so this rule decides only what needs no understanding of language; whether a text states a stage or says \"call this first\" is signpost-wording's suggestion."

func signpostRules() []*lint.Rule {
	return []*lint.Rule{
		&lint.Rule{
			ID: "signpost-welcome", Severity: lint.Error, Spec: "Part III §3.4",
			Quote:   "On an MCP revision with `initialize`, whenever the Pilotage tools are exposed to the Client (Section 1.3), the Server MUST include, in the initialize result's `instructions` field, text that: names Pilotage (the extension identifier or the word \"Pilotage\"); and directs the agent to call `pilotage_manifest` first.",
			Keyword: "MUST",
			Summary: "The initialize instructions (or the server/discover description) are missing or do not name pilotage_manifest.",
			Doc:     "Whenever Pilotage tools are exposed, the initialize result's instructions MUST name Pilotage and direct the agent to call pilotage_manifest first, so an agent arriving with nothing knows where the loop starts. This rule reports missing instructions and a text that does not name the pilotage_manifest tool (which also names Pilotage); it does not judge how the text says \"first\". On the stateless revision 2026-07-28 the same duty applies to the server description text of the server/discover result (instructions, description or serverInfo.description) when one exists; when none exists the entry-point description carries the duty alone and this rule is silent. Exposure is read from tools/list; without it a conforming text passes and a missing or non-conforming one is listed as a skipped cross-check, since a Server may hide its Pilotage tools from some Clients." + signpostContent,
			Bad:     `{"instructions": "Building automation server."}`,
			Good:    `{"instructions": "Avant tout, appelez pilotage_manifest."}`,
			Scope:   "The initialize result's instructions (on 2026-07-28, the server/discover description text when that result has one) of a Server whose listing shows Pilotage tools: present, and naming pilotage_manifest. How the text says \"first\" is signpost-wording's suggestion. Without a listing a conforming text passes and any other is a skipped check.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §3.4", Quote: "when it does not, the entry-point description below carries the whole welcome duty.", Fixture: "lookalikes/good-stateless"},
				{Spec: "Part III §1.3", Quote: "3. A Server MAY hide those tools from Clients that did not declare Pilotage.", Fixture: "good-hidden"},
				{Spec: "Part III §3.4", Quote: "These rules constrain what the signposts must communicate, never their wording.", Fixture: "good-own-voice"},
			},
			Check: bindingWelcomeCheck,
		},
		&lint.Rule{
			ID: "signpost-entry-point", Severity: lint.Error, Spec: "Part III §3.4",
			Quote:   "The `pilotage_manifest` tool description MUST identify the tool as the starting point for using this Server's program Languages, sufficient for an agent reading `tools/list` alone to conclude: call this first.",
			Keyword: "MUST",
			Summary: "The pilotage_manifest tool has no description, or an empty one.",
			Doc:     "The pilotage_manifest description MUST identify the tool as the starting point, enough for an agent reading tools/list alone to conclude: call this first. It is the load-bearing signpost, because every host shows tool descriptions while not all show instructions. This rule reports a missing, non-string or empty description." + signpostContent,
			Bad:     `{"name": "pilotage_manifest", "description": ""}`,
			Good:    `{"name": "pilotage_manifest", "description": "Before anything, call pilotage_manifest."}`,
			Scope:   "The description of a listed pilotage_manifest: present, a string, not blank. What it says, and in which language, is signpost-wording's suggestion.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §3.4", Quote: "These rules constrain what the signposts must communicate, never their wording.", Fixture: "good-own-voice"},
			},
			Check: bindingEntryPointCheck,
		},
		&lint.Rule{
			ID: "signpost-guide-stage", Severity: lint.Error, Spec: "Part III §3.4",
			Quote:   "The description of `pilotage_get_guide` MUST state that it serves the learn stage: the guides.",
			Keyword: "MUST",
			Summary: "The pilotage_get_guide tool has no description, or an empty one.",
			Doc:     "The pilotage_get_guide description MUST state that the tool serves the learn stage, the guides, so that an uninstructed agent knows where to learn a Language before writing a program. This rule reports a missing, non-string or empty description." + signpostContent,
			Bad:     `{"name": "pilotage_get_guide"}`,
			Good:    `{"name": "pilotage_get_guide", "description": "Learn a Language: returns its guides."}`,
			Scope:   "The description of a listed pilotage_get_guide: present, a string, not blank. What it says, and in which language, is signpost-wording's suggestion.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §3.4", Quote: "These rules constrain what the signposts must communicate, never their wording.", Fixture: "good-own-voice"},
			},
			Check: bindingGuideStageCheck,
		},
		&lint.Rule{
			ID: "signpost-catalog-stage", Severity: lint.Error, Spec: "Part III §3.4",
			Quote:   "When any Language declares `catalog`, the description of `pilotage_catalog` MUST state that it serves the lookup stage: the catalog.",
			Keyword: "MUST",
			Summary: "The pilotage_catalog tool has no description, or an empty one, while a Language declares catalog.",
			Doc:     "When any Language declares catalog, the pilotage_catalog description MUST state that the tool serves the lookup stage, the catalog, so an agent knows where to find the environment-bound names a program may use. This rule reports a missing, non-string or empty description; without a manifest it checks pilotage_catalog whenever it is listed." + signpostContent,
			Bad:     `{"name": "pilotage_catalog", "description": "  "}`,
			Good:    `{"name": "pilotage_catalog", "description": "Find the devices, zones and actions a program may name."}`,
			Scope:   "The description of a listed pilotage_catalog when some Language of the manifest declares catalog (or, with no manifest, whenever it is listed): present, a string, not blank. What it says is signpost-wording's suggestion.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §3.4", Quote: "When any Language declares `catalog`, the description of `pilotage_catalog` MUST state that it serves the lookup stage: the catalog.", Fixture: "good-no-catalog"},
				{Spec: "Part III §3.4", Quote: "These rules constrain what the signposts must communicate, never their wording.", Fixture: "good-own-voice"},
			},
			Check: bindingCatalogStageCheck,
		},
		&lint.Rule{
			ID: "signpost-loop-tool", Severity: lint.Error, Spec: "Part III §3.4",
			Quote:   "The description of each declared loop tool MUST state: which stage it serves (validate, execute, or trace fetch); and the Language name(s) it serves.",
			Keyword: "MUST",
			Summary: "A loop tool has no description, or its description does not name the Language(s) it serves.",
			Doc:     "Loop-tool names are chosen per Language, so for an uninstructed agent the description is the only reliable signal of what a loop tool is: it MUST state the stage it serves and the Language name(s) it serves. This rule reports a missing or empty description and one that names no Language it serves. A Language is named by its full identifier (buildingflow/1), by its title (Part II §5.1 calls `title` the human-readable Language name), or by its family alone (buildingflow) when no other Language of the manifest shares that family; a family followed by a slash (buildingflow/10) names another identifier. Loop tools come only from the manifest's loop map." + signpostContent,
			Bad:     `{"name": "run_flow", "description": "Runs it."}`,
			Good:    `{"name": "run_flow", "description": "Exécute un programme buildingflow/1."}`,
			Scope:   "The description of every listed tool the manifest's loop map names as a validate, execute or trace tool: present, not blank, and naming each Language it serves by identifier, title, or family alone when no other Language shares it. Which stage it states is signpost-wording's suggestion; a tool a later minor's loop member names is not a 1.1 loop tool.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §3.4", Quote: "These rules constrain what the signposts must communicate, never their wording.", Fixture: "good-own-voice"},
				{Spec: "Part II §11.1", Quote: "The unknown-member and unknown-value rules allow an earlier minor Client to interact safely with a later minor Server.", Fixture: "good-later-minor-member"},
			},
			Check: bindingLoopToolSignpostsCheck,
		},
		&lint.Rule{
			ID: "signpost-wording", Severity: lint.Info, Spec: "Part III §3.4",
			Summary: "A signpost text shows none of the words that usually say \"call this first\" or state a stage (a suggestion, not a finding of non-conformance).",
			Doc:     "Part III §3.4 asks the welcome text to send the agent to pilotage_manifest first, the pilotage_manifest description to mark the starting point, and the descriptions of pilotage_get_guide, pilotage_catalog and each loop tool to state their stage; it also says \"These rules constrain what the signposts must communicate, never their wording. A Server keeps its own voice.\" Whether a text says so needs understanding, so this rule only suggests, at info, when none of a list of common words (in English, French, Spanish, German, Portuguese and Italian) appears, and its message names the words it looked for. A text that names the tool it points to (the welcome text pilotage_manifest, a description its own tool) and uses no word of any list is most likely in a language the lists do not cover, and draws nothing: the author could not act on the suggestion. First: " + rulekit.QuoteList(signpostFirst) + ". Learn: " + rulekit.QuoteList(signpostLearn) + ". Lookup: " + rulekit.QuoteList(signpostLookup) + ". Validate: " + rulekit.QuoteList(signpostValidate) + ". Execute: " + rulekit.QuoteList(signpostExecute) + ". Trace fetch: " + rulekit.QuoteList(signpostFetch) + ".",
			Bad:     `{"name": "pilotage_get_guide", "description": "Returns text for a language."}`,
			Good:    `{"name": "pilotage_get_guide", "description": "Learn a Language: returns its guides."}`,
			Check:   bindingSignpostWordingCheck,
		},
	}
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
	case strings.TrimSpace(d.Text()) == "":
		p.Report(d, "the description of %s is empty; write one that %s", t.Name, duty)
	default:
		return d.Text(), true
	}
	return "", false
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
	if text.IsString() && signpostContainsWord(strings.ToLower(text.Text()), types.ToolManifest, "") {
		return
	}
	switch {
	case !listed:
		unknown()
	case !text.IsString():
		p.Report(text, "the welcome text in %s is %s; make it a string that names Pilotage and tells the agent to call %s first", what, text.Kind.Article(), types.ToolManifest)
	default:
		p.Report(text, "the welcome text in %s does not name %s; name the tool and tell the agent to call it first, in the Server's own words", what, types.ToolManifest)
	}
}

func bindingEntryPointCheck(p *lint.Pass) {
	if t := p.Snap.Tool(types.ToolManifest); t != nil {
		signpostDescription(p, t, "marks this tool as the starting point, to call first")
	}
}

func bindingGuideStageCheck(p *lint.Pass) {
	if t := p.Snap.Tool(types.ToolGetGuide); t != nil {
		signpostDescription(p, t, "states it serves the learn stage, the guides")
	}
}

func bindingAnyCatalog(s *snapshot.Snapshot) bool {
	for _, l := range s.Languages {
		if l.Caps.Declared(string(types.CapCatalog)) {
			return true
		}
	}
	return false
}

// signpostCatalogDuty returns pilotage_catalog when its description duty
// applies (some Language declares catalog, or there is no manifest to say
// and the tool is listed), and nil otherwise.
func signpostCatalogDuty(s *snapshot.Snapshot) *snapshot.Tool {
	t := s.Tool(types.ToolCatalog)
	if t == nil || s.Manifest != nil && !bindingAnyCatalog(s) {
		return nil
	}
	return t
}

func bindingCatalogStageCheck(p *lint.Pass) {
	if t := signpostCatalogDuty(p.Snap); t != nil {
		signpostDescription(p, t, "states it serves the lookup stage, the catalog")
	}
}

// signpostStage reports whether text shows a word stating stage st.
func signpostStage(st types.Stage, text string) bool {
	switch st {
	case types.StageValidate:
		return reValidate.MatchString(text)
	case types.StageExecute:
		return reExecute.MatchString(text)
	case types.StageTraceFetch:
		return reFetch.MatchString(text)
	}
	return true
}

var signpostStageWords = map[types.Stage][]string{
	types.StageValidate:   signpostValidate,
	types.StageExecute:    signpostExecute,
	types.StageTraceFetch: signpostFetch,
}

// signpostLooked abbreviates a word list for a message.
func signpostLooked(words []string) string {
	if len(words) > 6 {
		return rulekit.QuoteList(words[:6]) + " and others (see the rule's doc)"
	}
	return rulekit.QuoteList(words)
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
	var allNames []string
	for _, l := range s.Languages {
		allNames = append(allNames, l.Name)
	}
	families := signpostFamilies(allNames)
	for _, lt := range s.LoopTools() {
		t := lt.Tool
		if t == nil {
			continue
		}
		text, ok := signpostDescription(p, t, "states its stage and names the Language(s) it serves")
		if !ok {
			continue
		}
		var unnamed []string
		for _, l := range bindingServedLanguageEntries(lt) {
			if !signpostNamesLanguage(text, l.Name, families) && !signpostNamesTitle(text, l) {
				unnamed = append(unnamed, l.Name)
			}
		}
		if len(unnamed) > 0 {
			p.Report(t.Description, "the description of loop tool %s does not name the Language it serves (%s); name it by identifier or title, since the description is all an uninstructed agent learns of a loop tool", t.Name, strings.Join(unnamed, ", "))
		}
	}
}

// signpostNamesTitle reports whether text contains Language l's title.
func signpostNamesTitle(text string, l *snapshot.Language) bool {
	title, _ := l.Node.Str("title")
	title = strings.TrimSpace(title)
	return title != "" && strings.Contains(strings.ToLower(text), strings.ToLower(title))
}

// bindingServedLanguageEntries returns the Languages a loop tool serves,
// once each, in manifest order.
func bindingServedLanguageEntries(lt *snapshot.LoopTool) []*snapshot.Language {
	var out []*snapshot.Language
	for _, ls := range lt.Stages {
		for _, l := range ls {
			if l.Name != "" && !slices.Contains(out, l) {
				out = append(out, l)
			}
		}
	}
	slices.SortFunc(out, func(a, b *snapshot.Language) int { return a.Index - b.Index })
	return out
}

// signpostUnjudgeable reports whether a text names the tool it points to
// and uses no word of any list: most likely it is written in a language
// the lists do not cover (a Dutch welcome that says "roep eerst
// pilotage_manifest aan"), and a suggestion its author cannot act on is
// noise.
func signpostUnjudgeable(text, tool string) bool {
	if !strings.Contains(text, tool) {
		return false
	}
	for _, re := range []wordMatcher{reFirst, reLearn, reLookup, reValidate, reExecute, reFetch} {
		if re.MatchString(text) {
			return false
		}
	}
	return true
}

func bindingSignpostWordingCheck(p *lint.Pass) {
	s := p.Snap
	suggest := func(n *source.Node, what string, words []string) {
		p.Report(n, "%s shows none of the words %s%s", what, signpostLooked(words), signpostSuggest)
	}
	if res, _ := bindingServerResult(s); res != nil {
		var text *source.Node
		if s.Stateless() {
			text = signpostServerText(res)
		} else {
			text = res.Get("instructions")
		}
		if text.IsString() && strings.TrimSpace(text.Text()) != "" && !reFirst.MatchString(text.Text()) && !signpostUnjudgeable(text.Text(), types.ToolManifest) {
			suggest(text, "the welcome text, which should tell the agent to call "+types.ToolManifest+" first,", signpostFirst)
		}
	}
	check := func(t *snapshot.Tool, what string, re wordMatcher, words []string) {
		if t == nil || !t.Description.IsString() || strings.TrimSpace(t.Description.Text()) == "" || re.MatchString(t.Description.Text()) || signpostUnjudgeable(t.Description.Text(), t.Name) {
			return
		}
		suggest(t.Description, what, words)
	}
	check(s.Tool(types.ToolManifest), "the pilotage_manifest description, which should mark it as the starting point,", reFirst, signpostFirst)
	check(s.Tool(types.ToolGetGuide), "the pilotage_get_guide description, which should say it serves the learn stage,", reLearn, signpostLearn)
	check(signpostCatalogDuty(s), "the pilotage_catalog description, which should say it serves the lookup stage,", reLookup, signpostLookup)
	for _, lt := range s.LoopTools() {
		t := lt.Tool
		if t == nil || !t.Description.IsString() {
			continue
		}
		if signpostUnjudgeable(t.Description.Text(), t.Name) {
			continue
		}
		for _, st := range types.Stages {
			if lt.Serves(st) && !signpostStage(st, t.Description.Text()) {
				suggest(t.Description, "the description of loop tool "+t.Name+", which should state its "+string(st)+" stage,", signpostStageWords[st])
			}
		}
	}
}
