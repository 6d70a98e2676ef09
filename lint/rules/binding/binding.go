package binding

import (
	"math/big"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-openapi/jsonpointer"
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// This file holds the negotiation and _meta rules of the MCP binding (Part
// III §1, §2, §3.2, §3.3) and the helpers the other binding files share.

// bindingServerResult returns the result through which the Server describes itself
// on the snapshot's revision: server/discover on the stateless revision,
// initialize otherwise (Part III §1.2, §3.3), with a name for messages.
func bindingServerResult(s *snapshot.Snapshot) (*source.Node, string) {
	if s.Stateless() {
		return s.Discover, "server/discover result"
	}
	return s.Initialize, "initialize result"
}

// bindingExposed says whether the input shows the Server exposing
// Pilotage tools, and whether the input lets us tell at all. With a tool
// list the answer is in it; without one, a manifest, a Pilotage _meta value
// or an extension declaration shows a Pilotage Server, which SHOULD expose
// its tools to every Client (Part III §1.3).
func bindingExposed(s *snapshot.Snapshot) (exposed, known bool) {
	if s.ToolsArray != nil {
		return s.PilotageToolsListed(), true
	}
	if s.Manifest != nil {
		return true, true
	}
	for _, r := range []*source.Node{s.Initialize, s.Discover} {
		if r.Path("_meta", types.MetaKey) != nil || r.Path("capabilities", "extensions", types.ExtensionID) != nil {
			return true, true
		}
	}
	return false, false
}

func bindingFixedTool(name string) bool { return slices.Contains(types.FixedTools, name) }

// bindingShorthandKey reports whether a _meta member name is a shorthand of
// the one Pilotage key, which a sender MUST NOT emit (Part III §2): the
// bare "pilotage" in any case, or the full key with its vendor prefix cut
// short ("jafarsa0/pilotage"). A name with the whole vendor prefix is no
// shorthand, whatever follows it: Part III §1.1 names the next major's
// identifier, io.github.jafarsa0/pilotage-v2, and every Pilotage key of a
// later version uses that prefix; nor is the dotted legacy identifier,
// which meta-key-legacy reports.
func bindingShorthandKey(key string) bool {
	lower := strings.ToLower(key)
	if lower == types.ShorthandMetaKey {
		return true
	}
	if lower == types.MetaKey || strings.HasPrefix(lower, types.VendorPrefix) || lower == types.LegacyExtensionID {
		return false
	}
	rest, ok := strings.CutSuffix(types.MetaKey, lower)
	return ok && rest != "" && strings.ContainsAny(rest[len(rest)-1:], "./")
}

func bindingRules() []*lint.Rule {
	return []*lint.Rule{
		&lint.Rule{
			ID: "binding-extension-declared", Severity: lint.Error, Spec: "Part III §1.2",
			Quote:   "A Server implementing Pilotage MUST declare the same extension in its `initialize` result: { \"capabilities\": { \"extensions\": { \"io.github.jafarsa0/pilotage\": {} } } }",
			Keyword: "MUST",
			Summary: "The server/discover result does not declare the Pilotage extension, or a declaration (on any revision) is not an object.",
			Doc:     "A Server implementing Pilotage MUST declare capabilities.extensions[\"io.github.jafarsa0/pilotage\"] with a settings object (an empty object means supported, no settings) in its initialize result, or in its server/discover result on the stateless revision 2026-07-28. Clients negotiate Pilotage through that map; a missing declaration leaves only the pilotage_manifest probe, and a non-object value is not a settings object any SDK can read. On the handshake revisions 2025-06-18 and 2025-11-25 an absent declaration is binding-extension-missing's warning instead, since an intermediary or SDK may have removed it from the recording (Part III §1.2); a missing capabilities object, an extensions member that is not a map and settings that are not an object are this rule's error on every revision. The rule runs when the input shows Pilotage tools (or a manifest, Pilotage _meta or a declaration) and carries the result to check.",
			Bad:     `{"protocolVersion": "2025-11-25", "capabilities": {"tools": {}, "extensions": {"io.github.jafarsa0/pilotage": true}}}`,
			Good:    `{"protocolVersion": "2025-11-25", "capabilities": {"tools": {}, "extensions": {"io.github.jafarsa0/pilotage": {}}}}`,
			Scope:   "The Server's extension declaration: the initialize result, or the server/discover result on the stateless revision 2026-07-28, of an input that shows Pilotage tools (or, with no listing, a manifest, Pilotage _meta or a declaration); a listing that shows no Pilotage tool leaves it silent. It reports an absent declaration on 2026-07-28, and on every revision a missing capabilities object, an extensions member that is not a map and settings that are not an object. What a Client declared is not judged.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §1.2", Quote: "On revisions `2025-06-18` and `2025-11-25`, it is an additive member that some intermediaries or SDKs may remove.", Fixture: "good-handshake-absent"},
				{Spec: "Part III §1.2", Quote: "The Server's extension declarations are obtained through `server/discover`.", Fixture: "lookalikes/good-stateless"},
			},
			Check: bindingExtensionDeclaredCheck,
		},
		&lint.Rule{
			ID: "binding-extension-missing", Severity: lint.Warning, Spec: "Part III §1.2",
			Quote:   "A Server implementing Pilotage MUST declare the same extension in its `initialize` result: { \"capabilities\": { \"extensions\": { \"io.github.jafarsa0/pilotage\": {} } } }",
			Keyword: "MUST",
			Summary: "On MCP 2025-06-18 or 2025-11-25, the recorded initialize result shows no Pilotage extension declaration (an intermediary or SDK may have removed it).",
			Doc:     "A Server implementing Pilotage MUST declare capabilities.extensions[\"io.github.jafarsa0/pilotage\"] in its initialize result. On the handshake revisions 2025-06-18 and 2025-11-25, however, the extensions capability is not yet schema-formal: Part III §1.2 says it \"is an additive member that some intermediaries or SDKs may remove\", and makes pilotage_manifest the guaranteed detection path for that reason. A recording that lacks the declaration therefore does not show that the Server failed to send it, only that it did not arrive; that is an inference, so this rule is a warning. On the stateless revision 2026-07-28, where the member is schema-formal, binding-extension-declared reports the same absence as an error, and a declaration that is present but malformed is its error on every revision.",
			Bad:     `{"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}}`,
			Good:    `{"protocolVersion": "2025-11-25", "capabilities": {"tools": {}, "extensions": {"io.github.jafarsa0/pilotage": {}}}}`,
			Check:   bindingExtensionMissingCheck,
		},
		&lint.Rule{
			ID: "binding-extension-legacy-id", Severity: lint.Error, Spec: "Part III §1.1, §1.2",
			Quote:        "A Server implementing Pilotage MUST declare the same extension in its `initialize` result: { \"capabilities\": { \"extensions\": { \"io.github.jafarsa0/pilotage\": {} } } }",
			Keyword:      "MUST",
			Summary:      "The dotted legacy identifier io.github.jafarsa0.pilotage is used as an extension key.",
			Doc:          "Earlier documents used io.github.jafarsa0.pilotage; under this binding the slash form io.github.jafarsa0/pilotage is the only normative extension identifier, so a peer looking up the slash form does not see a declaration made under the dotted one. A map that also declares the slash form satisfies the declaration duty, and the dotted key beside it is an unknown member receivers ignore, so it draws nothing. The rule checks every MCP extensions map the Server sent: initialize and discover results. What a Client declared in a capture (its initialize request, the stateless per-request client-capabilities metadata) is the Client's duty, not the Server's, and is left alone.",
			Bad:          `{"capabilities": {"extensions": {"io.github.jafarsa0.pilotage": {}}}}`,
			Good:         `{"capabilities": {"extensions": {"io.github.jafarsa0/pilotage": {}}}}`,
			Scope:        "Extension maps the Server sent (initialize and server/discover results) that hold the dotted io.github.jafarsa0.pilotage key and not the slash form, on every revision. A map that also holds the slash form, and every map a Client sent in a capture, are left alone.",
			NoExceptions: "Part III §1.1 to §1.3 and §10.1 item 1 were read. The slash form is \"the only normative identifier\" (§1.1) and no sentence admits the dotted one as a declaration; §1.2's note that intermediaries or SDKs may remove the extensions member concerns a declaration that went missing, not one spelled in the legacy form. A map that also declares the slash form satisfies the duty, so the dotted key beside it draws nothing (fixture good-both-forms).",
			Check:        bindingExtensionLegacyIDCheck,
		},
		&lint.Rule{
			ID: "binding-extension-version", Severity: lint.Info, Spec: "Part III §1.2; Part II §11.1",
			Keyword: "",
			Summary: "The extension settings' version is not major.minor or differs from the manifest's pilotage version.",
			Doc:     "The Pilotage extension settings object MAY carry a version; it is informative, and the manifest's pilotage member is the authoritative version declaration. A version that is not a major.minor string (\"1.1\", not 1.1 or \"1.1.0\"), or that disagrees with the manifest, tells Clients two different things about the same Server. The comparison with the manifest needs the manifest in the input.",
			Bad:     `{"capabilities": {"extensions": {"io.github.jafarsa0/pilotage": {"version": "1.0"}}}}   (manifest says "1.1")`,
			Good:    `{"capabilities": {"extensions": {"io.github.jafarsa0/pilotage": {"version": "1.1"}}}}`,
			Check:   bindingExtensionVersionCheck,
		},
		&lint.Rule{
			ID: "meta-key", Severity: lint.Error, Spec: "Part III §2",
			Quote:   "A sender MUST NOT emit: pilotage or any other shorthand key.",
			Keyword: "MUST NOT",
			Summary: "A _meta object uses a shorthand of the Pilotage key io.github.jafarsa0/pilotage, such as \"pilotage\".",
			Doc:     "The binding defines exactly one Pilotage _meta key, the full reverse-domain io.github.jafarsa0/pilotage, and a sender MUST NOT emit the shorthand pilotage or any other shorthand key; receivers MUST NOT read Pilotage metadata from one, so metadata there is invisible to conformant Clients: a program declaration there means the Client cannot find the program argument. A shorthand is the bare word pilotage, in any case, or the full key with its vendor prefix cut short (jafarsa0/pilotage). Every _meta object of the input is checked (initialize, discover, tools, results).",
			Bad:     `{"_meta": {"pilotage": {"argument": "flow", "language": "buildingflow/1"}}}`,
			Good:    `{"_meta": {"io.github.jafarsa0/pilotage": {"argument": "flow", "language": "buildingflow/1"}}}`,
			Scope:   "Every _meta member name of a Pilotage Server's recorded messages (initialize, discover, tool listings, results), any version: the bare word pilotage in any case, and the full key with its vendor prefix cut short. A key with the whole vendor prefix io.github.jafarsa0/ is left alone whatever follows it, and the dotted legacy identifier is meta-key-legacy's warning.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §1.1", Quote: "A breaking change that creates a new Pilotage major version (Part II Section 11.1) MUST also create a new extension identifier, as the MCP extensions framework requires for breaking changes.", Fixture: "good-next-major"},
				{Spec: "Part III §2", Quote: "Every Pilotage `_meta` key uses the vendor prefix:", Fixture: "good-vendor-key"},
			},
			Check: bindingMetaKeyCheck,
		},
		&lint.Rule{
			ID: "meta-key-legacy", Severity: lint.Warning, Spec: "Part III §1.1, §2",
			Quote:   "That dotted form is not wire-normative under this binding.",
			Keyword: "", Policy: lint.PolicyIgnored,
			Summary: "A _meta object uses the dotted legacy identifier io.github.jafarsa0.pilotage as a key.",
			Doc:     "Earlier Pilotage documents used the dotted identifier io.github.jafarsa0.pilotage. Under this binding it is not wire-normative, and the full key io.github.jafarsa0/pilotage is the one Pilotage _meta key, so receivers ignore metadata under the dotted key: discovery metadata there accelerates nothing. No sentence with a keyword forbids the dotted key itself (Part III §2's MUST NOT names shorthand keys), so this is a warning by the severity policy. Where the dotted key hides a loop tool's program declaration, binding-program-declaration reports the missing declaration as its error instead.",
			Bad:     `{"_meta": {"io.github.jafarsa0.pilotage": {"manifest_uri": "pilotage://manifest"}}}`,
			Good:    `{"_meta": {"io.github.jafarsa0/pilotage": {"manifest_uri": "pilotage://manifest"}}}`,
			Check:   bindingMetaKeyLegacyCheck,
		},
		&lint.Rule{
			ID: "meta-value-object", Severity: lint.Info, Spec: "Part III §2",
			Keyword: "",
			Summary: "The value of the Pilotage _meta key is not an object.",
			Doc:     "The value associated with io.github.jafarsa0/pilotage in any _meta object is an object whose members depend on where it appears (the discovery metadata of §3.2, the program declaration of §5). A string, array or null there cannot carry either, and Clients that decode it as an object fail.",
			Bad:     `{"_meta": {"io.github.jafarsa0/pilotage": "buildingflow/1"}}`,
			Good:    `{"_meta": {"io.github.jafarsa0/pilotage": {"argument": "flow", "language": "buildingflow/1"}}}`,
			Check:   bindingMetaValueObjectCheck,
		},
		&lint.Rule{
			ID: "meta-discovery-manifest", Severity: lint.Error, Spec: "Part III §3.2",
			Quote:   "When the Pilotage `_meta` key is present in this location, at least one of the following MUST be present: - `manifest`; - `manifest_uri`.",
			Keyword: "MUST",
			Summary: "The initialize (or server/discover) Pilotage metadata carries neither manifest nor manifest_uri.",
			Doc:     "When the Pilotage _meta key is present on the initialize result (or the server/discover result on 2026-07-28), it MUST hold an inline manifest object, a manifest_uri string naming the manifest resource, or both. Metadata with neither is a discovery accelerator that leads nowhere; a manifest that is not an object or a URI that is not a string cannot be used. The inline manifest itself is linted by the manifest rules.",
			Bad:     `{"_meta": {"io.github.jafarsa0/pilotage": {}}}`,
			Good:    `{"_meta": {"io.github.jafarsa0/pilotage": {"manifest_uri": "pilotage://manifest"}}}`,
			Scope:   "The Pilotage _meta value of the initialize result and of the server/discover result, when it is an object: it must hold manifest as an object or manifest_uri as a string, on every revision and version. The key on tools or results is another location and not judged here.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §3.2", Quote: "Instead of an inline manifest, the object MAY contain:", Fixture: "good"},
				{Spec: "Part III §3.2", Quote: "Any resource URI advertised through `manifest_uri` is valid.", Fixture: "good-other-uri"},
				{Spec: "Part II §1.2", Quote: "A receiver MUST ignore members it does not recognize in any Pilotage data structure.", Fixture: "good-extra-member"},
			},
			Check: bindingMetaDiscoveryManifestCheck,
		},
		&lint.Rule{
			ID: "meta-manifest-uri-recommended", Severity: lint.Warning, Spec: "Part III §3.2",
			Quote:   "A Server MAY expose the manifest as an MCP resource. The RECOMMENDED URI is: pilotage://manifest",
			Keyword: "RECOMMENDED",
			Summary: "The discovery metadata's manifest_uri names a manifest resource at another URI than pilotage://manifest.",
			Doc:     "A Server that exposes its manifest as an MCP resource is RECOMMENDED to use the URI pilotage://manifest, which Clients can read without the handshake's metadata. Any URI advertised through manifest_uri still works (the pilotage:// scheme is a convention, not a requirement), so this is a warning, and only the string manifest_uri of the initialize (or server/discover) metadata is judged.",
			Bad:     `{"_meta": {"io.github.jafarsa0/pilotage": {"manifest_uri": "https://harbor.example/pilotage/manifest.json"}}}`,
			Good:    `{"_meta": {"io.github.jafarsa0/pilotage": {"manifest_uri": "pilotage://manifest"}}}`,
			Check:   bindingManifestURIRecommendedCheck,
		},
		&lint.Rule{
			ID: "meta-inline-manifest-differs", Severity: lint.Info, Spec: "Part III §3.3",
			Keyword: "",
			Summary: "The inline manifest of the initialize (or server/discover) metadata differs from the pilotage_manifest result.",
			Doc:     "An inline manifest takes precedence for the Session, yet when it and the pilotage_manifest result differ the tool's result is authoritative. Two different manifests from one Server mean Clients that stop at the handshake use stale Languages, tools or capabilities. The finding points at the first difference in the inline manifest, in document order, and names the corresponding place in the tool's result; it needs both in the input.",
			Bad:     `inline {"pilotage": "1.1", "languages": [{"name": "flow/1", ...}]} vs result {"pilotage": "1.1", "languages": [{"name": "flow/2", ...}]}`,
			Good:    `inline and result manifests equal member for member`,
			Check:   bindingInlineManifestDiffersCheck,
		},
	}
}

