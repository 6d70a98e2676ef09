package source

import (
	"encoding/binary"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"
)

// File is the text of one input and the documents parsed from it. A JSON
// file holds one document; a JSON Lines file holds one per non-blank line.
type File struct {
	// Name is the path as given on the command line (or --stdin-filename).
	Name string
	// Data is the whole text. Node strings are substrings of it where no
	// unescaping was needed, so the text is held once.
	Data string
	Docs []*Document
	// Problems are the file-level findings: syntax errors, duplicate names,
	// invalid UTF-8, a byte-order mark, excessive depth, and so on.
	Problems []Problem
	// Encoding names the encoding of a text that is not UTF-8, such as
	// "UTF-16LE with a byte-order mark" or "binary data"; "" for UTF-8,
	// with or without a byte-order mark. A UTF-16, UTF-32 or binary text
	// has no Docs and one invalid-utf8 Problem saying what it is.
	Encoding string

	// decoded holds, by the offset of the opening quote, the strings and
	// member names whose value differs from their text (escapes, invalid
	// UTF-8); longKeys the start of member names too long for a Node's
	// keyLen, by the offset of the member's value. Both are written only by
	// Parse.
	decoded  map[int32]string
	longKeys map[int32]int32

	// lines and ascii are built on the first Position, once: most files
	// draw no finding, and on a 10,000-tool listing the index is a tenth of
	// the memory beyond the text.
	linesOnce sync.Once
	lines     []int32 // offset of the first byte of each line
	// ascii says, per line, whether it holds only ASCII bytes, so that
	// columns are byte counts; nil when the whole text is ASCII.
	ascii []bool
	// marks caches, for long non-ASCII lines, the code points before every
	// markStep bytes, so that columns on a one-line 64 MiB capture do not
	// cost a scan of the line per finding.
	marksMu sync.Mutex
	marks   map[int][]runeMark
}

const markStep = 4096

type runeMark struct{ off, runes int32 }

// Document is one top-level JSON value of a File.
type Document struct {
	File *File
	Root *Node
}

// Position is a 1-based line and column. Columns count Unicode code points,
// which is what editors and SARIF's "unicodeCodePoints" column kind expect.
type Position struct {
	Line, Column int
}

// Position converts a byte offset to a line and column.
func (f *File) Position(off int) Position {
	if off < 0 {
		off = 0
	}
	if off > len(f.Data) {
		off = len(f.Data)
	}
	f.linesOnce.Do(f.indexLines)
	i := sort.Search(len(f.lines), func(i int) bool { return int(f.lines[i]) > off }) - 1
	start := int(f.lines[i])
	col := off - start + 1
	if f.ascii != nil && !f.ascii[i] {
		col = f.runeColumn(i, start, off)
	}
	return Position{Line: i + 1, Column: col}
}

// runeColumn counts the code points of line i (starting at start) before
// off, plus one. Marks sit on rune starts, so the counts of the pieces add
// up to the count of the whole, even across invalid bytes.
func (f *File) runeColumn(i, start, off int) int {
	if off-start < markStep {
		return utf8.RuneCountInString(f.Data[start:off]) + 1
	}
	f.marksMu.Lock()
	defer f.marksMu.Unlock()
	if f.marks == nil {
		f.marks = map[int][]runeMark{}
	}
	ms, ok := f.marks[i]
	if !ok {
		end := len(f.Data)
		if i+1 < len(f.lines) {
			end = int(f.lines[i+1])
		}
		ms = []runeMark{{int32(start), 0}}
		at, runes := start, 0
		for at+markStep < end {
			next := at + markStep
			for next > at && !utf8.RuneStart(f.Data[next]) {
				next--
			}
			if next == at {
				next = at + markStep
			}
			runes += utf8.RuneCountInString(f.Data[at:next])
			at = next
			ms = append(ms, runeMark{int32(at), int32(runes)})
		}
		f.marks[i] = ms
	}
	k := sort.Search(len(ms), func(k int) bool { return int(ms[k].off) > off }) - 1
	return int(ms[k].runes) + utf8.RuneCountInString(f.Data[ms[k].off:off]) + 1
}

// indexLines records where each line starts and, unless the whole text is
// ASCII, whether each line is.
func (f *File) indexLines() {
	d := f.Data
	f.lines = make([]int32, 1, strings.Count(d, "\n")+1)
	for start := 0; ; {
		i := strings.IndexByte(d[start:], '\n')
		if i < 0 {
			break
		}
		start += i + 1
		f.lines = append(f.lines, int32(start))
	}
	f.ascii = nil
	if isASCII(d) {
		return
	}
	f.ascii = make([]bool, len(f.lines))
	for k, start := range f.lines {
		end := len(d)
		if k+1 < len(f.lines) {
			end = int(f.lines[k+1])
		}
		f.ascii[k] = isASCII(d[start:end])
	}
}

// isASCII reads eight bytes at a time: on a one-line 24 MB listing a byte
// loop cost as much as a tenth of the parse.
func isASCII(s string) bool {
	if len(s) == 0 {
		return true
	}
	b := unsafe.Slice(unsafe.StringData(s), len(s))
	var or uint64
	i := 0
	for ; i+8 <= len(b); i += 8 {
		or |= binary.LittleEndian.Uint64(b[i:])
	}
	for ; i < len(b); i++ {
		or |= uint64(b[i])
	}
	return or&0x8080808080808080 == 0
}

// Problem is a defect of the text itself, found while parsing.
type Problem struct {
	Code       ProblemCode
	Start, End int
	Message    string
}

// ProblemCode classifies a Problem; the linter maps each to a rule.
type ProblemCode string

// The problems the parser reports.
const (
	ProblemSyntax       ProblemCode = "syntax"
	ProblemEmpty        ProblemCode = "empty"
	ProblemTrailing     ProblemCode = "trailing-data"
	ProblemDuplicateKey ProblemCode = "duplicate-key"
	ProblemInvalidUTF8  ProblemCode = "invalid-utf8"
	ProblemBOM          ProblemCode = "bom"
	ProblemDepth        ProblemCode = "depth"
	ProblemNonFinite    ProblemCode = "non-finite-number"
	ProblemNumberRange  ProblemCode = "number-range"
)

func (f *File) decode(quote int32, s string) {
	if f.decoded == nil {
		f.decoded = map[int32]string{}
	}
	f.decoded[quote] = s
}
