package report

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
)

// GitHub prints one GitHub Actions workflow command per finding, so each
// shows as an annotation on the pull request's diff:
//
//	::error file=server.json,line=3,col=5,endLine=3,endColumn=9,title=rule-id::message (Part III §4.6)
//
// Paths are relative to BaseDir, which in a workflow is the checkout root.
func GitHub(w io.Writer, run *Run) error {
	probes := run.probeIndex()
	for _, f := range run.Result.Findings {
		props := []string{
			"file=" + escapeProperty(githubPath(f.File, run.BaseDir)),
			fmt.Sprintf("line=%d", f.Line),
			fmt.Sprintf("col=%d", f.Column),
			fmt.Sprintf("endLine=%d", f.EndLine),
			fmt.Sprintf("endColumn=%d", f.EndColumn),
			"title=" + escapeProperty(f.Rule),
		}
		msg := f.Message + " (" + f.Spec + ")" + probes.note(f)
		if f.Pointer != "" {
			msg += " at " + f.Pointer
		}
		if _, err := fmt.Fprintf(w, "::%s %s::%s\n", githubCommand(f.Severity), strings.Join(props, ","), escapeData(msg)); err != nil {
			return err
		}
	}
	return nil
}

func githubCommand(s lint.Severity) string {
	switch s {
	case lint.Error:
		return "error"
	case lint.Warning:
		return "warning"
	}
	return "notice"
}

// githubPath names the file as the runner resolves annotations: relative
// to the workspace, or as given when it lies outside.
func githubPath(file, base string) string {
	if rel, inside := relPath(file, base); inside {
		return rel
	}
	return filepath.ToSlash(file)
}

// escapeData escapes a command's message as the runner unescapes it
// (actions/toolkit, command.ts escapeData).
func escapeData(s string) string {
	s = strings.ReplaceAll(s, "%", "%25")
	s = strings.ReplaceAll(s, "\r", "%0D")
	return strings.ReplaceAll(s, "\n", "%0A")
}

// escapeProperty escapes a property value (command.ts escapeProperty): the
// data escapes plus the separators ':' and ','.
func escapeProperty(s string) string {
	s = escapeData(s)
	s = strings.ReplaceAll(s, ":", "%3A")
	return strings.ReplaceAll(s, ",", "%2C")
}
