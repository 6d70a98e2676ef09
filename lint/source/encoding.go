package source

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
)

// The fix every encoding message ends with. Windows PowerShell 5's > and
// Out-File write UTF-16LE unless told otherwise; its -Encoding utf8 writes
// a UTF-8 byte-order mark, which Parse reads past (see bomMessage).
const encodingFix = "save it as UTF-8 (in PowerShell, pipe to Out-File -Encoding utf8 instead of using >), or let pilotage-lint snapshot --out FILE write the file"

// A wide encoding is one that cannot be read as UTF-8 at all: every ASCII
// character of the JSON grammar comes with NUL bytes.
type wide struct {
	name string
	bom  []byte
	// nul is the NUL pattern of the first four bytes of JSON text without
	// a byte-order mark (RFC 4627 §3: the first two characters are
	// ASCII), 'x' for a byte that is not NUL, '0' for a NUL.
	nul string
	dec encoding.Encoding
}

// wides are tried in order: UTF-32LE's mark starts with UTF-16LE's.
var wides = []wide{
	{"UTF-32BE", []byte{0, 0, 0xFE, 0xFF}, "000x", utf32.UTF32(utf32.BigEndian, utf32.IgnoreBOM)},
	{"UTF-32LE", []byte{0xFF, 0xFE, 0, 0}, "x000", utf32.UTF32(utf32.LittleEndian, utf32.IgnoreBOM)},
	{"UTF-16BE", []byte{0xFE, 0xFF}, "0x0x", unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)},
	{"UTF-16LE", []byte{0xFF, 0xFE}, "x0x0", unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)},
}

// sniffWide names the encoding of a text in UTF-16 or UTF-32, from its
// byte-order mark or the NUL pattern of its first bytes, and confirms it by
// decoding the text with golang.org/x/text: what decodes to control
// characters or broken sequences is binary data, not text. Nothing of such
// a text can be parsed; "" is none of them.
func sniffWide(s string) (name string, bom int) {
	for _, w := range wides {
		if strings.HasPrefix(s, string(w.bom)) {
			if textual(w.dec, s[len(w.bom):]) {
				return w.name + " with a byte-order mark", len(w.bom)
			}
			return binaryData, 0
		}
	}
	for _, w := range wides {
		if nulPattern(s, w.nul) {
			if textual(w.dec, s) {
				return w.name + " without a byte-order mark", 0
			}
			return binaryData, 0
		}
	}
	return "", 0
}

// sniffNarrow names the encoding of a text that is not valid UTF-8 and
// whose first bytes are no UTF-16 or UTF-32: binary data when a control
// character comes early (git's test for binary files, widened from NUL to
// every control JSON forbids), else an 8-bit legacy encoding when no byte
// sequence of the text is multi-byte UTF-8. A UTF-8 text with a few broken
// bytes is no encoding of its own: "".
func sniffNarrow(s string) string {
	if utf8.ValidString(s) {
		return ""
	}
	if strings.IndexFunc(s[:min(len(s), 8000)], control) >= 0 {
		return binaryData
	}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if n > 1 && r != utf8.RuneError {
			return ""
		}
		i += n
	}
	return latin
}

const latin = "Latin-1 (ISO 8859-1) or Windows-1252"

const binaryData = "binary data"

// nulPattern matches the first four bytes of s against a pattern of
// wides; a text of two or three bytes (one JSON character in UTF-16) is
// matched on its first two against the UTF-16 patterns.
func nulPattern(s, pattern string) bool {
	n := 4
	if len(s) < 4 {
		if len(s) < 2 || pattern[:2] != pattern[2:] {
			return false
		}
		n = 2
	}
	for i := 0; i < n; i++ {
		if (s[i] == 0) != (pattern[i] == '0') {
			return false
		}
	}
	return true
}

