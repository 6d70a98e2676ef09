package snapshotter

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/source"
)

// TestCanonical checks the layout committed snapshots rely on: sorted
// members, two-space indent, number literals and duplicate names kept.
func TestCanonical(t *testing.T) {
	raw := json.RawMessage(`{"b": 1.50, "a": {"z": [], "y": {}, "x": "<é>"}, "b": 2e3}`)
	doc := objectValue{
		{"tools", objectValue{{"tools", sortedBy(source.ParseValue(json.RawMessage(`[{"name": "b"}, {"name": "a"}]`)).Kids(), "name")}}},
		{"manifest", rawValue(raw)},
	}
	var b bytes.Buffer
	doc.write(&b, 0)
	want := `{
  "tools": {
    "tools": [
      {
        "name": "a"
      },
      {
        "name": "b"
      }
    ]
  },
  "manifest": {
    "a": {
      "x": "<é>",
      "y": {},
      "z": []
    },
    "b": 1.50,
    "b": 2e3
  }
}`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// TestCheckURL accepts every http(s) URL, hosted ones too.
func TestCheckURL(t *testing.T) {
	for url, ok := range map[string]bool{
		"http://localhost:8080/mcp":     true,
		"http://[::1]:9/mcp":            true,
		"https://mcp.example.com/mcp":   true,
		"http://10.0.0.1/mcp":           true,
		"ftp://localhost/mcp":           false,
		"localhost:8080":                false,
		"https:///no-host":              false,
		"http://exa mple.com/bad%zzurl": false,
	} {
		if err := checkURL(url); (err == nil) != ok {
			t.Errorf("checkURL(%q) = %v", url, err)
		}
	}
}
