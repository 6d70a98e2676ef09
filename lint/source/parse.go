package source

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// DefaultMaxDepth bounds nesting. Real MCP documents stay far below it; a
// hostile one is cut off here in time linear in its size.
const DefaultMaxDepth = 1000

// MaxSize is the largest text Parse accepts: offsets are kept in 32 bits to
// keep nodes small.
const MaxSize = math.MaxInt32

// maxProblemsPerCode bounds the problems of one code in a file. A hostile
// file can hold millions of duplicate names or bad bytes; the first ones
// say all there is to say, and reporting them all would cost more memory
// than the file itself.
const maxProblemsPerCode = 100

// Options tune Parse.
type Options struct {
	// MaxDepth is the deepest nesting accepted; 0 means DefaultMaxDepth.
	MaxDepth int
	// Lines parses the text as JSON Lines: one document per line, and a
	// broken line does not stop the ones after it. Files named *.jsonl are
	// always parsed this way.
	Lines bool
	// NoCopy makes the file text share data's memory instead of copying
	// it, which halves the memory an input costs; the caller must not modify
	// data for as long as the File is in use.
	NoCopy bool
}

// ParseValue parses data as one JSON value and returns its root, or nil
// when data is blank or holds no document: for JSON a program already
// read once (an SDK's answer, a declared schema), whose problems are
// not the reader's to report.
func ParseValue(data []byte) *Node {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	f := Parse("", data, Options{})
	if len(f.Docs) == 0 {
		return nil
	}
	return f.Docs[0].Root
}

// Parse parses data as one JSON document, or as a stream of documents each
// starting on a line of its own (JSON Lines). It never fails: every defect of
// the text becomes a Problem, and whatever parsed cleanly is kept.
func Parse(name string, data []byte, opts Options) *File {
	f := &File{Name: name}
	if opts.NoCopy && len(data) > 0 {
		f.Data = unsafe.String(unsafe.SliceData(data), len(data))
	} else {
		f.Data = string(data)
	}
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = DefaultMaxDepth
	}
	if strings.HasSuffix(name, ".jsonl") {
		opts.Lines = true
	}
	p := &parser{f: f, s: f.Data, maxDepth: opts.MaxDepth, chunk: chunkFor(len(data))}
	if len(data) > MaxSize {
		p.problem(ProblemSyntax, 0, 0, "the file is %d bytes, more than the %d pilotage-lint can read; split it into smaller captures", len(data), MaxSize)
		return f
	}
	// JSON text is UTF-8 (RFC 8259 §8.1). A text in another encoding is
	// named as such, with the fix, and not parsed: read as UTF-8, a
	// snapshot saved by Windows PowerShell (UTF-16LE) showed no Pilotage
	// word and passed.
	if name, bom := sniffWide(f.Data); name != "" {
		f.Encoding = name
		p.problem(ProblemInvalidUTF8, 0, max(bom, 1), "%s", encodingMessage(f.Data, name))
		return f
	}
	if what, ok := LFSPointer(f.Data); ok {
		p.problem(ProblemSyntax, 0, min(len(f.Data), len("version")), "%s", lfsMessage(what))
		return f
	}
	if strings.HasPrefix(p.s, "\uFEFF") {
		p.problem(ProblemBOM, 0, 3, "%s", bomMessage)
		p.pos = 3
	}
	p.run(opts.Lines)
	// Only a text that drew a problem can be in another encoding; a clean
	// one is UTF-8, and costs no second pass.
	if len(f.Problems) > 0 {
		switch name := sniffNarrow(f.Data); name {
		case binaryData:
			f.Encoding, f.Docs, f.Problems, p.counts = name, nil, nil, nil
			p.problem(ProblemInvalidUTF8, 0, 1, "%s", encodingMessage(f.Data, name))
		case latin:
			f.Encoding = name
			for i := range f.Problems {
				if pr := &f.Problems[i]; pr.Code == ProblemInvalidUTF8 && strings.HasPrefix(pr.Message, "invalid UTF-8 byte") && pr.Start < len(f.Data) {
					pr.Message = latinMessage(f.Data[pr.Start], name)
				}
			}
		}
	}
	return f
}

