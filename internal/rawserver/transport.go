package rawserver

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// ServeStdio speaks newline-delimited JSON-RPC on r and w until r ends or
// ctx is done. The process is one Session (Part III §8.1).
func (s *Server) ServeStdio(ctx context.Context, r io.Reader, w io.Writer) error {
	sess := newSession("stdio")
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	bw := bufio.NewWriter(w)
	for sc.Scan() {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		line := sc.Bytes()
		if len(strings.TrimSpace(string(line))) == 0 {
			continue
		}
		in := parseMessage(line)
		s.log.Printf("stdio <- %s", in.msg.Method)
		if out := s.handle(sess, in); out != nil {
			bw.Write(out)
			bw.WriteByte('\n')
			if err := bw.Flush(); err != nil {
				return err
			}
		}
	}
	return sc.Err()
}

const (
	headerSession  = "Mcp-Session-Id"
	headerProtocol = "MCP-Protocol-Version"
)

// Handler serves MCP over Streamable HTTP on every path: POST carries one
// JSON-RPC message, GET is refused with 405 (this server opens no stream of
// its own), DELETE ends a Session.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(s.serveHTTP)
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if o := r.Header.Get("Origin"); o != "" && !localOrigin(o) {
		// DNS-rebinding protection for a server bound to loopback.
		http.Error(w, "forbidden origin", http.StatusForbidden)
		return
	}
	switch r.Method {
	case http.MethodPost:
		s.post(w, r)
	case http.MethodDelete:
		s.mu.Lock()
		_, known := s.sessions[r.Header.Get(headerSession)]
		delete(s.sessions, r.Header.Get(headerSession))
		s.mu.Unlock()
		if !known {
			http.Error(w, "unknown session", http.StatusNotFound)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	default:
		w.Header().Set("Allow", "POST, DELETE")
		http.Error(w, "this server opens no server-to-client stream; POST JSON-RPC messages", http.StatusMethodNotAllowed)
	}
}

func (s *Server) post(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 16<<20))
	if err != nil {
		http.Error(w, "cannot read body", http.StatusBadRequest)
		return
	}
	in := parseMessage(body)
	s.log.Printf("http <- %s session=%q protocol=%q", in.msg.Method, r.Header.Get(headerSession), r.Header.Get(headerProtocol))
	if in.fail != nil {
		writeJSON(w, http.StatusBadRequest, encodeResponse(in.msg.ID, nil, in.fail))
		return
	}
	var sess *session
	if in.msg.Method == "initialize" {
		if r.Header.Get(headerSession) != "" {
			http.Error(w, "initialize must not carry "+headerSession, http.StatusBadRequest)
			return
		}
		sess = newSession(newSessionID())
		out := s.handle(sess, in)
		s.mu.Lock()
		s.sessions[sess.id] = sess
		s.mu.Unlock()
		w.Header().Set(headerSession, sess.id)
		s.reply(w, r, in, out)
		return
	}
	id := r.Header.Get(headerSession)
	if id == "" {
		http.Error(w, "missing "+headerSession+": initialize first", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	sess = s.sessions[id]
	s.mu.Unlock()
	if sess == nil {
		http.Error(w, "unknown or ended session", http.StatusNotFound)
		return
	}
	// A strict server refuses every request after the handshake that does
	// not name the negotiated revision. The initialized notification ends
	// the handshake, and SDK clients send it without the header, so
	// notifications and Client responses may omit it (but not misname it).
	if pv := r.Header.Get(headerProtocol); pv == "" {
		if in.hasID && !in.response {
			http.Error(w, "missing "+headerProtocol+" header", http.StatusBadRequest)
			return
		}
	} else if pv != sess.protocol {
		http.Error(w, "unsupported "+headerProtocol+" "+pv+"; this session negotiated "+sess.protocol, http.StatusBadRequest)
		return
	}
	out := s.handle(sess, in)
	if out == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	s.reply(w, r, in, out)
}

func (s *Server) reply(w http.ResponseWriter, r *http.Request, in inbound, out []byte) {
	stream := s.sse == "always" || s.sse == "tools" && in.msg.Method == "tools/call"
	if stream && strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		w.WriteHeader(http.StatusOK)
		io.WriteString(w, "event: message\ndata: ")
		w.Write(out)
		io.WriteString(w, "\n\n")
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(body)
}

func newSessionID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func localOrigin(o string) bool {
	u, err := url.Parse(o)
	if err != nil {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
