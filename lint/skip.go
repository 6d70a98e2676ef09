package lint

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint/source"
)

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

// configNames are JSON file names that are known, by name alone, to be no
// server surface: JSON-with-comments configs of editors and build tools,
// and MCP client configs (which list servers to start, not what a server
// offers). A directory walk that meets one that does not parse skips it;
// any other .json or .jsonl file the walk meets that does not parse is a
// json-syntax error, since a truncated snapshot must not pass.
var configNames = []string{
	"tsconfig*.json", "jsconfig*.json", ".eslintrc*.json", ".babelrc*.json", "devcontainer.json", ".devcontainer.json",
	"settings.json", "launch.json", "tasks.json", "extensions.json", "keybindings.json", "*.code-workspace.json",
	"mcp.json", "claude_desktop_config.json", "mcp_config.json", "*mcp_settings.json", "mcp-servers.json",
}

// SkippedByName reports whether a walk skips a file named so when it does
// not parse (see configNames).
func SkippedByName(name string) bool {
	base := path.Base(filepath.ToSlash(name))
	for _, pat := range configNames {
		if ok, _ := path.Match(pat, base); ok {
			return true
		}
	}
	return false
}

// unparsed reports whether f holds text that does not parse as JSON: a
// syntax error, data after the document, nesting past the limit, no value
// at all (empty, blank or only a byte-order mark), a text that is not
// UTF-8 (UTF-16, UTF-32, Latin-1, binary), or a byte that is not UTF-8
// where the grammar wanted a token, which cut its document short.
func unparsed(f *source.File) bool {
	if f.Encoding != "" {
		return true
	}
	for _, p := range f.Problems {
		switch p.Code {
		case source.ProblemSyntax, source.ProblemTrailing, source.ProblemDepth, source.ProblemEmpty:
			return true
		case source.ProblemInvalidUTF8:
			if !inDoc(f, p.Start) {
				return true
			}
		}
	}
	return false
}

// inDoc reports whether byte offset off lies inside a parsed document.
func inDoc(f *source.File, off int) bool {
	for _, d := range f.Docs {
		if off >= int(d.Root.Start) && off < int(d.Root.End) {
			return true
		}
	}
	return false
}
