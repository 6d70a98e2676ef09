package lint

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/go-openapi/jsonpointer"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
)

// Ignore suppresses findings of a rule (or of every rule, for "" or "*") in
// files matching a glob, at pointers under a prefix.
type Ignore struct {
	Rule string `json:"rule,omitempty" yaml:"rule,omitempty"`
	// Path is a glob (with ** for any number of folders) or a folder,
	// relative to Base.
	Path string `json:"path,omitempty" yaml:"path,omitempty"`
	// Pointer names a value and everything under it, as an RFC 6901
	// pointer or, better, in the identity form of Finding.Key, which
	// survives inserting and reordering tools.
	Pointer string `json:"pointer,omitempty" yaml:"pointer,omitempty"`
	// Base is the folder Path is relative to: the config file's, so a
	// config keeps working when pilotage-lint runs from elsewhere. ""
	// is the working directory.
	Base string `json:"-" yaml:"-"`
}

// Ignored reports whether an ignore entry covers finding f: its rule, a
// path matching f's file, and a pointer prefix of f's pointer or of its
// identity key.
func Ignored(ignores []Ignore, f *Finding) bool { return Suppress(ignores, f, nil) }

// Suppress is Ignored that also counts, in hits (one count per entry, or
// nil), every entry that covers f, so that an entry that never covers
// anything can be named. logical are further forms of f's pointer an
// entry may name, such as the manifest's logical pointers.
func Suppress(ignores []Ignore, f *Finding, hits []int, logical ...string) bool {
	any := false
	for i, ig := range ignores {
		if !covers(ig, f, logical) {
			continue
		}
		any = true
		if hits == nil {
			return true
		}
		hits[i]++
	}
	return any
}

func covers(ig Ignore, f *Finding, logical []string) bool {
	if ig.Rule != "" && ig.Rule != "*" && ig.Rule != f.Rule {
		return false
	}
	if ig.Path != "" && !pathMatches(ig, f.File) {
		return false
	}
	if ig.Pointer == "" || under(f.Pointer, ig.Pointer) || under(f.Key, ig.Pointer) {
		return true
	}
	for _, l := range logical {
		if l != "" && under(l, ig.Pointer) {
			return true
		}
	}
	return false
}

// PathMatches reports whether an entry's path covers file (named as in
// findings); an entry without a path covers every file.
func PathMatches(ig Ignore, file string) bool {
	return ig.Path == "" || pathMatches(ig, file)
}

// ManifestRoot is the logical root of the manifest in ignore pointers:
// /manifest/languages/0/retention names the retention of the manifest's
// first Language whatever the input kind puts it under (the document root
// of a bare manifest, /manifest/structuredContent in a snapshot holding
// the pilotage_manifest result, /3/result/structuredContent in a capture,
// the file given with --manifest), so one entry serves every input kind.
const ManifestRoot = "/manifest"

// logicalPointers returns the logical forms of fd's pointer (plain and in
// identity form) when it lies in the input's manifest, else nil.
func logicalPointers(in *source.File, snap *snapshot.Snapshot, fd located) []string {
	if snap == nil || snap.Manifest == nil || fd.doc < 0 {
		return nil
	}
	m := snap.Manifest
	mf := snap.FileOf(m)
	if mf == nil || mf.Name != fd.File || int32(m.Root().Start) != fd.doc {
		return nil
	}
	mp := m.Pointer()
	rel, ok := strings.CutPrefix(fd.Pointer, mp)
	if !ok || rel != "" && !strings.HasPrefix(rel, "/") {
		return nil
	}
	return []string{ManifestRoot + rel, ManifestRoot + KeyOf(m, rel)}
}

// pathMatches reports whether file, named as in findings, is ig.Path or
// under it, both taken relative to ig.Base.
func pathMatches(ig Ignore, file string) bool {
	rel, inside := RelTo(ig.Base, file)
	if !inside && ig.Base != "" {
		return false
	}
	pattern := strings.TrimSuffix(filepath.ToSlash(ig.Path), "/")
	if ok, _ := doublestar.Match(pattern, rel); ok {
		return true
	}
	return strings.HasPrefix(rel, pattern+"/")
}

// under reports whether pointer p is prefix or inside it.
func under(p, prefix string) bool {
	return p == prefix || strings.HasPrefix(p, strings.TrimSuffix(prefix, "/")+"/")
}

