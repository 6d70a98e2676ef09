package result

import (
	"strconv"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

func guideRules() []*lint.Rule {
	return []*lint.Rule{
		&lint.Rule{
			ID: "result-guide-core-missing", Severity: lint.Error, Spec: "Part II §5.2",
			Quote:   "For every Language, at least one guide with `level: \"core\"` MUST exist.",
			Keyword: "MUST",
			Summary: "A recorded guide index has no guide with level core.",
			Doc:     "For every Language at least one guide with level core MUST exist (Part II §5.2): it is the minimum instruction set an agent reads before writing a program. An index without one leaves a context-constrained agent no way to choose what to read first.",
			Bad:     `{"guides": [{"id": "ref", "level": "reference", "topics": ["closed-sets"], ...}]}`,
			Good:    `{"guides": [{"id": "intro", "level": "core", "topics": ["syntax"], ...}, {"id": "ref", "level": "reference", "topics": ["closed-sets"], ...}]}`,
			Scope:   "Every recorded guide index result (pilotage_get_guide without id) that is not a request error; every Language, every manifest version. An index answered for a language the manifest does not declare is judged too: the name is either an unknown Language, whose index Part III §4.1 makes a request error, or a Language the Server has, which needs its core guide, so a successful index without a core guide (an empty {\"guides\": []}) is wrong either way.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §4.1", Quote: "An unknown: - `language`; - `id`; - `topic` is a request error under Section 7.", Fixture: "lookalikes/good-unknown-language"},
			},
			Check: checkResultGuideCore,
		},
		&lint.Rule{
			ID: "result-guide-core-too-large", Severity: lint.Warning, Spec: "Part II §5.2",
			Quote:   "The `size_bytes` of a core guide SHOULD be no greater than 8192 bytes. This recommendation allows a context-constrained Client to retrieve the minimum required instruction set at low cost.",
			Keyword: "SHOULD",
			Summary: "A core guide's size_bytes is above 8192.",
			Doc:     "The size_bytes of a core guide SHOULD be no greater than 8192 bytes (Part II §5.2), so that a context-constrained client can afford the minimum instruction set. Move reference material into reference or examples guides.",
			Bad:     `{"id": "intro", "level": "core", "size_bytes": 24000, ...}`,
			Good:    `{"id": "intro", "level": "core", "size_bytes": 6100, ...}`,
			Check:   checkResultGuideCoreSize,
		},
		&lint.Rule{
			ID: "result-guide-closed-sets", Severity: lint.Error, Spec: "Part II §5.2",
			Quote:   "For every Language, exactly one guide MUST include the reserved topic identifier: closed-sets",
			Keyword: "MUST",
			Summary: "A recorded guide index does not have exactly one closed-sets guide at level reference.",
			Doc:     "For every Language exactly one guide MUST list the reserved topic closed-sets, and that guide MUST have level reference (Part II §5.2). It enumerates the diagnostic codes, statuses, risk levels and other closed sets a client branches on; none leaves them undocumented, two leave it ambiguous which is authoritative.",
			Bad:     `{"guides": [{"id": "intro", "level": "core", "topics": ["syntax", "closed-sets"], ...}]}`,
			Good:    `{"guides": [{"id": "intro", "level": "core", "topics": ["syntax"], ...}, {"id": "sets", "level": "reference", "topics": ["closed-sets"], ...}]}`,
			Scope:   "Every recorded guide index result that is not a request error: the guides listing the topic closed-sets, their count and level; every Language, every manifest version.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §4.1", Quote: "An unknown: - `language`; - `id`; - `topic` is a request error under Section 7.", Fixture: "lookalikes/good-unknown-language"},
			},
			Check: checkResultGuideClosedSets,
		},
		&lint.Rule{
			ID: "result-guide-index-body", Severity: lint.Error, Spec: "Part II §6.2; Part III §4.1",
			Quote:        "A Server MUST support the index form so that a Client can choose which guides to retrieve without first loading their content.",
			Keyword:      "MUST",
			Summary:      "An entry of a recorded guide index carries a body.",
			Doc:          "The index form returns every guide field except the body, so that a client can choose what to read without loading the content (Part II §6.2); body exists only in the fetch form (Part III §4.1). A body in the index spends the context budget the index exists to protect.",
			Bad:          `{"guides": [{"id": "intro", "level": "core", "body": "# Flows ...", ...}]}`,
			Good:         `{"guides": [{"id": "intro", "level": "core", "size_bytes": 6100, ...}]}`,
			Scope:        "The entries of every recorded guide index result (pilotage_get_guide without id) that is not a request error; fetch and topic-fetch results are not judged.",
			NoExceptions: "Part II §6.2 (the index form returns every guide field except the body) and Part III §4.1 (index form; the body field exists only in the fetch form) were read: no sentence lets an index entry carry a body.",
			Check:        checkResultGuideIndexBody,
		},
		&lint.Rule{
			ID: "result-guide-size-mismatch", Severity: lint.Error, Spec: "Part II §5.2",
			Quote:   "| `size_bytes` | integer | M | UTF-8 size of the guide body in bytes. |",
			Keyword: "MUST",
			Summary: "A guide's size_bytes is not the UTF-8 length of its recorded body.",
			Doc:     "size_bytes is the normative size of a guide: the UTF-8 size of its body in bytes (Part II §5.2). Clients budget their context with it before fetching. The linter compares it with a fetched body: on the fetch result itself and on index entries of the same guide id and version. A topic fetch returns part of the body and is not compared.",
			Bad:     `{"guide": {"id": "intro", "size_bytes": 10, "body": "héllo", ...}}`,
			Good:    `{"guide": {"id": "intro", "size_bytes": 6, "body": "héllo", ...}}`,
			Scope:   "Recorded guide fetch results without topic (size_bytes against the UTF-8 length of the body), and index entries of the same guide id and version as a recorded fetch; topic fetches are not compared.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §4.1", Quote: "the response uses the same guide shape, but `body` contains only the requested topic.", Fixture: "good-topic"},
			},
			Check: checkResultGuideSize,
		},
	}
}