type parser struct {
	f        *File
	s        string
	pos      int
	depth    int
	maxDepth int
	slab     []Node
	// stack holds the members of the arrays and objects being read; each
	// gets an exact-size copy when it closes, so no Kids slice is grown
	// element by element.
	stack []*Node
	// names holds the member names of the objects being read, for the
	// duplicate check.
	names []string
	// kidSlab is carved into the Kids slices of small containers.
	kidSlab []*Node
	// chunk is the size of the first slabs, scaled to the text: a run over
	// 1,000 small files paid for 1,024 nodes and 4,096 pointers per file.
	chunk  int
	counts map[ProblemCode]int
}

// chunkFor estimates the nodes of a text of n bytes (real documents hold
// one value per 40 to 60 bytes), within the slab sizes.
func chunkFor(n int) int {
	return min(max(n/32, 16), 1024)
}

// errStop unwinds a document whose text cannot be parsed further.
type errStop struct{}

func (p *parser) run(lines bool) {
	if lines {
		p.runLines()
	} else {
		p.runStream()
	}
	if len(p.f.Docs) == 0 && onlyBOM(p.f.Problems) {
		p.problem(ProblemEmpty, len(p.s), len(p.s), "the file holds no JSON value, which is what a failed capture such as snapshot > FILE leaves; record it again (pilotage-lint snapshot --out FILE writes nothing when it fails)")
	}
}

// runStream reads one document, or several when each starts on a line of its
// own: a capture saved as .json is still a capture.
func (p *parser) runStream() {
	prevEnd := -1
	for {
		p.skipSpace()
		if p.pos >= len(p.s) {
			return
		}
		if prevEnd >= 0 && !strings.Contains(p.s[prevEnd:p.pos], "\n") {
			p.problem(ProblemTrailing, p.pos, p.tokenEnd(), "unexpected data after the end of the JSON document; remove it, or put each document on its own line (JSON Lines)")
			return
		}
		root := p.document()
		if root == nil {
			return
		}
		p.f.Docs = append(p.f.Docs, &Document{File: p.f, Root: root})
		prevEnd = p.pos
	}
}

// runLines parses each line on its own, so a broken line costs only itself.
func (p *parser) runLines() {
	all := p.s
	for lineStart := p.pos; lineStart < len(all); {
		lineEnd := strings.IndexByte(all[lineStart:], '\n')
		if lineEnd < 0 {
			lineEnd = len(all)
		} else {
			lineEnd += lineStart
		}
		p.s, p.pos = all[:lineEnd], lineStart
		p.skipSpace()
		if p.pos < len(p.s) {
			if root := p.document(); root != nil {
				p.f.Docs = append(p.f.Docs, &Document{File: p.f, Root: root})
				p.skipSpace()
				if p.pos < len(p.s) {
					p.problem(ProblemTrailing, p.pos, p.tokenEnd(), "unexpected data after the JSON value on this line; JSON Lines holds exactly one value per line")
				}
			}
		}
		lineStart = lineEnd + 1
	}
	p.s = all
}

func onlyBOM(ps []Problem) bool {
	for _, pr := range ps {
		if pr.Code != ProblemBOM {
			return false
		}
	}
	return true
}

func (p *parser) document() (root *Node) {
	p.depth = 0
	p.stack = p.stack[:0]
	p.names = p.names[:0]
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(errStop); !ok {
				panic(r)
			}
			root = nil
		}
	}()
	return p.value(nil)
}

func (p *parser) problem(code ProblemCode, start, end int, format string, args ...any) {
	if end < start {
		end = start
	}
	if p.counts == nil {
		p.counts = map[ProblemCode]int{}
	}
	p.counts[code]++
	switch c := p.counts[code]; {
	case c == maxProblemsPerCode+1:
		format, args = "more than %d problems of this kind in the file; only the first %d are reported, fix those and lint again", []any{maxProblemsPerCode, maxProblemsPerCode}
	case c > maxProblemsPerCode+1:
		return
	}
	p.f.Problems = append(p.f.Problems, Problem{Code: code, Start: start, End: end, Message: fmt.Sprintf(format, args...)})
}

