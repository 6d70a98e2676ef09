package snapshotter

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// transportFailure says why a call drew no answer, in words the user can
// act on, and whether the connection is gone with it. The SDK reports most
// of these as text only (a failed read is formatted with %v), so the
// watcher's own record and the SDK's wording are read.
func (s *session) transportFailure(err error) (why string, lost bool) {
	if err == nil {
		return "the call returned without an answer the recorder saw", false
	}
	msg := err.Error()
	if s.watch != nil {
		if n := s.watch.overflow(); n > 0 {
			return fmt.Sprintf("the answer exceeded the limit of %d bytes on one HTTP response body (%s)", n, msg), false
		}
	}
	eof := errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
	closed := errors.Is(err, mcp.ErrConnectionClosed)
	switch {
	case strings.Contains(msg, "exceeded the configured maximum line length"):
		return fmt.Sprintf("the answer exceeded the MCP SDK's limit of %d bytes on one stdio message (%s)", mcp.DefaultMaxLineLength, msg), true
	case s.stdio && (closed || eof):
		why := "the server closed its standard output mid-probe: it exited or crashed (" + msg + ")"
		if s.stderr != nil {
			if last := lastLine(s.stderr.settled(300 * time.Millisecond)); last != "" {
				why += "; its standard error ends: " + last
			}
		}
		return why, true
	case closed:
		return "the connection to the server was closed (" + msg + ")", true
	case eof:
		// Over HTTP one request's connection dropped; the session may
		// still answer the next.
		return "the connection dropped before the answer came (" + msg + ")", false
	}
	return msg, false
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}
