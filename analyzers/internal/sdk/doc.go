package sdk

import (
	"fmt"
	"strings"
)

// MustExtractDoc returns the "# Analyzer name" section of the package
// comment in content, the text of a doc.go file, so that the package
// documentation and Analyzer.Doc cannot drift apart. It mirrors what
// golang.org/x/tools does for its own passes, which keeps that helper
// internal.
func MustExtractDoc(content, name string) string {
	var lines []string
	for _, line := range strings.Split(content, "\n") {
		if strings.HasPrefix(line, "package ") {
			break
		}
		if line == "//" {
			lines = append(lines, "")
			continue
		}
		if rest, ok := strings.CutPrefix(line, "// "); ok {
			lines = append(lines, rest)
		} else if rest, ok := strings.CutPrefix(line, "//\t"); ok {
			lines = append(lines, "\t"+rest)
		}
	}
	heading := "# Analyzer " + name
	for i, line := range lines {
		if line != heading {
			continue
		}
		var section []string
		for _, l := range lines[i+1:] {
			if strings.HasPrefix(l, "# ") {
				break
			}
			section = append(section, l)
		}
		text := strings.TrimSpace(strings.Join(section, "\n"))
		if text != "" {
			return text
		}
	}
	panic(fmt.Sprintf("doc.go has no %q section", heading))
}
