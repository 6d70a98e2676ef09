package main

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
)

// TestEncodingsFailEveryArrival is the table of issue 32 §1: the bundled
// bad snapshot (8 errors, a "café" added so that 8-bit encodings differ
// from UTF-8) saved in every encoding a user meets, and random binary
// named .json, fail with a message naming the encoding and the fix,
// whether the file is named, met by a walk, forced with --input-kind,
// read from standard input or passed by the pre-commit hook. Before, the
// UTF-16 files, UTF-32LE with a mark and binary with a leading non-UTF-8
// byte passed with exit 0 ("no Pilotage surface"); the others failed on
// json-syntax "unexpected '\x00'", naming no encoding. A UTF-8
// byte-order mark is read past: the 8 errors are found, and the mark is
// an info.
func TestEncodingsFailEveryArrival(t *testing.T) {
	text, err := os.ReadFile(repoPath(t, "fixtures/examples/bad-server.snapshot.json"))
	must(t, err)
	text = bytes.Replace(text, []byte(`"description": "Start here.`), []byte(`"description": "Café. Start here.`), 1)
	encode := func(e encoding.Encoding) []byte {
		t.Helper()
		out, err := e.NewEncoder().Bytes(text)
		must(t, err)
		return out
	}
	random := make([]byte, 4096)
	r := rand.New(rand.NewPCG(32, 1))
	for i := range random {
		random[i] = byte(r.IntN(256))
	}
	fix := "save it as UTF-8 (in PowerShell, pipe to Out-File -Encoding utf8 instead of using >), or let pilotage-lint snapshot --out FILE write the file (RFC 8259 §8.1)"
	wide := func(enc string) string {
		return ":1:1: error json-invalid-utf8: the file is " + enc + ", not UTF-8 as JSON text must be, so nothing in it was read; " + fix + "\n1 error, 0 warnings, 0 infos in 1 file\n"
	}
	for _, tc := range []struct {
		name string
		data []byte
		code int
		want string
	}{
		{"UTF-16LE with BOM", encode(unicode.UTF16(unicode.LittleEndian, unicode.UseBOM)), exitFindings, wide("UTF-16LE text with a byte-order mark")},
		{"UTF-16LE", encode(unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)), exitFindings, wide("UTF-16LE text without a byte-order mark")},
		{"UTF-16BE with BOM", encode(unicode.UTF16(unicode.BigEndian, unicode.UseBOM)), exitFindings, wide("UTF-16BE text with a byte-order mark")},
		{"UTF-16BE", encode(unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)), exitFindings, wide("UTF-16BE text without a byte-order mark")},
		{"UTF-32LE with BOM", encode(utf32.UTF32(utf32.LittleEndian, utf32.UseBOM)), exitFindings, wide("UTF-32LE text with a byte-order mark")},
		{"UTF-32LE", encode(utf32.UTF32(utf32.LittleEndian, utf32.IgnoreBOM)), exitFindings, wide("UTF-32LE text without a byte-order mark")},
		{"UTF-32BE with BOM", encode(utf32.UTF32(utf32.BigEndian, utf32.UseBOM)), exitFindings, wide("UTF-32BE text with a byte-order mark")},
		{"UTF-32BE", encode(utf32.UTF32(utf32.BigEndian, utf32.IgnoreBOM)), exitFindings, wide("UTF-32BE text without a byte-order mark")},
		{"Latin-1", encode(charmap.ISO8859_1), exitFindings, ":25:28: error json-invalid-utf8: byte 0xe9 is not UTF-8: the file looks Latin-1 (ISO 8859-1) or Windows-1252 encoded, and JSON text must be UTF-8; " + fix + "\n"},
		{"Windows-1252", encode(charmap.Windows1252), exitFindings, ":25:28: error json-invalid-utf8: byte 0xe9 is not UTF-8: the file looks Latin-1 (ISO 8859-1) or Windows-1252 encoded"},
		{"binary", random, exitFindings, ":1:1: error json-invalid-utf8: the file is binary data, not JSON text (byte 0x"},
		{"UTF-8 with BOM", append([]byte("\uFEFF"), text...), exitFindings, "8 errors, 0 warnings, 3 infos in 1 file\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "snaps", "pilotage-server.json")
			write(t, file, tc.data)
			for _, a := range []struct {
				name, stdin string
				args        []string
				shown       string
			}{
				{"named", "", []string{file}, file},
				{"walked", "", []string{filepath.Join(dir, "snaps")}, file},
				{"forced", "", []string{"--input-kind", "snapshot", file}, file},
				{"stdin", string(tc.data), []string{"-"}, "<stdin>"},
				{"pre-commit", "", []string{"--skip-unrecognized", file}, file},
			} {
				code, out, errOut := cli(t, "", a.stdin, append([]string{"--no-config"}, a.args...)...)
				want := tc.want
				if strings.HasPrefix(want, ":") {
					want = a.shown + want
				}
				if code != tc.code || !strings.Contains(out, want) || errOut != "" {
					t.Errorf("%s: exit %d (want %d), stderr %q, output:\n%s\nwant it to hold:\n%s", a.name, code, tc.code, errOut, out, want)
				}
			}
		})
	}
}
