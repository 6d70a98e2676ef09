package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Formats are the names accepted by --format and --output, in the order
// the help text lists them.
var Formats = []string{"text", "json", "sarif", "github", "junit", "html"}

// KnownFormat reports whether name is one of Formats.
func KnownFormat(name string) bool { return slices.Contains(Formats, name) }

// Write renders run in the named format; text options apply to text only.
func Write(w io.Writer, format string, run *Run, text TextOptions) error {
	switch format {
	case "text":
		return Text(w, run, text)
	case "json":
		return JSON(w, run)
	case "sarif":
		return SARIF(w, run)
	case "github":
		return GitHub(w, run)
	case "junit":
		return JUnit(w, run)
	case "html":
		return HTML(w, run)
	}
	return fmt.Errorf("unknown format %q: use %s", format, strings.Join(Formats, ", "))
}
