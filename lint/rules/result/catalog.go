package result

import (
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

func catalogRules() []*lint.Rule {
	return []*lint.Rule{
		&lint.Rule{
			ID: "result-catalog-version-missing", Severity: lint.Error, Spec: "Part II §5.4, §6.3, §6.4",
			Quote:   "Every successful or catalog-related response MUST carry `catalog_version`.",
			Keyword: "MUST",
			Summary: "A catalog response, a failed catalog get, or a validate result of a catalog-bearing Language lacks catalog_version.",
			Doc:     "Every response to catalog list, get and changed_since, and every validate response for a Language declaring catalog, MUST carry catalog_version; a catalog get for an unknown id still carries it beside the error (Part II §5.4, §6.3; Part III §7.2). Clients send it back as expected_catalog_version to detect drift; without it drift protection cannot work.",
			Bad:     `{"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "list"}, "result": {"structuredContent": {"items": []}}}`,
			Good:    `{"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "list"}, "result": {"structuredContent": {"items": [], "catalog_version": "cv_1"}}}`,
			Scope:   "Successful catalog list, get and changed_since results; a catalog get answered not_found, when its language names a manifest Language that declares catalog; validate results that are not request errors, of a Language that declares catalog. Other request errors of the catalog tool are not judged.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §6.4", Quote: "When the Language declares `catalog`, the response MUST include the corresponding `catalog_version`.", Fixture: "lookalikes/good-lookalike-pure-language"},
				{Spec: "Part III §7.2", Quote: "Unknown guide, topic, catalog entry, Language, promoted reference, or Run, including expired and non-retained Runs;", Fixture: "good-unknown-language"},
			},
			Check: checkResultCatalogVersion,
		},
		&lint.Rule{
			ID: "result-catalog-input-schema-missing", Severity: lint.Error, Spec: "Part II §5.4",
			Quote:   "The entry MUST declare an `input_schema`.",
			Keyword: "MUST",
			Summary: "A catalog entry that a recorded, resolved program_ref proves promoted lacks input_schema.",
			Doc:     "When a program is promoted, it appears in the catalog and \"The entry MUST declare an input_schema\" (Part II §5.4): without it agents have no shape for the input they must pass. An entry is known to be promoted when a recorded execute call of the same Language names it as program_ref and the Server resolved the reference: it answered with a Run outcome, where an unknown reference is a request error (§6.5.2). input_schema is also mandatory for callable kinds, but which kinds are callable is engine-defined prose in the closed-sets guide, so an entry of a kind whose other entries carry input_schema proves nothing and draws no finding.",
			Bad:     `execute {"program_ref": "morning-warmup"}   get -> {"entry": {"id": "morning-warmup", "kind": "routine", ...no input_schema}}`,
			Good:    `get -> {"entry": {"id": "morning-warmup", "kind": "routine", "input_schema": {"type": "object"}, ...}}`,
			Scope:   "Catalog entries of recorded list and get results whose id a recorded execute of the same Language named as program_ref and which the Server resolved (it answered with a Run outcome, not a request error), when the listing and the execute describe one catalog: only reads between them, or the execute named the listing's catalog_version and was not refused for drift; every manifest version.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §6.5.2", Quote: "A failure at this stage is a request error.", Fixture: "good-ref-not-found"},
			},
			Check: checkResultCatalogInputSchema,
		},
		&lint.Rule{
			ID: "result-risk-contradictory", Severity: lint.Warning, Spec: "Part II §5.3",
			Keyword: "", Policy: lint.PolicyContradiction,
			Summary: "Recorded risk_hints say readOnly and destructive at once.",
			Doc:     "readOnly means no persistent or externally observable state change; destructive means the operation may delete or irreversibly alter state (Part II §5.3). Both true cannot describe one operation. Hosts gate on these hints (destructive needs approval), so a contradiction means one of them is wrong, and either way the gate decides on false information. Catalog entries, plan steps and plan maxima are checked.",
			Bad:     `{"risk": "safe", "risk_hints": {"readOnly": true, "destructive": true, "openWorld": false}}`,
			Good:    `{"risk": "destructive", "risk_hints": {"readOnly": false, "destructive": true, "openWorld": false}}`,
			Check:   checkResultRiskContradictory,
		},
	}
}

func checkResultCatalogVersion(p *lint.Pass) {
	for _, rc := range results(p) {
		if !rc.Content.IsObject() || rc.Content.Get("catalog_version").IsString() {
			continue
		}
		switch rc.Op {
		case rulekit.OpCatalog:
			verb, _ := rc.Arguments.Str("verb")
			if rc.RequestError {
				// Only a failed get is required to carry it (§6.3), and only
				// when the Language it names has a catalog: a get naming an
				// unknown Language is not_found for the Language (Part III
				// §7.2), with no catalog whose token it could carry.
				kind, _ := rc.Content.Path("error", "kind").Value().(string)
				if verb != string(types.VerbGet) || kind != string(types.ErrNotFound) || rc.Lang == nil || !rc.Lang.Caps.Declared(string(types.CapCatalog)) {
					continue
				}
				p.ReportMissing(rc.Content, "a catalog get for an unknown id still carries the current catalog_version beside the error; add it")
				continue
			}
			p.ReportMissing(rc.Content, "this catalog %s response has no catalog_version; every catalog response carries the current token", verbLabel(verb))
		case rulekit.OpValidate:
			if rc.RequestError || rc.Lang == nil || !rc.Lang.Caps.Declared(string(types.CapCatalog)) {
				continue
			}
			p.ReportMissing(rc.Content, "Language %s declares catalog, so its validate result carries the catalog_version it validated against; add it", rc.Lang.Name)
		}
	}
}

