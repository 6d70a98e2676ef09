package binding

import (
	"encoding/base64"
	"slices"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/source"
)

// resourceRules judge the manifest resource a snapshot read (Part III
// §3.2): the snapshotter reads the resource the server advertises and
// records it as the snapshot's manifest_resource member.
func resourceRules() []*lint.Rule {
	return []*lint.Rule{
		{
			ID: "binding-manifest-resource-differs", Severity: lint.Error, Spec: "Part III §3.2, §8.3",
			Quote:   "When resources are exposed: 1. their content MUST equal the corresponding tool response;",
			Keyword: "MUST",
			Scope:   "The manifest resource a snapshot read in the session it recorded: the resource the handshake metadata's manifest_uri names, or pilotage://manifest when resources/list lists it (Part III §3.2), read with resources/read right after pilotage_manifest. Its contents (one text, or one base64 blob, holding JSON) are compared as a JSON value with the pilotage_manifest result's structuredContent, the manifest the tool responds with; member order and white space do not count. A read that failed, a snapshot without the tool's result, and a resource that differs when the second pilotage_manifest call (manifest_again) drew no manifest, so that a change in between cannot be ruled out, are not judged.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §3.3", Quote: "When the Server changes its manifest during a Session and declares `tools.listChanged`, it SHOULD emit:", Fixture: "good-changed"},
			},
			Summary: "The manifest resource the server advertises holds another manifest than pilotage_manifest returns.",
			Doc:     "A Server MAY expose its manifest as an MCP resource (Part III §3.2), and the resources it exposes MUST hold what the corresponding tool responds (§8.3): Hosts that read the resource and Hosts that call pilotage_manifest must see the same Languages, tools and capabilities. The finding sits on the resource's contents and names the first difference. A manifest may change during a Session (§3.3), so when the two differ the snapshotter calls pilotage_manifest once more (manifest_again): when that answer differs from the first, the manifest changed in between and nothing is judged.",
			Bad:     `"manifest": {"pilotage": "1.1", "languages": [{"name": "flow/1", ...}]}, "manifest_resource": {"uri": "pilotage://manifest", "result": {"contents": [{"uri": "pilotage://manifest", "text": "{\"pilotage\": \"1.1\", \"languages\": [{\"name\": \"flow/2\", ...}]}"}]}}`,
			Good:    `"manifest": {"pilotage": "1.1", "languages": [{"name": "flow/1", ...}]}, "manifest_resource": {"uri": "pilotage://manifest", "result": {"contents": [{"uri": "pilotage://manifest", "text": "{\"pilotage\": \"1.1\", \"languages\": [{\"name\": \"flow/1\", ...}]}"}]}}`,
			Check:   bindingManifestResourceCheck,
		},
	}
}

func bindingManifestResourceCheck(p *lint.Pass) {
	var read *source.Node
	for _, f := range p.Snap.Files {
		for _, d := range f.Docs {
			if r := d.Root.Get("manifest_resource"); r.IsObject() && read == nil {
				read = r
			}
		}
	}
	if read == nil {
		return
	}
	uri, _ := read.Str("uri")
	tool := p.Snap.ManifestResult
	if !read.Get("result").IsObject() || tool == nil || !p.Snap.Manifest.IsObject() {
		p.Skip("the manifest resource against the pilotage_manifest result (the read failed, or the tool's result is not recorded)")
		return
	}
	if again := read.Get("manifest_again"); again != nil {
		m := again.Get("result").Get("structuredContent")
		if !m.IsObject() {
			// No second answer to tell a change (Part III §3.3) from a
			// resource that differs.
			p.Skip("the manifest resource against the pilotage_manifest result (the second pilotage_manifest call, which tells a manifest that changed in between from a resource that differs, drew no manifest)")
			return
		}
		if !source.Equal(m, p.Snap.Manifest) {
			// The manifest changed during the session (Part III §3.3).
			return
		}
	}
	contents := read.Get("result").Get("contents")
	items := contents.Objects()
	if len(items) != 1 || len(contents.Kids()) != 1 {
		p.Report(contents, "the manifest resource %s holds %d contents where pilotage_manifest responds with one manifest; return the manifest as one JSON text", uri, len(contents.Kids()))
		return
	}
	at, text := items[0].Get("text"), ""
	switch {
	case at.IsString():
		text = at.Text()
	case items[0].Get("blob").IsString():
		at = items[0].Get("blob")
		b, err := base64.StdEncoding.DecodeString(at.Text())
		if err != nil {
			p.Report(at, "the manifest resource %s holds a blob that is not base64, so no Host can read the manifest from it; return the manifest that pilotage_manifest responds with", uri)
			return
		}
		text = string(b)
	default:
		p.Report(items[0], "the manifest resource %s holds neither text nor a blob; return the manifest that pilotage_manifest responds with", uri)
		return
	}
	f := source.Parse(uri, []byte(text), source.Options{})
	if len(f.Docs) != 1 || slices.ContainsFunc(f.Problems, func(pr source.Problem) bool {
		return pr.Code == source.ProblemSyntax || pr.Code == source.ProblemTrailing || pr.Code == source.ProblemDepth
	}) {
		p.Report(at, "the manifest resource %s holds text that is not one JSON value, where pilotage_manifest responds with the manifest; return the manifest as JSON", uri)
		return
	}
	diff, missing, _ := bindingDifference(f.Docs[0].Root, p.Snap.Manifest)
	if diff == nil && missing == "" {
		return
	}
	where := diff.Pointer()
	if missing != "" {
		where += "/" + missing + " (missing)"
	}
	if where == "" {
		where = "its root"
	}
	p.Report(at, "the manifest resource %s differs from the pilotage_manifest result, first at %s of its manifest; make the resource hold the manifest the tool responds with", uri, strings.TrimSpace(where))
}