// resultMembers returns member name of every recorded op result that is
// not a request error, when it has the given kind: the guide arrays of
// index results, the plans of validate results.
func resultMembers(calls []*rulekit.Result, op rulekit.Op, name string, kind source.Kind) []*source.Node {
	var out []*source.Node
	for _, rc := range calls {
		if rc.Op == op && !rc.RequestError {
			if m := rc.Content.Get(name); m != nil && m.Kind == kind {
				out = append(out, m)
			}
		}
	}
	return out
}

// resultIndexes returns the guide arrays of recorded index results.
func resultIndexes(calls []*rulekit.Result) []*source.Node {
	return resultMembers(calls, rulekit.OpGuideIndex, "guides", source.Array)
}

func resultHasTopic(g *source.Node, topic string) bool {
	topics := g.Get("topics")
	if !topics.IsArray() {
		return false
	}
	for _, t := range topics.Kids() {
		if t.IsString() && t.Text() == topic {
			return true
		}
	}
	return false
}

// resultLanguageIndexes returns the guide arrays of recorded index results
// for a Language of the manifest: an index for a name the manifest does
// not declare is no Language's (that name is a not_found request error,
// Part III §4.1). Without a recorded manifest every index is judged.
func resultLanguageIndexes(p *lint.Pass) []*source.Node {
	var calls []*rulekit.Result
	for _, rc := range results(p) {
		if rc.Lang != nil || len(p.Snap.Languages) == 0 {
			calls = append(calls, rc)
		}
	}
	return resultIndexes(calls)
}

func checkResultGuideCore(p *lint.Pass) {
	for _, rc := range results(p) {
		idx := rc.Content.Get("guides")
		if rc.Op != rulekit.OpGuideIndex || rc.RequestError || !idx.IsArray() {
			continue
		}
		core := false
		for _, g := range idx.Objects() {
			if lv, _ := g.Str("level"); lv == string(types.GuideCore) {
				core = true
			}
		}
		switch {
		case core:
		case rc.Lang != nil || len(p.Snap.Languages) == 0:
			p.Report(idx, "this guide index has no guide with level core; every Language needs at least one core guide, the minimum an agent reads first")
		default:
			// A name the manifest does not declare is either an unknown
			// Language, whose index is a request error (Part III §4.1), or
			// a Language without a core guide: both are wrong.
			lang, _ := rc.Arguments.Str("language")
			p.Report(idx, "pilotage_get_guide answered the index of %q, a Language the manifest does not declare, with no core guide; an unknown language is a not_found request error (isError: true), and a Language the Server has needs a core guide", lang)
		}
	}
}