// RelTo names file relative to folder base, with forward slashes, when it
// lies inside base; other names (standard input, files outside base) are
// returned cleaned, with inside false.
func RelTo(base, file string) (rel string, inside bool) {
	if base == "" {
		base = "."
	}
	if dir, err := filepath.Abs(base); err == nil {
		if af, err := filepath.Abs(file); err == nil {
			if r, err := filepath.Rel(dir, af); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) && !filepath.IsAbs(r) {
				return filepath.ToSlash(r), true
			}
		}
	}
	return filepath.ToSlash(filepath.Clean(file)), false
}

// findingKey is KeyOf for a finding in input file in, or in the --manifest
// file the snapshot took its manifest from.
func findingKey(in *source.File, snap *snapshot.Snapshot, fd located) string {
	file := in
	if fd.File != in.Name && snap != nil && snap.Manifest != nil {
		if mf := snap.FileOf(snap.Manifest); mf != nil {
			file = mf
		}
	}
	if fd.doc < 0 || file.Name != fd.File {
		return fd.Pointer
	}
	i := sort.Search(len(file.Docs), func(i int) bool { return file.Docs[i].Root.Start >= fd.doc })
	if i == len(file.Docs) || file.Docs[i].Root.Start != fd.doc {
		return fd.Pointer
	}
	return KeyOf(file.Docs[i].Root, fd.Pointer)
}

// identityMembers are the members that name an array element, in the order
// tried: a tool's or a Language's name, a guide's id, a resource's uri.
var identityMembers = []string{"name", "id", "uri"}

// KeyOf returns the identity form of pointer inside root: each array index
// whose element carries a name, id or uri unique among its siblings is
// replaced by "[member=value]" (value escaped as a pointer token), so
// /tools/tools/3/inputSchema becomes /tools/tools/[name=run_flow]/inputSchema.
// Baselines and ignores keyed so survive inserting and reordering tools,
// Languages, guides and resources. Other indexes stay; a pointer that does
// not resolve is returned as it is.
func KeyOf(root *source.Node, pointer string) string {
	if root == nil || pointer == "" {
		return pointer
	}
	p, err := jsonpointer.New(pointer)
	if err != nil {
		return pointer
	}
	var b strings.Builder
	cur := root
	for _, t := range p.DecodedTokens() {
		next := cur.Path(t)
		if next == nil {
			return pointer
		}
		b.WriteByte('/')
		if cur.Kind == source.Array {
			b.WriteString(identity(cur, next, t))
		} else {
			b.WriteString(jsonpointer.Escape(t))
		}
		cur = next
	}
	return b.String()
}

func identity(arr, el *source.Node, index string) string {
	if !el.IsObject() {
		return index
	}
	for _, m := range identityMembers {
		v, ok := el.Str(m)
		if !ok {
			continue
		}
		for _, sib := range arr.Kids() {
			if s, _ := sib.Str(m); sib != el && s == v && sib.Has(m) {
				return index
			}
		}
		return "[" + m + "=" + jsonpointer.Escape(v) + "]"
	}
	return index
}

// Follow resolves key, a pointer in identity form (see KeyOf), inside root
// as far as it goes and returns the deepest value reached: root itself when
// not even the first token resolves. An [member=value] token picks the
// array element whose member has that value, so a key taken in one
// document finds the same named thing in another, wherever it moved.
func Follow(root *source.Node, key string) *source.Node {
	cur := root
	if root == nil || key == "" || !strings.HasPrefix(key, "/") {
		return cur
	}
	for _, raw := range strings.Split(key[1:], "/") {
		var next *source.Node
		if m, v, ok := identityToken(raw); ok && cur.Kind == source.Array {
			for _, el := range cur.Kids() {
				if s, ok := el.Str(m); ok && s == v {
					next = el
					break
				}
			}
		} else {
			next = cur.Path(unescape(raw))
		}
		if next == nil {
			return cur
		}
		cur = next
	}
	return cur
}

// identityToken splits a "[member=value]" token of KeyOf.
func identityToken(t string) (member, value string, ok bool) {
	if !strings.HasPrefix(t, "[") || !strings.HasSuffix(t, "]") {
		return "", "", false
	}
	m, v, ok := strings.Cut(t[1:len(t)-1], "=")
	if !ok || !slices.Contains(identityMembers, m) {
		return "", "", false
	}
	return m, unescape(v), true
}

func unescape(t string) string { return jsonpointer.Unescape(t) }
