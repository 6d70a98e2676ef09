package result

import (
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
)

// These rules read one recorded result for what its own parts must agree
// on: identifiers a field table calls unique, the plan steps that arm and
// loop name, and risk labels against their hints (Part II §5.2 to §5.6).
func identityRules() []*lint.Rule {
	return []*lint.Rule{
		{
			ID: "result-guide-id-duplicate", Severity: lint.Warning, Spec: "Part II §5.2", Policy: lint.PolicyContradiction,
			Quote:   "| `id` | string | M | Identifier unique among all guides exposed by the Server. |",
			Summary: "A recorded guide index lists two guides with one id.",
			Doc:     "A guide id is unique among all guides the Server exposes (Part II §5.2): the fetch form selects a guide by it, and Clients cache by it. Two index entries with one id leave a Client unable to ask for either, and the one it gets may not be the one whose size and level it budgeted for.",
			Bad:     `{"guides": [{"id": "reference", "level": "reference", ...}, {"id": "reference", "level": "examples", ...}]}`,
			Good:    `{"guides": [{"id": "reference", "level": "reference", ...}, {"id": "examples", "level": "examples", ...}]}`,
			Check:   checkResultGuideIDDuplicate,
		},
		{
			ID: "result-catalog-id-duplicate", Severity: lint.Warning, Spec: "Part II §5.4", Policy: lint.PolicyContradiction,
			Quote:   "| `id` | string | M | Stable identifier unique within the catalog. |",
			Summary: "One recorded catalog listing carries two entries with one id.",
			Doc:     "A catalog entry id is unique within the catalog (Part II §5.4): programs name entries by it, validation resolves it, and the Host's gate reads an entry's risk by it. A listing with two entries of one id, say with different risk, leaves open which one a program invokes.",
			Bad:     `{"items": [{"id": "light.lobby", "risk": "write", ...}, {"id": "light.lobby", "risk": "safe", ...}], "catalog_version": "cv_1"}`,
			Good:    `{"items": [{"id": "light.lobby", "risk": "write", ...}, {"id": "light.floor2_east", "risk": "write", ...}], "catalog_version": "cv_1"}`,
			Check:   checkResultCatalogIDDuplicate,
		},
		{
			ID: "result-plan-construct-missing", Severity: lint.Error, Spec: "Part II §5.6",
			Quote:        "The Engine MUST derive plans according to the following rules: - branches and loops appear as plan steps of their own;",
			Keyword:      "MUST",
			Summary:      "A plan step's arm.branch or loop names no step of the same plan.",
			Doc:          "Branches and loops appear in a plan as steps of their own, and a step inside an arm or a loop body names its enclosing branch in arm.branch and its innermost loop in loop (Part II §5.6). A name that no step of the plan carries leaves the arm or body without its construct: the Host cannot see the condition that selects it, and trace matching cannot find the branch whose decisions select the arm.",
			Bad:          `{"steps": [{"id": "check", ...}, {"id": "notify", "calls": "notify.facilities", "arm": {"branch": "check_time", "label": "then"}, ...}], ...}`,
			Good:         `{"steps": [{"id": "check_time", ...}, {"id": "notify", "calls": "notify.facilities", "arm": {"branch": "check_time", "label": "then"}, ...}], ...}`,
			Scope:        "The arm.branch and loop values of every step of every plan of a recorded validate result, against the ids of the same plan's steps; every Language, every manifest version.",
			NoExceptions: "Part II §5.6 was read: branches and loops appear as plan steps of their own under the same MUST, and a plan MAY omit only steps with no externally visible effect; a branch or loop enclosing a listed step has the effect of that step, so it is never omitted. Part II §5.8.3 adds no plan steps for expanded sub-programs.",
			Check:        checkResultPlanConstructMissing,
		},
		{
			ID: "result-risk-safe-destructive", Severity: lint.Error, Spec: "Part II §5.3",
			Quote:        "For example, a risk level presented as safe MUST NOT carry: { \"destructive\": true }",
			Keyword:      "MUST NOT",
			Summary:      "A catalog entry, plan step or plan maximum labelled safe carries destructive: true.",
			Doc:          "The engine-defined risk label must be consistent with risk_hints, and the spec gives the one fixed case: a risk level presented as safe must not carry destructive: true (Part II §5.3). Generic Clients show the label to people while Hosts gate on the hints; a safe label on a destructive operation tells the person approving it the opposite of what the gate knows. Entry risks, plan step risks and a plan's max_risk against max_risk_hints are checked; the label is compared exactly, ignoring case.",
			Bad:          `{"id": "lock.dock_door", "risk": "safe", "risk_hints": {"readOnly": false, "destructive": true, "openWorld": false}, ...}`,
			Good:         `{"id": "lock.dock_door", "risk": "destructive", "risk_hints": {"readOnly": false, "destructive": true, "openWorld": false}, ...}`,
			Scope:        "Every recorded risk label with its hints: catalog entries of list and get results, plan steps, and a plan's max_risk with max_risk_hints; the label is compared with safe ignoring case; every Language, every manifest version.",
			NoExceptions: "Part II §1.5 (engine-defined sets), §5.3 (risk, entry-level risk) and §5.4 (honest risk) were read: the engine chooses its labels, but no sentence lets one presented as safe carry destructive true.",
			Check:        checkResultRiskSafeDestructive,
		},
		{
			ID: "result-invoked-entry-input-schema-missing", Severity: lint.Warning, Spec: "Part II §5.4, §5.6, §5.8", Policy: lint.PolicyContradiction,
			Quote:   "| `input_schema` | JSON Schema | M for callable kinds | Declared shape of the callable entry's input. |",
			Summary: "A catalog entry that a recorded plan step or trace entry names in calls lacks input_schema.",
			Doc:     "input_schema is mandatory for callable kinds (Part II §5.4), and which kinds are callable is engine-defined prose in the closed-sets guide, which the linter does not read. A plan step's or trace entry's calls names the entry the step invokes (§5.6, §5.8), so an entry some recorded step names is probably callable, and without input_schema an agent has no shape to build the invocation's input from. That is an inference: calls MUST be present for an invoking step and is only required absent for non-referencing steps, so a step that merely references an entry (a table it reads) may name it too. So this is a warning, and the message says what was inferred. The entry is read from the recorded catalog responses, and is matched with the calls of the same Language by id.",
			Bad:     `list -> {"items": [{"id": "notify.facilities", "kind": "notifier", "name": "Facilities", "risk": "external_side_effect", ...no input_schema}]}   validate -> {"plan": {"steps": [{"id": "notify", "calls": "notify.facilities", ...}]}}`,
			Good:    `list -> {"items": [{"id": "notify.facilities", "kind": "notifier", "name": "Facilities", "risk": "external_side_effect", "input_schema": {"type": "object"}, ...}]}   validate -> {"plan": {"steps": [{"id": "notify", "calls": "notify.facilities", ...}]}}`,
			Check:   checkResultInvokedInputSchema,
		},
	}
}

