package snapshotter

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pilotagekit/pilotagekit/lint/probe"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// manifestURI returns the URI of the manifest resource the server
// advertises: the handshake metadata's manifest_uri (Part III §3.2), or
// else pilotage://manifest when resources/list lists it; "" for none.
func manifestURI(rec *recorder, resources []*source.Node) string {
	for _, method := range []string{"initialize", "server/discover"} {
		if ex := rec.last(0, method); ex != nil && ex.err == nil {
			if uri, ok := source.ParseValue(ex.result).Get("_meta").Get(types.MetaKey).Str("manifest_uri"); ok && uri != "" {
				return uri
			}
		}
	}
	for _, r := range resources {
		if uri, _ := r.Str("uri"); uri == types.ManifestURI {
			return uri
		}
	}
	return ""
}

// readManifest reads the manifest resource at uri and returns what the
// snapshot records of it: the uri and the read's result or error. When
// the contents differ from the manifest tool's result, pilotage_manifest
// is called once more and recorded as manifest_again, so that a manifest
// that changed in between (Part III §3.3) is told from a resource that
// differs.
func (s *session) readManifest(uri string, manifestResult json.RawMessage, res *Result) objectValue {
	rec := objectValue{{"uri", rawValue(mustJSON(uri))}}
	reqs, _ := probe.ManifestResource.Build(&probe.Target{ManifestURI: uri})
	m := s.rec.mark()
	_, err := s.cs.ReadResource(s.ctx, &mcp.ReadResourceParams{URI: reqs[0].Args["uri"].(string)})
	ex := s.rec.last(m, "resources/read")
	switch {
	case ex == nil:
		why := "no answer"
		if err != nil {
			why = err.Error()
		}
		res.Warnings = append(res.Warnings, fmt.Sprintf("resources/read of the manifest resource %s drew no answer (%s); its contents are not judged", uri, why))
		return append(rec, member{"failure", rawValue(mustJSON(why))})
	case ex.err != nil:
		res.Warnings = append(res.Warnings, fmt.Sprintf("resources/read of the manifest resource %s drew JSON-RPC error %d %q; its contents are not judged", uri, ex.err.Code, ex.err.Message))
		return append(rec, member{"error", rawValue(mustJSON(ex.err))})
	}
	rec = append(rec, member{"result", rawValue(ex.result)})
	if sameManifest(ex.result, uri, manifestResult) {
		return rec
	}
	if again, err := s.call(types.ToolManifest, nil); err == nil {
		rec = append(rec, member{"manifest_again", recordedCall(types.ToolManifest, nil, again)})
	}
	return rec
}

// sameManifest reports whether the resource read's contents for uri hold
// the JSON value of the manifest tool's structuredContent.
func sameManifest(read json.RawMessage, uri string, manifestResult json.RawMessage) bool {
	var r struct {
		Contents []struct {
			URI  string  `json:"uri"`
			Text *string `json:"text"`
			Blob *string `json:"blob"`
		} `json:"contents"`
	}
	var t struct {
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	if json.Unmarshal(read, &r) != nil || json.Unmarshal(manifestResult, &t) != nil || len(r.Contents) != 1 {
		return false
	}
	c := r.Contents[0]
	var text []byte
	switch {
	case c.Text != nil:
		text = []byte(*c.Text)
	case c.Blob != nil:
		b, err := base64.StdEncoding.DecodeString(*c.Blob)
		if err != nil {
			return false
		}
		text = b
	}
	var a, b any
	if json.Unmarshal(bytes.TrimSpace(text), &a) != nil || json.Unmarshal(t.StructuredContent, &b) != nil {
		return false
	}
	return (c.URI == "" || c.URI == uri) && reflect.DeepEqual(a, b)
}