func (p *parser) stop(code ProblemCode, start, end int, format string, args ...any) {
	p.problem(code, start, end, format, args...)
	panic(errStop{})
}

func (p *parser) node() *Node {
	if len(p.slab) == 0 {
		p.slab = make([]Node, p.chunk)
		p.chunk = 1024
	}
	n := &p.slab[0]
	p.slab = p.slab[1:]
	n.file = p.f
	return n
}

// kids copies the members container c collected on the stack from base on
// into its Kids, and pops them.
func (p *parser) kids(c *Node, base int) {
	from := p.stack[base:]
	p.stack = p.stack[:base]
	n := len(from)
	if n == 0 {
		return
	}
	var out []*Node
	if n > 256 {
		out = make([]*Node, n)
	} else {
		if n > len(p.kidSlab) {
			p.kidSlab = make([]*Node, max(4*chunkFor(len(p.f.Data)), n))
		}
		out = p.kidSlab[:n:n]
		p.kidSlab = p.kidSlab[n:]
	}
	copy(out, from)
	clear(from)
	c.kids, c.nkids = &out[0], int32(n)
}

func (p *parser) skipSpace() {
	for p.pos < len(p.s) {
		switch p.s[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// tokenEnd finds the end of the word at pos, for the span of a bad token.
func (p *parser) tokenEnd() int {
	i := p.pos
	for i < len(p.s) && i-p.pos < 64 {
		c := p.s[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ']' || c == '}' || c == ':' {
			break
		}
		i++
	}
	if i == p.pos && i < len(p.s) {
		_, w := utf8.DecodeRuneInString(p.s[i:])
		i += w
	}
	return i
}

func (p *parser) unexpected(what string) {
	if p.pos >= len(p.s) {
		p.stop(ProblemSyntax, p.pos, p.pos, "unexpected end of input %s", what)
	}
	r, w := utf8.DecodeRuneInString(p.s[p.pos:])
	if r == utf8.RuneError && w == 1 {
		p.stop(ProblemInvalidUTF8, p.pos, p.pos+1, "invalid UTF-8 byte 0x%02x %s", p.s[p.pos], what)
	}
	p.stop(ProblemSyntax, p.pos, p.tokenEnd(), "unexpected %q %s", r, what)
}

func (p *parser) value(parent *Node) *Node {
	p.skipSpace()
	if p.pos >= len(p.s) {
		p.unexpected("where a value was expected")
	}
	n := p.node()
	n.Parent = parent
	n.Start = int32(p.pos)
	switch c := p.s[p.pos]; c {
	case '{':
		p.object(n)
	case '[':
		p.array(n)
	case '"':
		n.Kind = String
		if text, coded := p.str(); coded {
			p.f.decode(n.Start, text)
			n.bits |= bitTextCoded
		}
	case 't':
		p.literal("true")
		n.Kind, n.bits = Bool, bitTrue
	case 'f':
		p.literal("false")
		n.Kind = Bool
	case 'n':
		p.literal("null")
		n.Kind = Null
	case 'N':
		p.nonFinite("NaN")
	case 'I':
		p.nonFinite("Infinity")
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			if strings.HasPrefix(p.s[p.pos:], "-Infinity") {
				p.nonFinite("-Infinity")
			}
			n.Kind = Number
			p.number()
		} else {
			p.unexpected("where a value was expected")
		}
	}
	n.End = int32(p.pos)
	return n
}

func (p *parser) nonFinite(word string) {
	if strings.HasPrefix(p.s[p.pos:], word) {
		p.stop(ProblemNonFinite, p.pos, p.pos+len(word), "%s is not a JSON number; JSON has no non-finite numbers, so send null or a string instead", word)
	}
	p.unexpected("where a value was expected")
}

func (p *parser) literal(word string) {
	if !strings.HasPrefix(p.s[p.pos:], word) {
		p.unexpected("where a value was expected")
	}
	p.pos += len(word)
}

func (p *parser) enter(n *Node) {
	p.depth++
	if p.depth > p.maxDepth {
		p.stop(ProblemDepth, int(n.Start), int(n.Start)+1, "values are nested more than %d levels deep here; no real document needs this, so the rest of the document is not read", p.maxDepth)
	}
}

func (p *parser) object(n *Node) {
	n.Kind = Object
	p.enter(n)
	p.pos++ // {
	p.skipSpace()
	if p.pos < len(p.s) && p.s[p.pos] == '}' {
		p.pos++
		p.depth--
		return
	}
	var seen map[string]bool
	base, nbase := len(p.stack), len(p.names)
	for {
		p.skipSpace()
		if p.pos >= len(p.s) || p.s[p.pos] != '"' {
			p.unexpected("where a member name (a string) was expected")
		}
		ks := p.pos
		key, coded := p.str()
		ke := p.pos
		p.skipSpace()
		if p.pos >= len(p.s) || p.s[p.pos] != ':' {
			p.unexpected("after a member name; expected ':'")
		}
		p.pos++
		m := p.value(n)
		if coded {
			p.f.decode(int32(ks), key)
			m.bits |= bitKeyCoded
		}
		if gap := int(m.Start) - ke; gap <= gapMax {
			m.bits |= uint8(gap) << gapShift
		}
		if ke-ks < longKey {
			m.keyLen = uint16(ke - ks)
		} else {
			m.keyLen = longKey
			if p.f.longKeys == nil {
				p.f.longKeys = map[int32]int32{}
			}
			p.f.longKeys[m.Start] = int32(ks)
		}
		if p.duplicate(p.names[nbase:], key, &seen) {
			p.problem(ProblemDuplicateKey, ks, ke, "member %q appears more than once in this object; MCP SDKs disagree on which one wins, so keep exactly one", clip(key))
		}
		p.stack = append(p.stack, m)
		p.names = append(p.names, key)
		p.skipSpace()
		if p.pos < len(p.s) && p.s[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.s) && p.s[p.pos] == '}' {
			p.pos++
			p.depth--
			p.kids(n, base)
			p.names = p.names[:nbase]
			return
		}
		p.unexpected("after an object member; expected ',' or '}'")
	}
}

// duplicate reports whether key is already among the members read so far.
// Small objects are scanned; large ones switch to a set so that a
// 10,000-member object stays linear.
func (p *parser) duplicate(names []string, key string, seen *map[string]bool) bool {
	if *seen == nil && len(names) < 16 {
		for _, k := range names {
			if k == key {
				return true
			}
		}
		return false
	}
	if *seen == nil {
		*seen = make(map[string]bool, 2*len(names))
		for _, k := range names {
			(*seen)[k] = true
		}
	}
	if (*seen)[key] {
		return true
	}
	(*seen)[key] = true
	return false
}

func (p *parser) array(n *Node) {
	n.Kind = Array
	p.enter(n)
	p.pos++ // [
	p.skipSpace()
	if p.pos < len(p.s) && p.s[p.pos] == ']' {
		p.pos++
		p.depth--
		return
	}
	base := len(p.stack)
	for {
		e := p.value(n)
		p.stack = append(p.stack, e)
		p.skipSpace()
		if p.pos < len(p.s) && p.s[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.s) && p.s[p.pos] == ']' {
			p.pos++
			p.depth--
			p.kids(n, base)
			return
		}
		p.unexpected("after an array element; expected ',' or ']'")
	}
}

func (p *parser) number() {
	start := p.pos
	s := p.s
	i := p.pos
	if s[i] == '-' {
		i++
	}
	digits := func() bool {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i > j
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case !digits():
		p.pos = i
		p.unexpected("in a number; expected a digit")
	}
	simple := true
	if i < len(s) && s[i] == '.' {
		i++
		simple = false
		if !digits() {
			p.pos = i
			p.unexpected("after a decimal point; expected a digit")
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		simple = false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if !digits() {
			p.pos = i
			p.unexpected("in an exponent; expected a digit")
		}
	}
	p.pos = i
	lit := s[start:i]
	if !simple || len(lit) > 15 {
		if _, err := strconv.ParseFloat(lit, 64); err != nil {
			p.problem(ProblemNumberRange, start, i, "number %s is beyond the range of a 64-bit float, so most JSON receivers cannot represent it; send it as a string", clip(lit))
		}
	}
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

// str reads a string token at pos and returns its decoded value, and
// whether that differs from the text between the quotes. Strings that need
// no decoding are substrings of the file text, not copies.
func (p *parser) str() (string, bool) {
	start := p.pos
	s := p.s
	i := start + 1
	for i < len(s) {
		c := s[i]
		if c == '"' {
			p.pos = i + 1
			return s[start+1 : i], false
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
		i++
	}
	// Valid UTF-8 needs no copy either; the loop above stays ASCII-only
	// because it is a third of the parse of a large listing.
	for i < len(s) {
		c := s[i]
		if c == '"' {
			p.pos = i + 1
			return s[start+1 : i], false
		}
		if c == '\\' || c < 0x20 {
			break
		}
		if c >= utf8.RuneSelf {
			r, w := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && w == 1 {
				break
			}
			i += w
			continue
		}
		i++
	}
	var b strings.Builder
	b.WriteString(s[start+1 : i])
	badEnd := -1 // end of the last invalid byte, to report each run once
	for {
		if i >= len(s) {
			p.pos = i
			p.stop(ProblemSyntax, start, i, "unterminated string: add the closing '\"'")
		}
		c := s[i]
		switch {
		case c == '"':
			p.pos = i + 1
			return b.String(), true
		case c < 0x20:
			p.pos = i
			p.stop(ProblemSyntax, i, i+1, "control character U+%04X inside a string must be escaped (\\u%04x)", c, c)
		case c == '\\':
			i = p.escape(&b, i)
		case c >= utf8.RuneSelf:
			r, w := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && w == 1 {
				if badEnd != i {
					p.problem(ProblemInvalidUTF8, i, i+1, "invalid UTF-8 byte 0x%02x in a string; JSON text must be UTF-8 (RFC 8259 §8.1), so re-encode the file as UTF-8", c)
				}
				badEnd = i + 1
			}
			b.WriteRune(r)
			i += w
		default:
			b.WriteByte(c)
			i++
		}
	}
}

func (p *parser) escape(b *strings.Builder, i int) int {
	s := p.s
	if i+1 >= len(s) {
		p.pos = i
		p.stop(ProblemSyntax, i, i+1, "unterminated escape sequence")
	}
	switch c := s[i+1]; c {
	case '"', '\\', '/':
		b.WriteByte(c)
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case 'u':
		r, ok := hex4(s, i+2)
		if !ok {
			p.pos = i
			p.stop(ProblemSyntax, i, min(i+6, len(s)), "invalid \\u escape: expected four hex digits")
		}
		n := i + 6
		if utf16.IsSurrogate(r) {
			if r2, ok := hex4(s, n+2); ok && n+1 < len(s) && s[n] == '\\' && s[n+1] == 'u' {
				if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
					b.WriteRune(d)
					return n + 6
				}
			}
			p.problem(ProblemInvalidUTF8, i, n, "\\u%04x is a lone UTF-16 surrogate, not a Unicode character, so receivers replace or reject it; escape the character as a valid surrogate pair or write it as UTF-8", r)
			r = utf8.RuneError
		}
		b.WriteRune(r)
		return n
	default:
		// The whole character after the backslash, not its first byte, and
		// %q to keep a control character on one line.
		r, w := utf8.DecodeRuneInString(s[i+1:])
		p.pos = i
		p.stop(ProblemSyntax, i, i+1+w, "invalid escape %q in a string; JSON escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX", "\\"+string(r))
	}
	return i + 2
}

func hex4(s string, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[i : i+4]) {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
