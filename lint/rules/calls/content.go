package calls

import (
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
)

func callContentRules() []*lint.Rule {
	return []*lint.Rule{
		{
			ID: "call-content-missing", Severity: lint.Warning, Spec: "Part III §6",
			Quote:   "`content` is RECOMMENDED.",
			Keyword: "RECOMMENDED",
			Summary: "A recorded Pilotage tool result has no content array.",
			Doc:     "Some MCP hosts show the model only the content blocks of a tool result; a Pilotage result with structuredContent alone reaches such a model empty (Part III §6). One text block with the JSON of structuredContent, or a short summary such as \"invalid: 2 diagnostics\", keeps those hosts working.",
			Bad:     `{"structuredContent": {"valid": true, "diagnostics": []}}`,
			Good:    `{"structuredContent": {"valid": true, "diagnostics": []}, "content": [{"type": "text", "text": "valid: max risk safe"}]}`,
			Check:   checkCallContentMissing,
		},
		{
			ID: "call-content-mirror", Severity: lint.Warning, Spec: "Part III §6",
			Quote:   "It SHOULD contain one text block carrying either: serialized JSON equivalent to `structuredContent`; or a short human-readable summary.",
			Keyword: "SHOULD",
			Summary: "A Pilotage tool result's content is not one text block, or its JSON text differs from structuredContent.",
			Doc:     "content is the fallback for hosts that show the model only text (Part III §6): it should be one text block holding either the JSON of structuredContent or a short summary. Several blocks, a non-text block, or JSON text that says something other than structuredContent give those models a different answer from the one Pilotage-aware clients read.",
			Bad:     `{"structuredContent": {"valid": false, "diagnostics": []}, "content": [{"type": "text", "text": "{\"valid\": true}"}]}`,
			Good:    `{"structuredContent": {"valid": false, "diagnostics": []}, "content": [{"type": "text", "text": "{\"valid\": false, \"diagnostics\": []}"}]}`,
			Check:   checkCallContentMirror,
		},
	}
}

// callPilotageResults returns the recorded results of Pilotage tools: the
// manifest result and every classified call answered with a result.
func callPilotageResults(s *snapshot.Snapshot) []*source.Node {
	var out []*source.Node
	if s.ManifestResult != nil {
		out = append(out, s.ManifestResult)
	}
	for _, c := range s.Calls {
		if c.Op != snapshot.OpOther && c.Result.IsObject() && c.StructuredContent != nil {
			out = append(out, c.Result)
		}
	}
	return out
}

func checkCallContentMissing(p *lint.Pass) {
	for _, r := range callPilotageResults(p.Snap) {
		if !r.Has("content") {
			p.ReportMissing(r, "this Pilotage tool result has no content: add one text block with the JSON of structuredContent or a short summary, for hosts that show the model only content")
		}
	}
}

func checkCallContentMirror(p *lint.Pass) {
	for _, r := range callPilotageResults(p.Snap) {
		content := r.Get("content")
		if !content.IsArray() {
			continue
		}
		if len(content.Kids()) != 1 {
			p.Report(content, "content has %d blocks: carry one text block with the JSON of structuredContent or a short summary", len(content.Kids()))
			continue
		}
		block := content.Kids()[0]
		if t, _ := block.Str("type"); t != "text" {
			p.Report(block, "content's block is not a text block: carry one text block with the JSON of structuredContent or a short summary")
			continue
		}
		text := block.Get("text")
		if !text.IsString() {
			continue
		}
		trimmed := strings.TrimSpace(text.Text())
		if !strings.HasPrefix(trimmed, "{") {
			continue // a summary
		}
		f := source.Parse("content", []byte(trimmed), source.Options{})
		if len(f.Docs) != 1 || len(f.Problems) > 0 || !f.Docs[0].Root.IsObject() {
			continue // prose that happens to start with a brace
		}
		if !source.Equal(f.Docs[0].Root, r.Get("structuredContent")) {
			p.Report(text, "content carries JSON that differs from structuredContent: serialize structuredContent itself, or write a short summary instead")
		}
	}
}
