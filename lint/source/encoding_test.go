package source

import (
	"strings"
	"testing"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
)

// TestEncodings: a text in UTF-16 or UTF-32 (named by its byte-order mark
// or, without one, by the NUL pattern of RFC 4627 §3), or binary data, is
// one invalid-utf8 problem naming it and no document; an 8-bit text is
// parsed, each byte named as Latin-1; UTF-8 with a few broken bytes, or
// with a byte-order mark, is UTF-8.
func TestEncodings(t *testing.T) {
	enc := func(e encoding.Encoding, s string) string {
		out, err := e.NewEncoder().String(s)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	const doc = `{"tools": [{"name": "pilotage_manifest", "description": "Café"}]}`
	for _, c := range []struct {
		name, text, encoding, problems string
		docs                           int
	}{
		{"UTF-8", doc, "", "", 1},
		{"UTF-8 with BOM", "\uFEFF" + doc, "", "bom 1:1-1:2\n", 1},
		{"UTF-16LE BOM", enc(unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), doc), "UTF-16LE with a byte-order mark", "invalid-utf8 1:1-1:3\n", 0},
		{"UTF-16BE BOM", enc(unicode.UTF16(unicode.BigEndian, unicode.UseBOM), doc), "UTF-16BE with a byte-order mark", "invalid-utf8 1:1-1:3\n", 0},
		{"UTF-16LE", enc(unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), doc), "UTF-16LE without a byte-order mark", "invalid-utf8 1:1-1:2\n", 0},
		{"UTF-16BE", enc(unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), doc), "UTF-16BE without a byte-order mark", "invalid-utf8 1:1-1:2\n", 0},
		{"UTF-32LE BOM", enc(utf32.UTF32(utf32.LittleEndian, utf32.UseBOM), doc), "UTF-32LE with a byte-order mark", "invalid-utf8 1:1-1:5\n", 0},
		{"UTF-32BE BOM", enc(utf32.UTF32(utf32.BigEndian, utf32.UseBOM), doc), "UTF-32BE with a byte-order mark", "invalid-utf8 1:1-1:5\n", 0},
		{"UTF-32LE", enc(utf32.UTF32(utf32.LittleEndian, utf32.IgnoreBOM), doc), "UTF-32LE without a byte-order mark", "invalid-utf8 1:1-1:2\n", 0},
		{"UTF-32BE", enc(utf32.UTF32(utf32.BigEndian, utf32.IgnoreBOM), doc), "UTF-32BE without a byte-order mark", "invalid-utf8 1:1-1:2\n", 0},
		{"UTF-16LE, one character", enc(unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), "1"), "UTF-16LE without a byte-order mark", "invalid-utf8 1:1-1:2\n", 0},
		{"UTF-16 mark on binary", "\xFF\xFE\x00\xD8\x01\x00\x02\x00", "binary data", "invalid-utf8 1:1-1:2\n", 0},
		{"PNG", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary data", "invalid-utf8 1:1-1:2\n", 0},
		{"Latin-1", enc(charmap.ISO8859_1, doc), "Latin-1 (ISO 8859-1) or Windows-1252", "invalid-utf8 1:61-1:62\n", 1},
		{"UTF-8 with a broken byte", strings.Replace(doc, "Café", "Café \xff", 1), "", "invalid-utf8 1:63-1:64\n", 1},
		{"UTF-8 with a NUL", "{\"a\": \x00}", "", "syntax 1:7-1:8\n", 0},
		{"Git LFS pointer", "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 1873\n", "", "syntax 1:1-1:8\n", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := Parse("x.json", []byte(c.text), Options{})
			if f.Encoding != c.encoding || problems(f) != c.problems || len(f.Docs) != c.docs {
				t.Errorf("encoding %q, %d docs, problems:\n%s\nwant %q, %d docs,\n%s", f.Encoding, len(f.Docs), problems(f), c.encoding, c.docs, c.problems)
			}
			if c.encoding != "" && !strings.Contains(f.Problems[0].Message, strings.Fields(c.encoding)[0]) {
				t.Errorf("the message does not name the encoding: %s", f.Problems[0].Message)
			}
		})
	}
}