func bindingExtensionDeclaredCheck(p *lint.Pass) { bindingExtensionDeclaration(p, false) }

func bindingExtensionMissingCheck(p *lint.Pass) { bindingExtensionDeclaration(p, true) }

// bindingExtensionDeclaration judges the Server's extension declaration.
// An absent declaration on a handshake revision is binding-extension-missing's
// warning (absent), since there an intermediary or SDK may have removed
// it from what was recorded (Part III §1.2); everything else is
// binding-extension-declared's error.
func bindingExtensionDeclaration(p *lint.Pass, absent bool) {
	exposed, known := bindingExposed(p.Snap)
	res, what := bindingServerResult(p.Snap)
	if !known || !exposed {
		return
	}
	if res == nil {
		if !absent {
			p.Skip("the Pilotage extension declaration (no " + what + " in the input)")
		}
		return
	}
	stateless := p.Snap.Stateless()
	caps := res.Get("capabilities")
	if caps == nil {
		if !absent {
			p.ReportMissing(res, "the %s lacks capabilities; declare capabilities.extensions[%q] as an object (use {} for no settings)", what, types.ExtensionID)
		}
		return
	}
	if !caps.IsObject() {
		return
	}
	ext := caps.Get("extensions")
	switch {
	case ext == nil && stateless != absent:
		p.ReportMissing(caps, "the capabilities lack an extensions map; declare extensions[%q] as an object (use {} for no settings)%s", types.ExtensionID, bindingStripNote(absent))
		return
	case ext == nil:
		return
	case !ext.IsObject():
		if !absent {
			p.Report(ext, "capabilities.extensions is %s, not an object; make it a map holding %q with a settings object", ext.Kind.Article(), types.ExtensionID)
		}
		return
	}
	v := ext.Get(types.ExtensionID)
	switch {
	case v == nil && ext.Has(types.LegacyExtensionID):
		// binding-extension-legacy-id reports it, with the fix.
	case v == nil && stateless != absent:
		p.ReportMissing(ext, "the extensions map does not declare Pilotage; add %q with a settings object (use {} for no settings)%s", types.ExtensionID, bindingStripNote(absent))
	case v != nil && !v.IsObject() && !absent:
		p.Report(v, "the Pilotage extension settings are %s, not an object; use {} or an object such as {\"version\": %q}", v.Kind.Article(), types.WireVersion)
	}
}

