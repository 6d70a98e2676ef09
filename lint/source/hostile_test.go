package source

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
	"unsafe"
)

// problems renders a file's problems as "code line:col-line:col" lines.
func problems(f *File) string {
	var b strings.Builder
	for _, p := range f.Problems {
		s, e := f.Position(p.Start), f.Position(p.End)
		fmt.Fprintf(&b, "%s %d:%d-%d:%d\n", p.Code, s.Line, s.Column, e.Line, e.Column)
	}
	return b.String()
}

// TestEdgeCases pins each defect of the text to its exact span.
func TestEdgeCases(t *testing.T) {
	for _, c := range []struct {
		name, text string
		lines      bool
		want       string
		docs       int
	}{
		{"invalid UTF-8 in a string", "{\"a\": \"caf\xe9\"}", false, "invalid-utf8 1:11-1:12\n", 1},
		{"invalid UTF-8 after non-ASCII", "{\"é\": \"ü\xff\xfe\"}", false, "invalid-utf8 1:9-1:10\n", 1},
		{"invalid UTF-8 runs", "{\"a\": \"\xff\xff\xff x \xc3\"}", false, "invalid-utf8 1:8-1:9\ninvalid-utf8 1:14-1:15\n", 1},
		{"invalid UTF-8 in a name", "{\"k\xff\": 1}", false, "invalid-utf8 1:4-1:5\n", 1},
		{"invalid UTF-8 outside strings", "{\"a\": 1,\n \xff}", false, "invalid-utf8 2:2-2:3\n", 0},
		{"lone surrogates", `["\ud800", "\udc00\ud83d\ude00", "\ud83dx"]`, false, "invalid-utf8 1:3-1:9\ninvalid-utf8 1:13-1:19\ninvalid-utf8 1:35-1:41\n", 1},
		{"surrogate pair", `["\ud83d\ude00"]`, false, "", 1},
		{"BOM", "\uFEFF{\"a\": 1}", false, "bom 1:1-1:2\n", 1},
		{"BOM only", "\uFEFF", false, "bom 1:1-1:2\nempty 1:2-1:2\n", 0},
		{"NaN", `{"a": NaN}`, false, "non-finite-number 1:7-1:10\n", 0},
		{"Infinity", `{"a": [1, Infinity]}`, false, "non-finite-number 1:11-1:19\n", 0},
		{"-Infinity", `{"a": -Infinity}`, false, "non-finite-number 1:7-1:16\n", 0},
		{"beyond float64", `{"a": 1e400, "b": -1.5e309, "c": 1e308}`, false, "number-range 1:7-1:12\nnumber-range 1:19-1:27\n", 1},
		{"long digits in range", `[123456789012345678901234567890]`, false, "", 1},
		{"duplicate keys", "{\"a\": 1,\n \"b\": 2,\n \"a\": 3}", false, "duplicate-key 3:2-3:5\n", 1},
		{"duplicate escaped key", `{"a": 1, "\u0061": 2}`, false, "duplicate-key 1:10-1:18\n", 1},
		{"trailing data", `{"a": 1} x`, false, "trailing-data 1:10-1:11\n", 1},
		{"trailing brace", `{"a": 1}}`, false, "trailing-data 1:9-1:10\n", 1},
		{"two documents on two lines", "{\"a\": 1}\n{\"b\": 2}\n", false, "", 2},
		{"empty", "", false, "empty 1:1-1:1\n", 0},
		{"whitespace only", " \n\t\r\n", false, "empty 3:1-3:1\n", 0},
		{"top-level scalar", `42`, false, "", 1},
		{"top-level string", `"x"`, false, "", 1},
		{"top-level null", `null`, false, "", 1},
		{"unterminated string", `{"a": "x`, false, "syntax 1:7-1:9\n", 0},
		{"control character", "{\"a\": \"x\ny\"}", false, "syntax 1:9-2:1\n", 0},
		{"bad escape", `["\x"]`, false, "syntax 1:3-1:5\n", 0},
		{"bad escape of a non-ASCII character", `["\é"]`, false, "syntax 1:3-1:5\n", 0},
		{"bad escape of a newline", "[\"\\\n\"]", false, "syntax 1:3-2:1\n", 0},
		{"truncated unicode escape", `["\u12`, false, "syntax 1:3-1:7\n", 0},
		{"leading zero", `[01]`, false, "syntax 1:3-1:4\n", 0},
		{"lone minus", `[-]`, false, "syntax 1:3-1:4\n", 0},
		{"JSON Lines: a broken line costs only itself", "{\"a\": 1}\n{\"b\": \n{\"c\": 3} 4\n", true, "syntax 2:7-2:7\ntrailing-data 3:10-3:11\n", 2},
		{"JSON Lines: blank lines", "\n\n{}\n\r\n", true, "", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := Parse("in.json", []byte(c.text), Options{Lines: c.lines})
			if got := problems(f); got != c.want {
				t.Errorf("problems:\n%swant:\n%s", got, c.want)
			}
			if len(f.Docs) != c.docs {
				t.Errorf("%d documents, want %d", len(f.Docs), c.docs)
			}
			for _, p := range f.Problems {
				if p.Message == "" || strings.Contains(p.Message, "\n") {
					t.Errorf("problem %s has a bad message %q", p.Code, p.Message)
				}
			}
		})
	}
}