func verbLabel(v string) string {
	if v == "" {
		return "(no verb)"
	}
	return v
}

func checkResultCatalogInputSchema(p *lint.Pass) {
	calls := results(p)
	m := rulekit.Of(p.Snap)
	// Only a recorded execute call whose program_ref the Server resolved
	// proves the entry of that id promoted, and so callable whatever its
	// kind (§5.4): a reference that cannot be resolved is a request error
	// (§6.5.2), so any Run outcome, refused or not, shows it was. Which
	// other kinds are callable is engine-defined prose in the closed-sets
	// guide: an entry of a kind whose other entries carry input_schema is
	// no proof, so it draws nothing.
	type key struct {
		lang *snapshot.Language
		id   string
	}
	resolved := map[key][]*rulekit.Result{}
	for _, rc := range calls {
		if ref := rc.Arguments.Get(types.ArgProgramRef); rc.Op == rulekit.OpExecute && ref.IsString() && !rc.RequestError && rc.Content.Get("outcome").IsObject() {
			k := key{rc.Lang, ref.Text()}
			resolved[k] = append(resolved[k], rc)
		}
	}
	for _, rc := range calls {
		for _, e := range rulekit.Entries([]*rulekit.Result{rc}) {
			id, _ := e.Str("id")
			if e.Has("input_schema") {
				continue
			}
			// The listing and the Run describe one catalog when nothing
			// between them may have changed it, or when the Run named the
			// listing's token and was not refused for drift (§6.5.3).
			cv, _ := rc.Content.Str("catalog_version")
			for _, x := range resolved[key{rc.Lang, id}] {
				expected, _ := x.Arguments.Str(types.ArgExpectedCatalogVersion)
				if m.ReadsBetween(rc.Call, x.Call) || cv != "" && cv == expected && resultStatus(x) != types.StatusCatalogDrift {
					p.ReportMissing(e, "entry %q is a promoted program (a recorded execute named it as program_ref and the Server resolved it) and has no input_schema; declare the input it accepts, as Part II §5.4 requires of every promoted entry", id)
					break
				}
			}
		}
	}
}

func checkResultRiskContradictory(p *lint.Pass) {
	calls := results(p)
	var hints []*source.Node
	for _, e := range rulekit.Entries(calls) {
		hints = append(hints, e.Get("risk_hints"))
	}
	for _, pl := range resultPlans(calls) {
		hints = append(hints, pl.Get("max_risk_hints"))
		for _, s := range pl.Get("steps").Objects() {
			hints = append(hints, s.Get("risk_hints"))
		}
	}
	for _, h := range hints {
		if rulekit.True(h.Get("readOnly")) && rulekit.True(h.Get("destructive")) {
			p.Report(h, "risk_hints say readOnly and destructive at once, which no operation can be; set readOnly false if it may change state, or destructive false if it cannot")
		}
	}
}

func catalogLastPageRules() []*lint.Rule {
	return []*lint.Rule{&lint.Rule{
		ID: "result-catalog-empty-last-page", Severity: lint.Info, Spec: "Part II §6.3",
		Keyword: "",
		Summary: "A catalog list page returned next_cursor, and the recorded next page is empty and final.",
		Doc:     "next_cursor MUST be present when more results remain, and its absence means the listing is complete (Part II §6.3). A cursor that leads to an empty final page is allowed but costs every client a round trip; it usually means the server emits a cursor whenever a page is full. Only a recorded follow-up call with that cursor shows this, so the rule fires only then.",
		Bad:     `list -> {"items": [..2 items..], "next_cursor": "p2", "catalog_version": "cv1"}   list cursor p2 -> {"items": [], "catalog_version": "cv1"}`,
		Good:    `list -> {"items": [..2 items..], "catalog_version": "cv1"}`,
		Check:   checkResultCatalogLastPage,
	}}
}

func checkResultCatalogLastPage(p *lint.Pass) {
	calls := results(p)
	for _, rc := range calls {
		if rc.Op != rulekit.OpCatalog || rc.RequestError {
			continue
		}
		next := rc.Content.Get("next_cursor")
		if verb, _ := rc.Arguments.Str("verb"); verb != string(types.VerbList) || !next.IsString() {
			continue
		}
		for _, f := range calls {
			if f.Op != rulekit.OpCatalog || f.RequestError {
				continue
			}
			lang, _ := f.Arguments.Str("language")
			want, _ := rc.Arguments.Str("language")
			if c, _ := f.Arguments.Str("cursor"); c != next.Text() || lang != want {
				continue
			}
			if items := f.Content.Get("items"); items.IsArray() && len(items.Kids()) == 0 && !f.Content.Has("next_cursor") {
				p.Report(next, "next_cursor %q leads to the recorded next page, which is empty and final; omit next_cursor when no results remain", next.Text())
			}
		}
	}
}