func checkResultGuideIDDuplicate(p *lint.Pass) {
	for _, idx := range resultIndexes(results(p)) {
		seen := map[string]*source.Node{}
		for _, g := range idx.Objects() {
			id := g.Get("id")
			if !id.IsString() {
				continue
			}
			if first := seen[id.Text()]; first != nil {
				p.With(lint.Also{Node: first, Note: "the first guide with this id"}).Report(id, "this index lists guide id %q twice: a guide id is unique among the Server's guides, so give each guide its own", id.Text())
				continue
			}
			seen[id.Text()] = id
		}
	}
}

func checkResultCatalogIDDuplicate(p *lint.Pass) {
	for _, rc := range results(p) {
		if rc.Op != rulekit.OpCatalog || rc.RequestError {
			continue
		}
		seen := map[string]*source.Node{}
		for _, e := range rc.Content.Get("items").Objects() {
			id := e.Get("id")
			if !id.IsString() {
				continue
			}
			if first := seen[id.Text()]; first != nil {
				p.With(lint.Also{Node: first, Note: "the first entry with this id"}).Report(id, "this listing carries entry id %q twice: an entry id is unique within the catalog, so list each entry once", id.Text())
				continue
			}
			seen[id.Text()] = id
		}
	}
}

func checkResultPlanConstructMissing(p *lint.Pass) {
	for _, pl := range resultPlans(results(p)) {
		ids := map[string]bool{}
		for _, s := range pl.Get("steps").Objects() {
			if id, ok := s.Str("id"); ok {
				ids[id] = true
			}
		}
		for _, s := range pl.Get("steps").Objects() {
			for what, ref := range map[string]*source.Node{"arm.branch": s.Path("arm", "branch"), "loop": s.Get("loop")} {
				if ref.IsString() && !ids[ref.Text()] {
					p.Report(ref, "%s names %q, which no step of this plan has as id: a branch or loop appears in the plan as a step of its own", what, ref.Text())
				}
			}
		}
	}
}