// TestDepth: 100,000 levels of arrays, objects, or both, give one depth
// problem at the first bracket past the limit, quickly, without a deep
// stack; in JSON Lines every line is cut off the same way.
func TestDepth(t *testing.T) {
	const n = 100000
	for _, c := range []struct {
		name, open, close string
	}{
		{"arrays", "[", "]"},
		{"objects", `{"a":`, "}"},
		{"mixed", `[{"a":`, "}]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := strings.Repeat(c.open, n) + "1" + strings.Repeat(c.close, n)
			start := time.Now()
			f := Parse("deep.json", []byte(text), Options{})
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
			if len(f.Problems) != 1 || f.Problems[0].Code != ProblemDepth {
				t.Fatalf("problems: %s", problems(f))
			}
			// The 1001st opening bracket is where the limit is crossed.
			want := 0
			for i, depth := 0, 0; i < len(text); i++ {
				if text[i] == '[' || text[i] == '{' {
					depth++
					if depth == DefaultMaxDepth+1 {
						want = i
						break
					}
				}
			}
			if f.Problems[0].Start != want {
				t.Errorf("depth problem at %d, want %d", f.Problems[0].Start, want)
			}
		})
	}
	t.Run("lines", func(t *testing.T) {
		line := strings.Repeat("[", 5000) + strings.Repeat("]", 5000)
		f := Parse("deep.jsonl", []byte(line+"\n{}\n"+line+"\n"), Options{})
		if got := problems(f); got != "depth 1:1001-1:1002\ndepth 3:1001-3:1002\n" || len(f.Docs) != 1 {
			t.Errorf("docs %d, problems:\n%s", len(f.Docs), got)
		}
	})
	t.Run("limit is inclusive", func(t *testing.T) {
		text := strings.Repeat("[", DefaultMaxDepth) + strings.Repeat("]", DefaultMaxDepth)
		if f := Parse("ok.json", []byte(text), Options{}); len(f.Problems) != 0 || len(f.Docs) != 1 {
			t.Errorf("%d levels should parse: %s", DefaultMaxDepth, problems(f))
		}
	})
}

// TestProblemsBounded: a file with millions of repeated defects yields a
// bounded number of problems, the last saying more were left out.
func TestProblemsBounded(t *testing.T) {
	for _, c := range []struct {
		name string
		text string
		code ProblemCode
	}{
		{"duplicate keys", "{" + strings.Repeat(`"a":1,`, 1000000) + `"a":1}`, ProblemDuplicateKey},
		{"invalid bytes", "[" + strings.Repeat("\"\xff\",", 1000000) + "0]", ProblemInvalidUTF8},
		{"numbers out of range", "[" + strings.Repeat("1e999,", 1000000) + "0]", ProblemNumberRange},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := Parse("many.json", []byte(c.text), Options{})
			if len(f.Problems) != maxProblemsPerCode+1 {
				t.Fatalf("%d problems, want %d", len(f.Problems), maxProblemsPerCode+1)
			}
			last := f.Problems[maxProblemsPerCode]
			if last.Code != c.code || !strings.Contains(last.Message, "only the first 100") {
				t.Errorf("last problem: %s %q", last.Code, last.Message)
			}
		})
	}
}

// TestLongString: a 10 MB string is kept as a substring of the file text,
// not copied, and costs no problem.
func TestLongString(t *testing.T) {
	long := strings.Repeat("x", 10<<20)
	f := Parse("long.json", []byte(`{"description": "`+long+`"}`), Options{})
	if len(f.Problems) != 0 || len(f.Docs) != 1 {
		t.Fatalf("problems: %s", problems(f))
	}
	d := f.Docs[0].Root.Get("description")
	if d.Text() != long {
		t.Fatal("string value differs")
	}
	if unsafe.StringData(d.Text()) != unsafe.StringData(f.Data[17:]) {
		t.Error("the string was copied rather than sliced from the file text")
	}
	if p := f.Position(len(f.Data) - 1); p.Line != 1 || p.Column != len(f.Data) {
		t.Errorf("position of the closing brace: %+v", p)
	}
}

// TestMemoryLinear: parsing holds a bounded multiple of the text, however
// the text is shaped.
func TestMemoryLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a few hundred MB")
	}
	for _, c := range []struct {
		name string
		text string
	}{
		{"small array elements", "[" + strings.Repeat("0,", 4<<20) + "0]"},
		{"small objects", "[" + strings.Repeat(`{"a":0},`, 1<<20) + "{}]"},
		{"one big object", "{" + strings.Repeat(`"a":0,`, 1<<20) + `"b":0}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := []byte(c.text)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			f := Parse("mem.json", data, Options{})
			runtime.ReadMemStats(&after)
			perByte := float64(after.TotalAlloc-before.TotalAlloc) / float64(len(data))
			// A node is about 100 bytes; the densest text ("0,") has one
			// per 2 bytes.
			if perByte > 80 {
				t.Errorf("allocated %.1f bytes per input byte", perByte)
			}
			runtime.KeepAlive(f)
		})
	}
}

// TestPositionColumns: columns count code points, also far into a long
// non-ASCII line and across invalid bytes.
func TestPositionColumns(t *testing.T) {
	var b strings.Builder
	b.WriteString(`["`)
	for i := 0; b.Len() < 3*markStep+100; i++ {
		switch i % 4 {
		case 0:
			b.WriteString("é")
		case 1:
			b.WriteString("日本")
		case 2:
			b.WriteString("\xe2\x82") // truncated
		default:
			b.WriteString("x😀")
		}
	}
	b.WriteString(`"]` + "\n" + `["é"]`)
	f := &File{Data: b.String()}
	for off := 0; off <= len(f.Data); off++ {
		line := strings.Count(f.Data[:off], "\n") + 1
		ls := strings.LastIndexByte(f.Data[:off], '\n') + 1
		want := Position{Line: line, Column: utf8.RuneCountInString(f.Data[ls:off]) + 1}
		if got := f.Position(off); got != want {
			t.Fatalf("Position(%d) = %+v, want %+v", off, got, want)
		}
	}
}
