package sdk

import (
	"fmt"
	"go/parser"
	"go/token"
	"strings"
)

// MustExtractDoc returns the "# Analyzer name" section of the package
// comment of content, the text of a doc.go file, without its leading
// "name:", so that the package documentation and Analyzer.Doc cannot
// drift apart. It follows the helper golang.org/x/tools keeps internal
// for its own passes.
func MustExtractDoc(content, name string) string {
	f, err := parser.ParseFile(token.NewFileSet(), "", content, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil || f.Doc == nil {
		panic(fmt.Sprintf("doc.go of %s has no package comment", name))
	}
	for section := range strings.SplitSeq(f.Doc.Text(), "\n# ") {
		body, ok := strings.CutPrefix(section, "Analyzer "+name)
		if !ok || body == "" || body[0] != '\n' {
			continue
		}
		body = strings.TrimSpace(body)
		if rest, ok := strings.CutPrefix(body, name+":"); ok {
			return strings.TrimSpace(rest)
		}
		panic(fmt.Sprintf("doc.go: 'Analyzer %s' heading not followed by '%s: summary'", name, name))
	}
	panic(fmt.Sprintf("doc.go has no 'Analyzer %s' section", name))
}
