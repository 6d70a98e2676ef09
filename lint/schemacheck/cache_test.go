package schemacheck

import "testing"

func TestCompileSharesByContent(t *testing.T) {
	a, _ := Compile(parse(t, `{"type":"object","properties":{"n":{"type":"integer","minimum":1}}}`))
	b, _ := Compile(parse(t, `{ "type": "object", "properties": { "n": { "type": "integer", "minimum": 1 } } }`))
	c, _ := Compile(parse(t, `{"type":"object","properties":{"n":{"type":"integer","minimum":2}}}`))
	if a == nil || a != b {
		t.Fatal("the same schema in two documents was compiled twice")
	}
	if c == a {
		t.Fatal("a different schema got the cached compilation")
	}
	if err := c.Validate(map[string]any{"n": 1}); err == nil {
		t.Fatal("minimum 2 accepted 1")
	}
}

// Issues point into the document they were found in, so a schema with
// issues is never served from the cache.
func TestCompileIssuesPointIntoEachDocument(t *testing.T) {
	const text = `{"properties":{"a":{"$ref":"https://example.com/a.json"}}}`
	n1, n2 := parse(t, text), parse(t, text)
	_, is1 := Compile(n1)
	_, is2 := Compile(n2)
	if len(is1) != 1 || len(is2) != 1 {
		t.Fatalf("issues: %d and %d, want 1 each", len(is1), len(is2))
	}
	if is1[0].Node.Root() != n1 || is2[0].Node.Root() != n2 {
		t.Fatal("an issue points into another document")
	}
}

func TestContentKeyDistinguishes(t *testing.T) {
	pairs := [][2]string{
		{`{"a":"b"}`, `{"ab":""}`},
		{`["a","b"]`, `["ab"]`},
		{`{"a":1}`, `{"a":"1"}`},
		{`{"a":true}`, `{"a":false}`},
		{`{"a":null}`, `{"a":{}}`},
		{`{"a":[]}`, `{"a":{}}`},
	}
	for _, p := range pairs {
		if contentKey(parse(t, p[0])) == contentKey(parse(t, p[1])) {
			t.Errorf("%s and %s share a key", p[0], p[1])
		}
	}
}

func TestCompileSharesLocalRefs(t *testing.T) {
	const text = `{"type":"object","properties":{"a":{"$ref":"#/$defs/a"}},"$defs":{"a":{"type":"string"}}}`
	a, is1 := Compile(parse(t, text))
	b, is2 := Compile(parse(t, text))
	if len(is1)+len(is2) > 0 || a == nil || a != b {
		t.Fatal("a schema with only local references was not shared")
	}
}

// mayHaveIssues must reach every subschema scan reaches: a $ref under any
// keyword that holds schemas is found.
func TestMayHaveIssuesReachesEverySubschema(t *testing.T) {
	const ref = `{"$ref":"https://example.com/x.json"}`
	var cases []string
	for k := range schemaKeyword {
		cases = append(cases, `{"`+k+`":`+ref+`}`)
	}
	for k := range arrayKeyword {
		cases = append(cases, `{"`+k+`":[{},`+ref+`]}`)
	}
	for k := range mapKeyword {
		cases = append(cases, `{"`+k+`":{"a":{},"b":`+ref+`}}`)
	}
	cases = append(cases, `{"items":`+ref+`}`, `{"items":[{},`+ref+`]}`, `{"dependencies":{"a":["b"],"c":`+ref+`}}`,
		`{"properties":{"a":{"items":{"anyOf":[{"not":`+ref+`}]}}}}`)
	for _, c := range cases {
		n := parse(t, c)
		if len(scan(n, nil).issues) == 0 {
			t.Fatalf("scan finds nothing in %s; the case is wrong", c)
		}
		if !mayHaveIssues(n) {
			t.Errorf("mayHaveIssues misses the $ref in %s", c)
		}
		if len(Scan(n)) == 0 {
			t.Errorf("Scan misses the $ref in %s", c)
		}
	}
	for _, c := range []string{`{"type":"object","properties":{"a":{"type":"string","enum":["$ref"]}}}`, `{"default":{"$ref":"x"},"examples":[{"pattern":"("}]}`} {
		if mayHaveIssues(parse(t, c)) {
			t.Errorf("mayHaveIssues sees a keyword in the data of %s", c)
		}
	}
}
