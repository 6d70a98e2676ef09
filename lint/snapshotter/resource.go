package snapshotter

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
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
// differs. Each is bounded by the probe call timeout, so that a server
// that never answers one does not spend the session on it; one that
// drew no answer is recorded with why (failure) and named in the
// result's Failures, unless the session's own --timeout cut it short.
func (s *session) readManifest(uri string, manifestResult json.RawMessage, res *Result) objectValue {
	rec := objectValue{{"uri", rawValue(mustJSON(uri))}}
	reqs, _ := probe.ManifestResource.Build(&probe.Target{ManifestURI: uri})
	ctx, cancel := context.WithTimeout(s.ctx, s.per)
	defer cancel()
	m := s.rec.mark()
	_, err := s.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: reqs[0].Args["uri"].(string)})
	ex := s.rec.last(m, "resources/read")
	switch {
	case ex == nil:
		why := s.unanswered(ctx, s.per, "resources/read of the manifest resource "+uri, err)
		if why != errSessionOver {
			res.Failures = append(res.Failures, fmt.Sprintf("resources/read of the manifest resource %s drew no answer (%v); its contents are not judged", uri, why))
		}
		return append(rec, member{"failure", rawValue(mustJSON(why.Error()))})
	case ex.err != nil:
		res.Warnings = append(res.Warnings, fmt.Sprintf("resources/read of the manifest resource %s drew JSON-RPC error %d %q; its contents are not judged", uri, ex.err.Code, ex.err.Message))
		return append(rec, member{"error", rawValue(mustJSON(ex.err))})
	}
	rec = append(rec, member{"result", rawValue(ex.result)})
	if sameManifest(ex.result, uri, manifestResult) {
		return rec
	}
	again, err := s.call(types.ToolManifest, nil, s.per)
	if err != nil {
		// Whether the manifest changed in between is unknown, so the
		// resource is not judged.
		why := errors.Unwrap(err)
		if why != errSessionOver {
			res.Failures = append(res.Failures, fmt.Sprintf("the manifest resource %s differs from the pilotage_manifest result, and the second pilotage_manifest call, which tells a manifest that changed in between from a resource that differs, drew no answer (%v); the resource is not judged", uri, why))
		}
		return append(rec, member{"manifest_again", objectValue{{"name", rawValue(mustJSON(types.ToolManifest))}, {"arguments", rawValue("{}")}, {"failure", rawValue(mustJSON(why.Error()))}}})
	}
	return append(rec, member{"manifest_again", recordedCall(types.ToolManifest, nil, again)})
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