func checkResultGuideCoreSize(p *lint.Pass) {
	var guides []*source.Node
	for _, rc := range results(p) {
		switch {
		case rc.RequestError:
		case rc.Op == rulekit.OpGuideIndex:
			guides = append(guides, rc.Content.Get("guides").Objects()...)
		case rc.Op == rulekit.OpGuideFetch && rc.Content.Get("guide").IsObject():
			guides = append(guides, rc.Content.Get("guide"))
		}
	}
	for _, g := range guides {
		size := g.Get("size_bytes")
		if lv, _ := g.Str("level"); lv != string(types.GuideCore) || size == nil || size.Kind != source.Number {
			continue
		}
		if n, err := strconv.ParseFloat(size.Text(), 64); err == nil && n > types.CoreGuideMaxBytes {
			p.Report(size, "core guide %s is %s bytes, above the %d a core guide should stay within; move reference material to a reference or examples guide", rulekit.QuoteJSON(g.Get("id")), size.Text(), types.CoreGuideMaxBytes)
		}
	}
}

func checkResultGuideClosedSets(p *lint.Pass) {
	for _, idx := range resultLanguageIndexes(p) {
		var sets []*source.Node
		for _, g := range idx.Objects() {
			if resultHasTopic(g, types.ClosedSetsTopic) {
				sets = append(sets, g)
			}
		}
		if len(sets) == 0 {
			p.Report(idx, "no guide in this index lists the topic closed-sets; exactly one reference guide must enumerate the Language's closed sets")
			continue
		}
		for i, g := range sets {
			switch lv := g.Get("level"); {
			case i > 0:
				p.Report(g.Get("topics"), "guide %s is a second guide with topic closed-sets (the first is %s); exactly one guide may carry it", rulekit.QuoteJSON(g.Get("id")), rulekit.QuoteJSON(sets[0].Get("id")))
			case lv.IsString() && lv.Text() != string(types.GuideReference):
				p.Report(lv, "the closed-sets guide %s has level %q; it must have level reference", rulekit.QuoteJSON(g.Get("id")), lv.Text())
			}
		}
	}
}

func checkResultGuideIndexBody(p *lint.Pass) {
	for _, idx := range resultIndexes(results(p)) {
		for _, g := range idx.Objects() {
			if b := g.Get("body"); b != nil {
				p.ReportKey(b, "guide index entries carry every field except the body; drop body here and serve it from the fetch form (with id)")
			}
		}
	}
}

func checkResultGuideSize(p *lint.Pass) {
	calls := results(p)
	type fetched struct {
		version string
		length  int
	}
	bodies := map[string]fetched{}
	for _, rc := range calls {
		if rc.Op != rulekit.OpGuideFetch || rc.RequestError || rc.Arguments.Has("topic") {
			continue
		}
		g := rc.Content.Get("guide")
		body, size := g.Get("body"), g.Get("size_bytes")
		if !body.IsString() {
			continue
		}
		n := len(body.Text()) // Go strings are the UTF-8 bytes
		id, _ := g.Str("id")
		version, _ := g.Str("version")
		bodies[id] = fetched{version, n}
		if size != nil && size.Kind == source.Number && size.Text() != strconv.Itoa(n) {
			p.Report(size, "size_bytes is %s but the body is %d bytes of UTF-8; set size_bytes to the body's UTF-8 length", size.Text(), n)
		}
	}
	for _, idx := range resultIndexes(calls) {
		for _, g := range idx.Objects() {
			id, _ := g.Str("id")
			version, _ := g.Str("version")
			f, ok := bodies[id]
			size := g.Get("size_bytes")
			if ok && f.version == version && size != nil && size.Kind == source.Number && size.Text() != strconv.Itoa(f.length) {
				p.Report(size, "the index says guide %q is %s bytes but its recorded fetch returned a body of %d bytes; set size_bytes to the body's UTF-8 length", id, size.Text(), f.length)
			}
		}
	}
}