// textual reports whether s decodes with dec to text: no control
// character but JSON's whitespace, and hardly any replacement character
// (a lone surrogate or a value beyond Unicode), which random bytes are
// full of.
func textual(dec encoding.Encoding, s string) bool {
	// The first 64 KiB say it; a whole 64 MiB capture need not be decoded
	// to be refused. The cut falls on a UTF-32 unit, and a surrogate pair
	// it splits costs one replacement character.
	s = s[:min(len(s), 64<<10)&^3]
	out, err := dec.NewDecoder().Bytes([]byte(s))
	if err != nil || bytes.IndexFunc(out, control) >= 0 {
		return false
	}
	bad := bytes.Count(out, []byte(string(utf8.RuneError)))
	return bad*100 <= utf8.RuneCount(out)
}

// control is a character no JSON text holds unescaped outside whitespace:
// U+0000 to U+001F (RFC 8259 §7). DEL (U+007F) is not one of them; a
// string may hold it as it is.
func control(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' && r != '\r'
}

// encodingMessage says what the text is and how to fix it.
func encodingMessage(s, name string) string {
	if name == binaryData {
		at := strings.IndexFunc(s, func(r rune) bool { return control(r) || r == utf8.RuneError })
		what := ""
		if at >= 0 {
			what = fmt.Sprintf(" (byte 0x%02x at offset %d is no character of a JSON text)", s[at], at)
		}
		return "the file is binary data, not JSON text" + what + ", so nothing in it was read; if it should be a snapshot, take it again with pilotage-lint snapshot --out FILE"
	}
	enc, bom, _ := strings.Cut(name, " ")
	return "the file is " + enc + " text " + bom + ", not UTF-8 as JSON text must be, so nothing in it was read; " + encodingFix
}

// latinMessage is the message of one byte of an 8-bit encoding.
func latinMessage(c byte, name string) string {
	return fmt.Sprintf("byte 0x%02x is not UTF-8: the file looks %s encoded, and JSON text must be UTF-8; %s", c, name, encodingFix)
}

// bomMessage is the note on a UTF-8 byte-order mark. RFC 8259 §8.1 lets a
// parser ignore one, and Parse does: a file saved by a Windows tool (or by
// PowerShell's Out-File -Encoding utf8, which the encoding messages
// recommend) says nothing about the bytes the server sent.
const bomMessage = "the file starts with a UTF-8 byte-order mark, which pilotage-lint reads past as RFC 8259 §8.1 allows a parser to; other JSON tools may reject it, so save the file without it when they read it too"

// LFSPointer reports whether s is a Git LFS pointer file, which a checkout
// without the LFS objects (actions/checkout without lfs: true, git show of
// an old revision) leaves where the JSON should be, and describes it: its
// object id and the size of the file it stands for. Parse reports one as a
// syntax problem; diff --against, which reads revisions through git, asks
// it of each blob.
func LFSPointer(s string) (what string, ok bool) {
	// https://github.com/git-lfs/git-lfs/blob/main/docs/spec.md: the
	// first line names the spec; pointers are under 1024 bytes.
	if len(s) >= 1024 || !strings.HasPrefix(s, "version https://git-lfs.github.com/spec/") && !strings.HasPrefix(s, "version https://hawser.github.com/spec/v1") {
		return "", false
	}
	var oid, size string
	for _, line := range strings.Split(s, "\n") {
		if v, ok := strings.CutPrefix(line, "oid sha256:"); ok {
			oid = v[:min(len(v), 12)] + "…"
		}
		if v, ok := strings.CutPrefix(line, "size "); ok {
			size = v
		}
	}
	if oid == "" {
		return "", false
	}
	return fmt.Sprintf("object sha256:%s of %s bytes", oid, size), true
}

// lfsMessage says what a pointer is and how to fetch what it stands for.
func lfsMessage(what string) string {
	return "the file is a Git LFS pointer (" + what + "), not the JSON it stands for, so nothing in it was read; fetch the LFS objects with git lfs pull (in GitHub Actions, actions/checkout with lfs: true) and run again"
}