// bindingStripNote is what an absent declaration's message adds on a
// handshake revision, where the recording may not show what the Server
// sent.
func bindingStripNote(absent bool) string {
	if !absent {
		return ""
	}
	return "; before MCP 2026-07-28 an intermediary or SDK may strip it, so check what the Server itself sends"
}

func bindingExtensionLegacyIDCheck(p *lint.Pass) {
	for _, ext := range p.Snap.ExtensionMaps() {
		// Beside the slash form the dotted key is an unknown member that
		// receivers ignore: the declaration the MUST asks for is there.
		// What a Client declared in a capture is the Client's, not the
		// Server's under test.
		if ext.Has(types.ExtensionID) || snapshot.ClientSent(ext) {
			continue
		}
		for _, k := range ext.Kids() {
			if k.Key() == types.LegacyExtensionID {
				p.ReportKey(k, "the dotted extension identifier %q is not wire-normative; declare the extension as %q instead", k.Key(), types.ExtensionID)
			}
		}
	}
}

func bindingExtensionVersionCheck(p *lint.Pass) {
	manifestVersion, _ := p.Snap.Manifest.Str("pilotage")
	for _, ext := range p.Snap.ExtensionMaps() {
		v := ext.Get(types.ExtensionID).Get("version")
		if v == nil {
			continue
		}
		if !v.IsString() {
			p.Report(v, "the extension settings' version is %s; write it as a \"major.minor\" string such as %q", v.Kind.Article(), types.WireVersion)
			continue
		}
		if _, err := types.ParseVersion(v.Text()); err != nil {
			p.Report(v, "the extension settings' version %q is not major.minor; write it like %q, without a patch number", v.Text(), types.WireVersion)
			continue
		}
		// A Client's settings state the version it implements, which may
		// rightly differ from the Server's.
		if r := ext.Parent.Parent; r == nil || r != p.Snap.Initialize && r != p.Snap.Discover {
			continue
		}
		if p.Snap.Manifest == nil {
			p.Skip("the extension settings' version against the manifest's pilotage version")
			continue
		}
		if manifestVersion != "" && v.Text() != manifestVersion {
			p.Report(v, "the extension settings declare version %q but the manifest's pilotage member says %q, which is authoritative; make them equal or drop the version setting", v.Text(), manifestVersion)
		}
	}
}