// resultRiskPairs returns each recorded risk label with the hints it
// travels with: entries, plan steps, and a plan's maximum.
func resultRiskPairs(calls []*rulekit.Result) [][2]*source.Node {
	var out [][2]*source.Node
	for _, e := range rulekit.Entries(calls) {
		out = append(out, [2]*source.Node{e.Get("risk"), e.Get("risk_hints")})
	}
	for _, pl := range resultPlans(calls) {
		out = append(out, [2]*source.Node{pl.Get("max_risk"), pl.Get("max_risk_hints")})
		for _, s := range pl.Get("steps").Objects() {
			out = append(out, [2]*source.Node{s.Get("risk"), s.Get("risk_hints")})
		}
	}
	return out
}

func checkResultRiskSafeDestructive(p *lint.Pass) {
	for _, pair := range resultRiskPairs(results(p)) {
		label, hints := pair[0], pair[1]
		if label.IsString() && strings.EqualFold(label.Text(), "safe") && rulekit.True(hints.Get("destructive")) {
			p.With(lint.Also{Node: label, Note: "the risk label"}).Report(hints.Get("destructive"), "risk %q carries destructive: true: a risk level presented as safe must not, so label it by what it may destroy or correct the hint", label.Text())
		}
	}
}

func checkResultInvokedInputSchema(p *lint.Pass) {
	calls := results(p)
	// Two Languages may keep catalogs whose ids collide, so an invocation
	// proves callable only the entry of its own Language's catalog.
	type key struct {
		lang *snapshot.Language
		id   string
	}
	invoked := map[key]*source.Node{}
	note := func(rc *rulekit.Result, steps []*source.Node) {
		for _, s := range steps {
			if c := s.Get("calls"); c.IsString() && invoked[key{rc.Lang, c.Text()}] == nil {
				invoked[key{rc.Lang, c.Text()}] = c
			}
		}
	}
	for _, rc := range calls {
		switch {
		case rc.RequestError:
		case rc.Op == rulekit.OpValidate:
			note(rc, rc.Content.Path("plan", "steps").Objects())
		case rc.Op == rulekit.OpExecute || rc.Op == rulekit.OpTraceFetch:
			note(rc, rc.Content.Path("trace", "steps").Objects())
		}
	}
	for _, rc := range calls {
		for _, e := range rulekit.Entries([]*rulekit.Result{rc}) {
			id, _ := e.Str("id")
			if by := invoked[key{rc.Lang, id}]; by != nil && !e.Has("input_schema") {
				p.With(lint.Also{Node: by, Note: "a recorded step that names it in calls"}).ReportMissing(e, "entry %q has no input_schema, and a recorded step names it in calls, so it is inferred to be callable (the closed-sets guide decides which kinds are); if it is, declare the input it accepts", id)
			}
		}
	}
}
