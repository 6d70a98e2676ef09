// Package excerpt cuts a window of a JSON value centred on one member, so
// that the member that decided a finding is on screen however large the
// value around it is. The text report of pilotagetest and the HTML report
// both show request and response this way: a fixed cut from the start once
// hid the decisive "isError": true of a long answer.
package excerpt

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/pilotagekit/pilotagekit/lint/source"
)

// Compact returns raw on one line, at most max bytes of it (plus the
// elision marks), centred on the value at pointer (an RFC 6901 pointer
// relative to raw). The whole value is returned when it fits; the start
// when pointer is "" or does not resolve. Text that is not JSON is cut the
// same way, from its start.
func Compact(raw []byte, pointer string, max int) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		b.Reset()
		b.Write(raw)
	}
	text, _ := cut(b.Bytes(), pointer, max, false)
	return text
}

// Indented is Compact for text indented two spaces a level, cut on line
// boundaries so that every line shown is whole, but for a line longer
// than the window, which is cut and marked with "…" where it was cut.
func Indented(raw []byte, pointer string, max int) string {
	text, _ := IndentedAt(raw, pointer, max)
	return text
}

// IndentedAt is Indented, and also returns the index of the line of the
// excerpt on which the value at pointer starts (its member name, for a
// member), or -1 when pointer is "", does not resolve, or starts outside
// the excerpt: the line a report marks.
func IndentedAt(raw []byte, pointer string, max int) (string, int) {
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		b.Reset()
		b.Write(raw)
	}
	return cut(b.Bytes(), pointer, max, true)
}

func cut(text []byte, pointer string, max int, lines bool) (string, int) {
	// Start and end of the value the window must hold; the start of the
	// text when there is none.
	at, end, found := 0, 0, false
	if pointer != "" {
		f := source.Parse("excerpt", text, source.Options{NoCopy: true})
		if len(f.Docs) == 1 && f.Docs[0].Root != nil {
			if n, ok := f.Docs[0].Root.Resolve(pointer); ok {
				at, end, found = int(n.Start), int(n.End), true
				// A member is shown with its name.
				if n.Parent != nil && n.Parent.Kind == source.Object {
					at = int(n.KeyStart())
				}
			}
		}
	}
	if max <= 0 || len(text) <= max {
		return string(text), lineOf(text, 0, at, found, false)
	}
	// The value's own first max bytes when it is larger than the window;
	// otherwise the window is centred on it.
	lo := at
	if end-at < max {
		lo = at - (max-(end-at))/2
	}
	if lo < 0 {
		lo = 0
	}
	hi := lo + max
	if hi > len(text) {
		hi = len(text)
		if lo = hi - max; lo < 0 {
			lo = 0
		}
	}
	midLine := false
	if lines {
		// Widen to whole lines at the start, narrow at the end: the first
		// line holding the value is never dropped. A line that starts more
		// than a window before the value (a long text content) is cut
		// instead, or the excerpt would hold all of it.
		start := bytes.LastIndexByte(text[:lo], '\n') + 1
		if at-start <= max {
			lo = start
		} else {
			midLine = lo > start
		}
		if hi < len(text) {
			if i := bytes.LastIndexByte(text[lo:hi], '\n'); i > 0 && lo+i > at {
				hi = lo + i
			}
		}
	}
	// Never cut inside a character.
	for lo > 0 && lo < len(text) && !utf8.RuneStart(text[lo]) {
		lo++
	}
	for hi < len(text) && hi > lo && !utf8.RuneStart(text[hi]) {
		hi--
	}
	var b strings.Builder
	if lo > 0 {
		fmt.Fprintf(&b, "… (%d bytes before)", lo)
		if lines {
			b.WriteByte('\n')
		} else {
			b.WriteByte(' ')
		}
		if midLine {
			b.WriteString("…")
		}
	}
	b.Write(text[lo:hi])
	if hi < len(text) {
		if lines {
			b.WriteByte('\n')
		} else {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "… (%d bytes after, %d in all)", len(text)-hi, len(text))
	}
	if !lines || at < lo || at >= hi {
		found = false
	}
	return b.String(), lineOf(text, lo, at, found, lo > 0)
}

// lineOf is the index, in an excerpt of text from lo, of the line holding
// byte at; -1 unless found. The line saying what was cut before counts.
func lineOf(text []byte, lo, at int, found, cutBefore bool) int {
	if !found {
		return -1
	}
	i := bytes.Count(text[lo:at], []byte("\n"))
	if cutBefore {
		i++
	}
	return i
}
