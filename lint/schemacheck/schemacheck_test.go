package schemacheck

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/pilotagekit/pilotagekit/lint/source"
)

func parse(t *testing.T, text string) *source.Node {
	t.Helper()
	f := source.Parse("schema.json", []byte(text), source.Options{})
	if len(f.Problems) > 0 || len(f.Docs) != 1 {
		t.Fatalf("test schema does not parse: %v", f.Problems)
	}
	return f.Docs[0].Root
}

// compileBounded fails the test instead of hanging when Compile blocks (on
// a fifo, say).
func compileBounded(t *testing.T, n *source.Node) ([]Issue, bool) {
	t.Helper()
	type res struct {
		issues   []Issue
		compiled bool
	}
	done := make(chan res, 1)
	go func() {
		sch, is := Compile(n)
		done <- res{is, sch != nil}
	}()
	select {
	case r := <-done:
		return r.issues, r.compiled
	case <-time.After(10 * time.Second):
		t.Fatal("Compile did not return within 10s: it is blocked on something outside the document")
	}
	return nil, false
}

// recordLoads makes the test fail if the compiler's loader is asked for
// anything.
func recordLoads(t *testing.T) {
	t.Helper()
	loadHook = func(u string) { t.Errorf("the compiler asked the loader for %q", u) }
	t.Cleanup(func() { loadHook = nil })
}

func summary(is []Issue) string {
	var b strings.Builder
	for _, i := range is {
		b.WriteString(i.Node.Pointer())
		if i.Key {
			b.WriteString("(key)")
		}
		b.WriteString(" ")
		b.WriteString(kindName[i.Kind])
		b.WriteString("\n")
	}
	return b.String()
}

var kindName = map[IssueKind]string{ExternalRef: "external-ref", BadRegex: "bad-regex", UncheckedRegex: "unchecked-regex", UnknownDialect: "unknown-dialect", Invalid: "invalid"}

// TestExternalRefsNeverFollowed gives $refs to a fifo (which blocks whoever
// opens it for reading until a writer comes), to /dev/zero (endless), and
// to a local HTTP server that counts requests: each is an issue naming the
// reference, Compile returns at once, the fifo was never opened and the
// server saw nothing.
func TestExternalRefsNeverFollowed(t *testing.T) {
	recordLoads(t)
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write([]byte(`{"type": "string"}`))
	}))
	defer srv.Close()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "schema.fifo")
	if err := mkfifo(fifo); err != nil {
		t.Skipf("cannot make a fifo here: %v", err)
	}
	refs := []string{
		fifo,
		"file://" + fifo,
		"/dev/zero",
		"file:///dev/zero",
		"file:///etc/passwd#/x",
		srv.URL + "/schema.json",
		srv.URL + "/schema.json#/$defs/a",
		"https://" + strings.TrimPrefix(srv.URL, "http://") + "/s.json",
		"other.json",
		"../other.json#/x",
		"//" + strings.TrimPrefix(srv.URL, "http://") + "/x",
	}
	var props []string
	for i, r := range refs {
		props = append(props, `"p`+string(rune('a'+i))+`": {"$ref": "`+r+`"}`)
	}
	text := `{"type": "object", "properties": {` + strings.Join(props, ", ") + `}, "$schema": "` + srv.URL + `/meta", "items": {"$dynamicRef": "` + fifo + `"}}`
	n := parse(t, text)
	issues, compiled := compileBounded(t, n)
	if !compiled {
		t.Errorf("the rest of the schema should still compile; issues:\n%s", summary(issues))
	}
	got := map[string]Issue{}
	for _, is := range issues {
		got[is.Node.Pointer()] = is
	}
	for i, r := range refs {
		ptr := "/properties/p" + string(rune('a'+i)) + "/$ref"
		is, ok := got[ptr]
		switch {
		case !ok:
			t.Errorf("$ref %q: no issue at %s", r, ptr)
		case is.Kind != ExternalRef || is.Ref != r:
			t.Errorf("$ref %q: issue %v ref %q, want external-ref naming it", r, kindName[is.Kind], is.Ref)
		case !strings.Contains(is.Message, r) && len(r) < 77:
			t.Errorf("$ref %q: message does not name it: %s", r, is.Message)
		}
	}
	if is := got["/$schema"]; is.Kind != UnknownDialect {
		t.Errorf("$schema to the test server: got %v, want unknown-dialect", kindName[is.Kind])
	}
	if is := got["/items/$dynamicRef"]; is.Kind != ExternalRef {
		t.Errorf("$dynamicRef to a fifo: got %v, want external-ref", kindName[is.Kind])
	}
	if len(issues) != len(refs)+2 {
		t.Errorf("got %d issues, want %d:\n%s", len(issues), len(refs)+2, summary(issues))
	}
	if h := hits.Load(); h != 0 {
		t.Errorf("the HTTP server got %d requests, want 0", h)
	}
	// A fifo with no reader refuses a non-blocking writer (ENXIO): this
	// proves nothing holds it open for reading.
	w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
	if err == nil {
		w.Close()
		t.Error("someone has the fifo open for reading")
	} else if !errors.Is(err, syscall.ENXIO) {
		t.Errorf("opening the fifo for writing: %v, want ENXIO", err)
	}
}

