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
	return cut(b.Bytes(), pointer, max, false)
}

// Indented is Compact for text indented two spaces a level, cut on line
// boundaries so that every line shown is whole.
func Indented(raw []byte, pointer string, max int) string {
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		b.Reset()
		b.Write(raw)
	}
	return cut(b.Bytes(), pointer, max, true)
}

func cut(text []byte, pointer string, max int, lines bool) string {
	if max <= 0 || len(text) <= max {
		return string(text)
	}
	// Start and end of the value the window must hold; the start of the
	// text when there is none.
	at, end := 0, 0
	if pointer != "" {
		f := source.Parse("excerpt", text, source.Options{NoCopy: true})
		if len(f.Docs) == 1 && f.Docs[0].Root != nil {
			if n, ok := f.Docs[0].Root.Resolve(pointer); ok {
				at, end = int(n.Start), int(n.End)
				// A member is shown with its name.
				if n.Parent != nil && n.Parent.Kind == source.Object {
					at = int(n.KeyStart())
				}
			}
		}
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
	if lines {
		// Widen to whole lines at the start, narrow at the end: the first
		// line holding the value is never dropped.
		if i := bytes.LastIndexByte(text[:lo], '\n'); i >= 0 {
			lo = i + 1
		} else {
			lo = 0
		}
		if hi < len(text) {
			if i := bytes.LastIndexByte(text[lo:hi], '\n'); i > 0 && lo+i > at {
				hi = lo + i
			}
		}
	}
	var b strings.Builder
	if lo > 0 {
		fmt.Fprintf(&b, "… (%d bytes before)", lo)
		if lines {
			b.WriteByte('\n')
		} else {
			b.WriteByte(' ')
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
	return b.String()
}
