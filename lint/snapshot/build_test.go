package snapshot_test

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
)

// inputs is the folder of realistic inputs, one sub-folder per kind; the
// same files are linted against goldens by the fixture tests of lint/rules and its family packages.
const inputs = "../../fixtures/inputs/"

// summary is what a Snapshot found, each surface written as
// "LINE:POINTER": the line where its document starts (which tells the
// documents of a capture apart) and its pointer inside that document.
type summary struct {
	Kind           snapshot.Kind
	Revision       string
	Stateless      bool
	Initialize     string
	Discover       string
	ToolsArray     string
	Tools          string
	ManifestResult string
	Manifest       string
	InlineManifest string
	Resources      string
	Calls          []string
	Languages      string
}

func loc(s *snapshot.Snapshot, n *source.Node) string {
	if n == nil {
		return ""
	}
	f := s.FileOf(n)
	if f == nil {
		return "?:" + n.Pointer() // a node of no file of the snapshot
	}
	return fmt.Sprintf("%d:%s", f.Position(int(n.Root().Start)).Line, n.Pointer())
}

func summarize(s *snapshot.Snapshot) summary {
	sum := summary{
		Kind:           s.Kind,
		Revision:       s.Revision,
		Stateless:      s.Stateless(),
		Initialize:     loc(s, s.Initialize),
		Discover:       loc(s, s.Discover),
		ToolsArray:     loc(s, s.ToolsArray),
		ManifestResult: loc(s, s.ManifestResult),
		Manifest:       loc(s, s.Manifest),
		InlineManifest: loc(s, s.InlineManifest),
		Resources:      loc(s, s.Resources),
	}
	var names []string
	for _, t := range s.Tools {
		names = append(names, t.Name)
	}
	sum.Tools = strings.Join(names, ",")
	for _, c := range s.Calls {
		sum.Calls = append(sum.Calls, fmt.Sprintf("%s node=%s args=%s result=%s error=%s", c.Name, loc(s, c.Node), loc(s, c.Arguments), loc(s, c.Result), loc(s, c.Error)))
	}
	names = nil
	for _, l := range s.Languages {
		names = append(names, l.Name)
	}
	sum.Languages = strings.Join(names, ",")
	return sum
}

func build(t *testing.T, name, data string, kind snapshot.Kind) (*snapshot.Snapshot, error) {
	t.Helper()
	f := source.Parse(name, []byte(data), source.Options{})
	if len(f.Problems) > 0 {
		t.Fatalf("%s does not parse cleanly: %+v", name, f.Problems)
	}
	return snapshot.Build(f, kind)
}

// buildWith is build with a --manifest file.
func buildWith(t *testing.T, name, data string, m *source.File) (*snapshot.Snapshot, error) {
	t.Helper()
	f := source.Parse(name, []byte(data), source.Options{})
	if len(f.Problems) > 0 {
		t.Fatalf("%s does not parse cleanly: %+v", name, f.Problems)
	}
	return snapshot.BuildWith(f, snapshot.Options{Manifest: m})
}

