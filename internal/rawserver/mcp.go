package rawserver

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// The MCP revisions this server speaks (Part III supports 2025-06-18 and
// later); the first is offered when the Client asks for another.
var protocolVersions = []string{"2025-11-25", "2025-06-18"}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type rpcMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   json.RawMessage `json:"error,omitempty"`
}

// inbound is one parsed JSON-RPC message, or the error to answer it with.
type inbound struct {
	msg      rpcMessage
	hasID    bool
	response bool // a response from the Client: nothing to answer
	fail     *rpcError
}

func parseMessage(raw []byte) inbound {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '[' {
		return inbound{fail: &rpcError{-32600, "Invalid Request: JSON-RPC batches are not supported"}}
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return inbound{fail: &rpcError{-32700, "Parse error: " + err.Error()}}
	}
	var in inbound
	if err := json.Unmarshal(raw, &in.msg); err != nil {
		return inbound{fail: &rpcError{-32600, "Invalid Request: " + err.Error()}}
	}
	id, hasID := fields["id"]
	in.hasID = hasID
	switch {
	case in.msg.JSONRPC != "2.0":
		in.fail = &rpcError{-32600, "Invalid Request: jsonrpc must be \"2.0\""}
	case hasID && (len(id) == 0 || id[0] == 'n' || id[0] == '{' || id[0] == '[' || id[0] == 't' || id[0] == 'f'):
		in.fail = &rpcError{-32600, "Invalid Request: id must be a string or a number"}
	case in.msg.Method == "" && hasID && (fields["result"] != nil || fields["error"] != nil):
		in.response = true
	case in.msg.Method == "":
		in.fail = &rpcError{-32600, "Invalid Request: no method"}
	}
	return in
}

func encodeResponse(id json.RawMessage, result any, e *rpcError) []byte {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	m := map[string]any{"jsonrpc": "2.0", "id": id}
	if e != nil {
		m["error"] = e
	} else {
		m["result"] = result
	}
	return mustJSON(m)
}

// handle answers one parsed message for a Session; it returns nil for a
// notification or a Client response.
func (s *Server) handle(sess *session, in inbound) []byte {
	if in.fail != nil {
		return encodeResponse(in.msg.ID, nil, in.fail)
	}
	if in.response {
		return nil
	}
	if !in.hasID {
		s.log.Printf("notification %s", in.msg.Method)
		return nil
	}
	result, e := s.dispatch(sess, in.msg.Method, in.msg.Params)
	return encodeResponse(in.msg.ID, result, e)
}

func (s *Server) dispatch(sess *session, method string, params json.RawMessage) (any, *rpcError) {
	var p map[string]any
	if len(params) > 0 && string(params) != "null" {
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, &rpcError{-32602, "Invalid params: params must be an object"}
		}
	}
	switch method {
	case "initialize":
		return s.initialize(sess, p), nil
	case "ping":
		return map[string]any{}, nil
	case "tools/list":
		return obj("tools", toolList()), nil
	case "tools/call":
		return s.toolsCall(sess, p)
	case "resources/list":
		return obj("resources", []any{obj("uri", manifestURI, "name", "pilotage-manifest", "title", "Pilotage manifest",
			"description", "The same manifest pilotage_manifest returns.", "mimeType", "application/json")}), nil
	case "resources/templates/list":
		return obj("resourceTemplates", []any{}), nil
	case "resources/read":
		uri, _ := p["uri"].(string)
		if uri != manifestURI {
			return nil, &rpcError{-32002, fmt.Sprintf("Resource not found: %q", uri)}
		}
		return obj("contents", []any{obj("uri", manifestURI, "mimeType", "application/json",
			"text", string(mustJSON(s.resourceManifest())))}), nil
	}
	return nil, &rpcError{-32601, "Method not found: " + method}
}

func (s *Server) initialize(sess *session, p map[string]any) map[string]any {
	asked, _ := p["protocolVersion"].(string)
	version := protocolVersions[0]
	if contains(protocolVersions, asked) {
		version = asked
	}
	sess.protocol = version
	return obj(
		"protocolVersion", version,
		"capabilities", obj(
			"tools", obj("listChanged", false),
			"resources", obj("listChanged", false, "subscribe", false),
			"extensions", obj(extensionID, obj("version", "1.1")),
		),
		"serverInfo", obj("name", "rawserver", "title", "lumen/1 Pilotage server (no SDK)", "version", "0.1.0"),
		"instructions", welcome,
		"_meta", obj(extensionID, obj("manifest", manifest(), "manifest_uri", manifestURI)),
	)
}

func (s *Server) toolsCall(sess *session, p map[string]any) (any, *rpcError) {
	name, ok := p["name"].(string)
	if !ok {
		return nil, &rpcError{-32602, "Invalid params: tools/call needs a tool name"}
	}
	args := map[string]any{}
	if raw, present := p["arguments"]; present && raw != nil {
		a, isObj := raw.(map[string]any)
		if !isObj {
			return nil, &rpcError{-32602, "Invalid params: arguments must be an object"}
		}
		args = a
	}
	out := s.callTool(sess, name, args)
	if out.rpc != nil {
		return nil, out.rpc
	}
	return obj("content", []any{obj("type", "text", "text", out.text)}, "structuredContent", out.sc, "isError", out.isError), nil
}
