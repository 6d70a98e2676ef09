// Command pilotserver serves internal/pilotserver, a small Pilotage server
// written with the MCP Go SDK, for the snapshot end-to-end tests.
//
// -mode selects its behaviour: compliant, full, faulty and nomanifest are
// the modes of pilotserver.Config; two more fail before any Pilotage:
//
//	silent      reads requests and never answers
//	crash       exits before the handshake
//
// -fault NAME (or PILOTSERVER_FAULT) breaks one requirement that one probe
// of lint/probe observes; pilotserver.Faults lists the faults.
//
// -context gives calc/1 (-mode full) a context_schema requiring a unit.
//
// -pagesize N pages tools/list N tools at a time.
//
// -manifest-uri URI serves the manifest resource at URI and advertises it
// as the handshake metadata's manifest_uri.
//
// -start-delay D sleeps D before reading any request, as a server that
// compiles or loads first does: requests wait in the pipe meanwhile.
//
// -delay D sleeps D before answering each request, as a server behind a
// slow link does.
//
// -http ADDR serves Streamable HTTP on ADDR and prints "listening on URL".
//
// -transport NAME breaks the transport on the probe guide-unknown-id (the
// call that asks for the guide pilotage-probe-no-such-guide):
//
//	exit        the server exits (stdio or HTTP)
//	huge        the answer is 17 MiB of text, past the MCP SDK's 16 MiB
//	            bound on one stdio message and the snapshot's on one HTTP
//	            body
//	drop        over HTTP, the connection is closed without an answer
//	endless     over HTTP, the answer is a JSON body that never ends
//	trickle     over HTTP, the same, a kilobyte a second
//	version     over HTTP, every request after initialize that lacks the
//	            Mcp-Protocol-Version header is refused with HTTP 400, and
//	            server/discover is refused, so the client falls back to
//	            initialize
//
// and two more, on the read of the manifest resource:
//
//	hang-read   resources/read never answers (the server goes on
//	            answering everything else)
//	hang-again  pilotage_manifest answers once, then never again
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pilotagekit/pilotagekit/internal/pilotserver"
)

func main() {
	mode := flag.String("mode", "compliant", "compliant, full, faulty, nomanifest, silent or crash")
	pageSize := flag.Int("pagesize", 0, "tools per tools/list page (0: the SDK default)")
	fault := flag.String("fault", os.Getenv("PILOTSERVER_FAULT"), "break one requirement (see pilotserver.Faults); default $PILOTSERVER_FAULT")
	calcContext := flag.Bool("context", false, "with -mode full: calc/1 declares a context_schema that requires a unit")
	httpAddr := flag.String("http", "", "serve Streamable HTTP on this address instead of stdio")
	manifestURI := flag.String("manifest-uri", "", "serve the manifest resource at this URI and advertise it as the handshake's manifest_uri")
	transport := flag.String("transport", "", "break the transport on guide-unknown-id: exit, huge, drop, endless, trickle or version; or hang-read: resources/read never answers; or hang-again: pilotage_manifest answers once")
	delay := flag.Duration("delay", 0, "sleep this long before answering each request")
	startDelay := flag.Duration("start-delay", 0, "sleep this long before reading any request, as a server that compiles or loads first (go run, a cold npx -y) does")
	flag.Parse()
	time.Sleep(*startDelay)
	if !pilotserver.ValidFault(*fault) {
		log.Fatalf("unknown fault %q", *fault)
	}
	switch *mode {
	case "crash":
		fmt.Fprintln(os.Stderr, "pilotserver: crashing on purpose")
		os.Exit(3)
	case "silent":
		_, _ = io.Copy(io.Discard, os.Stdin)
		select {}
	}
	cfg := pilotserver.Config{Mode: *mode, Fault: *fault, PageSize: *pageSize, Context: *calcContext, ManifestURI: *manifestURI}
	newServer := func() *mcp.Server {
		s := pilotserver.New(cfg)
		s.AddReceivingMiddleware(breakOn(*transport), slow(*delay))
		return s
	}
	if *httpAddr != "" {
		ln, err := net.Listen("tcp", *httpAddr)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("listening on http://%s/mcp\n", ln.Addr())
		h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return newServer() }, nil)
		log.Fatal(http.Serve(ln, breakHTTP(*transport, h)))
	}
	if err := newServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}

// marker is in the arguments of the probe guide-unknown-id only.
const marker = "pilotage-probe-no-such-guide"

// slow answers each request d late.
func slow(d time.Duration) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			time.Sleep(d)
			return next(ctx, method, req)
		}
	}
}

// breakOn breaks the server itself on the marked call.
func breakOn(fault string) mcp.Middleware {
	var manifests atomic.Int32
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "resources/read" && fault == "hang-read" {
				select {}
			}
			if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok && method == "tools/call" && p.Name == "pilotage_manifest" && fault == "hang-again" && manifests.Add(1) > 1 {
				select {}
			}
			if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok && method == "tools/call" && bytes.Contains(p.Arguments, []byte(marker)) {
				switch fault {
				case "exit":
					fmt.Fprintln(os.Stderr, "pilotserver: exiting mid-probe on purpose")
					os.Exit(3)
				case "huge":
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("x", 17<<20)}}}, nil
				}
			}
			return next(ctx, method, req)
		}
	}
}

// breakHTTP breaks the HTTP transport in front of the server.
func breakHTTP(fault string, h http.Handler) http.Handler {
	if fault == "" || fault == "exit" || fault == "huge" || fault == "hang-read" || fault == "hang-again" {
		return h
	}
	var initialized atomic.Bool
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		marked := bytes.Contains(body, []byte(marker))
		switch {
		case fault == "version":
			switch {
			case bytes.Contains(body, []byte(`"server/discover"`)):
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, `{"jsonrpc":"2.0","id":`+idOf(body)+`,"error":{"code":-32601,"message":"server/discover: method not found"}}`)
				return
			case bytes.Contains(body, []byte(`"initialize"`)):
				initialized.Store(true)
			case initialized.Load() && r.Header.Get("Mcp-Protocol-Version") == "":
				http.Error(w, "Bad Request: missing Mcp-Protocol-Version header", http.StatusBadRequest)
				return
			}
		case marked && fault == "drop":
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				_ = conn.Close()
			}
			return
		case marked && (fault == "endless" || fault == "trickle"):
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"jsonrpc":"2.0","id":`+idOf(body)+`,"result":{"content":[{"type":"text","text":"`)
			chunk := []byte(strings.Repeat("x", 64<<10))
			if fault == "trickle" {
				chunk = chunk[:1<<10]
			}
			rc := http.NewResponseController(w)
			for r.Context().Err() == nil {
				if _, err := w.Write(chunk); err != nil {
					return
				}
				_ = rc.Flush()
				if fault == "trickle" {
					time.Sleep(time.Second)
				}
			}
			return
		}
		h.ServeHTTP(w, r)
	})
}

// idOf returns the JSON-RPC id of a request body, as JSON.
func idOf(body []byte) string {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(body, &m) != nil || m.ID == nil {
		return "null"
	}
	return string(m.ID)
}