// TestLocalRefs: references that stay inside the document, including via
// its own $id (even one naming a fifo), compile without issues.
func TestLocalRefs(t *testing.T) {
	recordLoads(t)
	fifo := filepath.Join(t.TempDir(), "id.fifo")
	if err := mkfifo(fifo); err != nil {
		t.Skipf("cannot make a fifo here: %v", err)
	}
	for _, text := range []string{
		`{"$defs": {"a": {"type": "string"}}, "properties": {"x": {"$ref": "#/$defs/a"}}}`,
		`{"$id": "https://example.com/s.json", "$defs": {"a": {"type": "string"}}, "properties": {"x": {"$ref": "s.json#/$defs/a"}, "y": {"$ref": "https://example.com/s.json#/$defs/a"}}}`,
		`{"$id": "file://` + fifo + `", "$defs": {"a": {"type": "string"}}, "properties": {"x": {"$ref": "#/$defs/a"}}}`,
		`{"$defs": {"a": {"$id": "https://example.com/a.json", "type": "string"}}, "properties": {"x": {"$ref": "https://example.com/a.json"}}}`,
		`{"$defs": {"a": {"$anchor": "A", "type": "string"}}, "properties": {"x": {"$ref": "#A"}}}`,
		`{"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {"a": {"type": "string"}}, "properties": {"x": {"$ref": "#/definitions/a"}}}`,
		`{"$ref": "https://json-schema.org/draft/2020-12/schema"}`,
		`{"enum": [{"$ref": "/dev/zero"}], "const": {"$ref": "http://x"}, "default": {"$schema": "x"}, "properties": {"$ref": {"type": "string"}}}`,
		`true`,
	} {
		n := parse(t, text)
		issues, compiled := compileBounded(t, n)
		if len(issues) > 0 || !compiled {
			t.Errorf("%s: compiled=%v, issues:\n%s", text, compiled, summary(issues))
		}
	}
}

func TestIssues(t *testing.T) {
	recordLoads(t)
	for _, c := range []struct {
		text, want string
		compiled   bool
	}{
		// ECMA-262, which JSON Schema's patterns are, though not RE2.
		{`{"type": "string", "pattern": "^(?=a)b$"}`, "", true},
		{`{"type": "string", "pattern": "(a)\\1"}`, "", true},
		{`{"patternProperties": {"^ok$": {}, "(?<!x)y": {"type": "string"}}}`, "", true},
		{`{"type": "string", "pattern": "^(?=a"}`, "/pattern bad-regex\n", true},
		{`{"$schema": "https://example.com/my-dialect", "type": "object"}`, "/$schema unknown-dialect\n", true},
		{`{"$schema": "/dev/zero"}`, "/$schema unknown-dialect\n", true},
		{`{"type": "object", "properties": {"a": {"type": 12}}}`, "/properties/a/type invalid\n", false},
		{`{"minLength": -1}`, "/minLength invalid\n", false},
		{`{"properties": {"x": {"$ref": "#/$defs/missing"}}}`, "/properties/x/$ref invalid\n", true},
		{`{"$id": "a", "$defs": {"b": {"$id": "a"}}}`, " invalid\n", false},
		{`"string"`, " invalid\n", false},
		{`{"$ref": "http://[::1"}`, "/$ref invalid\n", true},
	} {
		n := parse(t, c.text)
		issues, compiled := compileBounded(t, n)
		if got := summary(issues); got != c.want || compiled != c.compiled {
			t.Errorf("%s:\ngot compiled=%v\n%swant compiled=%v\n%s", c.text, compiled, got, c.compiled, c.want)
		}
		for _, is := range issues {
			if is.Message == "" || strings.Count(is.Message, ". ") > 0 || strings.Contains(is.Message, rootURL) {
				t.Errorf("%s: message is not one clean sentence: %q", c.text, is.Message)
			}
		}
	}
}

// TestCompiledSchemaValidates: what compiles is usable, and an external
// $ref left out accepts anything.
func TestCompiledSchemaValidates(t *testing.T) {
	n := parse(t, `{"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}, "b": {"$ref": "file:///etc/passwd"}}}`)
	sch, issues := Compile(n)
	if sch == nil || len(issues) != 1 {
		t.Fatalf("sch=%v issues:\n%s", sch, summary(issues))
	}
	if err := sch.Validate(map[string]any{"a": "x", "b": 3}); err != nil {
		t.Errorf("valid instance rejected: %v", err)
	}
	if err := sch.Validate(map[string]any{"b": 3}); err == nil {
		t.Error("instance without a accepted")
	}
}

func TestNil(t *testing.T) {
	if sch, is := Compile(nil); sch != nil || is != nil {
		t.Error("Compile(nil) should return nothing")
	}
}

// TestUnknownMetaURL: a json-schema.org URL that is not built in reaches the
// refusing loader, which answers without any I/O, and is located at its $ref.
func TestUnknownMetaURL(t *testing.T) {
	var asked []string
	loadHook = func(u string) { asked = append(asked, u) }
	defer func() { loadHook = nil }()
	n := parse(t, `{"properties": {"a": {"$ref": "https://json-schema.org/no/such/schema"}}}`)
	issues, compiled := compileBounded(t, n)
	if compiled || summary(issues) != "/properties/a/$ref external-ref\n" {
		t.Errorf("compiled=%v issues:\n%s", compiled, summary(issues))
	}
	if len(asked) != 1 {
		t.Errorf("loader asked %v, want the one URL (refused)", asked)
	}
}
