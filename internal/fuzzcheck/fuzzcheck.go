// Package fuzzcheck holds what the fuzz targets demand of every finding,
// so that linting and diffing hostile input are held to one standard.
package fuzzcheck

import (
	"fmt"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
)

// Finding returns why fd could not be reported as it is, or nil: an
// internal-error finding (a check failed on the input), a span that does
// not run forward from line 1 column 1, or a message that is empty, spans
// lines or cites no spec section.
func Finding(fd *lint.Finding) error {
	switch {
	case fd.Rule == lint.InternalRule.ID:
		return fmt.Errorf("%s", fd.Message)
	case fd.Line < 1 || fd.Column < 1 || fd.EndLine < fd.Line || (fd.EndLine == fd.Line && fd.EndColumn < fd.Column):
		return fmt.Errorf("%s: bad span %d:%d-%d:%d", fd.Rule, fd.Line, fd.Column, fd.EndLine, fd.EndColumn)
	case fd.Message == "" || fd.Spec == "" || strings.Contains(fd.Message, "\n"):
		return fmt.Errorf("%s: message %q spec %q", fd.Rule, fd.Message, fd.Spec)
	}
	return nil
}
