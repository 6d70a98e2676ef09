package lint

import "strings"

// mcpMarks are member names only MCP and Pilotage surfaces use.
var mcpMarks = []string{`"jsonrpc"`, `"inputSchema"`, `"protocolVersion"`, `"serverInfo"`, `"structuredContent"`, `pilotage"`}

// mentionsMCP reports whether text that did not parse still looks like an
// MCP or Pilotage surface. A file met in a directory walk (or named by a
// pre-commit hook) that does not parse and shows none of these names is
// some other JSON-like file, such as a tsconfig.json with comments or an
// editor's .vscode/mcp.json, and is skipped as quietly as any other
// unrecognised file; a broken snapshot still draws its syntax finding.
func mentionsMCP(text string) bool {
	for _, m := range mcpMarks {
		if strings.Contains(text, m) {
			return true
		}
	}
	return false
}