func bindingMetaKeyCheck(p *lint.Pass) {
	for _, m := range p.Snap.Metas() {
		if snapshot.ClientSent(m) {
			continue
		}
		for _, k := range m.Kids() {
			if bindingShorthandKey(k.Key()) {
				p.ReportKey(k, "the shorthand _meta key %q is not Pilotage metadata and receivers ignore it; move this metadata under the full key %q", k.Key(), types.MetaKey)
			}
		}
	}
}

func bindingMetaKeyLegacyCheck(p *lint.Pass) {
	hidden := map[*source.Node]bool{}
	for _, t := range bindingUndeclaredLoopTools(p.Snap) {
		hidden[t.Meta] = true
	}
	for _, m := range p.Snap.Metas() {
		if hidden[m] || snapshot.ClientSent(m) {
			continue
		}
		for _, k := range m.Kids() {
			if strings.ToLower(k.Key()) == types.LegacyExtensionID {
				p.ReportKey(k, "the dotted legacy key %q is not wire-normative and receivers ignore the metadata under it; move it under the full key %q", k.Key(), types.MetaKey)
			}
		}
	}
}

func bindingMetaValueObjectCheck(p *lint.Pass) {
	for _, m := range p.Snap.Metas() {
		if v := m.Get(types.MetaKey); v != nil && !v.IsObject() {
			p.Report(v, "the Pilotage _meta value is %s; make it an object with the members its location defines (manifest/manifest_uri on discovery results, argument/language on program-valued tools)", v.Kind.Article())
		}
	}
}

