package types

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestTranscriptsRoundTrip decodes every Pilotage shape of the recorded
// Harborview sessions (the arguments and the structuredContent of every
// Pilotage tool call) into its type and re-encodes it, and wants the same
// JSON value back: no member lost, added or changed. The program travels
// in the argument the loop tool declares, as it does on the wire.
func TestTranscriptsRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/reference/transcripts/*.jsonl")
	if len(files) == 0 {
		t.Fatal("no Harborview transcripts")
	}
	shapes := map[string]int{}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			fh, err := os.Open(f)
			if err != nil {
				t.Fatal(err)
			}
			defer fh.Close()
			sc := bufio.NewScanner(fh)
			sc.Buffer(nil, 16<<20)
			var m Manifest
			args := map[string]string{} // loop tool -> program argument
			for sc.Scan() {
				var rec struct {
					Type   string            `json:"type"`
					Seq    int               `json:"seq"`
					Tool   string            `json:"tool"`
					Tools  []json.RawMessage `json:"tools"`
					Args   json.RawMessage   `json:"args"`
					Result struct {
						IsError           bool            `json:"isError"`
						StructuredContent json.RawMessage `json:"structuredContent"`
					} `json:"result"`
				}
				if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
					t.Fatal(err)
				}
				for _, raw := range rec.Tools {
					var tool struct {
						Name string                        `json:"name"`
						Meta map[string]ProgramDeclaration `json:"_meta"`
					}
					if json.Unmarshal(raw, &tool) == nil {
						if d, ok := tool.Meta[MetaKey]; ok && len(d.Bindings()) > 0 {
							args[tool.Name] = d.Bindings()[0].Argument
						}
					}
				}
				if rec.Type != "tool_result" {
					continue
				}
				at := fmt.Sprintf("seq %d %s", rec.Seq, rec.Tool)
				check := func(shape string, in json.RawMessage, decode func() error, encode func() ([]byte, error)) {
					t.Helper()
					if err := decode(); err != nil {
						t.Errorf("%s: decode %s: %v", at, shape, err)
						return
					}
					out, err := encode()
					if err != nil {
						t.Errorf("%s: encode %s: %v", at, shape, err)
						return
					}
					var want, got any
					_ = json.Unmarshal(in, &want)
					_ = json.Unmarshal(out, &got)
					if d := subset(want, got, true, ""); d != "" {
						t.Errorf("%s: %s round trip: %s\nin:  %s\nout: %s", at, shape, d, in, out)
					}
					shapes[shape]++
				}
				plain := func(shape string, v any, in json.RawMessage) {
					t.Helper()
					check(shape, in, func() error { return json.Unmarshal(in, v) }, func() ([]byte, error) { return json.Marshal(v) })
				}
				sc := rec.Result.StructuredContent
				if rec.Result.IsError {
					plain("RequestError", new(RequestError), sc)
				}
				var verb struct {
					ID   *string `json:"id"`
					Verb string  `json:"verb"`
				}
				_ = json.Unmarshal(rec.Args, &verb)
				loopOf := func(name string) string {
					for _, l := range m.Languages {
						switch name {
						case l.Loop.Validate:
							return "validate"
						case l.Loop.Execute:
							return "execute"
						case l.Loop.Trace:
							return "trace"
						}
					}
					return ""
				}
				switch {
				case rec.Tool == ToolManifest:
					if !rec.Result.IsError {
						plain("Manifest", &m, sc)
					}
				case rec.Tool == ToolGetGuide:
					plain("GuideRequest", new(GuideRequest), rec.Args)
					if !rec.Result.IsError && verb.ID == nil {
						plain("GuideIndexResult", new(GuideIndexResult), sc)
					} else if !rec.Result.IsError {
						plain("GuideFetchResult", new(GuideFetchResult), sc)
					}
				case rec.Tool == ToolCatalog:
					plain("CatalogRequest", new(CatalogRequest), rec.Args)
					if !rec.Result.IsError {
						switch verb.Verb {
						case "list":
							plain("CatalogListResult", new(CatalogListResult), sc)
						case "get":
							plain("CatalogGetResult", new(CatalogGetResult), sc)
						case "changed_since":
							plain("CatalogChangedSinceResult", new(CatalogChangedSinceResult), sc)
						}
					}
				case loopOf(rec.Tool) == "validate":
					var r ValidateRequest
					check("ValidateRequest", rec.Args,
						func() (err error) { r, err = DecodeValidateRequest(rec.Args, args[rec.Tool]); return err },
						func() ([]byte, error) { return r.Arguments(args[rec.Tool]) })
					if !rec.Result.IsError {
						plain("ValidateResponse", new(ValidateResponse), sc)
					}
				case loopOf(rec.Tool) == "execute":
					var r ExecuteRequest
					check("ExecuteRequest", rec.Args,
						func() (err error) { r, err = DecodeExecuteRequest(rec.Args, args[rec.Tool]); return err },
						func() ([]byte, error) { return r.Arguments(args[rec.Tool]) })
					if !rec.Result.IsError {
						plain("ExecuteResponse", new(ExecuteResponse), sc)
					}
				case loopOf(rec.Tool) == "trace":
					plain("TraceFetchRequest", new(TraceFetchRequest), rec.Args)
					if !rec.Result.IsError {
						plain("TraceFetchResponse", new(TraceFetchResponse), sc)
					}
				}
			}
			if err := sc.Err(); err != nil {
				t.Fatal(err)
			}
		})
	}
	t.Logf("shapes round-tripped: %v", shapes)
	for _, s := range []string{"Manifest", "GuideRequest", "GuideIndexResult", "GuideFetchResult", "CatalogRequest", "CatalogListResult", "ValidateRequest", "ValidateResponse", "ExecuteRequest", "ExecuteResponse", "TraceFetchRequest", "TraceFetchResponse"} {
		if shapes[s] == 0 {
			t.Errorf("no %s in the transcripts", s)
		}
	}
}
