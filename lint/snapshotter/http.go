package snapshotter

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"net/url"
	"os"
	"sort"
	"strings"
	"sync"
)

// ParseHeaders turns --header arguments ("Name: value") into a header set.
// Values may name environment variables as ${VAR} (or $VAR), so secrets
// stay out of shell history and CI logs. No error message quotes a value:
// a malformed argument is named by its position only.
func ParseHeaders(args []string, lookup func(string) (string, bool)) (http.Header, error) {
	h := http.Header{}
	for i, a := range args {
		name, value, ok := strings.Cut(a, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " \t\r\n") {
			return nil, fmt.Errorf("--header number %d is not of the form 'Name: value'", i+1)
		}
		var missing []string
		value = os.Expand(strings.TrimSpace(value), func(v string) string {
			s, ok := lookup(v)
			if !ok {
				missing = append(missing, v)
			}
			return s
		})
		if len(missing) > 0 {
			sort.Strings(missing)
			return nil, fmt.Errorf("--header %s names environment variable %s, which is not set", name, strings.Join(missing, ", "))
		}
		// net/http refuses other invalid bytes when sending, naming only
		// the header; a newline would end the header early.
		if strings.ContainsAny(value, "\r\n") {
			return nil, fmt.Errorf("--header %s has a line break in its value", name)
		}
		h.Add(textproto.CanonicalMIMEHeaderKey(name), value)
	}
	return h, nil
}

// checkURL accepts any http or https URL: hosted servers are snapshotted
// as well as local ones.
func checkURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("--url %q is not an http or https URL", raw)
	}
	return nil
}

// watcher is the HTTP client's transport: it adds the --header set to
// every request and remembers the refusals and TLS failures, which the SDK
// reports only as a generic connection error.
type watcher struct {
	base    http.RoundTripper
	headers http.Header
	// host is the endpoint's: the headers (credentials, usually) go only
	// there, never to a host a redirect points at.
	host string

	// maxBody bounds each response body, so that a server streaming
	// without end cannot exhaust memory: the SDK reads a JSON answer
	// whole before decoding it.
	maxBody int64
	// version returns the negotiated MCP revision once the handshake
	// has one, else "".
	version func() string

	mu         sync.Mutex
	refused    int // the first 401 or 403 status seen
	tlsErr     error
	overflowed int64 // the limit a response body exceeded, or 0
}

// protocolVersionHeader is the header the MCP Streamable HTTP transport
// requires on every request after the handshake.
const protocolVersionHeader = "Mcp-Protocol-Version"

func (w *watcher) RoundTrip(req *http.Request) (*http.Response, error) {
	// go-sdk v1.8.0 sets the header from its own session state, which it
	// updates only on connections it made itself: behind the recorder it
	// sends none after falling back from server/discover to initialize.
	v := ""
	if w.version != nil && req.Header.Get(protocolVersionHeader) == "" {
		v = w.version()
	}
	if len(w.headers) > 0 && req.URL.Host == w.host || v != "" {
		req = req.Clone(req.Context())
		if req.URL.Host == w.host {
			for k, vs := range w.headers {
				req.Header[k] = vs
			}
		}
		if v != "" {
			req.Header.Set(protocolVersionHeader, v)
		}
	}
	resp, err := w.base.RoundTrip(req)
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil && w.tlsErr == nil && isTLS(err) {
		w.tlsErr = err
	}
	if err == nil && w.refused == 0 && (resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden) {
		w.refused = resp.StatusCode
	}
	if err == nil && w.maxBody > 0 {
		resp.Body = &limitedBody{ReadCloser: resp.Body, left: w.maxBody, w: w}
	}
	return resp, err
}

// resetOverflow forgets an earlier body's overflow, before a new call.
func (w *watcher) resetOverflow() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.overflowed = 0
}

// overflow returns the limit a response body exceeded, or 0.
func (w *watcher) overflow() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.overflowed
}

// errBodyTooLarge ends a response body past the watcher's limit.
var errBodyTooLarge = errors.New("pilotage-lint: the response body exceeded the snapshot's size limit")

// limitedBody reads at most left more bytes of a response body, then
// fails and closes it, so the rest is never read.
type limitedBody struct {
	io.ReadCloser
	left int64
	w    *watcher
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, errBodyTooLarge
	}
	// One byte past the limit tells a body of exactly the limit from a
	// longer one.
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		b.w.mu.Lock()
		b.w.overflowed = b.w.maxBody
		b.w.mu.Unlock()
		_ = b.ReadCloser.Close()
		return n - 1, errBodyTooLarge
	}
	return n, err
}

// explain replaces a transport-level failure with what the user can act
// on, or returns nil when nothing was seen.
func (w *watcher) explain(endpoint string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.refused != 0:
		return fmt.Errorf("the server refused the request: HTTP %d %s from %s; check the credentials given with --header", w.refused, http.StatusText(w.refused), endpoint)
	case w.tlsErr != nil:
		return fmt.Errorf("TLS error connecting to %s: %v", endpoint, rootCause(w.tlsErr))
	}
	return nil
}

func isTLS(err error) bool {
	var (
		cv  *tls.CertificateVerificationError
		rh  tls.RecordHeaderError
		ua  x509.UnknownAuthorityError
		hn  x509.HostnameError
		ci  x509.CertificateInvalidError
		alt tls.AlertError
	)
	return errors.As(err, &cv) || errors.As(err, &rh) || errors.As(err, &ua) || errors.As(err, &hn) || errors.As(err, &ci) || errors.As(err, &alt)
}

// rootCause drops the url.Error wrapper, whose text repeats the method and
// URL the message already names.
func rootCause(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