func bindingMetaDiscoveryManifestCheck(p *lint.Pass) {
	for _, r := range []*source.Node{p.Snap.Initialize, p.Snap.Discover} {
		v := r.Path("_meta", types.MetaKey)
		if !v.IsObject() {
			continue
		}
		m, uri := v.Get("manifest"), v.Get("manifest_uri")
		if m == nil && uri == nil {
			p.ReportMissing(v, "the Pilotage discovery metadata holds neither manifest nor manifest_uri; add the inline manifest, a manifest_uri such as %q, or remove the key", types.ManifestURI)
			continue
		}
		if m != nil && !m.IsObject() {
			p.Report(m, "the inline manifest is %s; make it the manifest object that pilotage_manifest returns", m.Kind.Article())
		}
		if uri != nil && !uri.IsString() {
			p.Report(uri, "manifest_uri is %s; make it the URI string of the manifest resource, such as %q", uri.Kind.Article(), types.ManifestURI)
		}
	}
}

func bindingManifestURIRecommendedCheck(p *lint.Pass) {
	for _, r := range []*source.Node{p.Snap.Initialize, p.Snap.Discover} {
		uri := r.Path("_meta", types.MetaKey, "manifest_uri")
		if uri.IsString() && uri.Text() != types.ManifestURI {
			p.Report(uri, "manifest_uri is %q; serve the manifest resource at the recommended URI %q, which Clients can read without this metadata", uri.Text(), types.ManifestURI)
		}
	}
}

