package snapshot

import (
	"fmt"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// Detect guesses the kind of a parsed file from its shape.
func Detect(f *source.File) Kind {
	if len(f.Docs) > 1 {
		// Many documents are a capture only if they are JSON-RPC: a JSON
		// Lines log of something else is no Pilotage input.
		for _, d := range f.Docs {
			if d.Root.IsObject() && d.Root.Has("jsonrpc") {
				return KindCapture
			}
		}
		return KindUnknown
	}
	if len(f.Docs) == 0 {
		return KindUnknown
	}
	return detectNode(f.Docs[0].Root)
}

func detectNode(n *source.Node) Kind {
	switch {
	case n.IsArray():
		if len(n.Kids()) > 0 && n.Kids()[0].IsObject() && n.Kids()[0].Has("jsonrpc") {
			return KindCapture
		}
		if len(n.Kids()) == 0 || n.Kids()[0].IsObject() && n.Kids()[0].Has("name") {
			return KindTools
		}
	case n.IsObject():
		switch {
		case n.Has("jsonrpc"):
			return KindJSONRPC
		case ManifestLike(n):
			return KindManifest
		case n.Has("initialize") || n.Has("discover") || n.Has("manifest") || n.Has("calls"):
			return KindSnapshot
		// A snapshot's tools may be a ListToolsResult and its resources
		// are one; a tools/list result's tools is an array.
		case n.Get("tools").IsObject() || n.Get("resources").IsObject():
			return KindSnapshot
		case n.Has("tools"):
			return KindToolsList
		case n.Has("structuredContent") || n.Has("isError") || n.Get("content").IsArray():
			return KindCallResult
		case n.Has("protocolVersion"):
			return KindInitialize
		case n.Has("serverInfo") || n.Has("capabilities") || n.Has("supportedVersions"):
			return KindDiscover
		}
	}
	return KindUnknown
}

// ManifestLike reports whether object n reads as a Pilotage manifest,
// however broken: its languages hold a Language entry (an object with a
// member only Language entries have, or a family/version name), or it
// carries a "pilotage" version ("1.1", "1.1.0", "2.0") with languages
// missing, empty or not an array. A "languages" array of strings is the
// locale list of an app or i18n config, and one of other objects a list of
// locales described ({"code": "fr", "name": "Français"}): neither is a
// manifest, even beside a "pilotage" member, which is a French word.
func ManifestLike(n *source.Node) bool {
	if !n.IsObject() || isProgramDeclaration(n) {
		return false
	}
	langs := n.Get("languages")
	for _, l := range langs.Items() {
		if langs.IsArray() && languageEntryLike(l) {
			return true
		}
	}
	if !versionLike(n.Get("pilotage")) {
		return false
	}
	return !langs.IsArray() || len(langs.Kids()) == 0
}

// languageMembers are the members only a Language entry has (Part II §5.1,
// Part III §4); name and title are left out, which a locale has too.
var languageMembers = []string{"guides", "catalog", "loop", "capabilities", "locator", "context_schema", "execution", "trace", "trace_subprogram", "retention", "promotion_authority", "guides_resource", "catalog_resource"}

func languageEntryLike(l *source.Node) bool {
	if !l.IsObject() {
		return false
	}
	for _, m := range languageMembers {
		if l.Has(m) {
			return true
		}
	}
	name, ok := l.Str("name")
	if !ok {
		return false
	}
	_, err := types.ParseLanguageID(name)
	return err == nil
}

// versionLike reports whether v is a string of digits and dots starting
// with a digit: a Pilotage version, well formed or not.
func versionLike(v *source.Node) bool {
	if !v.IsString() || v.Text() == "" || v.Text()[0] < '0' || v.Text()[0] > '9' {
		return false
	}
	return strings.Trim(v.Text(), "0123456789.") == ""
}

// isProgramDeclaration tells a multi-Language program declaration (Part
// III §5), {"languages": [{"argument", "language"}, ...]} with no "pilotage",
// from a manifest whose "pilotage" member is missing.
func isProgramDeclaration(n *source.Node) bool {
	ls := n.Get("languages").Items()
	if len(ls) == 0 {
		return false
	}
	for _, l := range ls {
		if !l.Has("argument") || l.Has("name") {
			return false
		}
	}
	return true
}

// Options configure BuildWith.
type Options struct {
	// Kind forces the input's kind; "" detects it.
	Kind Kind
	// Manifest (--manifest) supplies the manifest to an input that carries
	// no pilotage_manifest result of its own; an inline initialize
	// manifest yields to it, since Part III §3.3 makes the result
	// authoritative. It is not used for an input of unknown kind.
	Manifest *source.File
}

// ManifestError says the Options.Manifest file is no manifest; the file
// stays out of the snapshot, so no rule reports inside it.
type ManifestError struct {
	File *source.File
}

func (e *ManifestError) Error() string {
	return e.File.Name + ": --manifest expects a manifest or a pilotage_manifest result"
}

// Build finds the surfaces in f. With kind "" the kind is detected; a forced
// kind that the document does not fit is an error.
func Build(f *source.File, kind Kind) (*Snapshot, error) {
	return BuildWith(f, Options{Kind: kind})
}

// BuildWith is Build with a --manifest. Every view rules read (languages
// with their effective capability maps, the tool index, loop tools, the
// _meta and extensions walk) is computed here, so the Snapshot is never
// written after BuildWith returns and concurrent readers need no lock. An
// error about the input comes first; a *ManifestError only when the input
// itself is fine.
func BuildWith(f *source.File, opt Options) (*Snapshot, error) {
	s, err := build(f, opt.Kind)
	if s == nil {
		return nil, err
	}
	var merr error
	if opt.Manifest != nil && err == nil && s.Kind != KindUnknown {
		merr = s.addManifest(opt.Manifest)
	}
	s.finish()
	if err == nil {
		err = merr
	}
	return s, err
}

func build(f *source.File, kind Kind) (*Snapshot, error) {
	s := &Snapshot{roots: map[*source.Node]*source.File{}}
	s.addFile(f)
	detected := Detect(f)
	forced := kind != ""
	if kind == "" {
		kind = detected
	}
	s.Kind = kind
	if len(f.Docs) == 0 {
		return s, nil
	}
	root := f.Docs[0].Root
	switch kind {
	case KindManifest:
		s.Manifest = root
	case KindCallResult:
		// Any tool's result has this shape; only the user's word, a
		// forced kind, says it is pilotage_manifest's.
		s.manifestCalled = forced
		s.setManifestResult(root)
	case KindToolsList:
		s.addTools(root.Get("tools"))
	case KindTools:
		s.addTools(root)
	case KindInitialize:
		s.setInitialize(root)
	case KindDiscover:
		s.setDiscover(root)
	case KindSnapshot:
		s.fromSnapshotDoc(root)
	case KindJSONRPC, KindCapture:
		var msgs []*source.Node
		if len(f.Docs) > 1 {
			for _, d := range f.Docs {
				msgs = append(msgs, d.Root)
			}
		} else if root.IsArray() {
			msgs = root.Kids()
		} else {
			msgs = []*source.Node{root}
		}
		s.fromMessages(msgs)
	case KindUnknown:
	default:
		return nil, fmt.Errorf("unknown input kind %q", kind)
	}
	if kind != detected && detected != KindUnknown && !compatible(kind, detected) {
		return s, fmt.Errorf("forced input kind %q does not fit this document, which looks like %q", kind, detected)
	}
	return s, nil
}

// compatible tolerates forcing a kind that is a strict reading of what was
// detected, such as a single JSON-RPC response forced as a capture.
func compatible(forced, detected Kind) bool {
	return forced == KindCapture && detected == KindJSONRPC || forced == KindJSONRPC && detected == KindCapture
}

// addManifest supplies the manifest from a separate file to a snapshot
// that carries no manifest result of its own.
func (s *Snapshot) addManifest(f *source.File) error {
	if len(f.Docs) == 0 || s.Manifest != nil {
		return nil
	}
	root := f.Docs[0].Root
	var add func()
	switch Detect(f) {
	case KindManifest:
		add = func() { s.Manifest = root }
	case KindCallResult:
		add = func() { s.setManifestResult(root) }
	case KindSnapshot:
		if m := root.Get("manifest"); m.IsObject() {
			add = func() { s.setManifestNode(m) }
		}
	}
	// --manifest names the file as the manifest, or its result.
	s.manifestCalled = s.manifestCalled || add != nil
	if add == nil {
		return &ManifestError{File: f}
	}
	s.addFile(f)
	add()
	return nil
}

func (s *Snapshot) addFile(f *source.File) {
	s.Files = append(s.Files, f)
	for _, d := range f.Docs {
		s.roots[d.Root] = f
	}
}

// finish computes the views rules read, once; the order matters: loop
// tools need the languages and the tool index.
func (s *Snapshot) finish() {
	if s.Manifest == nil {
		s.Manifest = s.InlineManifest
	}
	s.indexLanguages()
	if s.InlineManifest.IsObject() && s.InlineManifest != s.Manifest {
		s.InlineLanguages = LanguagesOf(s.InlineManifest)
	}
	s.toolIndex = make(map[string]*Tool, len(s.Tools))
	for _, t := range s.Tools {
		if _, dup := s.toolIndex[t.Name]; !dup {
			s.toolIndex[t.Name] = t
		}
	}
	s.walk()
	s.LoopTools()
	s.classifyCalls()
	s.signal = s.findSignal()
}

func (s *Snapshot) setManifestResult(n *source.Node) {
	if !n.IsObject() {
		return
	}
	s.ManifestResult = n
	// A request error's structuredContent is an error object, not a
	// manifest: judging it as one only buries the one real fault.
	if ie := n.Get("isError"); ie.IsBool() && ie.Truth() {
		return
	}
	if sc := n.Get("structuredContent"); sc != nil {
		s.Manifest = sc
	}
}

// setManifestNode takes a snapshot's "manifest" member: a manifest or a
// whole pilotage_manifest result.
func (s *Snapshot) setManifestNode(v *source.Node) {
	if !v.IsObject() {
		return
	}
	if detectNode(v) == KindCallResult {
		s.setManifestResult(v)
	} else {
		s.Manifest = v
	}
}

func (s *Snapshot) setInitialize(n *source.Node) {
	if !n.IsObject() {
		return
	}
	// A later initialize (a capture spanning a reconnect) replaces the
	// earlier one together with its metadata: an inline manifest is that
	// session's.
	if s.Initialize != nil {
		s.InlineManifest = nil
	}
	s.Initialize = n
	if v, ok := n.Str("protocolVersion"); ok {
		s.Revision = v
	}
	s.inlineManifest(n)
}

func (s *Snapshot) setDiscover(n *source.Node) {
	if !n.IsObject() {
		return
	}
	// Stateless clients rediscover: the latest result and its metadata
	// go together, unless an initialize result governs the metadata.
	if s.Discover != nil && s.Initialize == nil {
		s.InlineManifest = nil
	}
	s.Discover = n
	if s.Revision == "" {
		s.Revision = types.RevisionStateless
	}
	s.inlineManifest(n)
}

func (s *Snapshot) inlineManifest(n *source.Node) {
	if m := n.Path("_meta", types.MetaKey, "manifest"); m != nil && s.InlineManifest == nil {
		s.InlineManifest = m
	}
}

func (s *Snapshot) addTools(arr *source.Node) {
	if !arr.IsArray() {
		return
	}
	if s.ToolsArray == nil {
		s.ToolsArray = arr
	}
	for _, n := range arr.Kids() {
		if !n.IsObject() {
			continue
		}
		t := &Tool{
			Node:         n,
			Description:  n.Get("description"),
			InputSchema:  n.Get("inputSchema"),
			OutputSchema: n.Get("outputSchema"),
			Annotations:  n.Get("annotations"),
			Meta:         n.Get("_meta"),
		}
		t.Name, _ = n.Str("name")
		s.Tools = append(s.Tools, t)
	}
}

func (s *Snapshot) fromSnapshotDoc(n *source.Node) {
	if v := n.Get("initialize"); v != nil {
		s.setInitialize(v)
	}
	if v := n.Get("discover"); v != nil {
		s.setDiscover(v)
	}
	if v := n.Get("tools"); v.IsArray() {
		s.addTools(v)
	} else if v.IsObject() {
		s.addTools(v.Get("tools"))
	}
	// The snapshot format records pilotage_manifest's answer here.
	if v := n.Get("manifest"); v.IsObject() {
		s.manifestCalled = true
		s.setManifestNode(v)
	}
	if v := n.Get("resources"); v.IsObject() {
		s.Resources = v
	}
	if calls := n.Get("calls"); calls.IsArray() {
		for _, c := range calls.Kids() {
			if !c.IsObject() {
				continue
			}
			call := &Call{Node: c, Arguments: c.Get("arguments"), Result: c.Get("result"), Error: c.Get("error")}
			call.Name, _ = c.Str("name")
			call.Probe = parseProbe(c.Get("probe"))
			// The call that supplies the manifest is the manifest, not one
			// more call, as in a capture: otherwise its defects are
			// reported twice, once by the manifest rules and once as a
			// result.
			if call.Name == types.ToolManifest && s.Manifest == nil && manifestResult(call.Result) {
				s.manifestCalled = true
				s.setManifestResult(call.Result)
				continue
			}
			s.Calls = append(s.Calls, call)
		}
	}
}

// fromMessages matches JSON-RPC requests with their responses by id and
// takes the surfaces from them. A response whose request is not in the
// input is classified by the shape of its result.
func (s *Snapshot) fromMessages(msgs []*source.Node) {
	// Ids are unique only among requests in flight: a client that
	// reconnects numbers from 1 again, and the server numbers its own
	// requests. So a response answers the latest unanswered request with
	// its id before it; one recorded before its request (an array in any
	// order) falls back to the first unanswered one after it.
	requests := map[string][]int{}
	for i, m := range msgs {
		if m.IsObject() && m.Has("method") {
			if id := m.Get("id"); id != nil {
				requests[idKey(id)] = append(requests[idKey(id)], i)
			}
		}
	}
	answered := map[int]bool{}
	match := func(at int, key string) *source.Node {
		best := -1
		for _, i := range requests[key] {
			if answered[i] {
				continue
			}
			if i < at || best < 0 {
				best = i
			}
			if i > at {
				break
			}
		}
		if best < 0 {
			return nil
		}
		answered[best] = true
		return msgs[best]
	}
	for at, m := range msgs {
		if !m.IsObject() || m.Has("method") {
			continue
		}
		id := m.Get("id")
		if id == nil {
			continue
		}
		result, rpcErr := m.Get("result"), m.Get("error")
		req := match(at, idKey(id))
		method := ""
		if req != nil {
			method, _ = req.Str("method")
		}
		switch method {
		case "initialize":
			s.setInitialize(result)
		case "server/discover":
			s.setDiscover(result)
		case "tools/list":
			if !result.IsObject() {
				continue
			}
			// A request without a cursor lists the tools afresh (after
			// notifications/tools/list_changed, say): the latest listing
			// is the server's tool list, and its pages follow it.
			if req.Path("params", "cursor") == nil {
				s.Tools, s.ToolsArray = nil, nil
			}
			s.addTools(result.Get("tools"))
		case "resources/list":
			if s.Resources == nil && result.IsObject() {
				s.Resources = result
			}
		case "tools/call":
			name, _ := req.Path("params", "name").Value().(string)
			if name == types.ToolManifest && manifestResult(result) {
				s.manifestCalled = true
				s.setManifestResult(result)
				continue
			}
			s.Calls = append(s.Calls, &Call{Node: req, Name: name, Arguments: req.Path("params", "arguments"), Result: result, Error: rpcErr})
		case "":
			if result == nil {
				continue
			}
			switch detectNode(result) {
			case KindInitialize:
				s.setInitialize(result)
			case KindDiscover:
				s.setDiscover(result)
			case KindToolsList:
				s.addTools(result.Get("tools"))
			case KindCallResult:
				if ManifestLike(result.Get("structuredContent")) {
					s.setManifestResult(result)
				}
			}
		}
	}
}

// manifestResult reports whether a pilotage_manifest result carries the
// manifest: one with isError true carries a request error instead, which
// the result rules check as a call; read as the manifest it would draw
// "lacks pilotage" and "lacks languages".
func manifestResult(result *source.Node) bool {
	isErr := result.Get("isError")
	return result.IsObject() && !(isErr.IsBool() && isErr.Truth())
}

func idKey(id *source.Node) string {
	return id.Kind.String() + ":" + id.Text()
}
