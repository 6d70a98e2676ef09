package schemacheck

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
)

// TestOfficialRetentionPattern: the official schema's retention pattern
// uses ECMA-262 look-aheads that RE2 cannot compile; every definition of
// the schema compiles without an issue, and the pattern validates as the
// spec means it.
func TestOfficialRetentionPattern(t *testing.T) {
	recordLoads(t)
	b, err := os.ReadFile("../../testdata/reference/pilotage.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	// Every definition compiles cleanly as a schema of its own, as an
	// outputSchema built from it would.
	for name := range doc["$defs"].(map[string]any) {
		doc["$ref"] = "#/$defs/" + name
		text, _ := json.Marshal(doc)
		if sch, issues := Compile(parse(t, string(text))); sch == nil || len(issues) > 0 {
			t.Errorf("$defs/%s does not compile cleanly: compiled=%v\n%s", name, sch != nil, summary(issues))
		}
	}
	doc["$ref"] = "#/$defs/Retention"
	text, _ := json.Marshal(doc)
	sch, issues := Compile(parse(t, string(text)))
	if sch == nil || len(issues) > 0 {
		t.Fatalf("the official schema does not compile cleanly: compiled=%v\n%s", sch != nil, summary(issues))
	}
	for v, valid := range map[string]bool{"none": true, "session": true, "P1D": true, "PT1H": true, "P1Y2M3DT4H5M6.5S": true, "P": false, "PT": false, "P1DT": false, "forever": false} {
		if err := sch.Validate(v); (err == nil) != valid {
			t.Errorf("retention %q: valid=%v, want %v (%v)", v, err == nil, valid, err)
		}
	}
}

// TestECMAPatterns: patterns and patternProperties names that RE2 rejects
// but ECMA-262 accepts compile and are enforced; Scan still names them,
// since Go clients cannot compile them.
func TestECMAPatterns(t *testing.T) {
	recordLoads(t)
	for _, c := range []struct {
		schema      string
		good, bad   any
		scanPointer string
	}{
		{`{"type": "string", "pattern": "^(?!x)[a-z]+$"}`, "abc", "xyz", "/pattern bad-regex\n"},
		{`{"type": "string", "pattern": "^(a+)-\\1$"}`, "aa-aa", "aa-a", "/pattern bad-regex\n"},
		{`{"type": "string", "pattern": "^\\cA$"}`, "\x01", "cA", "/pattern bad-regex\n"},
		{`{"patternProperties": {"^ok$": {}, "(?<!x)y$": {"type": "string"}}}`, map[string]any{"xy": 1.0, "ay": "s"}, map[string]any{"ay": 1.0}, "/patternProperties/(?<!x)y$(key) bad-regex\n"},
	} {
		n := parse(t, c.schema)
		sch, issues := Compile(n)
		if sch == nil || len(issues) > 0 {
			t.Errorf("%s: compiled=%v, issues:\n%s", c.schema, sch != nil, summary(issues))
			continue
		}
		if err := sch.Validate(c.good); err != nil {
			t.Errorf("%s: %v rejected: %v", c.schema, c.good, err)
		}
		if err := sch.Validate(c.bad); err == nil {
			t.Errorf("%s: %v accepted", c.schema, c.bad)
		}
		if got := summary(Scan(n)); got != c.scanPointer {
			t.Errorf("%s: Scan says\n%swant\n%s", c.schema, got, c.scanPointer)
		}
	}
}

// TestPatternsNeitherEngineCompiles: a pattern no ECMA-262 engine accepts
// is reported and left out, so the rest of the schema still validates; one
// that may be valid ECMA-262 although neither engine knows its syntax is
// left out as unchecked, never called invalid.
func TestPatternsNeitherEngineCompiles(t *testing.T) {
	recordLoads(t)
	for _, c := range []struct {
		schema, want string
		typed        bool
	}{
		{`{"type": "string", "pattern": "^(run_"}`, "/pattern bad-regex\n", true},
		{`{"type": "string", "pattern": "a++"}`, "/pattern bad-regex\n", true},
		{`{"patternProperties": {"[": {"type": "string"}}}`, "/patternProperties/[(key) bad-regex\n", false},
		{`{"type": "string", "pattern": "^\\p{Script=Greek}+$"}`, "/pattern unchecked-regex\n", true},
		{`{"type": "string", "pattern": "^\\p{sc=Grek}\\P{General_Category=Lu}$"}`, "/pattern unchecked-regex\n", true},
		{`{"patternProperties": {"^\\p{Script_Extensions=Latin}+$": {"type": "string"}}}`, "/patternProperties/^\\p{Script_Extensions=Latin}+$(key) unchecked-regex\n", false},
	} {
		sch, issues := Compile(parse(t, c.schema))
		if got := summary(issues); got != c.want || sch == nil {
			t.Errorf("%s: compiled=%v, issues:\n%swant\n%s", c.schema, sch != nil, got, c.want)
			continue
		}
		if err := sch.Validate("123"); err != nil {
			t.Errorf("%s: the left-out pattern still rejects: %v", c.schema, err)
		}
		if err := sch.Validate(12.0); err == nil && c.typed {
			t.Errorf("%s: the rest of the schema no longer validates", c.schema)
		}
	}
}

// TestECMAMatchTimeout: a backtracking pattern that runs away on a value
// counts as a match once its time is up: the linter cannot tell, and a
// false error is worse than a missed one.
func TestECMAMatchTimeout(t *testing.T) {
	sch, issues := Compile(parse(t, `{"type": "string", "pattern": "^(a+)+(?!x)b$"}`))
	if sch == nil || len(issues) > 0 {
		t.Fatalf("compiled=%v issues:\n%s", sch != nil, summary(issues))
	}
	start := time.Now()
	if err := sch.Validate(strings.Repeat("a", 40)); err != nil {
		t.Errorf("a match that ran out of time rejected the value: %v", err)
	}
	// Generous, for a loaded machine: without the timeout this match runs
	// for hours.
	if d := time.Since(start); d > 50*ecmaMatchTimeout {
		t.Errorf("the match took %v, more than fifty times its timeout", d)
	}
	if err := sch.Validate("aab"); err != nil {
		t.Errorf("aab rejected: %v", err)
	}
}