func bindingInlineManifestDiffersCheck(p *lint.Pass) {
	inline, result := p.Snap.InlineManifest, p.Snap.Manifest
	if inline == nil {
		return
	}
	if result == nil || result == inline {
		p.Skip("the inline manifest against the pilotage_manifest result")
		return
	}
	at, missing, other := bindingDifference(inline, result)
	if at == nil {
		return
	}
	where := other.Pointer()
	switch {
	case missing != "":
		p.ReportMissing(at, "the inline manifest lacks %q, which the pilotage_manifest result has at %s; the tool's result is authoritative, so make the inline manifest equal to it", missing, where+"/"+jsonpointer.Escape(missing))
	case other == nil:
		p.Report(at, "the inline manifest has this value where the pilotage_manifest result has none; the tool's result is authoritative, so make the inline manifest equal to it")
	default:
		p.Report(at, "the inline manifest differs here from the pilotage_manifest result at %s; the tool's result is authoritative, so make the inline manifest equal to it", bindingOrRoot(where))
	}
}

func bindingOrRoot(ptr string) string {
	if ptr == "" {
		return "its root"
	}
	return ptr
}

// bindingDifference compares two JSON values member by member in a's
// document order and returns the first node of a that differs: a member of
// a absent from b (other is nil), a value that differs (other is b's), or
// an object of a lacking member missing that b has.
func bindingDifference(a, b *source.Node) (at *source.Node, missing string, other *source.Node) {
	if a.Kind != b.Kind {
		return a, "", b
	}
	switch a.Kind {
	case source.Object:
		for _, k := range a.Kids() {
			if a.Get(k.Key()) != k {
				continue // a duplicate name: the last one counts
			}
			bk := b.Get(k.Key())
			if bk == nil {
				return k, "", nil
			}
			if at, m, o := bindingDifference(k, bk); at != nil {
				return at, m, o
			}
		}
		for _, k := range b.Kids() {
			if !a.Has(k.Key()) {
				return a, k.Key(), b
			}
		}
	case source.Array:
		for i, k := range a.Kids() {
			if i >= len(b.Kids()) {
				return k, "", nil
			}
			if at, m, o := bindingDifference(k, b.Kids()[i]); at != nil {
				return at, m, o
			}
		}
		if len(b.Kids()) > len(a.Kids()) {
			return a, "", b
		}
	case source.Number:
		x, okx := new(big.Float).SetString(a.Text())
		y, oky := new(big.Float).SetString(b.Text())
		if okx && oky && x.Cmp(y) == 0 || a.Text() == b.Text() {
			return nil, "", nil
		}
		return a, "", b
	case source.String:
		if a.Text() != b.Text() {
			return a, "", b
		}
	case source.Bool:
		if a.Truth() != b.Truth() {
			return a, "", b
		}
	}
	return nil, "", nil
}

