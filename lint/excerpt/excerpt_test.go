package excerpt

import (
	"fmt"
	"strings"
	"testing"
)

// answer is a long tool result whose decisive member comes last, as a
// server's isError does after a long text content.
func answer() []byte {
	return []byte(fmt.Sprintf(`{"content":[{"type":"text","text":%q}],"structuredContent":{"status":"ok"},"isError":true}`, strings.Repeat("x", 5000)))
}

func TestCompactCentresOnPointer(t *testing.T) {
	got := Compact(answer(), "/isError", 200)
	if !strings.Contains(got, `"isError":true`) {
		t.Fatalf("excerpt lacks the member at the pointer: %s", got)
	}
	if !strings.HasPrefix(got, "… (") {
		t.Errorf("excerpt does not say what it cut before: %s", got)
	}
	if len(got) > 200+60 {
		t.Errorf("excerpt is %d bytes, want about 200", len(got))
	}
}

func TestCompactWithoutPointerKeepsStart(t *testing.T) {
	got := Compact(answer(), "", 200)
	if strings.Contains(got, `"isError"`) {
		t.Errorf("no pointer, yet the end was shown: %s", got)
	}
	if !strings.HasPrefix(got, `{"content":`) || !strings.HasSuffix(got, " in all)") {
		t.Errorf("excerpt = %s", got)
	}
	if got := Compact(answer(), "/no/such", 200); !strings.HasPrefix(got, `{"content":`) {
		t.Errorf("unresolved pointer: want the start, got %s", got)
	}
}

func TestSmallValueWhole(t *testing.T) {
	raw := []byte(`{"a": 1, "b": [true]}`)
	if got := Compact(raw, "/b/0", 200); got != `{"a":1,"b":[true]}` {
		t.Errorf("Compact = %s", got)
	}
	if got := Indented(raw, "/b", 200); got != "{\n  \"a\": 1,\n  \"b\": [\n    true\n  ]\n}" {
		t.Errorf("Indented = %q", got)
	}
}

func TestIndentedWholeLines(t *testing.T) {
	got := Indented(answer(), "/isError", 300)
	if !strings.Contains(got, `"isError": true`) {
		t.Fatalf("excerpt lacks the member: %s", got)
	}
	for _, l := range strings.Split(got, "\n") {
		if strings.HasPrefix(l, "…") {
			continue
		}
		if !strings.HasPrefix(l, " ") && l != "{" && l != "}" {
			t.Errorf("line %q is not a whole indented line", l)
		}
	}
}

func TestLargeValueShowsItsStart(t *testing.T) {
	got := Compact(answer(), "/content/0/text", 100)
	if !strings.Contains(got, `"text":"xxx`) {
		t.Errorf("a value larger than the window must show its own start: %s", got)
	}
}

func TestNotJSON(t *testing.T) {
	raw := []byte(strings.Repeat("not json ", 100))
	if got := Compact(raw, "/a", 50); !strings.HasPrefix(got, "not json") {
		t.Errorf("Compact = %s", got)
	}
}

// TestIndentedBounded (review B 1h): a line longer than the window before
// the value is cut mid-line, with the cut marked, rather than shown whole.
// Before, the window widened back to the start of that line: 1 MiB of
// content text before "isError" gave a 1,048,645-byte excerpt.
func TestIndentedBounded(t *testing.T) {
	raw := []byte(fmt.Sprintf(`{"content":[{"type":"text","text":%q}],"isError":true}`, strings.Repeat("x", 1<<20)))
	got := Indented(raw, "/isError", 2000)
	if len(got) > 2*2000 {
		t.Errorf("the excerpt is %d bytes for a window of 2000", len(got))
	}
	if !strings.Contains(got, `"isError": true`) {
		t.Errorf("the excerpt lacks the member: %.300s", got)
	}
	lines := strings.Split(got, "\n")
	if !strings.HasPrefix(lines[0], "… (") || !strings.HasPrefix(lines[1], "…") || !strings.Contains(lines[1], "xxx") {
		t.Errorf("the cut line is not marked: %.200q", got)
	}
	// Lines shorter than the window are still shown whole.
	var items []string
	for range 300 {
		items = append(items, `{"type":"text","text":"a guide line"}`)
	}
	short := []byte(`{"content":[` + strings.Join(items, ",") + `],"isError":true}`)
	got, line := IndentedAt(short, "/isError", 300)
	lines = strings.Split(got, "\n")
	if strings.Contains(got, "\n…") || line < 0 || line >= len(lines) || lines[line] != `  "isError": true` {
		t.Errorf("line %d of %q", line, got)
	}
}