func readInput(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(inputs + rel)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const (
	goodTools = "pilotage_manifest,pilotage_get_guide,pilotage_catalog,validate_flow,run_flow,trace_run"
	lang      = "buildingflow/1"
	inline    = "/_meta/io.github.jafarsa0~1pilotage/manifest"
)

// TestBuildInputKinds builds one realistic input of every kind issue 3
// lists and checks that each surface is found, at its exact place, and
// nothing else is.
func TestBuildInputKinds(t *testing.T) {
	for _, tc := range []struct {
		file string
		want summary
	}{
		{"manifest/bare.json", summary{Kind: snapshot.KindManifest, Manifest: "1:", Languages: lang}},
		{"call-result/pilotage-manifest.json", summary{Kind: snapshot.KindCallResult,
			ManifestResult: "1:", Manifest: "1:/structuredContent", Languages: lang}},
		{"tools-list/inspector.json", summary{Kind: snapshot.KindToolsList, ToolsArray: "1:/tools", Tools: goodTools}},
		{"tools/array.json", summary{Kind: snapshot.KindTools, ToolsArray: "1:", Tools: goodTools}},
		{"initialize/inline-manifest.json", summary{Kind: snapshot.KindInitialize, Revision: "2025-11-25",
			Initialize: "1:", Manifest: "1:" + inline, InlineManifest: "1:" + inline, Languages: lang}},
		{"initialize/plain.json", summary{Kind: snapshot.KindInitialize, Revision: "2025-11-25", Initialize: "1:"}},
		{"discover/stateless.json", summary{Kind: snapshot.KindDiscover, Revision: "2026-07-28", Stateless: true,
			Discover: "1:", Manifest: "1:" + inline, InlineManifest: "1:" + inline, Languages: lang}},
		{"jsonrpc/tools-list-response.json", summary{Kind: snapshot.KindJSONRPC, ToolsArray: "1:/result/tools", Tools: goodTools}},
		{"capture/messages.json", summary{Kind: snapshot.KindCapture, Revision: "2025-11-25",
			Initialize: "1:/1/result", ToolsArray: "1:/4/result/tools", Tools: goodTools,
			ManifestResult: "1:/6/result", Manifest: "1:/6/result/structuredContent", Languages: lang}},
		// Both pages of tools/list, the manifest call, and the failed
		// guide call; the notifications in between are ignored.
		{"capture/session.jsonl", summary{Kind: snapshot.KindCapture, Revision: "2025-11-25",
			Initialize: "2:/result", ToolsArray: "6:/result/tools", Tools: goodTools,
			ManifestResult: "10:/result", Manifest: "10:/result/structuredContent", Languages: lang,
			Calls: []string{"pilotage_get_guide node=11: args=11:/params/arguments result= error=13:/error"}}},
		// The same capture saved as .json, one message per line.
		{"capture/session-lines.json", summary{Kind: snapshot.KindCapture, Revision: "2025-11-25",
			Initialize: "2:/result", ToolsArray: "6:/result/tools", Tools: goodTools,
			ManifestResult: "10:/result", Manifest: "10:/result/structuredContent", Languages: lang,
			Calls: []string{"pilotage_get_guide node=11: args=11:/params/arguments result= error=13:/error"}}},
		// The same session, then tools/list again after list_changed:
		// the fresh listing replaces the two pages.
		{"capture/relisted.jsonl", summary{Kind: snapshot.KindCapture, Revision: "2025-11-25",
			Initialize: "2:/result", ToolsArray: "16:/result/tools", Tools: goodTools,
			ManifestResult: "10:/result", Manifest: "10:/result/structuredContent", Languages: lang,
			Calls: []string{"pilotage_get_guide node=11: args=11:/params/arguments result= error=13:/error"}}},
		{"snapshot/every-member.json", summary{Kind: snapshot.KindSnapshot, Revision: "2025-11-25",
			Initialize: "1:/initialize", ToolsArray: "1:/tools/tools", Tools: goodTools,
			Manifest: "1:/manifest", Resources: "1:/resources", Languages: lang,
			Calls: []string{"validate_flow node=1:/calls/0 args=1:/calls/0/arguments result=1:/calls/0/result error="}}},
		{"snapshot/discover-tools-array.json", summary{Kind: snapshot.KindSnapshot, Revision: "2026-07-28", Stateless: true,
			Discover: "1:/discover", ToolsArray: "1:/tools", Tools: goodTools,
			ManifestResult: "1:/manifest", Manifest: "1:/manifest/structuredContent", Languages: lang,
			Calls: []string{
				"validate_flow node=1:/calls/0 args=1:/calls/0/arguments result=1:/calls/0/result error=",
				"run_flow node=1:/calls/1 args=1:/calls/1/arguments result= error=1:/calls/1/error",
			}}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			f := source.Parse(tc.file, []byte(readInput(t, tc.file)), source.Options{})
			if len(f.Problems) > 0 {
				t.Fatalf("does not parse cleanly: %+v", f.Problems)
			}
			if got := snapshot.Detect(f); got != tc.want.Kind {
				t.Errorf("Detect = %q, want %q", got, tc.want.Kind)
			}
			s, err := snapshot.Build(f, "")
			if err != nil {
				t.Fatal(err)
			}
			if got := summarize(s); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
			// Forcing the kind it has changes nothing.
			forced, err := snapshot.Build(source.Parse(tc.file, []byte(f.Data), source.Options{}), tc.want.Kind)
			if err != nil {
				t.Fatalf("forced as its own kind: %v", err)
			}
			if got := summarize(forced); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("forced as its own kind:\ngot  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// TestBuildInline covers the forms that need a small made-up document to
// show one behaviour: id matching in captures, responses classified by
// shape, and snapshot documents with few members.
func TestBuildInline(t *testing.T) {
	const tool = `{"name": "a", "inputSchema": {"type": "object"}}`
	const manifest = `{"pilotage": "1.1", "languages": [{"name": "flow/1"}]}`
	for _, tc := range []struct {
		name, data string
		want       summary
	}{
		{
			// A request id 1 and a response id "1" are different ids
			// (JSON-RPC compares ids by type and value): the tools/call
			// request keeps only its own response, and the "1" response,
			// having no request, is classified by its shape.
			name: "number and string ids do not match.jsonl",
			data: `{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "validate_flow", "arguments": {"flow": {}}}}
{"jsonrpc": "2.0", "id": "1", "result": {"tools": [` + tool + `]}}
{"jsonrpc": "2.0", "id": 1, "result": {"structuredContent": {"valid": true, "diagnostics": []}, "isError": false}}
`,
			want: summary{Kind: snapshot.KindCapture, ToolsArray: "2:/result/tools", Tools: "a",
				Calls: []string{"validate_flow node=1: args=1:/params/arguments result=3:/result error="}},
		},
		{
			name: "string request id matches string response id.jsonl",
			data: `{"jsonrpc": "2.0", "id": "1", "method": "initialize", "params": {}}
{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
{"jsonrpc": "2.0", "id": "1", "result": {"protocolVersion": "2025-06-18", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}}}
{"jsonrpc": "2.0", "id": 1, "result": {"tools": [` + tool + `]}}
`,
			want: summary{Kind: snapshot.KindCapture, Revision: "2025-06-18", Initialize: "3:/result", ToolsArray: "4:/result/tools", Tools: "a"},
		},
		{
			// A client that reconnects starts its ids again: each response
			// answers the request with its id that precedes it.
			name: "ids reused after a reconnect.jsonl",
			data: `{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}
{"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}}}
{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "validate_flow", "arguments": {"flow": {}}}}
{"jsonrpc": "2.0", "id": 1, "result": {"structuredContent": {"valid": true, "diagnostics": []}, "isError": false}}
`,
			want: summary{Kind: snapshot.KindCapture, Revision: "2025-11-25", Initialize: "2:/result",
				Calls: []string{"validate_flow node=3: args=3:/params/arguments result=4:/result error="}},
		},
		{
			// The server's own request (roots/list) reuses the client's id
			// 1 while tools/list is in flight: each response answers the
			// latest request with its id.
			name: "server request with the same id in flight.jsonl",
			data: `{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
{"jsonrpc": "2.0", "id": 1, "method": "roots/list"}
{"jsonrpc": "2.0", "id": 1, "result": {"roots": []}}
{"jsonrpc": "2.0", "id": 1, "result": {"tools": [` + tool + `]}}
`,
			want: summary{Kind: snapshot.KindCapture, ToolsArray: "4:/result/tools", Tools: "a"},
		},
		{
			// An array need not be in order: a response before its
			// request still finds it.
			name: "response before its request.json",
			data: `[{"jsonrpc": "2.0", "id": 5, "result": {"structuredContent": {"valid": true, "diagnostics": []}, "isError": false}},
{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "validate_flow", "arguments": {"flow": {}}}}]`,
			want: summary{Kind: snapshot.KindCapture, Calls: []string{"validate_flow node=1:/1 args=1:/1/params/arguments result=1:/0/result error="}},
		},
		{
			// After a reconnect the second handshake is the server's: its
			// inline manifest (none here) replaces the first one's.
			name: "initialize again after a reconnect.jsonl",
			data: `{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {}}
{"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2025-06-18", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}, "_meta": {"io.github.jafarsa0/pilotage": {"manifest": ` + manifest + `}}}}
{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {}}
{"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "s", "version": "2"}}}
`,
			want: summary{Kind: snapshot.KindCapture, Revision: "2025-11-25", Initialize: "4:/result"},
		},
		{
			name: "rediscovered.jsonl",
			data: `{"jsonrpc": "2.0", "id": 1, "method": "server/discover"}
{"jsonrpc": "2.0", "id": 1, "result": {"supportedVersions": ["2026-07-28"], "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}, "_meta": {"io.github.jafarsa0/pilotage": {"manifest": ` + manifest + `}}}}
{"jsonrpc": "2.0", "id": 2, "method": "server/discover"}
{"jsonrpc": "2.0", "id": 2, "result": {"supportedVersions": ["2026-07-28"], "capabilities": {}, "serverInfo": {"name": "s", "version": "2"}, "_meta": {"io.github.jafarsa0/pilotage": {"manifest": ` + manifest + `}}}}
`,
			want: summary{Kind: snapshot.KindCapture, Revision: "2026-07-28", Stateless: true, Discover: "4:/result",
				InlineManifest: "4:/result" + inline, Manifest: "4:/result" + inline, Languages: "flow/1"},
		},
		{
			// A pilotage_manifest call that failed with a request error
			// (isError) is a call, not the manifest; the manifest of an
			// earlier successful call stays.
			name: "failed manifest call.jsonl",
			data: `{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "pilotage_manifest", "arguments": {}}}
{"jsonrpc": "2.0", "id": 1, "result": {"structuredContent": ` + manifest + `, "isError": false}}
{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "pilotage_manifest", "arguments": {}}}
{"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "busy"}], "structuredContent": {"error": {"kind": "unavailable", "message": "busy"}}, "isError": true}}
`,
			want: summary{Kind: snapshot.KindCapture, ManifestResult: "2:/result", Manifest: "2:/result/structuredContent", Languages: "flow/1",
				Calls: []string{"pilotage_manifest node=3: args=3:/params/arguments result=4:/result error="}},
		},
		{
			name: "snapshot with a failed manifest call.json",
			data: `{"calls": [{"name": "pilotage_manifest", "arguments": {}, "result": {"structuredContent": {"error": {"kind": "unavailable", "message": "busy"}}, "isError": true}}]}`,
			want: summary{Kind: snapshot.KindSnapshot,
				Calls: []string{"pilotage_manifest node=1:/calls/0 args=1:/calls/0/arguments result=1:/calls/0/result error="}},
		},
		{
			// Pages follow their listing; a listing without a cursor
			// starts afresh.
			name: "tools listed in pages, then again.jsonl",
			data: `{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a"}], "nextCursor": "p2"}}
{"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"cursor": "p2"}}
{"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "b"}]}}
{"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
{"jsonrpc": "2.0", "id": 3, "method": "tools/list"}
{"jsonrpc": "2.0", "id": 3, "result": {"tools": [{"name": "a"}], "nextCursor": "q2"}}
{"jsonrpc": "2.0", "id": 4, "method": "tools/list", "params": {"cursor": "q2"}}
{"jsonrpc": "2.0", "id": 4, "result": {"tools": [{"name": "c"}]}}
`,
			want: summary{Kind: snapshot.KindCapture, ToolsArray: "7:/result/tools", Tools: "a,c"},
		},
		{
			// Responses without their requests: the initialize, discover,
			// tools/list and manifest results are recognized by shape; a
			// call result that is not a manifest and an error are not
			// surfaces.
			name: "responses classified by shape.json",
			data: `[
{"jsonrpc": "2.0", "id": 7, "result": {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}}},
{"jsonrpc": "2.0", "id": 8, "result": {"supportedVersions": ["2026-07-28"], "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}}},
{"jsonrpc": "2.0", "id": 9, "result": {"tools": [` + tool + `]}},
{"jsonrpc": "2.0", "id": 10, "result": {"structuredContent": {"valid": true}, "isError": false}},
{"jsonrpc": "2.0", "id": 11, "result": {"structuredContent": ` + manifest + `, "isError": false}},
{"jsonrpc": "2.0", "id": 12, "error": {"code": -32601, "message": "no such method"}}
]`,
			want: summary{Kind: snapshot.KindCapture, Revision: "2025-11-25", Initialize: "1:/0/result", Discover: "1:/1/result",
				ToolsArray: "1:/2/result/tools", Tools: "a", ManifestResult: "1:/4/result", Manifest: "1:/4/result/structuredContent", Languages: "flow/1"},
		},
		{
			name: "stateless capture with server/discover and resources/list.jsonl",
			data: `{"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": {"io.modelcontextprotocol/clientCapabilities": {}}}}
{"jsonrpc": "2.0", "id": 1, "result": {"supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}, "_meta": {"io.github.jafarsa0/pilotage": {"manifest": ` + manifest + `}}}}
{"jsonrpc": "2.0", "id": 2, "method": "resources/list", "params": {}}
{"jsonrpc": "2.0", "id": 2, "result": {"resources": [{"uri": "pilotage://manifest", "name": "manifest"}]}}
`,
			want: summary{Kind: snapshot.KindCapture, Revision: "2026-07-28", Stateless: true, Discover: "2:/result",
				Manifest: "2:/result" + inline, InlineManifest: "2:/result" + inline, Resources: "4:/result", Languages: "flow/1"},
		},
		{
			// The pilotage_manifest result wins over the inline manifest,
			// which is kept for the comparison rule.
			name: "inline manifest and manifest result.jsonl",
			data: `{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {}}
{"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}, "_meta": {"io.github.jafarsa0/pilotage": {"manifest": ` + manifest + `}}}}
{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "pilotage_manifest", "arguments": {}}}
{"jsonrpc": "2.0", "id": 1, "result": {"structuredContent": ` + manifest + `, "isError": false}}
`,
			want: summary{Kind: snapshot.KindCapture, Revision: "2025-11-25", Initialize: "2:/result",
				InlineManifest: "2:/result" + inline, ManifestResult: "4:/result", Manifest: "4:/result/structuredContent", Languages: "flow/1"},
		},
		{
			name: "one JSON-RPC error response.json",
			data: `{"jsonrpc": "2.0", "id": 3, "error": {"code": -32603, "message": "boom"}}`,
			want: summary{Kind: snapshot.KindJSONRPC},
		},
		{
			name: "one JSON-RPC initialize response.json",
			data: `{"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2025-06-18", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}}}`,
			want: summary{Kind: snapshot.KindJSONRPC, Revision: "2025-06-18", Initialize: "1:/result"},
		},
		{
			name: "empty array is an empty tool list.json",
			data: `[]`,
			want: summary{Kind: snapshot.KindTools, ToolsArray: "1:"},
		},
		{
			// A snapshot of a tools/list and a resources/list only: its
			// tools member is a ListToolsResult, so it is no tools/list.
			name: "snapshot with tools and resources only.json",
			data: `{"tools": {"tools": [` + tool + `]}, "resources": {"resources": []}}`,
			want: summary{Kind: snapshot.KindSnapshot, ToolsArray: "1:/tools/tools", Tools: "a", Resources: "1:/resources"},
		},
		{
			name: "snapshot with a ListToolsResult only.json",
			data: `{"tools": {"tools": [` + tool + `]}}`,
			want: summary{Kind: snapshot.KindSnapshot, ToolsArray: "1:/tools/tools", Tools: "a"},
		},
		{
			// Without a manifest member, a recorded pilotage_manifest call
			// supplies the manifest; it is then the manifest, not one more
			// call, as in a capture.
			name: "snapshot manifest from a recorded call.json",
			data: `{"calls": [{"name": "pilotage_manifest", "arguments": {}, "result": {"structuredContent": ` + manifest + `, "isError": false}}, {"name": "pilotage_get_guide", "arguments": {"language": "flow/1"}, "result": {"structuredContent": {}, "isError": false}}]}`,
			want: summary{Kind: snapshot.KindSnapshot, ManifestResult: "1:/calls/0/result", Manifest: "1:/calls/0/result/structuredContent", Languages: "flow/1",
				Calls: []string{"pilotage_get_guide node=1:/calls/1 args=1:/calls/1/arguments result=1:/calls/1/result error="}},
		},
		{
			// With a manifest member, a recorded pilotage_manifest call is
			// an ordinary call, so its result is still checked.
			name: "snapshot manifest member and a recorded manifest call.json",
			data: `{"manifest": ` + manifest + `, "calls": [{"name": "pilotage_manifest", "arguments": {}, "result": {"structuredContent": ` + manifest + `, "isError": false}}]}`,
			want: summary{Kind: snapshot.KindSnapshot, Manifest: "1:/manifest", Languages: "flow/1",
				Calls: []string{"pilotage_manifest node=1:/calls/0 args=1:/calls/0/arguments result=1:/calls/0/result error="}},
		},
		{
			// Both handshakes in one snapshot: initialize's revision rules.
			name: "snapshot with initialize and discover.json",
			data: `{"initialize": {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}}, "discover": {"supportedVersions": ["2026-07-28", "2025-11-25"], "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}}}`,
			want: summary{Kind: snapshot.KindSnapshot, Revision: "2025-11-25", Initialize: "1:/initialize", Discover: "1:/discover"},
		},
		{
			name: "unrecognized object.json",
			data: `{"name": "harborview-buildings", "version": "2.4.0"}`,
			want: summary{Kind: snapshot.KindUnknown},
		},
		{
			// Documents on many lines are a capture only when they are
			// JSON-RPC messages, not any JSON Lines log.
			name: "JSON Lines log.jsonl",
			data: "{\"level\": \"info\", \"msg\": \"started\"}\n{\"level\": \"warn\", \"msg\": \"slow\"}\n",
			want: summary{Kind: snapshot.KindUnknown},
		},
		{
			// One notification among other lines is enough: the rest are
			// not surfaces, but this is a capture.
			name: "capture of notifications only.jsonl",
			data: "{\"note\": \"recorded by hand\"}\n{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}\n",
			want: summary{Kind: snapshot.KindCapture},
		},
		{
			name: "scalar.json",
			data: `42`,
			want: summary{Kind: snapshot.KindUnknown},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := build(t, tc.name, tc.data, "")
			if err != nil {
				t.Fatal(err)
			}
			if got := summarize(s); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// TestBuildForcedKind checks --input-kind: a kind that fits builds as that
// kind, one that does not is an error naming both, a capture and a single
// JSON-RPC response may be read as each other, and an unrecognized
// document may be forced into any kind.
func TestBuildForcedKind(t *testing.T) {
	const (
		manifest = `{"pilotage": "1.1", "languages": [{"name": "flow/1"}]}`
		toolsArr = `[{"name": "a", "inputSchema": {"type": "object"}}]`
		response = `{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}}`
		initInl  = `{"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}, "_meta": {"io.github.jafarsa0/pilotage": {"manifest": ` + manifest + `}}}`
	)
	for _, tc := range []struct {
		name, file, data string
		kind             snapshot.Kind
		err              string
		want             summary
	}{
		{name: "manifest as manifest", file: "m.json", data: manifest, kind: snapshot.KindManifest,
			want: summary{Kind: snapshot.KindManifest, Manifest: "1:", Languages: "flow/1"}},
		{name: "unknown object as manifest", file: "m.json", data: `{"name": "x"}`, kind: snapshot.KindManifest,
			want: summary{Kind: snapshot.KindManifest, Manifest: "1:"}},
		{name: "JSON Lines log as capture", file: "log.jsonl", data: `{"level": "info"}` + "\n" + `{"level": "warn"}` + "\n", kind: snapshot.KindCapture,
			want: summary{Kind: snapshot.KindCapture}},
		{name: "single response as capture", file: "r.json", data: response, kind: snapshot.KindCapture,
			want: summary{Kind: snapshot.KindCapture, ToolsArray: "1:/result/tools", Tools: "a"}},
		{name: "capture array as jsonrpc", file: "c.json", data: "[" + response + "]", kind: snapshot.KindJSONRPC,
			want: summary{Kind: snapshot.KindJSONRPC, ToolsArray: "1:/0/result/tools", Tools: "a"}},
		{name: "JSON Lines capture as jsonrpc", file: "c.jsonl", data: response + "\n" + response + "\n", kind: snapshot.KindJSONRPC,
			want: summary{Kind: snapshot.KindJSONRPC, ToolsArray: "1:/result/tools", Tools: "a,a"}},
		{name: "tool array as tools-list", file: "t.json", data: toolsArr, kind: snapshot.KindToolsList,
			err:  `forced input kind "tools-list" does not fit this document, which looks like "tools"`,
			want: summary{Kind: snapshot.KindToolsList}},
		{name: "manifest as tools-list", file: "m.json", data: manifest, kind: snapshot.KindToolsList,
			err:  `forced input kind "tools-list" does not fit this document, which looks like "manifest"`,
			want: summary{Kind: snapshot.KindToolsList}},
		{name: "manifest as call-result", file: "m.json", data: manifest, kind: snapshot.KindCallResult,
			err:  `forced input kind "call-result" does not fit this document, which looks like "manifest"`,
			want: summary{Kind: snapshot.KindCallResult, ManifestResult: "1:"}},
		{name: "response as tools", file: "r.json", data: response, kind: snapshot.KindTools,
			err:  `forced input kind "tools" does not fit this document, which looks like "jsonrpc"`,
			want: summary{Kind: snapshot.KindTools}},
		// The snapshot that comes with the error is still complete: its
		// inline manifest is the manifest and its Languages are indexed.
		{name: "initialize as discover", file: "i.json", data: initInl, kind: snapshot.KindDiscover,
			err: `forced input kind "discover" does not fit this document, which looks like "initialize"`,
			want: summary{Kind: snapshot.KindDiscover, Revision: "2026-07-28", Stateless: true, Discover: "1:",
				InlineManifest: "1:" + inline, Manifest: "1:" + inline, Languages: "flow/1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := build(t, tc.file, tc.data, tc.kind)
			if got := fmt.Sprint(err); tc.err == "" && err != nil || tc.err != "" && got != tc.err {
				t.Fatalf("error %q, want %q", got, tc.err)
			}
			if s == nil {
				t.Fatal("no snapshot with the error: the engine lints what it can")
			}
			if got := summarize(s); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
	f := source.Parse("m.json", []byte(manifest), source.Options{})
	if s, err := snapshot.Build(f, "yaml"); s != nil || fmt.Sprint(err) != `unknown input kind "yaml"` {
		t.Errorf("unknown kind: %v, %v", s, err)
	}
}

// TestManifestOption checks --manifest: it supplies the manifest to an input
// without one, in any of the forms a manifest file takes; it never replaces
// an input's own manifest; a file that is not a manifest is an error.
func TestManifestOption(t *testing.T) {
	const (
		tools    = `{"tools": [{"name": "pilotage_manifest", "inputSchema": {"type": "object"}}]}`
		manifest = `{"pilotage": "1.1", "languages": [{"name": "flow/1"}]}`
		other    = `{"pilotage": "1.1", "languages": [{"name": "other/2"}]}`
	)
	for _, tc := range []struct {
		name, input, mname, mdata string
		err                       string
		want                      summary
		files                     int
	}{
		{name: "bare manifest", input: tools, mname: "m.json", mdata: manifest, files: 2,
			want: summary{Kind: snapshot.KindToolsList, ToolsArray: "1:/tools", Tools: "pilotage_manifest", Manifest: "1:", Languages: "flow/1"}},
		{name: "pilotage_manifest result", input: tools, mname: "m.json", mdata: `{"structuredContent": ` + manifest + `, "isError": false}`, files: 2,
			want: summary{Kind: snapshot.KindToolsList, ToolsArray: "1:/tools", Tools: "pilotage_manifest", ManifestResult: "1:", Manifest: "1:/structuredContent", Languages: "flow/1"}},
		{name: "snapshot with a manifest", input: tools, mname: "m.json", mdata: `{"manifest": ` + manifest + `}`, files: 2,
			want: summary{Kind: snapshot.KindToolsList, ToolsArray: "1:/tools", Tools: "pilotage_manifest", Manifest: "1:/manifest", Languages: "flow/1"}},
		{name: "input has its own manifest", input: `{"manifest": ` + other + `, "tools": ` + tools + `}`, mname: "m.json", mdata: manifest,
			files: 1, want: summary{Kind: snapshot.KindSnapshot, ToolsArray: "1:/tools/tools", Tools: "pilotage_manifest", Manifest: "1:/manifest", Languages: "other/2"}},
		{name: "not a manifest", input: tools, mname: "t.json", mdata: tools, files: 1,
			err:  "t.json: --manifest expects a manifest or a pilotage_manifest result",
			want: summary{Kind: snapshot.KindToolsList, ToolsArray: "1:/tools", Tools: "pilotage_manifest"}},
		{name: "empty manifest file", input: tools, mname: "e.json", mdata: ``, files: 1,
			want: summary{Kind: snapshot.KindToolsList, ToolsArray: "1:/tools", Tools: "pilotage_manifest"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := buildWith(t, "in.json", tc.input, source.Parse(tc.mname, []byte(tc.mdata), source.Options{}))
			if got := fmt.Sprint(err); tc.err == "" && err != nil || tc.err != "" && got != tc.err {
				t.Fatalf("error %q, want %q", got, tc.err)
			}
			if got := summarize(s); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
			if len(s.Files) != tc.files {
				t.Errorf("%d files, want %d", len(s.Files), tc.files)
			}
			if tc.want.Manifest != "" && tc.files == 2 && tc.name != "input has its own manifest" {
				if got := s.FileOf(s.Manifest); got == nil || got.Name != tc.mname {
					t.Errorf("the manifest is not from %s", tc.mname)
				}
			}
		})
	}
}

// TestManifestOptionDerived checks that what a snapshot computes once
// (Languages, loop tools, _meta objects) is computed with the manifest
// --manifest supplies, in Build, not after it.
func TestManifestOptionDerived(t *testing.T) {
	tools := `{"tools": [{"name": "check", "inputSchema": {"type": "object"}, "_meta": {"io.github.jafarsa0/pilotage": {"argument": "doc", "language": "flow/1"}}}]}`
	s, err := build(t, "tools.json", tools, "")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.Metas()); n != 1 {
		t.Fatalf("%d _meta objects without --manifest, want 1", n)
	}
	if lts := s.LoopTools(); len(lts) != 0 {
		t.Fatalf("without --manifest there is no loop tool: %+v", lts)
	}
	m := `{"pilotage": "1.1", "_meta": {"note": "x"}, "languages": [{"name": "flow/1", "loop": {"validate": "check"}}]}`
	s, err = buildWith(t, "tools.json", tools, source.Parse("m.json", []byte(m), source.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	if l := s.Language("flow/1"); l == nil || l.Index != 0 {
		t.Errorf("Language(flow/1) = %+v", l)
	}
	if n := len(s.Metas()); n != 2 {
		t.Errorf("%d _meta objects with --manifest, want 2 (the manifest file's too)", n)
	}
	lts := s.LoopTools()
	if len(lts) != 1 || lts[0].Tool == nil || len(lts[0].Stages["validate"]) != 1 {
		t.Errorf("with --manifest the loop tool comes from the manifest: %+v", lts)
	}
}