// signpostWords matches any of the phrases as whole words, ignoring case:
// a phrase must not touch a letter, digit or underscore on either side, and
// the spaces inside it match any run of spaces or hyphens, so "look up",
// "look-up" and "look  up" are one phrase. A plain scan, not a regular
// expression: compiling the Unicode classes such a pattern needs cost more
// than a whole small lint run.
func signpostWords(phrases ...string) wordMatcher {
	m := make(wordMatcher, len(phrases))
	for i, ph := range phrases {
		m[i] = strings.Fields(strings.ToLower(ph))
	}
	return m
}

// wordMatcher holds lowercased phrases, each split into its words.
type wordMatcher [][]string

// MatchString reports whether s contains one of the phrases.
func (m wordMatcher) MatchString(s string) bool {
	ls := strings.ToLower(s)
	for _, ph := range m {
		for from := 0; ; {
			i := strings.Index(ls[from:], ph[0])
			if i < 0 {
				break
			}
			i += from
			if end, ok := matchPhrase(ls, i, ph); ok && !wordBefore(ls, i) && !wordAfter(ls, end) {
				return true
			}
			_, size := utf8.DecodeRuneInString(ls[i:])
			from = i + size
		}
	}
	return false
}

// matchPhrase matches ph's words at ls[i:], each pair separated by at
// least one space or hyphen, and returns where the match ends. A space is
// what \s was to the pattern this scan replaced: tab, newline, form feed,
// carriage return or space (not unicode.IsSpace, which adds \v and others).
func matchPhrase(ls string, i int, ph []string) (int, bool) {
	at := i + len(ph[0])
	for _, w := range ph[1:] {
		gap := at
		for gap < len(ls) {
			r, size := utf8.DecodeRuneInString(ls[gap:])
			if !strings.ContainsRune(" \t\n\f\r-", r) {
				break
			}
			gap += size
		}
		if gap == at || !strings.HasPrefix(ls[gap:], w) {
			return 0, false
		}
		at = gap + len(w)
	}
	return at, true
}

// isWordRune is a letter, number or underscore: what \pL, \pN and _ were
// to the pattern this scan replaced.
func isWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) }

func wordBefore(s string, i int) bool {
	r, size := utf8.DecodeLastRuneInString(s[:i])
	return size > 0 && isWordRune(r)
}

func wordAfter(s string, i int) bool {
	r, size := utf8.DecodeRuneInString(s[i:])
	return size > 0 && isWordRune(r)
}
